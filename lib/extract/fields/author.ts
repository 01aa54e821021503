import { metaValues, microdataValues, texts } from '../facts.ts';
import { parseDate } from '../date.ts';
import { allValues, asList, perPage, type FieldSpec, type Rule } from '../rules.ts';
import { isDesk, personName } from '../person.ts';
import { BYLINE_LABEL } from '../byline-label.ts';
import { declaredLang, ldNodes, ldText, ldValues, meta, text } from '../sources.ts';
import { asText, typesOf, type JsonObject } from '../jsonld.ts';
import { normaliseText, textKey } from '../text.ts';
import { looksLikeUrl } from '../url.ts';

const MAX_LENGTH = 128;
/**
 * A candidate longer than this holds no name of MAX_LENGTH however its spaces and entities collapse: it is dropped
 * before the rules below read it (several times each), so a page of long hostile bylines costs them nothing.
 */
const MAX_RAW = 8 * MAX_LENGTH;
const short = (raw: string): boolean => raw.length <= MAX_RAW;

/** Page furniture that class-name rules pick up next to bylines ("0 comments", "Share", "Sponsored"), in the
 *  corpora's languages. */
const FURNITURE = new RegExp(
  '^\\d|(?<![\\p{L}])(?:comments?|about|share|follow|log ?in|sign (?:in|up)|subscribe|read more|sponsored|newsletter|menu|reply|' +
    'posted on|kommentare?|antworten|anmelden|teilen|folgen|gesponsert|commentaires?|répondre|partager|comentarios?|' +
    'responder|compartir|commenti|rispondi|condividi|reageer|reacties|delen|odpowiedz|komentarz[ey]?|ответить|комментари[йи])(?![\\p{L}])',
  'iu',
);
/** A comment form's field labels ("Name *", "Name (erforderlich)", "E-Mail:"), and an author link's text without its
 *  name ("Alle Artikel"): never a name. */
const FORM_LABEL =
  /^(?:(?:name|your name|nom|nombre|nome|naam|imi[eę]|имя|e-?mail|website|webseite|site web|url)\s*(?:\*|\([^)]{0,30}\)|:)?|(?:view |see )?(?:all|alle|tous les) (?:articles|posts|stories|artikel|beiträge))$/iu;
/** A commenter's signature ("Jane says:", "Jane sagt:", "Jane dit :"): the comment's author, not the page's. */
const COMMENTER =
  /(?<![\p{L}])(?:says|said|wrote|sagt|schreibt|meint|dit|écrit|dice|escribió|disse|scrive|zegt|schreef|skriver|sier|säger|napisał[a]?|pisze|пишет|говорит)\s*:?$/iu;

/** Text found by class names or links is noisy: drop page furniture, form labels and commenters. */
const guessed =
  (rule: Rule): Rule =>
  (ctx) =>
    asList(rule(ctx)).filter((value) => {
      const text = normaliseText(value);
      return !FURNITURE.test(text) && !FORM_LABEL.test(text) && !COMMENTER.test(text);
    });

/** Stricter still for broad selectors: a full name has two words or more. */
const strict =
  (rule: Rule): Rule =>
  (ctx) =>
    asList(guessed(rule)(ctx)).filter((value) => /^\S+\s+\S+/.test(normaliseText(value)));

const isOrganization = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && typesOf(value as JsonObject).some((type) => type === 'Organization' || type === 'NewsMediaOrganization' || type === 'Corporation');

/**
 * JSON-LD authors (string, Person, Organization, array of any), joined like a byline. People first: an
 * organisation as the author is taken only when nothing else on the page names one (`organizations`).
 */
const ldAuthors =
  (organizations: boolean): Rule =>
  (ctx) => {
    for (const node of ldNodes(ctx)) {
      const names = ldValues(ctx, 'author', [node])
        .filter((value) => isOrganization(value) === organizations)
        .map(asText)
        .filter((v): v is string => v !== undefined && short(v) && normaliseText(v) !== '' && !looksLikeUrl(normaliseText(v)));
      if (names.length > 0) return joinNames(names);
    }
    return undefined;
  };

function joinNames(names: string[]): string {
  const unique = [...new Set(names.map(normaliseText))];
  return unique.length <= 2 ? unique.join(' and ') : `${unique.slice(0, -1).join(', ')} and ${unique.at(-1)}`;
}

const notDate =
  (rule: Rule): Rule =>
  (ctx) =>
    asList(rule(ctx)).filter((value) => parseDate(value) === undefined);

/** Labels of twitter:labelN/dataN pairs that name the post's writer (Yoast SEO writes "Written by" in the site's
 *  language). */
const WRITTEN_BY =
  /^(?:written by|author|verfasst von|geschrieben von|autor(?:in)?|écrit par|rédigé par|auteur|escrito por|scritto da|autore|geschreven door|skrevet af|skrevet av|skrivet av|napisane przez|автор)$/iu;
/** How many label/data pairs a page may declare (Twitter's cards show two). */
const LABEL_PAIRS = 4;

/** The data of a twitter:labelN that says "Written by". */
const writtenBy: Rule = ({ facts }) => {
  const out: string[] = [];
  for (let n = 1; n <= LABEL_PAIRS; n++) {
    if (metaValues(facts, `twitter:label${n}`).some((label) => WRITTEN_BY.test(normaliseText(label)))) out.push(...metaValues(facts, `twitter:data${n}`));
  }
  return out;
};

/** A person's name as bylines write it: capitalised words, their particles ("von", "de"), a title before, several
 *  people joined. */
const NAME_WORDS =
  /^(?:(?:dr|prof|mag)\.\s*)*\p{Lu}[\p{L}\p{M}'’.-]*(?:\s+(?:(?:dr|prof)\.\s*)?(?:\p{Lu}[\p{L}\p{M}'’.-]*|von|van|de|der|den|di|da|du|la|le|y|und|and|et|&))*$/u;
const MAX_NAME_WORDS = 8;
/** A user name (a handle) is a name only after a label that says so ("Gespeichert von rasos"). */
const HANDLE = /^[\p{L}\p{N}_.-]{4,30}$/u;

/** The name after a byline's label in the page's text: the line up to an aside, a role or a date after it. */
const labelledName: Rule = ({ facts }) =>
  texts(facts, 'labelled').flatMap((line) => {
    const label = BYLINE_LABEL.exec(line);
    if (!label) return [];
    const name = line.slice(label[0].length).split(/\s*(?:\(|[|•·]|\s[-–—]\s|,\s|\s(?:am|on|le|el|il|op)\s)/u)[0]!.trim();
    const words = name.split(/\s+/).length;
    const person = NAME_WORDS.test(name) && words <= MAX_NAME_WORDS && (label.groups?.['explicit'] !== undefined || words > 1);
    return person || (label.groups?.['explicit'] !== undefined && HANDLE.test(name)) ? [name] : [];
  });

/** Bylines and author metadata, after the JSON-LD people, in preference order. */
const BYLINES: readonly Rule[] = [
  meta('article:author', 'og:article:author', 'parsely-author', 'sailthru.author', 'byl'),
  writtenBy,
  ({ facts }) => microdataValues(facts, 'name', 'author'),
  guessed(text('authorItemName')),
  guessed(text('authorItem')),
  strict(text('relAuthor')),
  strict(text('authorClassLink')),
  strict(text('linkInAuthorClass')),
  // A link to the author's own page (`/author/creeny`) names them, one word ("Creeny", a handle) included.
  guessed(text('authorHref')),
  guessed(text('screenname')),
  strict(text('authorClass')),
  strict(notDate(text('byline'))),
  guessed(labelledName),
  // A creator handle equal to the site's handle is the brand's account, not a person.
  (ctx) => {
    const site = new Set(metaValues(ctx.facts, 'twitter:site').filter(short).map(textKey));
    return metaValues(ctx.facts, 'twitter:creator').filter((handle) => short(handle) && !site.has(textKey(handle)));
  },
];

const META_AUTHOR = meta('author', 'dc.creator', 'dcterms.creator');

/**
 * What bylines put before the name, in the corpora's languages: "By", "Posted by", "von", "Eingestellt von", "par",
 * "por", "door", "av", "przez", "Autor:", "автор", "文/", "@"; and author links' "View all posts by", "Alle Beiträge
 * von". "di", "de" and "da" begin names too ("Da Silva"): only in lower case, before a capital.
 */
const BYLINE_PREFIX = new RegExp(
  '^(?:(?:(?:view |show |see )?(?:all |more )?(?:posts|articles|stories|entries)|(?:zeige )?alle (?:beiträge|artikel)|' +
    'alles|mehr|voir (?:tous )?les articles|tous les articles|(?:ver )?todas las entradas|todos los artículos|' +
    'tutti gli articoli|posted|written|words|story|text|reported|published|eingestellt|geschrieben|verfasst|' +
    'veröffentlicht|erstellt|publié|écrit|rédigé|escrito|publicado|scritto|pubblicato|geschreven|gepubliceerd|' +
    'skrevet|publicerad|napisane|opublikowane|un documentaire|un article)\\s+)?(?:by|von|par|por|door|av|af|przez)\\s+|' +
    '^(?:author|autor|auteur|autore|auteur|text|texte|von|by|автор|作者|文|著|撰文|記者)\\s*[:：/／]\\s*|^(?:автор|mehr über|über)\\s+|^@\\s*',
  'iu',
);

/** Without the bylines' prefix. */
const unprefixed = (raw: string): string =>
  normaliseText(raw).replace(BYLINE_PREFIX, '').replace(/^(?:di|de|da)\s+(?=\p{Lu})/u, '').trim();

/** The candidates of `rule` that are (`site`) or are not the site's own name. */
const siteNamed =
  (rule: Rule, site: boolean): Rule =>
  (ctx) => {
    const names = siteNames(ctx);
    return asList(rule(ctx)).filter((raw) => short(raw) && names.has(textKey(unprefixed(raw))) === site);
  };

/** The candidates of `rule` that name someone, not a desk alone. */
const people =
  (rule: Rule): Rule =>
  (ctx) =>
    asList(rule(ctx)).filter((raw) => !isDesk(unprefixed(raw)));

const PEOPLE_FIRST: readonly Rule[] = [
  ldAuthors(false),
  // Product pages name their maker as the brand (metascraper's habit, hence Microlink's).
  ldText('brand.name'),
  ...BYLINES.map((rule) => siteNamed(rule, false)),
  siteNamed(META_AUTHOR, false),
  ldAuthors(true),
  // The site as its own author, when nothing on the page names anyone else ("Marketing Land" posts as itself).
  siteNamed(META_AUTHOR, true),
  ...BYLINES.map((rule) => siteNamed(rule, true)),
];

const candidates: FieldSpec = {
  // A desk or team byline ("Redaktion", "Editorial Board") is what a reader calls the author of a page that names
  // nobody else.
  rules: [...PEOPLE_FIRST.map(people), ...PEOPLE_FIRST],
  accept(raw, ctx) {
    const value = unprefixed(raw);
    if (value === '' || value.length > MAX_LENGTH || looksLikeUrl(value)) return undefined;
    return personName(value, siteNames(ctx), declaredLang(ctx.facts));
  },
};

/** Letters and digits only, lower case, accents dropped: "Gàbor Muniér" and the handle "gabor_munier" alike. */
const letterKey = (value: string): string =>
  value.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

export const author: FieldSpec = {
  ...candidates,
  /** A handle ("robert.stitz", "gabor_munier") is the person's name where the page also writes it in full, letter for
   *  letter ("Robert Stitz", "Gàbor Muniér"). */
  settle(value, ctx) {
    if (/\s/.test(value)) return value;
    const key = letterKey(value);
    const words = (other: string): number => other.split(/\s+/).filter((word) => /\p{L}/u.test(word)).length;
    return allValues(candidates, ctx).found.find((other) => words(other) > 1 && letterKey(other) === key) ?? value;
  },
};

/** The names the site goes by: an author equal to one is the site, not a person. */
const siteNames = perPage(
  (ctx): ReadonlySet<string> =>
    new Set([...metaValues(ctx.facts, 'og:site_name'), ...metaValues(ctx.facts, 'application-name')].filter(short).map(textKey).filter(Boolean)),
);
