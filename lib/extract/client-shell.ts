/**
 * `prerender=auto` (docs/CONTRACT.md §2, the rule documented in the README): a fetched page is an empty client-side shell,
 * worth rendering in Chromium, when it declares no description (pages that do already carry their metadata; a
 * bare `<title>` is common in shells), loads at least one script, and its body shows fewer than 200 characters of
 * text. Server-rendered pages, even script-heavy ones, stay on the fast path.
 */
const SHELL_TEXT_LIMIT = 200;
const INVISIBLE = /<(script|style|noscript|template|svg)\b[\s\S]*?<\/\1\s*>|<!--[\s\S]*?-->/gi;

export function isClientShell(html: string, description: string | null): boolean {
  if (description) return false;
  if (!/<script\b/i.test(html)) return false;
  const body = /<body\b[^>]*>([\s\S]*)/i.exec(html)?.[1] ?? html;
  const text = body.replace(INVISIBLE, ' ').replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
  return text.length < SHELL_TEXT_LIMIT;
}
