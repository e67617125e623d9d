// Hints in games against the computer (docs/api.md, the socket's `hint`): the Hint button on the
// player's own move, with its cost said beside it; the hint drawn on the board (an arrow and its
// piece marked) and said in words until the player moves; counted on the results ("Hints used")
// and in the stats (a game with hints, a clean streak of wins without hints), on the results and
// on the home page; no Hint button where there is no computer to ask.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { myTurn, newGame, openPage, serverAndBrowser, tap } from './harness.js';

const env = serverAndBrowser();

// White must take c3:e5, which takes Black's last piece: the game is won at once.
const ONE_CAPTURE = 'W:Wc3,h2:Bd4';

test('a hint against the computer: arrow, piece and words until the move, then on the results and in the stats', async () => {
  const { page, errors, context } = await openPage(env.browser, { locale: 'en-US' });
  await newGame(page, env.server.url, { rules: 'russian', opponent: 'computer', level: 'easy', color: 'white', position: ONE_CAPTURE });
  const id = new URL(page.url()).pathname.split('/').pop();
  await myTurn(page);
  // The button, on the player's move, with its cost in sight and in its title.
  const button = page.locator('.hint-bar .hint-button');
  await button.waitFor();
  assert.equal(await button.textContent(), 'Hint');
  assert.equal(await button.isEnabled(), true);
  assert.match(await button.getAttribute('title') || '', /shown on the results.*clean streak/);
  assert.equal(await page.locator('.hint-bar .hint-cost').textContent(), 'Shown on the results · not a clean win');
  assert.equal(await page.locator('.hint-bar .hint-count').isVisible(), false, 'no hints counted yet');
  assert.equal(await page.locator('.board .engine-arrow').count(), 0);

  await button.click();
  // The engine's move: an arrow c3→e5, the piece marked, and the move in words.
  const arrow = page.locator('.board .engine-arrow.hint-arrow');
  await arrow.waitFor();
  assert.equal(await arrow.getAttribute('data-from'), 'c3');
  assert.equal(await arrow.getAttribute('data-to'), 'e5');
  assert.match(await page.locator('.board [data-square="c3"]').getAttribute('class') || '', /\bhint\b/);
  assert.match(await page.locator('.board [data-square="c3"]').getAttribute('aria-label') || '', /hint: move to e5/);
  assert.equal(await page.locator('.hint-line').textContent(), 'Hint: c3:e5');
  await page.locator('.hint-bar .hint-count', { hasText: 'Hints: 1' }).waitFor();
  // Shown, it is not asked for again.
  assert.equal(await button.isDisabled(), true);
  const state = await page.evaluate(async (gid) => (await fetch(`/api/games/${gid}`)).json(), id);
  assert.equal(state.hints, 1);
  // Selecting the piece keeps the hint.
  await tap(page, 'c3');
  assert.equal(await arrow.count(), 1);

  // Played: the hint goes with the position, and the game is won.
  await tap(page, 'e5');
  const results = page.locator('dialog.results[open]');
  await results.waitFor();
  assert.equal(await page.locator('.board .engine-arrow').count(), 0, 'no arrow after the move');
  assert.equal(await page.locator('.board .sq.hint').count(), 0);
  assert.equal(await page.locator('.hint-bar').isVisible(), false, 'no Hint button once the game is over');
  assert.equal(await results.locator('h2').textContent(), 'You won!');
  assert.equal(await results.locator('.hints-used').textContent(), 'Hints used: 1');
  // The stats: a win, but not a clean one.
  await results.locator('[data-stat="wins"]').waitFor();
  assert.equal(await results.locator('[data-stat="wins"]').textContent(), '1');
  assert.equal(await results.locator('[data-stat="streak"]').textContent(), '1');
  assert.equal(await results.locator('[data-stat="clean-streak"]').textContent(), '0');
  assert.equal(await results.locator('[data-stat="hinted"]').textContent(), '1');
  assert.match(await results.locator('.stats-grid').textContent() || '', /Clean streak0\s*Games with hints1/);

  // The same win without a hint: the clean streak starts, the game with hints stays counted.
  await newGame(page, env.server.url, { rules: 'russian', opponent: 'computer', level: 'easy', color: 'white', position: ONE_CAPTURE });
  await myTurn(page);
  await tap(page, 'c3');
  await tap(page, 'e5');
  await results.waitFor();
  assert.equal(await results.locator('.hints-used').count(), 0, 'no hints: nothing said');
  await results.locator('[data-stat="wins"]').waitFor();
  assert.equal(await results.locator('[data-stat="streak"]').textContent(), '2');
  assert.equal(await results.locator('[data-stat="clean-streak"]').textContent(), '1');
  assert.equal(await results.locator('[data-stat="hinted"]').textContent(), '1');

  // The home page's stats show the clean streak beside the streak.
  await page.goto(`${env.server.url}/`);
  const row = page.locator('.stats-table tbody tr').first();
  await row.waitFor();
  assert.deepEqual(await row.locator('td').allTextContents(), ['2', '0', '0', '100', '2/2', '1']);
  assert.equal(await page.locator('.stats-table thead th').last().textContent(), 'Clean');
  assert.equal(await row.locator('[data-stat="clean-streak"]').getAttribute('title'), 'Games with hints: 1');
  assert.deepEqual(errors, []);
  await context.close();
});

test('in Russian on a phone: «Подсказка», and the hint in words', async () => {
  const { page, errors, context } = await openPage(env.browser, { locale: 'ru-RU', mobile: true });
  await newGame(page, env.server.url, { rules: 'russian', opponent: 'computer', level: 'easy', color: 'white', position: ONE_CAPTURE });
  await myTurn(page);
  const button = page.locator('.hint-bar .hint-button');
  assert.equal(await button.textContent(), 'Подсказка');
  assert.equal(await page.locator('.hint-bar .hint-cost').textContent(), 'Видно в итогах · победа не «чистая»');
  await button.tap();
  await page.locator('.hint-line', { hasText: 'Подсказка: c3:e5' }).waitFor();
  await page.locator('.hint-bar .hint-count', { hasText: 'Подсказок: 1' }).waitFor();
  // On the phone's screen with the board.
  const box = await page.locator('.hint-line').boundingBox();
  const vp = page.viewportSize();
  assert.ok(box && vp && box.y + box.height <= vp.height, `the hint in words is on the screen (${box && box.y + box.height} of ${vp && vp.height})`);
  assert.deepEqual(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true, 'no wider than the window');
  await tap(page, 'c3');
  await tap(page, 'e5');
  const results = page.locator('dialog.results[open]');
  await results.waitFor();
  assert.equal(await results.locator('.hints-used').textContent(), 'Использовано подсказок: 1');
  await results.locator('[data-stat="clean-streak"]').waitFor();
  assert.match(await results.locator('.stats-grid').textContent() || '', /Чистая серия0\s*Партий с подсказками1/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('no Hint button where there is no computer to ask: two players on one device, a friend game', async () => {
  const { page, errors, context } = await openPage(env.browser, { locale: 'en-US' });
  await newGame(page, env.server.url, { rules: 'russian', opponent: 'hotseat', position: ONE_CAPTURE });
  await myTurn(page);
  assert.equal(await page.locator('.hint-bar').isVisible(), false);
  assert.equal(await page.locator('.hint-button').isVisible(), false);
  // The socket refuses it there too, in the player's words.
  const refused = await page.evaluate(async (gid) => new Promise((resolve) => {
    const ws = new WebSocket(`ws://${location.host}/api/games/${gid}/ws`);
    ws.onopen = () => ws.send(JSON.stringify({ type: 'hint' }));
    ws.onmessage = (e) => {
      const m = JSON.parse(String(e.data));
      if (m.type === 'error' || m.type === 'hint') {
        ws.close();
        resolve(m.type === 'error' ? m.message : 'a hint');
      }
    };
  }), new URL(page.url()).pathname.split('/').pop());
  assert.equal(refused, 'hints are for games against the computer');
  await newGame(page, env.server.url, { rules: 'russian', opponent: 'friend', color: 'white' });
  await page.locator('.invite-link').waitFor();
  assert.equal(await page.locator('.hint-button').isVisible(), false);
  assert.deepEqual(errors, []);
  await context.close();
});
