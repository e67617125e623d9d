// How a game ends and is looked back on: the replay describes the position shown (score,
// move, side to move, the start highlighted, keyboard arrows); a game of two people on one
// device is neither a win nor a loss of the person holding it; "You resigned" for the one who
// did; before both sides moved the game can only be cancelled.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { moveList, myTurn, newGame, openPage, serverAndBrowser, tap } from './harness.js';

const env = serverAndBrowser();

/** @param {import('playwright-core').Page} page */
const score = (page) => page.locator('.score .side-score').evaluateAll((els) => els.map((e) => `${e.getAttribute('data-side')} ${e.querySelector('.count')?.textContent}${e.classList.contains('to-move') ? ' *' : ''}`).sort());
/** @param {import('playwright-core').Page} page */
const line = (page) => page.locator('.turn-line').textContent();

/** @param {import('playwright-core').Page} page */
async function menuItems(page) {
  await page.click('.menu-button');
  await page.locator('dialog.menu[open]').waitFor();
  const acts = await page.locator('dialog.menu [data-act]').evaluateAll((els) => els.map((e) => e.getAttribute('data-act')));
  await page.click('dialog.menu [data-act="continue"]');
  return acts;
}

test('two on one device: the replay describes the position shown, and the stats count colours, not wins', async () => {
  const { page, errors, context } = await openPage(env.browser, { locale: 'en-US' });
  await newGame(page, env.server.url, { rules: 'russian', opponent: 'hotseat', position: 'W:Wa3,e5,f4:Bb4,d6,f8' });
  await myTurn(page);
  await tap(page, 'a3');
  await tap(page, 'e7');
  await page.locator('ol.moves .mv', { hasText: 'a3:c5:e7' }).waitFor();
  await tap(page, 'f8');
  await tap(page, 'd6');
  await page.locator('ol.moves .mv', { hasText: 'f8:d6' }).waitFor();
  await tap(page, 'e5');
  await tap(page, 'c7');
  const results = page.locator('dialog.results[open]');
  await results.waitFor();
  assert.equal(await results.locator('h2').textContent(), 'White won');
  // The stats of a hot-seat game: games and results by colour, no wins or losses.
  await results.locator('[data-stat="games"]').waitFor();
  assert.equal(await results.locator('[data-stat="games"]').textContent(), '1');
  assert.equal(await results.locator('[data-stat="white-wins"]').textContent(), '1');
  assert.equal(await results.locator('[data-stat="black-wins"]').textContent(), '0');
  assert.equal(await results.locator('[data-stat="wins"]').count(), 0);
  assert.equal(await results.locator('[data-stat="streak"]').count(), 0);

  // Replay: at the end, then at the start, then stepping with the keyboard.
  await results.locator('[data-act="review"]').click();
  await page.locator('ol.moves .mv.current', { hasText: 'e5:c7' }).waitFor();
  assert.match(await line(page) || '', /^Move 3 of 3: e5:c7 · White won$/);
  assert.deepEqual(await score(page), ['black 0', 'white 2']);
  await page.locator('.replay-controls [data-replay="first"]').click();
  await page.locator('ol.moves .mv.start.current').waitFor();
  assert.match(await line(page) || '', /^Start of the game \(3 moves to step through\) · White to move$/);
  assert.deepEqual(await score(page), ['black 3', 'white 3 *']);
  await page.locator('.board [data-square="b4"] .disc.black').waitFor();
  await page.locator('h1').first().click();
  await page.keyboard.press('ArrowRight');
  await page.locator('ol.moves .mv.current', { hasText: 'a3:c5:e7' }).waitFor();
  assert.match(await line(page) || '', /^Move 1 of 3: a3:c5:e7 · Black to move$/);
  assert.deepEqual(await score(page), ['black 1 *', 'white 3']);
  await page.keyboard.press('ArrowRight');
  await page.locator('ol.moves .mv.current', { hasText: 'f8:d6' }).waitFor();
  assert.deepEqual(await score(page), ['black 1', 'white 2 *']);
  await page.keyboard.press('ArrowLeft');
  await page.locator('ol.moves .mv.current', { hasText: 'a3:c5:e7' }).waitFor();
  await page.keyboard.press('End');
  await page.locator('ol.moves .mv.current', { hasText: 'e5:c7' }).waitFor();
  await page.keyboard.press('Home');
  await page.locator('ol.moves .mv.start.current').waitFor();

  // Home: the hot-seat row shows the colours' results, not wins and losses.
  await page.goto(`${env.server.url}/`);
  const row = page.locator('.stats-table tr.hotseat');
  await row.waitFor();
  assert.match(await row.textContent() || '', /White 1 · Black 0/);
  assert.deepEqual(await row.locator('td').allTextContents(), ['–', '–', '0', '–', '–', '–']);
  assert.deepEqual(errors, []);
  await context.close();
});

test('before both sides moved the game is cancelled, not resigned (also after a takeback to the start)', async () => {
  const { page, errors, context } = await openPage(env.browser, { locale: 'en-US' });
  // The computer (White) moves first: one side has moved.
  await newGame(page, env.server.url, { rules: 'russian', opponent: 'computer', level: 'easy', color: 'black' });
  await myTurn(page);
  assert.equal((await moveList(page)).length, 1);
  let acts = await menuItems(page);
  assert.ok(acts.includes('abort') && !acts.includes('resign'), acts.join());
  // Playing White: a move, the answer, a takeback to the start.
  await newGame(page, env.server.url, { rules: 'russian', opponent: 'computer', level: 'easy', color: 'white' });
  await myTurn(page);
  await tap(page, 'c3');
  await tap(page, 'd4');
  await page.waitForFunction(() => document.querySelectorAll('ol.moves .mv').length === 2);
  await myTurn(page);
  acts = await menuItems(page);
  assert.ok(acts.includes('resign') && !acts.includes('abort'), acts.join());
  await page.click('.menu-button');
  await page.click('dialog.menu [data-act="takeback"]');
  await page.waitForFunction(() => document.querySelectorAll('ol.moves .mv').length === 0);
  await myTurn(page);
  acts = await menuItems(page);
  assert.ok(acts.includes('abort') && !acts.includes('resign'), acts.join());
  await page.click('.menu-button');
  await page.click('dialog.menu [data-act="abort"]');
  await page.locator('.turn-line', { hasText: 'Game cancelled' }).waitFor();
  assert.deepEqual(errors, []);
  await context.close();
});

test('a friend game resigned: "You resigned" to the one who did, "Your opponent resigned" to the other', async () => {
  const a = await openPage(env.browser, { locale: 'en-US' });
  await newGame(a.page, env.server.url, { rules: 'russian', opponent: 'friend', color: 'white' });
  const link = await a.page.inputValue('.invite-link');
  const b = await openPage(env.browser, { locale: 'en-US' });
  await b.page.goto(link);
  await myTurn(a.page);
  await tap(a.page, 'c3');
  await tap(a.page, 'd4');
  await myTurn(b.page);
  await tap(b.page, 'f6');
  await tap(b.page, 'g5');
  await myTurn(a.page);
  await a.page.click('.menu-button');
  await a.page.click('dialog.menu [data-act="resign"]');
  await a.page.click('dialog.menu [data-act="resign"]');
  const ra = a.page.locator('dialog.results[open]');
  await ra.waitFor();
  assert.equal(await ra.locator('h2').textContent(), 'You lost');
  assert.equal(await ra.locator('.reason').textContent(), 'You resigned.');
  const rb = b.page.locator('dialog.results[open]');
  await rb.waitFor();
  assert.equal(await rb.locator('h2').textContent(), 'You won!');
  assert.equal(await rb.locator('.reason').textContent(), 'Your opponent resigned.');
  for (const p of [a, b]) {
    assert.deepEqual(p.errors, []);
    await p.context.close();
  }
});
