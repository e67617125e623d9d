// The engine review of a finished game (docs/api.md, "Engine review"): asked for from the
// results, it fills the evaluation graph as the engine goes, marks the blunder ?? in the move
// list, shows the better move as an arrow with its line, sums up each side, and a click on the
// graph goes to that move; the home page's finished games open it too, and it is there again,
// in Russian, for whoever opens the game later. A game still played is not reviewed.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lowContrast, myTurn, newGame, openPage, serverAndBrowser, tap } from './harness.js';

const env = serverAndBrowser();

// Russian draughts, two on one device. Two quiet moves each, then White's h4-g5?? lets the man
// on h6 take g5 and e3 in one capture (h6:f4:d2): White has nothing left and Black wins.
// Before it the men are even (2 against 2) and e3-f4 holds; after it White has lost.
const POSITION = 'W:Wh2,e3:Ba7,h6';
const MOVES = [['h2', 'g3', 'h2-g3'], ['a7', 'b6', 'a7-b6'], ['g3', 'h4', 'g3-h4'], ['b6', 'c5', 'b6-c5'], ['h4', 'g5', 'h4-g5'], ['h6', 'd2', 'h6:f4:d2']];
const BLUNDER = 4;

/** The review as the server answers it now. @param {import('playwright-core').Page} page */
async function reviewOf(page) {
  return page.evaluate(async () => {
    const id = location.pathname.split('/').pop();
    const res = await fetch(`/api/games/${id}/review`, { credentials: 'same-origin' });
    return { status: res.status, body: await res.json() };
  });
}

test('the engine review: graph, ?? in the move list, the better move\'s arrow and line, the summary, the graph picks a move', async () => {
  const { page, errors, context } = await openPage(env.browser, { locale: 'en-US' });
  await newGame(page, env.server.url, { rules: 'russian', opponent: 'hotseat', position: POSITION });
  const id = new URL(page.url()).pathname.split('/').pop();
  for (const [from, to, text] of MOVES) {
    await myTurn(page);
    await tap(page, from);
    await tap(page, to);
    await page.locator('ol.moves .mv', { hasText: text }).waitFor();
  }
  const results = page.locator('dialog.results[open]');
  await results.waitFor();
  assert.equal(await results.locator('h2').textContent(), 'Black won');
  // While the engine works the card says how far it has got; every text it shows is kept.
  await page.evaluate(() => {
    /** @type {string[]} */
    const seen = [];
    Object.assign(window, { progressSeen: seen });
    new MutationObserver(() => {
      const el = document.querySelector('.engine-progress:not([hidden]) .text');
      const text = el && el.textContent;
      if (text && seen[seen.length - 1] !== text) seen.push(text);
    }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  await results.locator('[data-act="engine-review"]', { hasText: 'Engine review' }).click();
  // The replay starts at once; the review follows.
  await page.locator('ol.moves .mv.current', { hasText: 'h6:f4:d2' }).waitFor();
  await page.locator('.engine-card:not([hidden]) svg.eval-graph').waitFor();
  await page.locator('.engine-summary').waitFor({ timeout: 60000 });
  const seen = await page.evaluate(() => /** @type {any} */ (window).progressSeen);
  for (const text of seen) assert.match(text, /^(Waiting for the engine…|Engine thinking… [0-6] \/ 6)$/);
  assert.equal(await page.locator('.engine-progress').isVisible(), false);

  // The server's answer, as docs/api.md has it.
  const { status, body: r } = await reviewOf(page);
  assert.equal(status, 200);
  assert.equal(r.status, 'done');
  assert.equal(r.plies, 6);
  assert.equal(r.unit, 'man');
  assert.equal(r.moves.length, 6);
  assert.deepEqual(r.moves.map((/** @type {any} */ m) => m.move), MOVES.map((m) => m[2]));
  const blunder = r.moves[BLUNDER];
  assert.equal(blunder.side, 'white');
  assert.equal(blunder.mark, 'blunder', JSON.stringify(blunder));
  assert.equal(blunder.nag, '??');
  assert.ok(blunder.loss >= 2 && blunder.after <= -2, JSON.stringify(blunder));
  assert.ok(Array.isArray(blunder.best_path) && blunder.best_path.length >= 2, JSON.stringify(blunder));
  assert.ok(r.summary && r.summary.white.blunders >= 1, JSON.stringify(r.summary));

  // A point per move on the graph, the blunder's red.
  assert.equal(await page.locator('.eval-graph .pt').count(), 6);
  assert.equal(await page.locator(`.eval-graph .pt.blunder[data-ply="${BLUNDER}"]`).count(), 1);
  // The move list: ?? after the blunder, and what it gave away in its title.
  const mv = page.locator(`ol.moves .mv[data-ply="${BLUNDER}"]`);
  assert.equal(await mv.locator('.nag.blunder').textContent(), '??');
  assert.equal(await mv.textContent(), 'h4-g5??');
  assert.match(await mv.getAttribute('title') || '', new RegExp(`^Blunder: gives away [0-9.]+ men\\. Better: ${blunder.best}$`));
  const nags = await page.locator('ol.moves .mv .nag').evaluateAll((els) => els.map((e) => `${e.closest('[data-ply]')?.getAttribute('data-ply')}${e.textContent}`));
  const want = r.moves.filter((/** @type {any} */ m) => m.nag).map((/** @type {any} */ m) => `${m.ply}${m.nag}`);
  assert.deepEqual(nags, want);
  // The summary, per side.
  for (const side of ['white', 'black']) {
    for (const stat of ['inaccuracies', 'mistakes', 'blunders']) {
      assert.equal(await page.locator(`.engine-summary [data-side="${side}"][data-stat="${stat}"]`).textContent(), String(r.summary[side][stat]), `${side} ${stat}`);
    }
    assert.equal(await page.locator(`.engine-summary [data-side="${side}"][data-stat="accuracy"]`).textContent(), `${Math.round(r.summary[side].accuracy)}%`);
  }

  // The last move (forced, unmarked): no arrow. The blunder: the better move's arrow and line.
  assert.equal(await page.locator('.board .engine-arrow').count(), 0);
  assert.match(await page.locator('.engine-note').textContent() || '', /^h6:f4:d2: evaluation −\d+\.\d$/);
  await mv.click();
  await page.locator('ol.moves .mv.current', { hasText: 'h4-g5' }).waitFor();
  const arrow = page.locator('.board .engine-arrow');
  await arrow.waitFor();
  assert.equal(await arrow.getAttribute('data-from'), blunder.best_path[0]);
  assert.equal(await arrow.getAttribute('data-to'), blunder.best_path[blunder.best_path.length - 1]);
  const note = await page.locator('.engine-note').textContent() || '';
  assert.ok(note.startsWith('?? Blunder: gives away'), note);
  assert.ok(note.includes(`Better: ${blunder.best}`), note);
  if (blunder.line.length > 1) assert.ok(note.includes(`— line: ${blunder.line.slice(0, 2).join(' ')}`), note);
  assert.equal(await page.locator(`.eval-graph .pt.current[data-ply="${BLUNDER}"]`).count(), 1);
  assert.deepEqual(await lowContrast(page), [], 'the review');

  // A click on the graph: on a point, then near the left edge (the start).
  await page.locator('.eval-graph .pt[data-ply="1"]').click();
  await page.locator('ol.moves .mv.current[data-ply="1"]').waitFor();
  assert.match(await page.locator('.turn-line').textContent() || '', /^Move 2 of 6: a7-b6 · White to move$/);
  assert.equal(await page.locator('.eval-graph .pt.current[data-ply="1"]').count(), 1);
  assert.equal(await page.locator('.board .engine-arrow').count(), r.moves[1].mark ? 1 : 0);
  let box = await page.locator('.eval-graph').boundingBox();
  assert.ok(box);
  await page.mouse.click(box.x + 3, box.y + box.height / 2);
  await page.locator('ol.moves .mv.start.current').waitFor();
  await page.locator('.board [data-square="h2"] .disc.white').waitFor();
  // The graph stays where it was (the line under the turn line keeps its height).
  assert.deepEqual(await page.locator('.eval-graph').boundingBox(), box);
  // And on the graph where the blunder is, between points.
  box = await page.locator('.eval-graph').boundingBox();
  assert.ok(box);
  await page.mouse.click(box.x + box.width * (BLUNDER + 1.2) / 6, box.y + 5);
  await page.locator(`ol.moves .mv.current[data-ply="${BLUNDER}"]`).waitFor();

  // The home page's finished games open the review.
  await page.goto(`${env.server.url}/`);
  const link = page.locator(`.finished .game-row a.review-game[href="/g/${id}?review=1"]`);
  await link.click();
  await page.waitForURL(new RegExp(`/g/${id}$`));
  await page.locator('.engine-summary').waitFor();
  await page.locator('ol.moves .mv.current', { hasText: 'h6:f4:d2' }).waitFor();
  assert.equal(await page.locator('.eval-graph .pt').count(), 6);
  assert.equal(await page.locator(`ol.moves .mv[data-ply="${BLUNDER}"] .nag`).textContent(), '??');
  assert.deepEqual(errors, []);
  await context.close();

  // Someone else, in Russian, on a phone, later: the review done is shown with the game.
  const ru = await openPage(env.browser, { locale: 'ru-RU', mobile: true });
  await ru.page.goto(`${env.server.url}/g/${id}`);
  await ru.page.locator('.engine-summary').waitFor();
  assert.equal(await ru.page.locator('.engine-card h2').textContent(), 'Разбор партии');
  assert.match(await ru.page.locator('.engine-summary').textContent() || '', /Грубые ошибки[\s\S]*Точность/);
  assert.equal(await ru.page.locator(`ol.moves .mv[data-ply="${BLUNDER}"] .nag`).textContent(), '??');
  const wide = await ru.page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(wide <= 360, `the review on a phone is ${wide} px wide`);
  assert.deepEqual(ru.errors, []);
  await ru.context.close();
});

test('a game still played is not reviewed: no button, and the server refuses with 409', async () => {
  const { page, errors, context } = await openPage(env.browser, { locale: 'ru-RU' });
  await newGame(page, env.server.url, { rules: 'russian', opponent: 'hotseat', position: POSITION });
  await myTurn(page);
  await tap(page, 'h2');
  await tap(page, 'g3');
  await page.locator('ol.moves .mv', { hasText: 'h2-g3' }).waitFor();
  await myTurn(page);
  await tap(page, 'a7');
  await tap(page, 'b6');
  await page.locator('ol.moves .mv', { hasText: 'a7-b6' }).waitFor();
  await myTurn(page);
  assert.equal(await page.locator('.engine-start').isVisible(), false);
  assert.equal(await page.locator('.engine-card').isVisible(), false);
  // Asked with the page's cookie (not from the page: a refused request is a console error there).
  const res = await context.request.post(`${page.url()}/review`.replace('/g/', '/api/games/'));
  assert.equal(res.status(), 409);
  assert.equal(typeof (await res.json()).error, 'string');
  // Once it is over (White resigns), the button is there, in Russian.
  await page.click('.menu-button');
  await page.click('dialog.menu [data-act="resign"]');
  await page.click('dialog.menu [data-act="resign"]');
  await page.locator('dialog.results[open] [data-act="engine-review"]', { hasText: 'Разбор' }).waitFor();
  await page.click('dialog.results [data-act="close-results"]');
  await page.locator('.engine-start button', { hasText: 'Разбор' }).waitFor();
  assert.deepEqual(errors, []);
  await context.close();
});
