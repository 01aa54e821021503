import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { expectError, parse, rejects } from './expect-error.ts';

describe('headers', () => {
  test('none by default', () => {
    assert.deepEqual(parse('').headers, {});
  });

  test('headers.<name> parameters, names lower-cased, values trimmed', () => {
    const options = parse('headers.Accept-Language=es-ES&headers.user-agent=Glance%2F1.0+(test)&headers.dnt');
    assert.deepEqual(options.headers, { 'accept-language': 'es-ES', 'user-agent': 'Glance/1.0 (test)', dnt: '' });
  });

  test('x-api-header-<name> request headers, prefix removed; other request headers ignored', () => {
    const options = parse('headers.accept=text%2Fhtml', {
      'X-Api-Header-Cookie': 'session=abc; theme=dark',
      'x-api-header-authorization': 'Bearer t0ken',
      'x-api-key': 'secret',
      cookie: 'mine',
      'x-api-header-absent': undefined,
    });
    assert.deepEqual(options.headers, {
      accept: 'text/html',
      cookie: 'session=abc; theme=dark',
      authorization: 'Bearer t0ken',
    });
  });

  test('the same header from both sources must agree', () => {
    assert.deepEqual(parse('headers.dnt=1', { 'x-api-header-dnt': '1' }).headers, { dnt: '1' });
    expectError(() => parse('headers.dnt=1', { 'x-api-header-dnt': '0' }), 'EINVALQUERY', 'x-api-header-dnt');
    rejects('headers.Accept=a&headers.accept=b', 'EINVALQUERY', 'headers.accept');
  });

  test('illegal names and values are refused, naming the parameter or request header', () => {
    rejects('headers.bad%20name=x', 'EINVALQUERY', 'headers.bad name');
    rejects('headers.x-evil=a%0D%0AHost%3A+internal', 'EINVALQUERY', 'headers.x-evil');
    rejects('headers.x-nul=a%00b', 'EINVALQUERY', 'headers.x-nul');
    rejects('headers.x-emoji=%F0%9F%98%80', 'EINVALQUERY', 'headers.x-emoji');
    rejects('headers.host=internal.example', 'EINVALQUERY', 'headers.host');
    rejects('headers.Content-Length=0', 'EINVALQUERY', 'headers.Content-Length');
    rejects('headers=x', 'EINVALQUERY', 'headers');
    const error = expectError(() => parse('', { 'x-api-header-x-bad': 'a\nb' }), 'EINVALQUERY', 'x-api-header-x-bad');
    assert.match(error.message, /request header is invalid/);
    expectError(() => parse('', { 'x-api-header-': 'x' }), 'EINVALQUERY', 'x-api-header-');
    expectError(() => parse('', { 'x-api-header-transfer-encoding': 'chunked' }), 'EINVALQUERY', 'x-api-header-transfer-encoding');
  });

  test('a request header named __proto__ is a plain entry', () => {
    const options = parse('', { 'x-api-header-__proto__': 'x' });
    assert.equal(Object.getPrototypeOf(options.headers), Object.prototype);
    assert.equal(Object.hasOwn(options.headers, '__proto__'), true);
    assert.equal(({} as Record<string, unknown>)['x'], undefined);
  });
});
