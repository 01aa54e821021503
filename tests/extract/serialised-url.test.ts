/**
 * lib/extract/serialised-url.ts answers, for the plain shapes of links, what WHATWG URL parsing answers, without
 * parsing; anything else is left to the parser. Every case is checked both ways: resolveUrl equals `URL.parse`
 * (kept when http(s)), and the fast path took exactly the links it should (a fast path that took a link the parser
 * would rewrite, or took none at all, fails here).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { baseParts, serialisedUrl } from '../../lib/extract/serialised-url.ts';
import { resolveUrl } from '../../lib/extract/url.ts';
import { values } from './helpers.ts';
import { loadDateParsers } from '../../lib/extract/date-words.ts';

// chrono's parsers, which the service loads after start-up (lib/extract/date-words.ts).
await loadDateParsers();

const BASES = [
  'https://example.com/a/b?q=1#f',
  'http://user:pw@example.org:8080/dir/',
  'https://example.com/?#',
  'https://example.com/p?',
  'http://example.com/p#',
  'https://xn--bcher-kva.example/d/e',
  'http://[::1]/p',
  'http://127.0.0.1/x',
];

/** What the parser gives, kept only when http(s) (resolveUrl's contract). */
function parsed(raw: string, base: string): string | undefined {
  const href = URL.parse(raw.trim(), base)?.href;
  return href !== undefined && /^https?:\/\//.test(href) ? href : undefined;
}

function fast(raw: string, base: string): string | undefined {
  const parts = baseParts(new URL(base));
  return parts && serialisedUrl(raw, parts);
}

/** Links the fast path answers: as written, or with the base's scheme, origin or document put before them. */
const PLAIN = [
  'https://example.com/a/b?c=d#e',
  'http://sub.example.co.uk/x_y~z/(1)!$&*+,;=:@%41',
  "https://example.com/it's/",
  'https://example.com',
  'https://example.com?q',
  'https://example.com#frag',
  'https://a-b--c.example/',
  'https://12a.example/',
  'https://a.b1/',
  'https://localhost/',
  'http://example.com/a//b/',
  'https://example.com/a?b=/c/../d&e=?#f#g?h',
  'https://example.com/a#it\'s',
  'https://example.com/%zz/%2f',
  'https://example.com/a.b/c./d..',
  '//cdn.example.net/a.png',
  '//cdn.example.net',
  '/',
  '/a/b.png?x=1#y',
  '/a//b',
  '#',
  '#top',
  '#a#b?c',
];

/** Links the parser would rewrite (or refuse), or that need the base in full: the fast path leaves them. */
const PARSED = [
  // Dot segments, plain and percent-encoded, in every position.
  'https://example.com/a/../b', 'https://example.com/./a', 'https://example.com/a/..', 'https://example.com/a/.',
  'https://example.com/%2e%2E/a', 'https://example.com/a/%2e', 'https://example.com/.well-known/x', '/../a', '/./a', '/a/%2E./b',
  '//cdn.example/a/../b',
  // Backslashes are slashes in special URLs: `/\evil.example` is scheme-relative.
  '/\\evil.example/x', '\\\\evil.example/x', 'https://example.com\\a', 'https://example.com/a\\b',
  // Hosts: uppercase, punycode and IDN, IPv4 (every form the IPv4 parser rewrites), IPv6, ports, userinfo, empty labels.
  'https://Example.com/', 'HTTPS://example.com/', 'https://xn--bcher-kva.example/', 'https://a.xn--p1ai/',
  'https://bücher.example/', 'https://1.2.3.4/', 'https://01.2.3.4/', 'https://1.2.3/', 'https://0x7f.1/', 'https://a.0x1f/', 'https://a.0xg/',
  'https://a.123/', 'https://example.com./', 'https://a..b/', 'https://[::1]/', 'https://example.com:443/',
  'https://example.com:8080/', 'https://example.com:/', 'https://u:p@example.com/', 'https://example.com@evil.example/',
  'https://%65xample.com/', 'https://exa mple.com/', 'https://', 'http:example.com', 'http:/example.com', 'http:\\\\example.com',
  // Characters a percent-encode set rewrites, whitespace and controls inside, non-ASCII.
  'https://example.com/a b', 'https://example.com/a"b', 'https://example.com/a<b>', 'https://example.com/a`b',
  'https://example.com/{a}', 'https://example.com/a^b', 'https://example.com/a|b', 'https://example.com/[a]',
  "https://example.com/?q='x'", 'https://example.com/?a b', 'https://example.com/#a b', 'https://example.com/#a`b',
  'https://example.com/a\tb', 'https://example.com/a\nb', 'https://exam\nple.com/', 'https://example.com/\u0001',
  'https://example.com/\u007f', 'https://example.com/é', '/é', '#é', '#a b', '/a b',
  // Relative paths and query-only links need the base's path.
  'a/b', './a', '../a', '?q=1', '?', '',
  // Other schemes, special or not.
  'ftp://example.com/', 'ws://example.com/', 'file:///etc/passwd', 'javascript:alert(1)', 'mailto:a@b.c',
  'data:text/plain,x', 'tel:+1', 'whatsapp://send?text=x', 'httpx://example.com/', 'c:/x',
];

describe('links in their serialised form', () => {
  test('every case resolves as WHATWG URL parsing resolves it, against every base', () => {
    for (const base of BASES) {
      for (const raw of [...PLAIN, ...PARSED, ' https://example.com/a ', '\u00a0/a\u00a0', '\ufeff#x']) {
        assert.equal(resolveUrl(raw, base), raw.trim() === '' || raw.trim() === '#' ? undefined : parsed(raw, base), `${JSON.stringify(raw)} against ${base}`);
      }
    }
  });

  test('the plain shapes are answered without parsing, the rest left to the parser', () => {
    for (const base of ['https://example.com/a/b?q=1#f', 'http://user:pw@example.org:8080/dir/', 'http://example.com/p#']) {
      for (const raw of PLAIN) assert.equal(fast(raw, base), parsed(raw, base), `${raw} against ${base}`);
      for (const raw of PARSED) assert.equal(fast(raw, base), undefined, `${JSON.stringify(raw)} against ${base}`);
    }
  });

  test('the base keeps its userinfo and port for host-relative links, and loses its fragment (even an empty one)', () => {
    assert.equal(fast('/x', 'http://user:pw@example.org:8080/dir/'), 'http://user:pw@example.org:8080/x');
    assert.equal(fast('#x', 'https://example.com/a/b?q=1#f'), 'https://example.com/a/b?q=1#x');
    assert.equal(fast('#x', 'https://example.com/?#'), undefined);
    assert.equal(resolveUrl('#x', 'https://example.com/?#'), new URL('#x', 'https://example.com/?#').href);
    assert.equal(fast('/x', 'https://example.com/p?'), 'https://example.com/x');
    assert.equal(fast('//cdn.example/x', 'http://example.com/p#'), 'http://cdn.example/x');
  });

  test('bases that are not http(s) are left to the parser', () => {
    assert.equal(baseParts(new URL('ftp://example.com/a/')), undefined);
    assert.equal(resolveUrl('/x', 'ftp://example.com/a/'), undefined);
    assert.equal(resolveUrl('https://example.com/x', 'ftp://example.com/a/'), 'https://example.com/x');
    assert.equal(resolveUrl('/x', 'not a url'), undefined);
  });

  test('a page’s <base href> is the base of its links, with the fast path too', () => {
    const html = '<html><head><base href="https://other.example/x/?b#c"><link rel="canonical" href="/y"></head></html>';
    assert.equal(values(html).url, 'https://other.example/y');
    const fragment = '<html><head><base href="https://other.example/x/?b#c"><link rel="canonical" href="#top"></head></html>';
    assert.equal(values(fragment).url, 'https://other.example/x/?b#top');
  });
});
