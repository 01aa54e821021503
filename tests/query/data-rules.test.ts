import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
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
});
