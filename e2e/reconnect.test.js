// A dropped connection: the server restarts under two friends in the middle of a game. Both
// pages say they are reconnecting, come back by themselves, and the game goes on with nothing
// lost.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { launch, moveList, myTurn, newGame, openPage, startServer, tap } from './harness.js';

test('friends keep playing after the server restarts under them', async () => {
  let server = await startServer();
  const browser = await launch();
  try {
    const a = await openPage(browser);
    await newGame(a.page, server.url, { rules: 'russian', opponent: 'friend', color: 'white' });
    const link = await a.page.inputValue('.invite-link');
    const b = await openPage(browser);
    await b.page.goto(link);
    await myTurn(a.page);
    await tap(a.page, 'c3');
    await tap(a.page, 'd4');
    await myTurn(b.page);

    const { port, dir } = server;
    await server.stop({ keep: true });
    await a.page.locator('.turn-line.offline').waitFor();
    await b.page.locator('.turn-line', { hasText: 'Связь потеряна' }).waitFor();
    server = await startServer({ port, dir });

    await myTurn(b.page);
    await tap(b.page, 'f6');
    await tap(b.page, 'g5');
    await a.page.locator('ol.moves .mv', { hasText: 'f6-g5' }).waitFor();
    await myTurn(a.page);
    assert.deepEqual(await moveList(a.page), ['c3-d4', 'f6-g5']);
    // A reload after the restart finds the same game.
    await b.page.reload();
    await b.page.locator('ol.moves .mv', { hasText: 'f6-g5' }).waitFor();
    assert.deepEqual(await moveList(b.page), ['c3-d4', 'f6-g5']);
    // A request the page made while the server was down is refused, or reset when the server
    // stopped in the middle of it: that is the outage this test makes, not a fault of the page.
    // Every other error still fails it.
    const real = (/** @type {string[]} */ errors) =>
      errors.filter((e) => !/ERR_CONNECTION_(REFUSED|RESET)/.test(e));
    assert.deepEqual(real(a.errors), []);
    assert.deepEqual(real(b.errors), []);
  } finally {
    await browser.close();
    await server.stop();
  }
});
