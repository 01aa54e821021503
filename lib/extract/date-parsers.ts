/** chrono-node's strict parsers by language, loaded on demand by date-words.ts (their import is ~100 ms of CPU). */
import { Chrono } from 'chrono-node';
import * as de from 'chrono-node/de';
import * as en from 'chrono-node/en';
import * as es from 'chrono-node/es';
import * as fi from 'chrono-node/fi';
import * as fr from 'chrono-node/fr';
import * as it from 'chrono-node/it';
import * as ja from 'chrono-node/ja';
import * as nl from 'chrono-node/nl';
import * as pt from 'chrono-node/pt';
import * as ru from 'chrono-node/ru';
import * as sv from 'chrono-node/sv';
import * as uk from 'chrono-node/uk';
import * as zh from 'chrono-node/zh';

/** Day first, month names in English: what a page in a language chrono does not know writes numerically. */
export const DAY_FIRST = new Chrono(en.configuration.createConfiguration(true, true));

export const BY_LANGUAGE: Readonly<Record<string, Chrono>> = {
  de: de.strict, es: es.strict, fi: fi.strict, fr: fr.strict, it: it.strict, ja: ja.strict, nl: nl.strict,
  pt: pt.strict, ru: ru.strict, sv: sv.strict, uk: uk.strict, zh: zh.strict,
};

export { en };
