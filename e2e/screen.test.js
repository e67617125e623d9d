// How the screens fit the windows players have: every control readable (WCAG AA contrast),
// the whole game screen on one screen without scrolling, no page wider than a phone, the
// games to continue on the first screen, and the home page's choices kept across languages.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lowContrast, myTurn, newGame, openPage, outOfView, serverAndBrowser, tap } from './harness.js';

const env = serverAndBrowser();

// An Ugolki jump chain under way, with the leave-home warning showing: the tallest the
// controls of a move get (warning, hint, "End move" and "Cancel").
const CHAIN = 'W:Wa1,d7,e8,f6,g6,h6,g7,h7,g8:Bb1,c1,a2,b2,c2,a3,b3,e7,h8:N36';

/** @param {import('playwright-core').Page} page */
async function startChain(page) {
  await newGame(page, env.server.url, { kind: 'ugolki', rules: 'ugolki', opponent: 'hotseat', position: CHAIN });
  await myTurn(page);
  await tap(page, 'd7');
  await tap(page, 'f7');
  await page.locator('.actions button.end-move').waitFor();
  await page.locator('.prompt .warning').waitFor();
}

const GAME_SCREEN = ['.game-head', '.score', '.board', '.turn-line', '.prompt p', '.actions button'];

test('the whole game screen fits without scrolling: 1280x720, 1366x657, 1280x860, 360x640', async () => {
  for (const [width, height, mobile] of /** @type {[number, number, boolean][]} */ ([[1280, 720, false], [1366, 657, false], [1280, 860, false], [360, 640, true]])) {
    const { page, errors, context } = await openPage(env.browser, { width, height, mobile });
    await startChain(page);
    assert.deepEqual(await outOfView(page, GAME_SCREEN), [], `${width}x${height}`);
    const board = await page.locator('.board').boundingBox();
    assert.ok(board && board.width >= Math.min(300, width - 40), `${width}x${height}: the board is ${board && board.width} px`);
    // A draughts game against the computer fits too.
    await newGame(page, env.server.url, { rules: 'international', opponent: 'computer', level: 'easy', color: 'white' });
    await myTurn(page);
    assert.deepEqual(await outOfView(page, GAME_SCREEN), [], `${width}x${height}, international`);
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('every control on the game screen, its menu, its results and the home page meets WCAG AA contrast', async () => {
  const { page, errors, context } = await openPage(env.browser, { locale: 'en-US' });
  await page.goto(`${env.server.url}/`);
  await page.locator('button.play').waitFor();
  assert.deepEqual(await lowContrast(page), [], 'home');
  await startChain(page);
  assert.ok(await page.locator('.actions button', { hasText: 'Cancel' }).isVisible());
  assert.deepEqual(await lowContrast(page), [], 'a jump chain being entered');
  await page.click('.menu-button');
  await page.locator('dialog.menu[open]').waitFor();
  assert.deepEqual(await lowContrast(page), [], 'the menu');
  await page.click('dialog.menu [data-act="continue"]');
  // A capture being entered in draughts (Cancel beside the hint), then the results.
  await newGame(page, env.server.url, { rules: 'russian', opponent: 'hotseat', position: 'W:Wa3:Bb4,b6,d6' });
  await myTurn(page);
  await tap(page, 'a3');
  await tap(page, 'c5');
  await page.locator('.actions button', { hasText: 'Cancel' }).waitFor();
  assert.deepEqual(await lowContrast(page), [], 'a capture being entered');
  await tap(page, 'e7');
  await page.locator('ol.moves .mv', { hasText: 'a3:c5:e7' }).waitFor();
  await tap(page, 'b6');
  await tap(page, 'a5');
  await page.locator('ol.moves .mv', { hasText: 'b6-a5' }).waitFor();
  await page.click('.menu-button');
  await page.click('dialog.menu [data-act="resign"]');
  await page.click('dialog.menu [data-act="resign"]');
  await page.locator('dialog.results[open]').waitFor();
  await page.locator('dialog.results[open] .stats-grid, dialog.results[open] .stats-loading').first().waitFor();
  assert.deepEqual(await lowContrast(page), [], 'the results');
  await page.click('dialog.results [data-act="review"]');
  await page.locator('.replay-controls:not([hidden])').waitFor();
  assert.deepEqual(await lowContrast(page), [], 'the replay');
  assert.deepEqual(errors, []);
  await context.close();
});

test('no page is wider than a 320 or 360 px phone, in Russian or English', async () => {
  const { page: maker, context: makerContext } = await openPage(env.browser);
  await newGame(maker, env.server.url, { rules: 'canadian', opponent: 'computer', level: 'easy', color: 'white' });
  const gameUrl = maker.url();
  await makerContext.close();
  for (const locale of ['ru-RU', 'en-US']) {
    for (const width of [320, 360]) {
      const { page, errors, context } = await openPage(env.browser, { locale, width, height: 640, mobile: true });
      for (const path of ['/', '/rules', '/rules/ugolki', '/rules/russian', '/rules/no-such-rules', '/rulebook', '/rulebook/frisian', new URL(gameUrl).pathname]) {
        await page.goto(`${env.server.url}${path}`);
        await page.locator('main > *').first().waitFor();
        await page.waitForTimeout(100);
        const w = await page.evaluate(() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth));
        assert.ok(w <= width, `${locale} ${path} at ${width} px is ${w} px wide`);
      }
      assert.deepEqual(errors, []);
      await context.close();
    }
  }
});

test('a returning player with unfinished games sees them on the first screen (1280x860 and a phone)', async () => {
  for (const [width, height, mobile] of /** @type {[number, number, boolean][]} */ ([[1280, 860, false], [360, 640, true]])) {
    const { page, errors, context } = await openPage(env.browser, { width, height, mobile });
    await newGame(page, env.server.url, { rules: 'russian', opponent: 'computer', level: 'easy', color: 'white' });
    await myTurn(page);
    await page.goto(`${env.server.url}/`);
    const row = page.locator('.continue .game-row').first();
    await row.waitFor();
    assert.deepEqual(await outOfView(page, ['.continue .game-row']), [], `${width}x${height}`);
    // A first visit has nothing to continue: the new game comes first.
    const fresh = await openPage(env.browser, { width, height, mobile });
    await fresh.page.goto(`${env.server.url}/`);
    await fresh.page.locator('.list.unfinished .muted').waitFor();
    assert.deepEqual(await outOfView(fresh.page, ['form.new-game h2']), []);
    await fresh.context.close();
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('the language switch keeps the rule set shown; an unknown rules page says it is not found', async () => {
  const { page, errors, context } = await openPage(env.browser, { locale: 'ru-RU' });
  await page.goto(`${env.server.url}/`);
  await page.locator('label.choice.checked', { hasText: 'Русские' }).waitFor();
  await page.click('button.lang');
  await page.locator('button.play', { hasText: 'Play' }).waitFor();
  await page.locator('label.choice.checked', { hasText: 'Russian' }).waitFor();
  // Elsewhere and back: still the same.
  await page.goto(`${env.server.url}/rules`);
  await page.goto(`${env.server.url}/`);
  await page.locator('label.choice.checked', { hasText: 'Russian' }).waitFor();
  await page.click('button.lang');
  await page.locator('label.choice.checked', { hasText: 'Русские' }).waitFor();

  await page.goto(`${env.server.url}/rules/no-such-rules`);
  await page.locator('.not-found h1').waitFor();
  assert.match(await page.locator('.not-found').textContent() || '', /no-such-rules/);
  await page.click('.not-found a[href="/rules"]');
  await page.locator('.rules-index').waitFor();
  await page.goto(`${env.server.url}/no/such/page`);
  await page.locator('.not-found h1').waitFor();
  assert.deepEqual(errors, []);
  await context.close();
});
