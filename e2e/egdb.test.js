// The analysis board with an endgame database on the server (`doska egdb build`, read by
// `doska serve --egdb`): the exact result of a position it holds, in English and Russian, and
// nothing for one it does not hold.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { BIN, launch, openPage, startServer } from './harness.js';

/** @type {import('./harness.js').Server} */ let server;
/** @type {import('playwright-core').Browser} */ let browser;

before(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'doska-e2e-egdb-'));
  execFileSync(BIN, ['egdb', 'build', '--variant', 'american', '--pieces', '3', '--dir', path.join(dir, 'egdb')]);
  server = await startServer({ dir });
  browser = await launch();
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
});

// Checkers, two kings against one in the double corner: White wins in 21 plies (11 moves).
const WON = 'W:WK18,K19:BK1';

test('a position the database holds: its exact result, in English and Russian; one it does not hold: none', async () => {
  for (const [locale, text] of [
    ['en-US', 'Endgame database: White wins in 11 moves'],
    ['ru-RU', 'Эндшпильная база: белые выигрывают за 11 ходов'],
  ]) {
    const { page, errors, context } = await openPage(browser, { locale });
    await page.goto(`${server.url}/analysis?rules=american&fen=${encodeURIComponent(WON)}`);
    const egdb = page.locator('.an-egdb:not([hidden])');
    await egdb.waitFor();
    assert.equal(await egdb.textContent(), text);
    assert.equal(await egdb.getAttribute('data-winner'), 'white');
    assert.equal(await egdb.getAttribute('data-plies'), '21');
    assert.deepEqual(errors, []);
    await context.close();
  }
  // Four pieces: more than the database holds.
  const { page, errors, context } = await openPage(browser, { locale: 'en-US' });
  await page.goto(`${server.url}/analysis?rules=american&fen=${encodeURIComponent('W:WK18,K19,K20:BK1')}`);
  await page.locator('.an-line').first().waitFor();
  assert.equal(await page.locator('.an-egdb').isHidden(), true);
  assert.deepEqual(errors, []);
  await context.close();
});
