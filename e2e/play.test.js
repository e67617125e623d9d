// Games played through the UI in a real Chromium against the real server: the computer
// (Easy, fixed seed) to the end in Russian draughts and in Ugolki, a capture that needs every
// jump tapped, a friend by link with a spectator, the results screen and the stats, Russian
// and English, and a phone-sized screen. Positions near the end are imported, so every game
// ends in a few moves whatever the computer answers (its replies there are forced or harmless).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { moveList, myTurn, newGame, openPage, screenshot, serverAndBrowser, tap } from './harness.js';

const env = serverAndBrowser();

/** @param {import('playwright-core').Page} page @param {string} sq */
const cls = (page, sq) => page.locator(`.board [data-square="${sq}"]`).getAttribute('class');
/** @param {import('playwright-core').Page} page */
const prompt = (page) => page.locator('.prompt').textContent();

/**
 * Plays some legal move of the side to move through clicks: a glowing piece first (capture
 * is compulsory), else the first piece that shows a destination.
 * @param {import('playwright-core').Page} page @param {'white' | 'black'} color
 */
async function playAnyMove(page, color) {
  const glowing = await page.locator('.board .sq.glow').evaluateAll((els) => els.map((e) => e.getAttribute('data-square')));
  const mine = await page.locator(`.board .sq:has(.disc.top.${color})`).evaluateAll((els) => els.map((e) => e.getAttribute('data-square')));
  for (const sq of [...glowing, ...mine]) {
    if (!sq) continue;
    await tap(page, sq);
    const dest = await page.locator('.board .sq.final, .board .sq.next').evaluateAll((els) => els.map((e) => e.getAttribute('data-square')));
    if (dest.length) {
      const before = (await moveList(page)).length;
      await tap(page, /** @type {string} */ (dest[dest.length - 1]));
      // A capture with several landings may need more taps.
      for (let i = 0; i < 12 && (await moveList(page)).length === before; i++) {
        const next = await page.locator('.board .sq.next').evaluateAll((els) => els.map((e) => e.getAttribute('data-square')));
        if (next.length) await tap(page, /** @type {string} */ (next[0]));
        else await page.waitForTimeout(100);
      }
      return;
    }
  }
  throw new Error(`no move found for ${color}`);
}

test('Russian draughts against the computer, to the end: compulsory capture, the results and the stats', async () => {
  const { page, errors, context } = await openPage(env.browser);
  // Every test here runs under the server's content security policy (violations are errors).
  const home = await page.goto(`${env.server.url}/`);
  assert.match(home?.headers()['content-security-policy'] || '', /default-src 'self'.*connect-src 'self'/);
  await newGame(page, env.server.url, { rules: 'russian', opponent: 'computer', level: 'easy', color: 'white', position: 'W:Wa3,e5,f4:Bb4,d6,f8' });
  await myTurn(page);
  assert.match(await page.locator('.game-title h1').textContent() || '', /Русские/);
  // The pieces that must capture glow; another piece is refused with the reason.
  assert.match(await cls(page, 'a3') || '', /\bglow\b/);
  assert.match(await cls(page, 'e5') || '', /\bglow\b/);
  await tap(page, 'f4');
  assert.match(await prompt(page) || '', /Бить обязательно/);
  // A plain move while a capture is compulsory: the server says why.
  await tap(page, 'e5');
  await tap(page, 'f6');
  await page.locator('.prompt .error', { hasText: 'Бить обязательно' }).waitFor();
  // The double capture, by its final square (only one way leads there).
  await tap(page, 'a3');
  assert.match(await cls(page, 'e7') || '', /\bfinal\b/);
  await tap(page, 'e7');
  // The computer's reply is forced: f8:d6. Then e5:c7 takes the last piece.
  await page.locator('ol.moves .mv', { hasText: 'f8:d6' }).waitFor();
  await myTurn(page);
  assert.deepEqual(await moveList(page), ['a3:c5:e7', 'f8:d6']);
  await tap(page, 'e5');
  await tap(page, 'c7');
  const results = page.locator('dialog.results[open]');
  await results.waitFor();
  assert.equal(await results.locator('h2').textContent(), 'Победа!');
  assert.match(await results.locator('.reason').textContent() || '', /Не осталось шашек/);
  assert.match(await results.textContent() || '', /Сделано ходов: 2/);
  await results.locator('[data-stat="wins"]').waitFor();
  assert.equal(await results.locator('[data-stat="wins"]').textContent(), '1');
  assert.equal(await results.locator('[data-stat="losses"]').textContent(), '0');
  assert.equal(await results.locator('[data-stat="draws"]').textContent(), '0');
  assert.equal(await results.locator('[data-stat="win-pct"]').textContent(), '100%');
  assert.equal(await results.locator('[data-stat="streak"]').textContent(), '1');
  assert.equal(await results.locator('[data-stat="best-streak"]').textContent(), '1');
  await screenshot(page, 'results.png');
  // The PDN download holds the game.
  const [download] = await Promise.all([page.waitForEvent('download'), results.locator('a[download]').click()]);
  const pdn = await (await download.createReadStream()).toArray();
  assert.match(Buffer.concat(pdn).toString(), /a3:c5:e7/);
  // Replay: back to the start and forward again.
  await results.locator('[data-act="review"]').click();
  await page.locator('.replay-controls [data-replay="first"]').click();
  await page.locator('.board [data-square="b4"] .disc.black').waitFor();
  await page.locator('.replay-controls [data-replay="next"]').click();
  await page.locator('.board [data-square="e7"] .disc.white').waitFor();
  // Rematch from the results: a new game, colours swapped.
  const finished = page.url();
  await page.click('.banner.result [data-act="results"]');
  await page.click('dialog.results[open] [data-act="rematch"]');
  await page.waitForURL((u) => /\/g\/[A-Za-z0-9]+$/.test(u.pathname) && u.href !== finished);
  await page.locator('.game-mode', { hasText: 'вы за чёрных' }).waitFor();
  // The home screen lists the finished game, the rematch to continue, and the stats.
  await page.locator('.top-nav a[href="/"]').click();
  await page.locator('.list.unfinished .game-row').first().waitFor();
  await page.locator('.list.done .game-row').first().waitFor();
  assert.match(await page.locator('.list.done').textContent() || '', /Русские/);
  assert.match(await page.locator('.stats-table').textContent() || '', /Русские/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('Ugolki against the computer: a jump chain ended with "End move", a reload mid-game, the win', async () => {
  const { page, errors, context } = await openPage(env.browser);
  await newGame(page, env.server.url, {
    kind: 'ugolki', rules: 'ugolki', opponent: 'computer', level: 'easy', color: 'white',
    position: 'W:Wd7,e8,f6,g6,h6,g7,h7,g8,h8:Ba1,b1,c1,a2,b2,c2,a3,b3,e7',
  });
  await myTurn(page);
  // White's target corner (Black's home) is highlighted.
  assert.match(await cls(page, 'f8') || '', /\btarget\b/);
  assert.doesNotMatch(await cls(page, 'a1') || '', /\btarget\b/);
  // d7 jumps over e7 to f7; the chain could go on to f5, so it waits for "End move".
  await tap(page, 'd7');
  await tap(page, 'f7');
  assert.match(await cls(page, 'f5') || '', /\bnext\b/);
  const end = page.locator('.actions button.end-move');
  assert.equal(await end.textContent(), 'Закончить ход');
  await end.click();
  await page.locator('ol.moves .mv', { hasText: 'd7-f7' }).waitFor();
  await myTurn(page);
  assert.equal((await moveList(page)).length, 2);
  // Reload mid-game: the game is where it was and goes on.
  await page.reload();
  await myTurn(page);
  assert.equal((await moveList(page))[0], 'd7-f7');
  await page.locator('.board [data-square="f7"] .disc.white').waitFor();
  await tap(page, 'e8');
  await tap(page, 'f8');
  const results = page.locator('dialog.results[open]');
  await results.waitFor();
  assert.equal(await results.locator('h2').textContent(), 'Победа!');
  assert.match(await results.locator('.reason').textContent() || '', /Все шашки в углу/);
  await results.locator('[data-stat="wins"]').waitFor();
  assert.equal(await results.locator('[data-stat="wins"]').textContent(), '1');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a capture whose two routes share start and end asks to tap each jump (two players on one device)', async () => {
  const { page, errors, context } = await openPage(env.browser);
  await newGame(page, env.server.url, { rules: 'czech', opponent: 'hotseat', position: 'W:Wc1:Bb2,b4,d2,d4' });
  await myTurn(page);
  await tap(page, 'c1');
  await tap(page, 'c5');
  assert.match(await prompt(page) || '', /Коснитесь каждого прыжка/);
  assert.match(await cls(page, 'a3') || '', /\bnext\b/);
  assert.match(await cls(page, 'e3') || '', /\bnext\b/);
  await tap(page, 'e3');
  await page.locator('ol.moves .mv', { hasText: 'c1xe3xc5' }).waitFor();
  await page.locator('.board [data-square="c5"] .disc.white').waitFor();
  assert.equal(await page.locator('.board [data-square="d2"] .piece').count(), 0);
  assert.equal(await page.locator('.board [data-square="b2"] .disc.black').count(), 1);
  // Same device: now Black moves, this time with the keyboard (arrows, then Enter).
  await myTurn(page);
  assert.match(await page.locator('.turn-line').textContent() || '', /ходят чёрные/);
  await page.focus('.board [data-square="b4"]');
  await page.keyboard.press('Enter');
  assert.match(await page.locator('.board [data-square="b4"]').getAttribute('aria-label') || '', /чёрная шашка, выбрана/);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await page.evaluate(() => document.activeElement && document.activeElement.getAttribute('data-square')), 'a3');
  await page.keyboard.press('Enter');
  await page.locator('ol.moves .mv', { hasText: 'b4-a3' }).waitFor();
  // Resigning takes two taps; the side to move (White) resigns, Black wins.
  await page.click('.menu-button');
  await page.click('dialog.menu [data-act="resign"]');
  await page.locator('dialog.menu [data-act="resign"]', { hasText: 'Нажмите ещё раз' }).click();
  const results = page.locator('dialog.results[open]');
  await results.waitFor();
  assert.equal(await results.locator('h2').textContent(), 'Победили чёрные');
  assert.equal(await results.locator('.reason').textContent(), 'Белые сдались.');
  assert.deepEqual(errors, []);
  await context.close();
});

test('Ugolki on one device: the move-35 warning while pieces are at home, and a pass when there is no move', async () => {
  const { page, errors, context } = await openPage(env.browser);
  await newGame(page, env.server.url, {
    kind: 'ugolki', rules: 'ugolki', opponent: 'hotseat',
    position: 'W:Wa1,d4,e4,f4,g4,d5,e5,f5,g5:Bf6,g6,h6,c4,c5,c6,b6,b5,b4:N36',
  });
  await myTurn(page);
  assert.match(await page.locator('.prompt .warning').textContent() || '', /40-й ход/);
  await tap(page, 'a1');
  await tap(page, 'b1');
  await page.locator('ol.moves .mv', { hasText: 'a1-b1' }).waitFor();

  await newGame(page, env.server.url, { kind: 'ugolki', rules: 'ugolki', opponent: 'hotseat', position: 'W:Wa1,a2,b1,b2:Ba3,b3,c1,c2,a4,b4,d1,d2' });
  await myTurn(page);
  await page.click('.actions [data-act="pass"]');
  await page.locator('ol.moves .mv', { hasText: 'pass' }).waitFor();
  assert.match(await page.locator('.turn-line').textContent() || '', /ходят чёрные/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a friend by link: the invitation, both players live, a spectator, the title when the tab is hidden', async () => {
  const a = await openPage(env.browser);
  await a.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.server.url });
  await newGame(a.page, env.server.url, { rules: 'russian', opponent: 'friend', color: 'white' });
  const link = await a.page.inputValue('.invite-link');
  assert.match(link, /\/g\/[A-Za-z0-9]+\?invite=[0-9a-f]+$/);
  await a.page.click('button.copy-link');
  await a.page.locator('#toast', { hasText: 'Ссылка скопирована' }).waitFor();
  assert.match(await a.page.locator('.turn-line').textContent() || '', /Ждём друга/);

  // The friend, in English, opens the link and lands in the game as Black, board turned.
  const b = await openPage(env.browser, { locale: 'en-US' });
  await b.page.goto(link);
  await b.page.locator('.board [data-square]').first().waitFor();
  await b.page.waitForURL(/\/g\/[A-Za-z0-9]+$/);
  assert.match(await b.page.locator('.game-mode').textContent() || '', /you play Black/);
  assert.equal(await b.page.locator('.board [data-square]').first().getAttribute('data-square'), 'h1');
  await myTurn(a.page);
  await a.page.locator('#toast', { hasText: 'Друг пришёл' }).waitFor();

  await tap(a.page, 'c3');
  await tap(a.page, 'd4');
  await b.page.locator('ol.moves .mv', { hasText: 'c3-d4' }).waitFor();
  await myTurn(b.page);

  // A spectator sees the game live.
  const c = await openPage(env.browser);
  const gameUrl = link.replace(/\?.*$/, '');
  await c.page.goto(gameUrl);
  await c.page.locator('.banner', { hasText: 'Вы смотрите эту партию' }).waitFor();
  await c.page.locator('ol.moves .mv', { hasText: 'c3-d4' }).waitFor();

  // White's tab is in the background when Black moves: the title says so.
  await a.page.evaluate(() => Object.defineProperty(document, 'hidden', { configurable: true, get: () => true }));
  await tap(b.page, 'f6');
  await tap(b.page, 'g5');
  await c.page.locator('ol.moves .mv', { hasText: 'f6-g5' }).waitFor();
  await a.page.waitForFunction(() => document.title.startsWith('●'));
  assert.equal(await a.page.title(), '● Ваш ход — Доска');
  // A draw offer from White reaches Black, who declines it.
  await a.page.click('.menu-button');
  await a.page.click('dialog.menu [data-act="draw-offer"]');
  await b.page.locator('.banner.offer').waitFor();
  await b.page.click('.banner.offer [data-act="draw-decline"]');
  await b.page.locator('.banner.offer').waitFor({ state: 'detached' });
  for (const p of [a, b, c]) {
    assert.deepEqual(p.errors, []);
    await p.context.close();
  }
});

test('English and Russian: chosen from the browser and switchable; rules pages with questions', async () => {
  const { page, errors, context } = await openPage(env.browser, { locale: 'en-US' });
  await page.goto(`${env.server.url}/`);
  await page.locator('button.play', { hasText: 'Play' }).waitFor();
  assert.equal((await page.locator('.choice-name').first().textContent()), 'American checkers');
  await page.click('button.lang');
  await page.locator('button.play', { hasText: 'Играть' }).waitFor();
  assert.equal((await page.locator('.choice-name').first().textContent()), 'Русские');
  // The choice is kept.
  await page.reload();
  await page.locator('button.play', { hasText: 'Играть' }).waitFor();
  // Rules pages, reachable from the home screen, in both languages.
  await page.click('label.opt:has(input[name=kind][value=ugolki])');
  await page.click('.rules-link');
  await page.locator('.rules-page h1', { hasText: 'Уголки' }).waitFor();
  assert.match(await page.locator('.rules-page').textContent() || '', /Вопросы о правилах[\s\S]*Можно ли прыгать через шашки соперника/);
  await page.click('button.lang');
  await page.locator('.rules-page h1', { hasText: 'Ugolki' }).waitFor();
  assert.match(await page.locator('.rules-page').textContent() || '', /Questions about the rules/);
  await page.click('.rules-page nav a[href="/rules/lasca"]');
  await page.locator('.rules-page h1', { hasText: 'Lasca' }).waitFor();
  await page.locator('.rules-page button.play-this').first().click();
  await page.locator('label.choice.checked', { hasText: 'Lasca' }).waitFor();
  assert.deepEqual(errors, []);
  await context.close();
});

test('a phone (360 px, touch): home, a game, moves by taps, the board fits the screen', async () => {
  const { page, errors, context } = await openPage(env.browser, { mobile: true });
  await page.goto(`${env.server.url}/`);
  await page.locator('button.play').waitFor();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(overflow <= 360, `home is ${overflow} px wide`);
  await screenshot(page, 'home-mobile.png');
  await newGame(page, env.server.url, { rules: 'russian', opponent: 'computer', level: 'easy', color: 'white' });
  await myTurn(page);
  const box = await page.locator('.board').boundingBox();
  assert.ok(box && box.width <= 360 && box.width >= 320, `board is ${box && box.width} px wide`);
  assert.ok(box && box.y + box.height <= 740, 'the board is on the first screen');
  await tap(page, 'c3');
  await tap(page, 'd4');
  await page.locator('ol.moves .mv', { hasText: 'c3-d4' }).waitFor();
  await myTurn(page);
  await playAnyMove(page, 'white');
  await myTurn(page);
  assert.equal((await moveList(page)).length, 4);
  assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= 360);
  await screenshot(page, 'game-mobile.png');
  assert.deepEqual(errors, []);
  await context.close();
});

test('screens for the README: home and a game in progress', async () => {
  const { page, errors, context } = await openPage(env.browser);
  await page.goto(`${env.server.url}/`);
  await page.locator('.list.unfinished').waitFor();
  await screenshot(page, 'home.png');
  await newGame(page, env.server.url, { rules: 'russian', opponent: 'computer', level: 'easy', color: 'white' });
  for (let i = 0; i < 4; i++) {
    await myTurn(page);
    await playAnyMove(page, 'white');
  }
  await myTurn(page);
  // Show a piece selected with its destinations.
  const mine = await page.locator('.board .sq:has(.disc.top.white)').evaluateAll((els) => els.map((e) => e.getAttribute('data-square')));
  for (const sq of mine.reverse()) {
    if (!sq) continue;
    await tap(page, sq);
    if (await page.locator('.board .sq.final, .board .sq.next').count()) break;
  }
  assert.ok((await moveList(page)).length >= 8);
  await screenshot(page, 'game.png');
  // Take back: the player's last move and the computer's answer go.
  const played = (await moveList(page)).length;
  await page.click('.menu-button');
  await page.click('dialog.menu [data-act="takeback"]');
  await page.waitForFunction((n) => document.querySelectorAll('ol.moves .mv').length === n - 2, played);
  await myTurn(page);
  assert.deepEqual(errors, []);
  await context.close();
});
