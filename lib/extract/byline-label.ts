/**
 * Lines of a page's text that state its byline or its date without markup: a label and a name ("Autor: Fritz Imhof",
 * "von Daniela Obers", "Par Matthieu Hy"), or a date at the start of a line ("Bonn, 11.10.2021", "Samstag, 5. Oktober
 * 2013", "Erschienen am: 01.11.2023"), in the corpora's languages. The collector keeps such lines
 * (lib/extract/collect.ts); the author and date rules read them (lib/extract/fields/author.ts, date.ts).
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

/** A line this long is prose, not a byline or a dateline. */
export const MAX_LABELLED_LINE = 120;

/**
 * A date at the start of a line, after at most a short label, weekday or place ("Aktualisiert:", "Samstag,", "Bonn,",
 * "Pressemitteilung vom"): day.month.year, year-month-day, day month-name year, or month-name day year. Only a line's
 * first characters are read (DATELINE_HEAD).
 */
export const DATELINE = new RegExp(
  '^[\\p{L}\\p{M}.\\s]{0,30}?[:,]?\\s*(?:\\d{1,2}\\.\\s?\\d{1,2}\\.\\s?\\d{2,4}|\\d{1,2}/\\d{1,2}/\\d{4}|\\d{4}-\\d{1,2}-\\d{1,2}|' +
    '\\d{1,2}\\.?\\s+\\p{L}{3,}\\.?,?\\s+\\d{4}|\\p{L}{3,}\\.?\\s+\\d{1,2}(?:st|nd|rd|th)?,?\\s+\\d{4})',
  'u',
);
export const DATELINE_HEAD = 60;
/** A dateline that says when the page was last changed: the date only when no line says when it was published. */
export const UPDATED_LINE = /^(?:letzte änderung|(?:zuletzt )?aktualisiert|stand|updated|last (?:edited|modified|updated)|modifié|mis à jour|actualizado)/iu;
