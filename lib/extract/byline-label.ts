/**
 * A byline written as a label and a name in the page's text ("Autor: Fritz Imhof", "von Daniela Obers", "Par Matthieu
 * Hy", `<h4>Autor</h4><p>Nikolai Huke</p>`), in the corpora's languages: the collector keeps the line a label starts
 * (lib/extract/collect.ts), the author rules read the name after it (lib/extract/fields/author.ts).
 */

/**
 * The label at the start of a line, leading punctuation aside ("- Redaktion: …"). `explicit` labels say the name is
 * the author's; a `bare` preposition ("von", "by") starts ordinary sentences too, so what follows it must look like a
 * person's name.
 */
export const BYLINE_LABEL = new RegExp(
  '^[\\s\\p{P}]*(?:(?<explicit>(?:written|posted|verfasst|geschrieben|gespeichert|eingestellt|erstellt)\\s+(?:by|von)|' +
    'escrito por|scritto da|écrit par|rédigé par|autor(?:in|en)?|authors?|auteurs?|autore|autori|redaktion(?=\\s*[:：])|' +
    'texte?\\s+(?:von|by|de|par)|text:)|(?<bare>by|von|par|por|door|przez|di))\\s*[:：]?(?=\\s|$)',
  'iu',
);

/** A line this long is prose, not a byline. */
export const MAX_LABELLED_LINE = 120;
