import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parse, rejects } from './expect-error.ts';

describe('prerender', () => {
  test('auto by default; auto, true or false', () => {
    assert.equal(parse('').prerender, 'auto');
    assert.equal(parse('prerender=AUTO').prerender, 'auto');
    assert.equal(parse('prerender').prerender, true);
    assert.equal(parse('prerender=false').prerender, false);
    rejects('prerender=sometimes', 'EINVALQUERY', 'prerender');
  });
});

describe('device and viewport', () => {
  test('device is any non-empty name, trimmed', () => {
    assert.equal(parse('device=iPhone+15').device, 'iPhone 15');
    rejects('device=+', 'EINVALQUERY', 'device');
  });

  test('viewport holds only the fields given', () => {
    assert.deepEqual(parse('viewport.width=1280&viewport.height=720').viewport, { width: 1280, height: 720 });
    assert.deepEqual(parse('viewport.deviceScaleFactor=0.5&viewport.isMobile').viewport, {
      deviceScaleFactor: 0.5,
      isMobile: true,
    });
  });

  test('refuses invalid viewport fields, naming each', () => {
    rejects('viewport.width=0', 'EINVALQUERY', 'viewport.width');
    rejects('viewport.width=12.5', 'EINVALQUERY', 'viewport.width');
    rejects('viewport.height=20000', 'EINVALQUERY', 'viewport.height');
    rejects('viewport.deviceScaleFactor=5', 'EINVALQUERY', 'viewport.deviceScaleFactor');
    rejects('viewport.hasTouch=sometimes', 'EINVALQUERY', 'viewport.hasTouch');
    rejects('viewport=true', 'EINVALQUERY', 'viewport');
  });
});

describe('waitUntil', () => {
  test('a string, a comma list, or numeric indices; duplicates dropped', () => {
    assert.deepEqual(parse('waitUntil=load').waitUntil, ['load']);
    assert.deepEqual(parse('waitUntil=load,networkidle2').waitUntil, ['load', 'networkidle2']);
    assert.deepEqual(parse('waitUntil.1=networkidle0&waitUntil.0=domcontentloaded').waitUntil, [
      'domcontentloaded',
      'networkidle0',
    ]);
    assert.deepEqual(parse('waitUntil[]=load&waitUntil[]=load').waitUntil, ['load']);
  });

  test('refuses unknown events, naming waitUntil', () => {
    const error = rejects('waitUntil=load,idle', 'EINVALQUERY', 'waitUntil');
    assert.match(error.message, /networkidle0/);
    rejects('waitUntil=', 'EINVALQUERY', 'waitUntil');
    rejects('waitUntil=load&waitUntil.0=load', 'EINVALQUERY', 'waitUntil');
  });
});

describe('emulation and page actions', () => {
  test('colorScheme and mediaType', () => {
    assert.equal(parse('colorScheme=dark').colorScheme, 'dark');
    assert.equal(parse('colorScheme=no-preference').colorScheme, 'no-preference');
    assert.equal(parse('mediaType=print').mediaType, 'print');
    rejects('colorScheme=sepia', 'EINVALQUERY', 'colorScheme');
    rejects('mediaType=tv', 'EINVALQUERY', 'mediaType');
    // Names of Object.prototype members are values like any other, never lookups.
    rejects('colorScheme=constructor', 'EINVALQUERY', 'colorScheme');
    rejects('mediaType=__proto__', 'EINVALQUERY', 'mediaType');
  });

  test('javascript and animations', () => {
    assert.equal(parse('javascript=false').javascript, false);
    assert.equal(parse('animations').animations, true);
    rejects('javascript=off', 'EINVALQUERY', 'javascript');
  });

  test('waitForSelector is a non-empty selector', () => {
    assert.equal(parse('waitForSelector=%23app+%3E+main').waitForSelector, '#app > main');
    rejects('waitForSelector=', 'EINVALQUERY', 'waitForSelector');
  });

  test('click, scroll, styles and scripts take one value or a list, commas kept', () => {
    const options = parse(
      'click=a.more%2C+button.more&scroll.0=%23footer&scroll.1=%23top' +
        '&styles=body%7Bbackground%3Ared%7D&scripts.0=https%3A%2F%2Fcdn.example%2Fa.js&scripts.1=document.title%3D%27x%27',
    );
    assert.deepEqual(options.click, ['a.more, button.more']);
    assert.deepEqual(options.scroll, ['#footer', '#top']);
    assert.deepEqual(options.styles, ['body{background:red}']);
    assert.deepEqual(options.scripts, ['https://cdn.example/a.js', "document.title='x'"]);
  });

  test('empty actions are refused, naming the item', () => {
    rejects('click=', 'EINVALQUERY', 'click');
    rejects('scripts.0=a&scripts.1=', 'EINVALQUERY', 'scripts.1');
    rejects('styles.x=a', 'EINVALQUERY', 'styles');
  });
});
