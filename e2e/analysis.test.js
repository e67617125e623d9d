// The analysis board (/analysis, docs/api.md "Analysis board" and "A position alone"): a
// position from a FEN, the engine's three lines deepening, its switch, the evaluation bar and
// the best move's arrow; both sides moved on the board, a line's first move played, a side line
// kept beside the main line, a bad FEN refused with the server's reason, and all of it without
// a game on the server (nothing created, nothing in the player's lists or stats); a PDN's moves
// as the main line with the capture that must follow glowing at once; the exact Ugolki race in
// both languages; the opening book's moves in the first moves of russian; the way in from the home page and from a finished game (never from a game
// being played).

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { BIN, lowContrast, myTurn, newGame, openPage, serverAndBrowser, tap } from './harness.js';

const env = serverAndBrowser();

// Russian draughts, White to move, no capture for either side at once.
const FEN = 'W:Wc1,e1,f2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,e7,g7';
const BLACK = /^(b6|d6|f6|h6|a7|e7|g7)/;
// Ugolki, the armies past each other: White needs 5 moves, Black 6.
const RACE = 'W:Wg5,f6,g6,e7,g7,e8,f8,g8,h8:Ba1,c1,d1,a2,a3,b3,d3,b4,d5:N31';

/** @param {import('playwright-core').Page} page */
const depth = async (page) => Number(await page.locator('.an-depth').getAttribute('data-depth'));
/** The main line and the side lines, as texts. @param {import('playwright-core').Page} page */
const mainLine = (page) => page.locator('.an-tree > li:not(.an-var) .mv:not(.start)').allTextContents();
/** @param {import('playwright-core').Page} page */
const sideLines = (page) => page.locator('.an-tree .an-var .mv').allTextContents();
/** @param {import('playwright-core').Page} page */
const current = (page) => page.locator('.an-tree .mv.current').textContent();

/** The games the server has created so far (its metric). */
async function gamesCreated() {
  const text = await (await fetch(`${env.server.url}/metrics`)).text();
  const m = /^doska_games_created_total (\d+)/m.exec(text);
  assert.ok(m, 'doska_games_created_total in /metrics');
  return Number(m[1]);
}

test('Russian from a FEN: three lines deepening, the switch, moves of both sides, a line played, a side line, a bad FEN; no game made', async () => {
  const { page, errors, context } = await openPage(env.browser, { locale: 'en-US' });
  // Nothing of a game: no game created, no socket opened.
  const created = await gamesCreated();
  /** @type {string[]} */
  const gameCalls = [];
  page.on('request', (r) => {
    if (/\/api\/games/.test(r.url()) && r.method() !== 'GET') gameCalls.push(`${r.method()} ${r.url()}`);
  });
  page.on('websocket', (ws) => gameCalls.push(`socket ${ws.url()}`));
  await page.goto(`${env.server.url}/analysis?rules=russian&fen=${encodeURIComponent(FEN)}`);
  assert.equal(await page.locator('.analysis h1').textContent(), 'Analysis board');
  assert.equal(await page.locator('.an-setup select').inputValue(), 'russian');
  // Three lines, each with a signed value and the moves in notation, the first of White.
  await page.locator('.an-line').nth(2).waitFor();
  assert.equal(await page.locator('.an-line').count(), 3);
  for (const v of await page.locator('.an-line .an-value').allTextContents()) assert.match(v, /^([+−]\d+\.\d|0\.0)$/);
  for (const m of await page.locator('.an-line .an-first').allTextContents()) assert.match(m, /^1\.[a-h][1-8]-[a-h][1-8]$/);
  assert.match(await page.locator('.an-line').first().locator('.an-pv').textContent() || '', /^1\.[a-h]\d-[a-h]\d [a-h]\d-[a-h]\d 2\./);
  // The depth grows as the engine thinks.
  const d0 = await depth(page);
  assert.ok(d0 >= 4, `first depth ${d0}`);
  await page.waitForFunction((d) => Number(document.querySelector('.an-depth')?.getAttribute('data-depth')) > d + 1, d0, { timeout: 30000 });
  assert.match(await page.locator('.an-depth').textContent() || '', /^Depth \d+/);
  // The bar and the arrow follow the best line.
  assert.match(await page.locator('.eval-bar').getAttribute('aria-label') || '', /^Evaluation ([+−]\d+\.\d|0\.0)/);
  const arrow = page.locator('.board .engine-arrow');
  await arrow.waitFor();
  const best = await page.locator('.an-line').first().getAttribute('data-first') || '';
  assert.equal(`${await arrow.getAttribute('data-from')}-${await arrow.getAttribute('data-to')}`, best);
  assert.deepEqual(await lowContrast(page), []);

  // Off: the lines go, nothing more is asked; on again: they come back, deeper.
  /** @type {string[]} */
  const asked = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/analysis')) asked.push(r.url());
  });
  await page.click('.engine-switch');
  assert.equal(await page.locator('.engine-switch').getAttribute('aria-checked'), 'false');
  assert.equal(await page.locator('.engine-switch').textContent(), 'Engine off');
  assert.equal(await page.locator('.an-line').count(), 0);
  assert.equal(await arrow.count(), 0);
  const before = asked.length;
  await page.waitForTimeout(1500);
  assert.equal(asked.length, before, 'no analysis asked while the engine is off');
  await page.click('.engine-switch');
  assert.equal(await page.locator('.engine-switch').textContent(), 'Engine on');
  await page.locator('.an-line').nth(2).waitFor();

  // White's move on the board: the lines are Black's now.
  await tap(page, 'c3');
  assert.match(await page.locator('.board [data-square="d4"]').getAttribute('class') || '', /\bfinal\b/);
  await tap(page, 'd4');
  await page.locator('.an-tree .mv.current', { hasText: 'c3-d4' }).waitFor();
  assert.equal(await page.locator('.an-turn').textContent(), 'Black to move');
  await page.waitForFunction(() => {
    const lines = [...document.querySelectorAll('.an-line')].map((l) => l.getAttribute('data-first') || '');
    return lines.length === 3 && lines.every((m) => /^(b6|d6|f6|h6|a7|e7|g7)/.test(m));
  });
  for (const m of await page.locator('.an-line .an-first').allTextContents()) assert.match(m, /^1…/);
  // Black's move, then back (the button, then the keyboard) and another move: a side line.
  await tap(page, 'f6');
  await tap(page, 'g5');
  await page.locator('.an-tree .mv.current', { hasText: 'f6-g5' }).waitFor();
  assert.deepEqual(await mainLine(page), ['c3-d4', 'f6-g5']);
  await page.click('.an-nav [data-act="prev"]');
  assert.equal(await current(page), 'c3-d4');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await current(page), 'Start');
  await page.keyboard.press('ArrowRight');
  assert.equal(await current(page), 'c3-d4');
  assert.equal(await page.locator('.an-turn').textContent(), 'Black to move');
  await tap(page, 'b6');
  await tap(page, 'a5');
  await page.locator('.an-tree .an-var .mv.current', { hasText: 'b6-a5' }).waitFor();
  assert.deepEqual(await mainLine(page), ['c3-d4', 'f6-g5'], 'the main line stays');
  assert.deepEqual(await sideLines(page), ['b6-a5']);
  assert.match(await page.locator('.an-tree .an-var').textContent() || '', /^1…\s*b6-a5$/);
  assert.ok(await page.locator('.board [data-square="a5"] .disc.black').count());
  // Both are clickable: back to the main line.
  await page.click('.an-tree .mv:text-is("f6-g5")');
  assert.equal(await current(page), 'f6-g5');
  assert.ok(await page.locator('.board [data-square="g5"] .disc.black').count());
  assert.equal(await page.locator('.board [data-square="a5"] .piece').count(), 0);
  await page.click('.an-tree .an-var .mv:text-is("b6-a5")');
  assert.equal(await current(page), 'b6-a5');
  await page.click('.an-tree .mv:text-is("f6-g5")');
  // A line's first move, clicked, is played: the main line goes on with it.
  await page.locator('.an-line').nth(2).waitFor();
  // Found, read and clicked in one task of the page: each answer of the deepening search
  // draws the lines anew, and a line a locator found before an answer is no longer on the page
  // (a click on it reaches nobody: the test waited in vain for its move in 1 run of 5).
  const first = await page.evaluate(() => {
    const line = /** @type {HTMLElement} */ (document.querySelector('.an-line'));
    /** @type {HTMLElement} */ (line.querySelector('.an-first')).click();
    return line.getAttribute('data-first') || '';
  });
  assert.match(first, /^[a-h]\d/);
  await page.locator('.an-tree .mv.current', { hasText: first }).waitFor();
  assert.deepEqual(await mainLine(page), ['c3-d4', 'f6-g5', first]);
  // (The engine's choice may offer Black a capture: then the line says so.)
  assert.match(await page.locator('.an-turn').textContent() || '', /^Black to move( · capture is compulsory)?$/);

  // A bad FEN: the server's reason, and the board stays as it was.
  await page.fill('#an-position', 'W:Wxx:B');
  await page.click('.an-setup .an-load');
  const err = page.locator('.an-setup .form-error');
  await err.waitFor();
  assert.match(await err.textContent() || '', /malformed square "xx"/);
  assert.deepEqual(await mainLine(page), ['c3-d4', 'f6-g5', first]);
  // A good one replaces the tree (and the error).
  await page.fill('#an-position', 'B:Wc3,e3:Bd6,f6');
  await page.click('.an-setup .an-load');
  await page.locator('.an-tree .mv.current', { hasText: 'Start' }).waitFor();
  await err.waitFor({ state: 'hidden' });
  assert.equal(await page.locator('.an-turn').textContent(), 'Black to move');
  assert.equal(await page.locator('#an-fen').inputValue(), 'B:Wc3,e3:Bd6,f6');
  assert.match(page.url(), /\/analysis\?rules=russian&fen=B%3AWc3%2Ce3%3ABd6%2Cf6$/);
  await page.locator('.an-line').first().waitFor();

  // None of this made a game: the server created none, the page asked for none and opened no
  // socket, and the player's lists and stats are as empty as before.
  assert.deepEqual(gameCalls, []);
  assert.equal(await gamesCreated(), created, 'no game created on the server');
  const lists = await page.evaluate(async () => (await fetch('/api/games')).json());
  assert.deepEqual(lists, { unfinished: [], finished: [] });
  const stats = await page.evaluate(async () => (await fetch('/api/stats')).json());
  assert.deepEqual(stats.mine, []);
  await page.goto(`${env.server.url}/`);
  await page.locator('.list.unfinished', { hasText: 'No unfinished games.' }).waitFor();
  await page.locator('.list.done', { hasText: 'No finished games yet.' }).waitFor();
  assert.equal(await page.locator('.stats-table').textContent(), 'Finish a game to see your wins, losses and streaks here.');
  // The browser reports the refused position (400) itself; nothing else went wrong.
  assert.deepEqual(errors.filter((e) => !/status of 400/.test(e)), []);
  await context.close();
});

test('a PDN: its moves as the main line, the capture that must follow glowing at once, then moves of its own', async () => {
  const { page, errors, context } = await openPage(env.browser, { locale: 'en-US' });
  const created = await gamesCreated();
  await page.goto(`${env.server.url}/analysis?rules=russian`);
  await page.locator('.board [data-square="a1"] .disc.white').waitFor();
  await page.fill('#an-position', '[Event "Study"]\n[Variant "russian"]\n1. c3-d4 {the centre} f6-g5 2. d4-e5?! (2. g3-h4) *');
  await page.click('.an-setup .an-load');
  await page.locator('.an-tree .mv.current', { hasText: 'd4-e5' }).waitFor();
  assert.deepEqual(await mainLine(page), ['c3-d4', 'f6-g5', 'd4-e5']);
  // Black must take, and the piece that must glows before anything is touched.
  assert.equal(await page.locator('.an-turn').textContent(), 'Black to move · capture is compulsory');
  assert.match(await page.locator('.board [data-square="d6"]').getAttribute('class') || '', /\bglow\b/);
  assert.equal(await page.locator('.board .sq.glow').count(), 1);
  // Every position of the line is there: back to the start and forward again.
  await page.keyboard.press('Home');
  assert.equal(await current(page), 'Start');
  assert.equal(await page.locator('.board .disc.top').count(), 24);
  await page.keyboard.press('End');
  assert.equal(await current(page), 'd4-e5');
  // A move refused on the board says why, as the server would.
  await tap(page, 'd6');
  await tap(page, 'c5');
  await page.locator('.prompt .error', { hasText: 'Capture is compulsory: d6 must capture' }).waitFor();
  await tap(page, 'd6');
  await tap(page, 'f4');
  await page.locator('.an-tree .mv.current', { hasText: 'd6:f4' }).waitFor();
  assert.deepEqual(await mainLine(page), ['c3-d4', 'f6-g5', 'd4-e5', 'd6:f4']);
  assert.equal(await page.locator('.board [data-square="e5"] .piece').count(), 0, 'the white man is taken');
  assert.equal(await page.locator('.an-turn').textContent(), 'White to move · capture is compulsory');
  assert.equal(await gamesCreated(), created, 'no game created on the server');
  assert.deepEqual(errors, []);
  await context.close();
});

test('Ugolki once the armies have separated: the exact race, in English and Russian', async () => {
  for (const [locale, text] of [
    ['en-US', 'White needs 5 moves, Black 6 — White wins with best play'],
    ['ru-RU', 'Белым нужно 5 ходов, чёрным 6 — при лучшей игре побеждают белые'],
  ]) {
    // Russian on the narrowest phone.
    const { page, errors, context } = await openPage(env.browser, locale === 'ru-RU' ? { locale, mobile: true, width: 320, height: 640 } : { locale });
    await page.goto(`${env.server.url}/analysis?rules=ugolki&fen=${encodeURIComponent(RACE)}`);
    const race = page.locator('.an-race:not([hidden])');
    await race.waitFor();
    assert.equal(await race.textContent(), text);
    assert.equal(await race.getAttribute('data-white'), '5');
    assert.equal(await race.getAttribute('data-black'), '6');
    assert.equal(await race.getAttribute('data-winner'), 'white');
    assert.equal(await page.locator('.board .sq').count(), 64);
    assert.ok(await page.locator('.board [data-square="g5"] .disc.white').count());
    assert.equal(await page.locator('.an-line').count(), 3);
    assert.deepEqual(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true, 'no wider than the window');
    // The switch in Russian.
    assert.equal(await page.locator('.engine-switch').textContent(), locale === 'ru-RU' ? 'Движок вкл' : 'Engine on');
    if (locale === 'en-US') {
      // The language switched on the page: everything in Russian, the position kept.
      await page.click('#lang');
      await page.locator('.an-race', { hasText: 'Белым нужно 5 ходов' }).waitFor();
      assert.equal(await page.locator('.engine-switch').textContent(), 'Движок вкл');
      assert.equal(await page.locator('.an-turn').textContent(), 'Ходят белые');
      assert.ok(await page.locator('.board [data-square="g5"] .disc.white').count());
      assert.equal(await page.locator('.an-line').count(), 3);
    }
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('the start of russian: the opening book\'s moves, best first, in English and Russian; past the book, none', async () => {
  // The book's moves at the start, as `doska book show` lists them ("c3-b4 +0" a line).
  const want = execFileSync(BIN, ['book', 'show', '--variant', 'russian']).toString().trim().split('\n').map((l) => l.split(' ')[0]);
  assert.ok(want.length >= 2, want.join(' '));
  const START = 'W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8';
  for (const [locale, head] of [['en-US', 'Opening book: '], ['ru-RU', 'Дебютная книга: ']]) {
    const { page, errors, context } = await openPage(env.browser, { locale });
    await page.goto(`${env.server.url}/analysis?rules=russian&fen=${encodeURIComponent(START)}`);
    const book = page.locator('.an-book:not([hidden])');
    await book.waitFor();
    assert.equal(await book.getAttribute('data-moves'), want.join(' '));
    const text = /** @type {string} */ (await book.textContent());
    assert.ok(text.startsWith(`${head}${want[0]} `), text);
    // A move off the book's lines: the panel goes.
    await page.goto(`${env.server.url}/analysis?rules=russian&fen=${encodeURIComponent(FEN)}`);
    await page.locator('.an-line').first().waitFor();
    assert.equal(await page.locator('.an-book').isHidden(), true);
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('the way in: the home page, and a finished game at the move shown (never a game being played)', async () => {
  const { page, errors, context } = await openPage(env.browser, { locale: 'ru-RU' });
  await page.goto(`${env.server.url}/`);
  await page.click('a.analysis-link');
  await page.waitForURL(/\/analysis\?rules=russian$/);
  assert.equal(await page.locator('.analysis h1').textContent(), 'Доска анализа');
  await page.locator('.board [data-square="a1"] .disc.white').waitFor();
  assert.equal(await page.locator('.board .disc.top').count(), 24);
  assert.equal(await page.locator('.an-turn').textContent(), 'Ходят белые');
  await page.locator('.an-line').nth(2).waitFor();

  // A hot-seat game: no way to the analysis board while it is played.
  await newGame(page, env.server.url, { rules: 'russian', opponent: 'hotseat', position: 'W:Wh2,e3:Ba7,h6' });
  const id = new URL(page.url()).pathname.split('/').pop();
  const moves = [['h2', 'g3', 'h2-g3'], ['a7', 'b6', 'a7-b6'], ['g3', 'h4', 'g3-h4'], ['b6', 'c5', 'b6-c5'], ['h4', 'g5', 'h4-g5'], ['h6', 'd2', 'h6:f4:d2']];
  for (const [i, [from, to, text]] of moves.entries()) {
    await myTurn(page);
    assert.equal(await page.locator('.analyse-here').isVisible(), false);
    if (i === 1) {
      // Not even by its address.
      await page.goto(`${env.server.url}/analysis?game=${id}`);
      await page.locator('.an-setup .form-error', { hasText: 'ещё идёт' }).waitFor();
      assert.deepEqual(await mainLine(page), []);
      await page.goto(`${env.server.url}/g/${id}`);
      await myTurn(page);
    }
    await tap(page, from);
    await tap(page, to);
    await page.locator('ol.moves .mv', { hasText: text }).waitFor();
  }
  await page.locator('dialog.results[open]').waitFor();
  await page.click('dialog.results [data-act="close-results"]');
  // Over: "Analyse from here" opens the board at the move shown in the replay.
  const link = page.locator('.analyse-here');
  await link.waitFor();
  assert.equal(await link.textContent(), 'Анализ с этой позиции');
  await page.click('[data-replay="prev"]');
  await page.click('[data-replay="prev"]');
  await page.locator('ol.moves .mv.current', { hasText: 'b6-c5' }).waitFor();
  assert.equal(await link.getAttribute('href'), `/analysis?game=${id}&ply=4`);
  await link.click();
  await page.waitForURL(/\/analysis\?game=/);
  await page.locator('.an-tree .mv.current', { hasText: 'b6-c5' }).waitFor();
  assert.deepEqual(await mainLine(page), moves.map((m) => m[2]));
  assert.ok(await page.locator('.board [data-square="h4"] .disc.white').count());
  // Another move there (the position's legal moves are asked for when it is shown): a side line.
  await tap(page, 'e3');
  await page.locator('.board [data-square="f4"].final').waitFor();
  await tap(page, 'f4');
  await page.locator('.an-tree .an-var .mv.current', { hasText: 'e3-f4' }).waitFor();
  assert.deepEqual(await mainLine(page), moves.map((m) => m[2]));
  // The end of the game: over, no engine.
  await page.click('.an-tree .mv:text-is("h6:f4:d2")');
  assert.equal(await current(page), 'h6:f4:d2');
  assert.equal(await page.locator('.an-nav [data-act="last"]').isDisabled(), true);
  assert.match(await page.locator('.an-turn').textContent() || '', /Чёрные победили|победили чёрные/i);
  assert.equal(await page.locator('.an-line').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});
