/** ISO 639-1, the two-letter codes the contract answers with. */
const ISO_639_1 = new Set(
  ('aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee ' +
    'el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is ' +
    'it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms ' +
    'mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk ' +
    'sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi ' +
    'yo za zh zu').split(' '),
);

/** Withdrawn two-letter codes still seen in the wild, and the ISO 639-2/3 codes of widely used languages. */
const ALIASES: Readonly<Record<string, string>> = {
  iw: 'he', in: 'id', ji: 'yi', jw: 'jv',
  eng: 'en', fra: 'fr', fre: 'fr', deu: 'de', ger: 'de', spa: 'es', ita: 'it', por: 'pt', rus: 'ru', jpn: 'ja',
  zho: 'zh', chi: 'zh', cmn: 'zh', yue: 'zh', kor: 'ko', ara: 'ar', nld: 'nl', dut: 'nl', pol: 'pl', tur: 'tr',
  swe: 'sv', nor: 'no', nob: 'nb', nno: 'nn', dan: 'da', fin: 'fi', ces: 'cs', cze: 'cs', ell: 'el', gre: 'el',
  heb: 'he', hin: 'hi', ind: 'id', tha: 'th', vie: 'vi', ukr: 'uk', ron: 'ro', rum: 'ro', hun: 'hu', cat: 'ca',
  msa: 'ms', may: 'ms', fas: 'fa', per: 'fa', ben: 'bn', tam: 'ta', urd: 'ur', bul: 'bg', hrv: 'hr', srp: 'sr',
  slk: 'sk', slo: 'sk', slv: 'sl', lit: 'lt', lav: 'lv', est: 'et', eus: 'eu', baq: 'eu', glg: 'gl', isl: 'is',
  ice: 'is', gle: 'ga', cym: 'cy', wel: 'cy', afr: 'af', swa: 'sw', tgl: 'tl', fil: 'tl',
};

/** `en-US`, `en_US`, `EN`, `eng`, `en-US,en;q=0.9` → `en`; anything that is not a language → undefined. */
export function normaliseLang(value: string): string | undefined {
  // Only the first tag counts: what follows it is not read (a hostile value may run to thousands of characters).
  const first = /^[^,;\s]*/.exec(value.trimStart().slice(0, 64))![0].toLowerCase();
  const primary = first.split(/[-_]/)[0] ?? '';
  const code = ALIASES[primary] ?? primary;
  return ISO_639_1.has(code) ? code : undefined;
}
