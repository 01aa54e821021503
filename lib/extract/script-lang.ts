/**
 * The language a text's writing system names by itself, for a page that declares none: Han with kana is Japanese,
 * Han alone Chinese, Hangul Korean, Hebrew, Thai, Greek, Armenian and Georgian their languages. Latin, Cyrillic and
 * Arabic scripts are each written for many languages, so they name none: guessing among them is left undone.
 */

const SCRIPTS: readonly [RegExp, string][] = [
  [/\p{Script=Hangul}/gu, 'ko'],
  [/\p{Script=Hebrew}/gu, 'he'],
  [/\p{Script=Thai}/gu, 'th'],
  [/\p{Script=Greek}/gu, 'el'],
  [/\p{Script=Armenian}/gu, 'hy'],
  [/\p{Script=Georgian}/gu, 'ka'],
];
const HAN = /\p{Script=Han}/gu;
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/gu;
const LETTER = /\p{L}/gu;

/** Fewer letters than this say nothing. */
const MIN_LETTERS = 4;
/** The script must write at least this share of the letters: product names and acronyms in Latin letters are
 *  common in Chinese, Japanese and Hebrew titles ("Apple iPhone 11 全网通智能手机"). */
const MIN_SHARE = 1 / 3;
/** Kana in at least this share of the Han and kana letters make it Japanese (Chinese text has none). */
const MIN_KANA_SHARE = 0.05;

const count = (text: string, pattern: RegExp): number => text.match(pattern)?.length ?? 0;

/** ISO 639-1, or undefined when the script does not name one language. */
export function languageOfScript(text: string): string | undefined {
  const letters = count(text, LETTER);
  if (letters < MIN_LETTERS) return undefined;
  const han = count(text, HAN);
  const kana = count(text, KANA);
  if (han + kana >= letters * MIN_SHARE) return kana >= (han + kana) * MIN_KANA_SHARE ? 'ja' : 'zh';
  for (const [pattern, code] of SCRIPTS) if (count(text, pattern) >= letters * MIN_SHARE) return code;
  return undefined;
}
