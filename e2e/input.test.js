// How taps become moves (web/js/input.js), against the legal moves the rules give
// (`doska moves --json`): each case is a position and the taps a player makes.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { MoveInput } from '../web/js/input.js';
import { geometry } from '../web/js/rulesets.js';
import { BIN } from './harness.js';

/**
 * The legal moves and pieces of a position written with algebraic squares.
 * @param {string} rules @param {string} fen
 */
function position(rules, fen) {
  const out = JSON.parse(execFileSync(BIN, ['moves', '--variant', rules, '--fen', fen, '--json'], { encoding: 'utf8', timeout: 20000 }));
  const pieces = [];
  for (const part of fen.split(':').slice(1)) {
    const color = part[0] === 'W' ? 'white' : part[0] === 'B' ? 'black' : null;
    if (!color) continue;
    for (let sq of part.slice(1).split(',').filter(Boolean)) {
      const king = sq.startsWith('K');
      if (king) sq = sq.slice(1);
      pieces.push({ square: sq, color, king });
    }
  }
  const turn = fen[0] === 'W' ? 'white' : 'black';
  const must = out.moves.some((m) => m.captures.length) ? [...new Set(out.moves.filter((m) => m.captures.length).map((m) => m.from))] : [];
  return new MoveInput(geometry(rules), out.moves, pieces, turn, must);
}

test('two captures share start and end: the player is asked to tap each jump (seed 004)', () => {
  const input = position('czech', 'W:Wc1:Bb2,b4,d2,d4');
  assert.deepEqual(input.tap('c1'), { kind: 'select', square: 'c1' });
  assert.deepEqual([...input.targets().next].sort(), ['a3', 'e3']);
  assert.deepEqual(input.tap('c5'), { kind: 'ambiguous', square: 'c5' });
  const r = input.tap('e3');
  assert.equal(r.kind, 'move');
  assert.deepEqual(r.kind === 'move' && r.path, ['c1', 'e3', 'c5']);
});

test('a capture taken landing by landing completes itself once only one move is left', () => {
  const input = position('czech', 'W:Wc1:Bb2,b4,d2,d4');
  input.tap('c1');
  const r = input.tap('a3');
  assert.equal(r.kind, 'move');
  assert.deepEqual(r.kind === 'move' && r.path, ['c1', 'a3', 'c5']);
});

test('the final square of the only capture leading there plays it at once', () => {
  const input = position('russian', 'W:Wa3,e5,f4:Bb4,d6,f8');
  input.tap('a3');
  const r = input.tap('e7');
  assert.equal(r.kind, 'move');
  assert.deepEqual(r.kind === 'move' && r.path, ['a3', 'c5', 'e7']);
});

test('a king with several landings after one capture: tap each landing in turn', () => {
  // White king a1 takes c3 and may stop on d4, e5 or f6 (Russian: any square behind).
  const input = position('russian', 'W:WKa1:Bc3,h8');
  input.tap('a1');
  const { next } = input.targets();
  assert.ok(next.has('d4') && next.has('e5'));
  const r = input.tap('e5');
  assert.equal(r.kind, 'move');
  assert.deepEqual(r.kind === 'move' && r.path, ['a1', 'e5']);
});

test('a piece that cannot capture while another must is refused with the reason', () => {
  const input = position('russian', 'W:Wa3,e5,f4:Bb4,d6,f8');
  assert.deepEqual(input.tap('f4'), { kind: 'refuse', reason: 'must-capture', square: 'f4' });
  assert.deepEqual(input.tap('f8'), { kind: 'refuse', reason: 'not-your-piece', square: 'f8' });
});

test('a plain move while a capture is compulsory goes to the server, which says why', () => {
  const input = position('russian', 'W:Wa3,e5,f4:Bb4,d6,f8');
  input.tap('e5');
  assert.deepEqual(input.tap('f6'), { kind: 'try', path: ['e5', 'f6'] });
});

test('Ugolki: a jump that can go on waits for "End move" or a tap on the piece (seed 000)', () => {
  const fen = 'W:Wd7,e8,f6,g6,h6,g7,h7,g8,h8:Ba1,b1,c1,a2,b2,c2,a3,b3,e7';
  let input = position('ugolki', fen);
  input.tap('d7');
  assert.deepEqual(input.tap('f7'), { kind: 'hop', path: ['d7', 'f7'] });
  assert.ok(input.canEnd);
  assert.deepEqual([...input.targets().next], ['f5']);
  let r = input.endChain();
  assert.equal(r.kind, 'move');
  assert.deepEqual(r.kind === 'move' && r.path, ['d7', 'f7']);

  input = position('ugolki', fen);
  input.tap('d7');
  input.tap('f7');
  r = input.tap('f7');
  assert.equal(r.kind, 'move', 'a tap on the piece ends the chain');
  assert.deepEqual(r.kind === 'move' && r.path, ['d7', 'f7']);

  input = position('ugolki', fen);
  input.tap('d7');
  input.tap('f7');
  r = input.tap('f5');
  assert.equal(r.kind, 'move', 'the chain ends by itself where it cannot go on');
  assert.deepEqual(r.kind === 'move' && r.path, ['d7', 'f7', 'f5']);
});

test('Ugolki: the final square of a chain tapped at once plays the move', () => {
  const input = position('ugolki', 'W:Wd7,e8,f6,g6,h6,g7,h7,g8,h8:Ba1,b1,c1,a2,b2,c2,a3,b3,e7');
  input.tap('d7');
  const r = input.tap('f5');
  assert.equal(r.kind, 'move');
  assert.equal(r.kind === 'move' && r.move && r.move.notation, 'd7-f5');
});

test('Ugolki: a step is played at once; a square nothing reaches asks the server why', () => {
  const input = position('ugolki', 'W:Wa1,b1,c1,a2,b2,c2,a3,b3,c3:Bf6,g6,h6,f7,g7,h7,f8,g8,h8');
  input.tap('c3');
  const r = input.tap('d3');
  assert.equal(r.kind, 'move');
  input.tap('c3');
  assert.deepEqual(input.tap('e5'), { kind: 'try', path: ['c3', 'e5'] });
});

test('Ugolki BrainKing: jumps go diagonally too', () => {
  const input = position('ugolki-brainking', 'W:Wa1,b1,c1,a2,b2,c2,a3,b3,c3:Bf6,g6,h6,f7,g7,h7,f8,g8,h8');
  input.tap('b2');
  assert.ok(input.targets().final.has('d4'), 'b2 jumps over c3 to d4');
});
