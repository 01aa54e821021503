/** Device presets resolve without starting a browser: names, case, merging, bounds, unknown names. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { clampViewport, deviceNames, MAX_DEVICE_AREA, resolveDevice } from '../../lib/browser/devices.ts';

describe('devices', () => {
  test('the default device is a 1280×800 @2x desktop with the configured user agent', async () => {
    const { viewport, userAgent } = await resolveDevice('Macbook Pro 13');
    assert.deepEqual([viewport.width, viewport.height, viewport.deviceScaleFactor, viewport.isMobile], [1280, 800, 2, false]);
    assert.equal(userAgent, undefined);
  });

  test('names match without case or surrounding spaces; Puppeteer devices bring their user agent', async () => {
    assert.equal((await resolveDevice(' full hd ')).viewport.width, 1920);
    const phone = await resolveDevice('IPHONE 15');
    assert.deepEqual([phone.viewport.width, phone.viewport.deviceScaleFactor, phone.viewport.isMobile], [393, 3, true]);
    assert.match(phone.userAgent ?? '', /iPhone OS/);
  });

  test('viewport overrides merge over the device', async () => {
    const { viewport } = await resolveDevice('iPad Pro', { width: 500, hasTouch: false });
    assert.deepEqual([viewport.width, viewport.height, viewport.hasTouch, viewport.isMobile], [500, 1366, false, true]);
  });

  test('an unknown name is EINVALQUERY naming device, with valid names in the message', async () => {
    await assert.rejects(resolveDevice('Commodore 64'), (error: any) => {
      assert.equal(error.code, 'EINVALQUERY');
      assert.deepEqual(Object.keys(error.data), ['device']);
      assert.match(error.message, /Commodore 64.*Macbook Pro 13/);
      return true;
    });
  });

  test('values are clamped defensively: no surface beyond 16384 device pixels', () => {
    const huge = clampViewport({ width: 50_000, height: -5, deviceScaleFactor: 9, isMobile: false, hasTouch: false, isLandscape: true });
    assert.deepEqual([huge.width, huge.height], [10_000, 1]);
    assert.ok(huge.width * huge.deviceScaleFactor <= 16_384);
  });

  test('the scale factor also gives way to keep the viewport within MAX_DEVICE_AREA; usual devices keep theirs', async () => {
    const square = clampViewport({ width: 10_000, height: 10_000, deviceScaleFactor: 2, isMobile: false, hasTouch: false, isLandscape: false });
    assert.deepEqual([square.width, square.height], [10_000, 10_000]);
    assert.ok(Math.abs(square.width * square.height * square.deviceScaleFactor ** 2 - MAX_DEVICE_AREA) < 1_000);
    assert.equal((await resolveDevice('Macbook Pro 13', {})).viewport.deviceScaleFactor, 2);
    assert.equal(clampViewport({ width: 3840, height: 2160, deviceScaleFactor: 2, isMobile: false, hasTouch: false, isLandscape: false }).deviceScaleFactor, 2);
  });

  test('every listed name resolves', async () => {
    const names = await deviceNames();
    assert.ok(names.length > 100);
    for (const name of names) await resolveDevice(name);
  });
});
