import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MAX_RULES } from '../../lib/rules/limits.ts';
import { parse, rejects } from './expect-error.ts';

const rule = (overrides: object) => ({
  selector: [],
  all: false,
  attr: ['html'],
  rules: undefined,
  type: ['auto'],
  evaluate: undefined,
  ...overrides,
});

describe('data rules', () => {
  test('none by default', () => {
    assert.equal(parse('').data, undefined);
  });

  test('one rule per field, with Microlink defaults', () => {
    const { data } = parse('data.avatar.selector=img.avatar&data.avatar.attr=src&data.avatar.type=image&data.title.selector=h1');
    assert.deepEqual(data, {
      avatar: [rule({ selector: ['img.avatar'], attr: ['src'], type: ['image'] })],
      title: [rule({ selector: ['h1'] })],
    });
  });

  test('fallback rules, fallback selectors, attrs and types', () => {
    const { data } = parse(
      'data.avatar.0.selector=meta%5Bname%3D%22twitter%3Aimage%22%5D&data.avatar.0.attr=content&data.avatar.0.type=image' +
        '&data.avatar.1.selector.0=img.a&data.avatar.1.selector.1=img.b&data.avatar.1.attr.0=src&data.avatar.1.attr.1=data-src' +
        '&data.avatar.1.type.0=image&data.avatar.1.type.1=url',
    );
    assert.deepEqual(data, {
      avatar: [
        rule({ selector: ['meta[name="twitter:image"]'], attr: ['content'], type: ['image'] }),
        rule({ selector: ['img.a', 'img.b'], attr: ['src', 'data-src'], type: ['image', 'url'] }),
      ],
    });
  });

  test('selectorAll collects, and a rule may omit the selector to read the whole page', () => {
    const { data } = parse('data.links.selectorAll=a&data.links.attr=href&data.content.attr=markdown');
    assert.deepEqual(data, {
      links: [rule({ selector: ['a'], all: true, attr: ['href'] })],
      content: [rule({ attr: ['markdown'] })],
    });
  });

  test('attr given as an object nests rules', () => {
    const { data } = parse(
      'data.stats.selector=.profile&data.stats.attr.followers.selector=.followers&data.stats.attr.followers.type=number' +
        '&data.stats.attr.name.0.selector=h1&data.stats.attr.name.1.selector=h2',
    );
    assert.deepEqual(data, {
      stats: [
        rule({
          selector: ['.profile'],
          attr: [],
          rules: {
            followers: [rule({ selector: ['.followers'], type: ['number'] })],
            name: [rule({ selector: ['h1'] }), rule({ selector: ['h2'] })],
          },
        }),
      ],
    });
  });

  test('refuses malformed rules, naming the part', () => {
    rejects('data=true', 'EINVALDATA', 'data');
    rejects('data.title=h1', 'EINVALDATA', 'data.title');
    rejects('data.title.selecter=h1', 'EINVALDATA', 'data.title.selecter');
    rejects('data.title.type=image', 'EINVALDATA', 'data.title');
    rejects('data.title.selector=h1&data.title.type=picture', 'EINVALDATA', 'data.title.type');
    rejects('data.title.selector=h1&data.title.selectorAll=h2', 'EINVALDATA', 'data.title.selectorAll');
    rejects('data.title.selector=h1&data.title.attr=not+an+attr', 'EINVALDATA', 'data.title.attr');
    rejects('data.title.selector=', 'EINVALDATA', 'data.title.selector');
    rejects('data.title.0.selector=h1&data.title.1=h2', 'EINVALDATA', 'data.title.1');
    rejects('data.1st.selector=h1', 'EINVALDATA', 'data.1st');
    rejects('data.stats.attr.bad.selecter=x', 'EINVALDATA', 'data.stats.attr.bad.selecter');
    rejects('data.title.selector=h1&data.title.evaluate=alert(1)', 'EINVALDATA', 'data.title.evaluate');
    rejects('data.title.selector=h1[', 'EINVALDATA', 'data.title.selector');
    rejects('data.s.attr=href&data.s.attr.x.selector=a', 'EINVALDATA', 'data.s.attr');
    rejects('data.title.selector=h1&data.title.type=constructor', 'EINVALDATA', 'data.title.type');
  });

  test('rules given as JSON, as Microlink takes them, read as their dotted form does', () => {
    const json = (value: unknown) => encodeURIComponent(JSON.stringify(value));
    const dotted = parse('data.title.0.selector=h1&data.title.1.selector=title&data.title.1.attr=text');
    assert.deepEqual(parse(`data.title=${json([{ selector: 'h1' }, { selector: 'title', attr: 'text' }])}`).data, dotted.data);
    assert.deepEqual(
      parse(`data.title=${json({ selector: ['h1', 'h2'], attr: 'text', type: ['string'] })}`).data,
      parse('data.title.selector.0=h1&data.title.selector.1=h2&data.title.attr=text&data.title.type=string').data,
    );
    assert.deepEqual(
      parse(`data=${json({ stats: { selector: '.profile', attr: { n: { selector: '.n', type: 'number' } } } })}`).data,
      parse('data.stats.selector=.profile&data.stats.attr.n.selector=.n&data.stats.attr.n.type=number').data,
    );
    assert.deepEqual(
      parse(`data.title=${json({ selector: 'h1' })}&data.links.selectorAll=a`).data,
      parse('data.title.selector=h1&data.links.selectorAll=a').data,
      'beside dotted fields',
    );
  });

  test('rules given as JSON meet the same checks and bounds, naming the part', () => {
    const json = (value: unknown) => encodeURIComponent(JSON.stringify(value));
    rejects('data.title=%5B%7B%22selector%22', 'EINVALDATA', 'data.title');
    rejects(`data.title=${json([{ selector: 'h1' }, { selecter: 'h2' }])}`, 'EINVALDATA', 'data.title.1.selecter');
    rejects(`data.title=${json({ selector: 'h1[' })}`, 'EINVALDATA', 'data.title.selector');
    rejects(`data.title=${json({ selector: null })}`, 'EINVALDATA', 'data.title.selector');
    rejects(`data.title=${json([])}`, 'EINVALDATA', 'data.title');
    rejects(`data.title=${encodeURIComponent('{"__proto__":{"selector":"h1"}}')}`, 'EINVALDATA', 'data.title.__proto__');
    rejects(`data=${json({ '1st': { selector: 'h1' } })}`, 'EINVALDATA', 'data.1st');
    const deep = (level: number): unknown => (level === 0 ? { selector: 'a' } : { selector: 'a', attr: { x: deep(level - 1) } });
    rejects(`data.f=${json(deep(5))}`, 'EINVALDATA', 'data.f.attr.x.attr.x.attr');
    rejects(`data.f=${'%5B'.repeat(40)}${'%5D'.repeat(40)}`, 'EINVALDATA', `data.f${'.0'.repeat(13)}`);
    const many = (count: number) => json(Object.fromEntries(Array.from({ length: count }, (_, i) => [`f${i}`, { selector: 'a' }])));
    assert.equal(Object.keys(parse(`data=${many(MAX_RULES)}`).data ?? {}).length, MAX_RULES);
    rejects(`data=${many(MAX_RULES + 1)}`, 'EINVALDATA', `data.f${MAX_RULES}`);
  });
});
