// The board with animations on, as players see it (the other tests run with reduced motion):
// before every move of the player (the opponent's answer has arrived), once the animations have ended, every square draws exactly the piece the
// server's state has there.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { boardVsState, moveList, myTurn, newGame, openPage, serverAndBrowser, settled, tap } from './harness.js';

const env = serverAndBrowser();

/** @param {import('playwright-core').Page} page @param {number} n */
async function plies(page, n) {
  await page.waitForFunction((k) => document.querySelectorAll('ol.moves .mv').length >= k, n);
}

/** @param {import('playwright-core').Page} page @param {string} when */
async function boardIsState(page, when) {
  await settled(page);
  assert.deepEqual(await boardVsState(page), [], when);
}

test('a piece landing where a captured piece is still fading out is drawn (animations on)', async () => {
  const { page, errors, context } = await openPage(env.browser, { motion: true });
  assert.equal(await page.evaluate(() => matchMedia('(prefers-reduced-motion: reduce)').matches), false);
  await newGame(page, env.server.url, { rules: 'russian', opponent: 'computer', level: 'easy', color: 'white', position: 'W:Wd4,a1,c1,e1,g1:Be5,g7,b8,d8,h8' });
  await myTurn(page);
  await boardIsState(page, 'at the start');
  // d4:f6 takes e5; the computer's only answer g7:e5 lands where e5 is still fading.
  await tap(page, 'd4');
  await tap(page, 'f6');
  await plies(page, 2);
  assert.deepEqual(await moveList(page), ['d4:f6', 'g7:e5']);
  await boardIsState(page, 'after g7:e5');
  await page.locator('.board [data-square="e5"] .piece:not(.ghost) .disc.black').waitFor();
  assert.deepEqual(errors, []);
  await context.close();
});

test('a whole game against the computer with animations on: the board equals the state after every move', async () => {
  const { page, errors, context } = await openPage(env.browser, { motion: true });
  await newGame(page, env.server.url, { rules: 'russian', opponent: 'computer', level: 'easy', color: 'white' });
  for (let i = 0; i < 14; i++) {
    await Promise.race([myTurn(page), page.locator('dialog.results[open]').waitFor({ timeout: 30000 })]);
    if (await page.locator('dialog.results[open]').count()) break;
    await boardIsState(page, `before move ${i + 1}`);
    const before = (await moveList(page)).length;
    const glowing = await page.locator('.board .sq.glow').evaluateAll((els) => els.map((e) => e.getAttribute('data-square')));
    const mine = await page.locator('.board .sq:has(.piece:not(.ghost) .disc.top.white)').evaluateAll((els) => els.map((e) => e.getAttribute('data-square')));
    let moved = false;
    for (const sq of [...glowing, ...mine]) {
      if (!sq || moved) continue;
      await tap(page, sq);
      const dest = await page.locator('.board .sq.final, .board .sq.next').evaluateAll((els) => els.map((e) => e.getAttribute('data-square')));
      if (!dest.length) continue;
      await tap(page, /** @type {string} */ (dest[0]));
      for (let k = 0; k < 12 && (await moveList(page)).length === before; k++) {
        const next = await page.locator('.board .sq.next').evaluateAll((els) => els.map((e) => e.getAttribute('data-square')));
        if (next.length) await tap(page, /** @type {string} */ (next[0]));
        else await page.waitForTimeout(50);
      }
      moved = true;
    }
    assert.ok(moved, 'White had a move');
  }
  // The computer's last answer arrived, or the game ended: nothing moves any more.
  await Promise.race([myTurn(page), page.locator('dialog.results[open]').waitFor({ timeout: 30000 })]);
  await boardIsState(page, 'at the end');
  assert.deepEqual(errors, []);
  await context.close();
});
