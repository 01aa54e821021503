/** An undeclared legacy page's encoding is guessed in a worker, under a deadline (lib/work/charset.ts). */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import iconv from 'iconv-lite';
import { GlanceError } from '../../lib/errors.ts';
import { decodeBody } from '../../lib/fetch/charset.ts';
import { Budget } from '../../lib/time/budget.ts';
import { workerGuess } from '../../lib/work/charset.ts';
import { WorkPool } from '../../lib/work/pool.ts';

describe('the encoding guess in a worker', () => {
  const pool = new WorkPool({ size: 1 });
  after(() => pool.close());
  const russian =
    '<title>Новости</title><p>Вчера вечером мы ходили в кино на новый российский фильм. Он нам очень понравился, хотя был ' +
    'довольно длинным. Главный герой живёт в небольшом городе на юге страны и каждый день ездит на работу на велосипеде.</p>';

  test('an undeclared windows-1251 page is read as windows-1251', async () => {
    const body = iconv.encode(russian, 'windows-1251');
    const { text, charset } = await decodeBody([body], 'text/html', workerGuess(pool, new Budget(10_000)));
    assert.equal(charset, 'windows-1251');
    assert.equal(text.join(''), russian);
  });

  test('a guess past its budget is stopped with the request\'s ETIMEOUT', async () => {
    const spent = new Budget(0);
    await assert.rejects(workerGuess(pool, spent)(iconv.encode(russian, 'windows-1251')), (error: unknown) => error instanceof GlanceError && error.code === 'ETIMEOUT');
  });
});
