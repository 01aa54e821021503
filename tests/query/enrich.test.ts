import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parse, rejects } from './expect-error.ts';

const everything = { image: true, logo: true, audio: true, video: true };

describe('ping', () => {
  test('checks everything by default and with ping=true', () => {
    assert.deepEqual(parse('').ping, everything);
    assert.deepEqual(parse('ping').ping, everything);
    assert.deepEqual(parse('ping=true').ping, everything);
  });

  test('ping=false checks nothing', () => {
    assert.deepEqual(parse('ping=false').ping, { image: false, logo: false, audio: false, video: false });
  });

  test('the object form changes only the sub-keys given', () => {
    assert.deepEqual(parse('ping.audio=false').ping, { ...everything, audio: false });
    assert.deepEqual(parse('ping=true&ping.image=false&ping.logo=false').ping, {
      ...everything,
      image: false,
      logo: false,
    });
  });

  test('refuses non-booleans, naming the sub-key', () => {
    rejects('ping.video=off', 'EINVALQUERY', 'ping.video');
    rejects('ping=sometimes', 'EINVALQUERY', 'ping');
  });
});

describe('iframe and palette', () => {
  test('iframe is off by default, a flag, or an object of oEmbed sizes', () => {
    assert.equal(parse('').iframe, false);
    assert.deepEqual(parse('iframe').iframe, { maxWidth: undefined, maxHeight: undefined });
    assert.deepEqual(parse('iframe.maxWidth=350&iframe.maxHeight=200').iframe, { maxWidth: 350, maxHeight: 200 });
    rejects('iframe.maxWidth=0', 'EINVALQUERY', 'iframe.maxWidth');
    rejects('iframe.maxHeight=wide', 'EINVALQUERY', 'iframe.maxHeight');
  });

  test('palette is a flag', () => {
    assert.equal(parse('').palette, false);
    assert.equal(parse('palette').palette, true);
  });
});

describe('insights', () => {
  const technologies = { technologies: true, lighthouse: false };
  const report = { output: 'json', preset: undefined, onlyCategories: undefined };

  test('off by default; insights alone or insights.technologies asks for the technologies only', () => {
    assert.equal(parse('').insights, false);
    assert.deepEqual(parse('insights').insights, technologies);
    assert.deepEqual(parse('insights=true').insights, technologies);
    assert.deepEqual(parse('insights.technologies').insights, technologies);
    assert.deepEqual(parse('insights.technologies=true&insights.lighthouse=false').insights, technologies);
    assert.equal(parse('insights=false').insights, false);
    assert.equal(parse('insights.technologies=false').insights, false);
    assert.equal(parse('insights.technologies=false&insights.lighthouse=false').insights, false);
  });

  test('a Lighthouse report only when asked by name: JSON by default, technologies beside it unless turned off', () => {
    assert.deepEqual(parse('insights.lighthouse').insights, { technologies: true, lighthouse: report });
    assert.deepEqual(parse('insights.lighthouse=true&insights.technologies=false').insights, { technologies: false, lighthouse: report });
    assert.deepEqual(parse('insights.lighthouse.output=html').insights, { technologies: true, lighthouse: { ...report, output: 'html' } });
    assert.deepEqual(parse('insights.lighthouse.output=CSV').insights, { technologies: true, lighthouse: { ...report, output: 'csv' } });
  });

  test('preset and onlyCategories are passed through, as a comma list or indexed, snake_case too', () => {
    const lighthouse = (query: string) => {
      const insights = parse(query).insights;
      return insights && insights.lighthouse;
    };
    assert.deepEqual(lighthouse('insights.lighthouse.preset=Desktop'), { ...report, preset: 'desktop' });
    assert.deepEqual(lighthouse('insights.lighthouse.preset=perf'), { ...report, preset: 'perf' });
    assert.deepEqual(lighthouse('insights.lighthouse.onlyCategories=performance,seo'), { ...report, onlyCategories: ['performance', 'seo'] });
    assert.deepEqual(lighthouse('insights.lighthouse.only_categories.0=seo&insights.lighthouse.only_categories.1=best-practices'), {
      ...report,
      onlyCategories: ['seo', 'best-practices'],
    });
  });

  test('invalid Lighthouse options are refused, naming the option and what it takes', () => {
    const output = rejects('insights.lighthouse.output=pdf', 'EINVALQUERY', 'insights.lighthouse.output');
    assert.match(output.message, /json, html, csv/);
    const preset = rejects('insights.lighthouse.preset=tablet', 'EINVALQUERY', 'insights.lighthouse.preset');
    assert.match(preset.message, /mobile, desktop, perf/);
    const category = rejects('insights.lighthouse.onlyCategories=performance,pwa', 'EINVALQUERY', 'insights.lighthouse.onlyCategories');
    assert.match(category.message, /pwa/);
    rejects('insights.lighthouse.onlyCategories=', 'EINVALQUERY', 'insights.lighthouse.onlyCategories');
    rejects('insights.lighthouse.throttling=none', 'EINVALQUERY', 'insights.lighthouse.throttling');
    rejects('insights.lighthouse=fast', 'EINVALQUERY', 'insights.lighthouse');
    rejects('insights.lighthouse=false&insights.lighthouse.output=html', 'EINVALQUERY', 'insights.lighthouse');
  });

  test('invalid values and unknown sub-keys are refused, naming them', () => {
    rejects('insights=maybe', 'EINVALQUERY', 'insights');
    rejects('insights.technologies=yes', 'EINVALQUERY', 'insights.technologies');
    rejects('insights.speed=true', 'EINVALQUERY', 'insights.speed');
    rejects('insights=false&insights.technologies=true', 'EINVALQUERY', 'insights');
  });
});
