import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { parse, rejects } from './expect-error.ts';

const AUTOMAD_DIST = join(dirname(createRequire(import.meta.url).resolve('automad-prism-themes/package.json')), 'dist');

const shot = (query: string) => {
  const { screenshot } = parse(query);
  assert.ok(screenshot, 'screenshot should be on');
  return screenshot;
};

describe('screenshot', () => {
  test('off by default; on with true, a bare key or an empty value', () => {
    assert.equal(parse('').screenshot, false);
    assert.equal(parse('screenshot=false').screenshot, false);
    for (const query of ['screenshot=true', 'screenshot', 'screenshot=']) {
      assert.deepEqual(shot(query), {
        type: 'png',
        quality: 80,
        fullPage: false,
        element: undefined,
        omitBackground: false,
        optimizeForSpeed: false,
        overlay: undefined,
        codeScheme: 'atom-dark',
        palette: false,
      });
    }
  });

  test('reads every option', () => {
    const options = shot(
      'screenshot.type=JPEG&screenshot.quality=55&screenshot.fullPage&screenshot.element=%23main+.card' +
        '&screenshot.omitBackground=true&screenshot.overlay.browser=dark&screenshot.overlay.background=%23c1c1c1' +
        '&screenshot.codeScheme=Dracula&screenshot.optimizeForSpeed&screenshot.palette',
    );
    assert.deepEqual(options, {
      type: 'jpeg',
      quality: 55,
      fullPage: true,
      element: '#main .card',
      omitBackground: true,
      optimizeForSpeed: true,
      overlay: { browser: 'dark', background: '#c1c1c1' },
      codeScheme: 'dracula',
      palette: true,
    });
    assert.equal(shot('screenshot.type=jpg').type, 'jpeg');
    assert.equal(shot('screenshot.type=webp').type, 'webp');
    assert.equal(shot('screenshot.type=webp').quality, 80, "WebP takes the JPEG quality's default");
  });

  test('refuses invalid options, naming each', () => {
    rejects('screenshot.type=gif', 'EINVALQUERY', 'screenshot.type');
    rejects('screenshot.type=constructor', 'EINVALQUERY', 'screenshot.type');
    rejects('screenshot.type=toString', 'EINVALQUERY', 'screenshot.type');
    rejects('screenshot.quality=101', 'EINVALQUERY', 'screenshot.quality');
    rejects('screenshot.quality=-1', 'EINVALQUERY', 'screenshot.quality');
    rejects('screenshot.quality=50.5', 'EINVALQUERY', 'screenshot.quality');
    rejects('screenshot.quality=high', 'EINVALQUERY', 'screenshot.quality');
    rejects('screenshot.element=', 'EINVALQUERY', 'screenshot.element');
    rejects('screenshot.fullPage=no', 'EINVALQUERY', 'screenshot.fullPage');
    rejects('screenshot.optimizeForSpeed=fast', 'EINVALQUERY', 'screenshot.optimizeForSpeed');
    rejects('screenshot.overlay.browser=sepia', 'EINVALQUERY', 'screenshot.overlay.browser');
    rejects('screenshot.codeScheme=neon', 'EINVALQUERY', 'screenshot.codeScheme');
    rejects('screenshot.overlay=dark', 'EINVALQUERY', 'screenshot.overlay');
  });

  test('codeScheme: every theme automad-prism-themes ships, by its file id, and each combo by its name alone', () => {
    const ids = readdirSync(AUTOMAD_DIST).flatMap((file) => /^prism-(.+)\.css$/.exec(file)?.[1] ?? []);
    assert.ok(ids.length >= 79, `automad-prism-themes ships its themes: ${ids.length}`);
    const combos = ids.filter((id) => id.endsWith('.light-dark')).map((id) => id.slice(0, -'.light-dark'.length));
    assert.ok(combos.includes('github') && combos.includes('gruvbox'), combos.join());
    for (const id of [...ids, ...combos]) assert.equal(shot(`screenshot.codeScheme=${id}`).codeScheme, id, id);
  });

  test('codeScheme: the prism-themes and Prism themes Glance offered before stay accepted', () => {
    for (const id of [
      'a11y-dark', 'base16-ateliersulphurpool.light', 'cb', 'coy', 'coy-without-shadows', 'darcula', 'dark', 'funky',
      'ghcolors', 'holi-theme', 'hopscotch', 'lucario', 'material-dark', 'material-light', 'material-oceanic',
      'okaidia', 'one-dark', 'one-light', 'pojoaque', 'prism', 'solarizedlight', 'tomorrow', 'twilight', 'vs',
      'xonokai', 'z-touch',
    ]) {
      assert.equal(shot(`screenshot.codeScheme=${id}`).codeScheme, id, id);
    }
    assert.equal(shot('screenshot.codeScheme=GitHub-Dark').codeScheme, 'github-dark', 'any case');
  });

  test('codeScheme: a stylesheet URL is EUNSUPPORTED with the reason, an unknown name EINVALQUERY', () => {
    const error = rejects(`screenshot.codeScheme=${encodeURIComponent('https://unpkg.com/prism-theme-night-owl')}`, 'EUNSUPPORTED', 'screenshot.codeScheme');
    assert.match(error.message, /does not fetch a theme stylesheet from a URL/);
    const unknown = rejects('screenshot.codeScheme=github-dimmed', 'EINVALQUERY', 'screenshot.codeScheme');
    assert.match(unknown.message, /tokyo-night/, 'the accepted names are listed');
  });

  test('overlay backgrounds: colours, gradients and http(s) image URLs', () => {
    for (const background of [
      '#fff',
      '#11223344',
      'rgb(10, 20, 30)',
      'hsla(120 50% 50% / 0.5)',
      'tomato',
      'linear-gradient(225deg, #FF057C 0%, #8D0B93 50%, #321575 100%)',
      'radial-gradient(circle, rgb(1,2,3) 0%, transparent 100%)',
      'https://example.com/bg.png',
    ]) {
      const options = shot(`screenshot.overlay.background=${encodeURIComponent(background)}`);
      assert.deepEqual(options.overlay, { browser: undefined, background }, background);
    }
  });

  test('other overlay backgrounds are EINVALOVERLAYBG naming the parameter', () => {
    for (const background of [
      'red; position: fixed',
      'url(https://example.com/x.png)',
      'linear-gradient(red, blue',
      'javascript:alert(1)',
      'ftp://example.com/bg.png',
      '#12',
      'red}body{display:none',
      '"><script>',
    ]) {
      rejects(
        `screenshot.overlay.background=${encodeURIComponent(background)}`,
        'EINVALOVERLAYBG',
        'screenshot.overlay.background',
      );
    }
  });
});

describe('screenshot: legacy flat keys', () => {
  test('apply to the screenshot when it is on', () => {
    const options = shot(
      'screenshot&element=%23hero&fullPage=true&type=jpeg&quality=40&omitBackground&overlay.browser=light',
    );
    assert.deepEqual(options, {
      type: 'jpeg',
      quality: 40,
      fullPage: true,
      element: '#hero',
      omitBackground: true,
      optimizeForSpeed: false,
      overlay: { browser: 'light', background: undefined },
      codeScheme: 'atom-dark',
      palette: false,
    });
    assert.equal(shot('screenshot&full_page').fullPage, true);
  });

  test('do not turn the screenshot on, and are ignored when it is off', () => {
    assert.equal(parse('element=%23hero&fullPage&type=jpeg&overlay.browser=dark').screenshot, false);
    assert.equal(parse('screenshot=false&type=gif&quality=900').screenshot, false);
  });

  test('agreeing with the nested form is fine; disagreeing is a conflict', () => {
    assert.equal(shot('screenshot.fullPage&fullPage=true').fullPage, true);
    rejects('screenshot.element=%23a&element=%23b', 'EINVALQUERY', 'screenshot.element');
    rejects('screenshot.type=png&type=jpeg', 'EINVALQUERY', 'screenshot.type');
    rejects('screenshot.overlay.browser=dark&overlay.browser=light', 'EINVALQUERY', 'screenshot.overlay');
  });

  test('an invalid legacy value is refused when the screenshot is on', () => {
    rejects('screenshot&type=gif', 'EINVALQUERY', 'type');
    rejects('screenshot&overlay.background=url(x)', 'EINVALOVERLAYBG', 'overlay.background');
  });
});
