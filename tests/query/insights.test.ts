import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { featuresOf } from '../../lib/pipeline/features.ts';
import { parse, rejects } from './expect-error.ts';

const report = { output: 'json', preset: undefined, settings: {} };
const lighthouse = (query: string) => {
  const insights = parse(query).insights;
  return insights && insights.lighthouse;
};

describe('insights', () => {
  test('off by default; insights=true is the technologies and a Lighthouse report, as on Microlink', () => {
    const both = { technologies: true, lighthouse: report };
    assert.equal(parse('').insights, false);
    assert.deepEqual(parse('insights').insights, both);
    assert.deepEqual(parse('insights=true').insights, both);
    assert.deepEqual(parse('insights.technologies').insights, both);
    assert.deepEqual(parse('insights.lighthouse').insights, both);
    assert.equal(parse('insights=false').insights, false);
  });

  test('each is turned off by name; both off is no insights', () => {
    assert.deepEqual(parse('insights.lighthouse=false').insights, { technologies: true, lighthouse: false });
    assert.deepEqual(parse('insights&insights.lighthouse=false').insights, { technologies: true, lighthouse: false });
    assert.deepEqual(parse('insights.technologies=false').insights, { technologies: false, lighthouse: report });
    assert.equal(parse('insights.technologies=false&insights.lighthouse=false').insights, false);
    // Either counts as the `insights` feature in the usage metrics.
    assert.deepEqual(featuresOf(parse('insights.technologies=false')), ['insights']);
  });

  test('output and preset', () => {
    assert.deepEqual(lighthouse('insights.lighthouse.output=html'), { ...report, output: 'html' });
    assert.deepEqual(lighthouse('insights.lighthouse.output=CSV'), { ...report, output: 'csv' });
    assert.deepEqual(lighthouse('insights.lighthouse.preset=Desktop'), { ...report, preset: 'desktop' });
    assert.deepEqual(lighthouse('insights.lighthouse.preset=perf'), { ...report, preset: 'perf' });
  });

  test("Lighthouse's settings by its own names, as a comma list or indexed, snake_case too", () => {
    const settings = (query: string) => {
      const found = lighthouse(query);
      return found && found.settings;
    };
    assert.deepEqual(settings('insights.lighthouse.onlyCategories=performance,seo'), { onlyCategories: ['performance', 'seo'] });
    assert.deepEqual(settings('insights.lighthouse.only_categories.0=seo&insights.lighthouse.only_categories.1=best-practices'), {
      onlyCategories: ['seo', 'best-practices'],
    });
    assert.deepEqual(settings('insights.lighthouse.onlyAudits=document-title,Meta-Description,document-title&insights.lighthouse.skip_audits=viewport-insight'), {
      onlyAudits: ['document-title', 'meta-description'],
      skipAudits: ['viewport-insight'],
    });
    assert.deepEqual(settings('insights.lighthouse.locale=de-AT'), { locale: 'de' });
    assert.deepEqual(settings('insights.lighthouse.locale=pt-pt'), { locale: 'pt-PT' });
    assert.deepEqual(
      settings(
        'insights.lighthouse.throttlingMethod=provided&insights.lighthouse.maxWaitForLoad=5000&insights.lighthouse.pauseAfterLoadMs=0' +
          '&insights.lighthouse.blockedUrlPatterns=*.woff2,*analytics*&insights.lighthouse.ignoreStatusCode&insights.lighthouse.usePassiveGathering=false',
      ),
      {
        throttlingMethod: 'provided',
        maxWaitForLoad: 5000,
        pauseAfterLoadMs: 0,
        blockedUrlPatterns: ['*.woff2', '*analytics*'],
        ignoreStatusCode: true,
        usePassiveGathering: false,
      },
    );
  });

  test('invalid values are refused, naming the setting and what it takes', () => {
    assert.match(rejects('insights.lighthouse.output=pdf', 'EINVALQUERY', 'insights.lighthouse.output').message, /json, html, csv/);
    assert.match(rejects('insights.lighthouse.preset=tablet', 'EINVALQUERY', 'insights.lighthouse.preset').message, /mobile, desktop, perf/);
    assert.match(rejects('insights.lighthouse.onlyCategories=performance,pwa', 'EINVALQUERY', 'insights.lighthouse.onlyCategories').message, /pwa/);
    rejects('insights.lighthouse.onlyCategories=', 'EINVALQUERY', 'insights.lighthouse.onlyCategories');
    assert.match(rejects('insights.lighthouse.onlyAudits=document-title,first-meaningful-paint', 'EINVALQUERY', 'insights.lighthouse.onlyAudits').message, /first-meaningful-paint/);
    rejects('insights.lighthouse.skipAudits=nope', 'EINVALQUERY', 'insights.lighthouse.skipAudits');
    const both = rejects('insights.lighthouse.onlyAudits=doctype,charset&insights.lighthouse.skipAudits=charset', 'EINVALQUERY', 'insights.lighthouse.skipAudits');
    assert.match(both.message, /charset/);
    rejects('insights.lighthouse.locale=klingon', 'EINVALQUERY', 'insights.lighthouse.locale');
    rejects('insights.lighthouse.locale=x-', 'EINVALQUERY', 'insights.lighthouse.locale');
    rejects('insights.lighthouse.throttlingMethod=fast', 'EINVALQUERY', 'insights.lighthouse.throttlingMethod');
    rejects('insights.lighthouse.maxWaitForFcp=60000', 'EINVALQUERY', 'insights.lighthouse.maxWaitForFcp');
    rejects('insights.lighthouse.cpuQuietThresholdMs=6000', 'EINVALQUERY', 'insights.lighthouse.cpuQuietThresholdMs');
    rejects('insights.lighthouse.skipAboutBlank=maybe', 'EINVALQUERY', 'insights.lighthouse.skipAboutBlank');
    rejects(`insights.lighthouse.blockedUrlPatterns=${'*x,'.repeat(51)}`, 'EINVALQUERY', 'insights.lighthouse.blockedUrlPatterns');
    rejects('insights.lighthouse=fast', 'EINVALQUERY', 'insights.lighthouse');
    rejects('insights.lighthouse=false&insights.lighthouse.output=html', 'EINVALQUERY', 'insights.lighthouse');
  });

  test("a key that is not Lighthouse's is EINVALQUERY; a Lighthouse key Glance keeps to itself is EUNSUPPORTED, with why", () => {
    assert.match(rejects('insights.lighthouse.budget=1', 'EINVALQUERY', 'insights.lighthouse.budget').message, /onlyAudits/);
    rejects('insights.speed=true', 'EINVALQUERY', 'insights.speed');
    assert.match(rejects('insights.lighthouse.port=9222', 'EUNSUPPORTED', 'insights.lighthouse.port').message, /address guard/);
    for (const [key, given] of [
      ['extra_headers', '.cookie=a'],
      ['throttling', '.rttMs=100000'],
      ['gatherMode', '=/tmp'],
      ['plugins', '=lighthouse-plugin-x'],
      ['formFactor', '=mobile'],
      ['disableFullPageScreenshot', '=false'],
    ]) {
      rejects(`insights.lighthouse.${key}${given}`, 'EUNSUPPORTED', `insights.lighthouse.${key}`);
    }
  });

  test('invalid insights values are refused, naming them', () => {
    rejects('insights=maybe', 'EINVALQUERY', 'insights');
    rejects('insights.technologies=yes', 'EINVALQUERY', 'insights.technologies');
    rejects('insights=false&insights.technologies=true', 'EINVALQUERY', 'insights');
  });
});
