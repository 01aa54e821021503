#!/bin/sh
# Installs what `npm start` and `npm test` need on a fresh Debian machine: the npm packages from the lock file
# (Node 22 among them) and Debian's Chromium when no Chromium is found. Safe to run again: it skips what is done.
set -eu
cd "$(dirname "$0")/.."

if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: installing npm packages from package-lock.json" >&2
  npm ci --no-audit --no-fund --loglevel=error
fi

if [ -z "${CHROMIUM_PATH:-}" ] && ! command -v chromium-headless-shell >/dev/null 2>&1 \
  && ! command -v chromium >/dev/null 2>&1 && [ ! -x /usr/lib/chromium/headless_shell ]; then
  echo "setup: installing Debian's chromium-headless-shell" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends chromium-headless-shell fonts-liberation >/dev/null
fi
