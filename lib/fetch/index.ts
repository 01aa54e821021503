export { AddressPolicy, parseTarget, type VettedUrl } from '../guard/policy.ts';
export { openResponse, fetchPage } from './fetch.ts';
export type { FetchOptions, FetchResponse, FetchedPage, Redirect, Resolver } from './fetch.ts';
export { decodeHtml } from './charset.ts';
export { loadTransports } from './builtins.ts';
