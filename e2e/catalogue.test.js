// The UI's catalogues and tables against each other and against the rules: both languages
// have every key, every rule set and end reason has words, and the board's square numbers are
// the ones the rules write in moves.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import en from '../web/i18n/en.js';
import ru from '../web/i18n/ru.js';
import rulesEn from '../web/i18n/rules.en.js';
import rulesRu from '../web/i18n/rules.ru.js';
import { DRAUGHTS, ORDER, UGOLKI, geometry, squareNumber, squareXY } from '../web/js/rulesets.js';
import { BIN } from './harness.js';

const plain = (/** @type {string} */ k) => !/\.(one|few|many|other)$/.test(k);

test('Russian and English have the same keys', () => {
  const missingRu = Object.keys(en).filter((k) => plain(k) && !(k in ru));
  const missingEn = Object.keys(ru).filter((k) => plain(k) && !(k in en));
  assert.deepEqual(missingRu, [], 'keys missing in ru.js');
  assert.deepEqual(missingEn, [], 'keys missing in en.js');
  for (const [k, v] of Object.entries(en)) {
    if (!plain(k) || !(k in ru)) continue;
    const params = (/** @type {string} */ s) => [...new Set([...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]))].sort().join();
    assert.equal(params(ru[k]), params(v), `placeholders of ${k}`);
  }
});

test('every rule set and preset has a name and a one-line description, and a rules page', () => {
  for (const id of [...DRAUGHTS, ...UGOLKI]) {
    for (const [name, cat] of [['en', en], ['ru', ru]]) {
      assert.ok(cat[`rs.${id}.name`], `${name}: rs.${id}.name`);
      assert.ok(cat[`rs.${id}.desc`], `${name}: rs.${id}.desc`);
    }
    for (const [name, pages] of [['en', rulesEn], ['ru', rulesRu]]) {
      const p = pages[id];
      assert.ok(p && p.sections.length && p.faq.length >= 2, `${name}: rules page of ${id} with sections and questions`);
    }
  }
  assert.deepEqual([...ORDER.ru].sort(), [...DRAUGHTS].sort());
  assert.deepEqual([...ORDER.en].sort(), [...DRAUGHTS].sort());
  assert.equal(ORDER.ru[0], 'russian');
  assert.equal(ORDER.en[0], 'american');
});

test('every end reason the rules give has words in both languages', () => {
  const reasons = ['no-pieces', 'no-moves', 'repetition', 'quiet-moves', 'lone-king-endgame',
    'three-kings-vs-king', 'lone-pieces', 'two-kings-vs-king', 'officer-columns', 'move-cap',
    'resignation', 'agreement', 'abandoned', 'aborted', 'all-in-corner', 'equal-moves-draw',
    'left-at-home', 'both-left-at-home', 'left-in-half', 'both-left-in-half', 'no-moves-both',
    'move-limit'];
  for (const r of reasons) {
    assert.ok(en[`reason.${r}`], `en: reason.${r}`);
    assert.ok(ru[`reason.${r}`], `ru: reason.${r}`);
  }
});

test('square numbers on the board are the ones the rules write (docs/rules/README.md, "Notation")', () => {
  for (const id of ['american', 'international', 'canadian', 'italian', 'spanish', 'frisian']) {
    const out = JSON.parse(execFileSync(BIN, ['moves', '--variant', id, '--json'], { encoding: 'utf8', timeout: 20000 }));
    const g = geometry(id);
    assert.ok(out.moves.length > 0);
    for (const m of out.moves) {
      const [a, b] = m.notation.split(/[-x]/).map(Number);
      assert.equal(squareNumber(g, ...squareXY(m.from)), a, `${id} ${m.notation}: ${m.from}`);
      assert.equal(squareNumber(g, ...squareXY(m.to)), b, `${id} ${m.notation}: ${m.to}`);
    }
  }
  for (const id of ['russian', 'brazilian', 'czech', 'thai', 'poddavki', 'turkish', 'armenian', 'lasca']) {
    assert.equal(squareNumber(geometry(id), 0, 0), null, `${id} names squares algebraically`);
  }
});
