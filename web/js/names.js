// @ts-check
// Names of rule sets, levels and results in the player's language, and the server's
// refusals (English, from the rules) said in the player's language where their form is known.

import { has, lang, t } from './i18n.js';
import { isUgolki } from './rulesets.js';

/** A rule set's name, for any rule set text. @param {string} id */
export function rulesName(id) {
  if (has(`rs.${id}.name`)) return t(`rs.${id}.name`);
  if (isUgolki(id)) return t('rs.ugolki-custom.name', { text: id });
  return id;
}

/** The one-line description. @param {string} id */
export function rulesDesc(id) {
  return has(`rs.${id}.desc`) ? t(`rs.${id}.desc`) : '';
}

/** @param {string | null | undefined} level */
export function levelName(level) {
  return level ? t(`level.${level}`) : '';
}

/** How a game is played: "Computer (Easy)", "Friend", "Two players". @param {{mode: string, level?: string | null}} g */
export function modeName(g) {
  if (g.mode === 'computer') return t('mode.computer-level', { level: levelName(g.level) });
  return t(`mode.${g.mode}`);
}

/**
 * Why a game ended, in words: the reason id's text when the catalogue has it, else the
 * server's English text. `you` is the viewer's colour: a player who resigned reads "You
 * resigned", the opponent "Your opponent resigned"; others read the colour.
 * @param {{reason?: string | null, text?: string | null, winner?: string | null}} o
 * @param {string} [you]
 */
export function reasonText(o, you) {
  const id = o.reason || '';
  // Who resigned or left is the side that did not win.
  const loser = o.winner === 'white' ? 'black' : o.winner === 'black' ? 'white' : '';
  if (loser && (you === 'white' || you === 'black')) {
    const who = you === loser ? 'you' : 'opponent';
    if (has(`reason.${id}.by-${who}`)) return t(`reason.${id}.by-${who}`);
  }
  if (loser && has(`reason.${id}.by-${loser}`)) return t(`reason.${id}.by-${loser}`);
  if (id && has(`reason.${id}`)) {
    const n = /(\d+)/.exec(o.text || '');
    return t(`reason.${id}`, { n: n ? n[1] : '' });
  }
  return capital(o.text || '');
}

/** @param {string} s */
function capital(s) {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}

/** @type {[RegExp, string][]} */
const ERRORS = [
  [/capture is compulsory: the piece on (.+) must capture/, 'err.must-capture'],
  [/capture is compulsory: (.+) must capture/, 'err.must-capture'],
  [/you must capture the most pieces \((\d+)\), then the most kings/, 'err.most-then-kings'],
  [/you must capture the most pieces \((\d+)\), then with a king/, 'err.italian'],
  [/you must capture the most pieces \((\d+)\)/, 'err.most'],
  [/a king that can capture must capture/, 'err.king-first'],
  [/you must make the capture of the highest value/, 'err.frisian'],
  [/this capture is not allowed/, 'err.capture-not-allowed'],
  [/the capture must be completed: it goes on from (\S+)/, 'err.incomplete'],
  [/neither a step nor a chain of jumps leads from (\S+) to (\S+)/, 'err.unreachable'],
  [/the chain comes back to (\S+)/, 'err.revisit'],
  [/(\S+)-(\S+) is not a jump/, 'err.not-a-jump'],
  [/(\S+)-(\S+) is not a step/, 'err.not-a-step'],
  [/there is no (?:White|Black|white|black) piece on (\S+)/, 'err.no-piece'],
  [/there is no piece on (\S+)/, 'err.no-piece'],
  [/a side may pass only when it has no legal move/, 'err.pass'],
  [/is ambiguous/, 'err.ambiguous'],
  [/(\S+) is not a legal move here/, 'err.illegal'],
  [/not your turn/, 'err.not-your-turn'],
  [/spectators cannot/, 'err.spectator'],
  [/the game is over/, 'err.over'],
  [/waiting for your friend/, 'err.waiting'],
  [/takebacks are for games against the computer/, 'err.takeback-computer'],
  [/there is no move of yours to take back/, 'err.no-takeback'],
  [/hints are for games against the computer/, 'err.hint-computer'],
  [/a hint is for your own move/, 'err.hint-own-move'],
  [/only the player can ask for a hint/, 'err.hint-player'],
  [/there is no move to hint at/, 'err.hint-none'],
  [/the computer does not take draw offers/, 'err.draw-computer'],
  [/there is no draw offer/, 'err.no-draw-offer'],
  [/your opponent is connected/, 'err.opponent-connected'],
  [/your opponent has been away (\d+) s; the game can be claimed after (\d+) s/, 'err.claim-wait'],
  [/abort the game instead/, 'err.abort-instead'],
  [/too many messages/, 'err.too-fast'],
  [/the game changed meanwhile/, 'err.changed'],
  [/the other seat (?:is|was just) taken/, 'err.seat-taken'],
  [/this invitation is not valid/, 'err.bad-invite'],
  [/no game with id/, 'err.no-game'],
  [/^network$/, 'err.network'],
];

/**
 * A refusal from the server in the player's language (English: the server's words).
 * @param {string} message
 */
export function errorText(message) {
  for (const [re, key] of ERRORS) {
    const m = re.exec(message);
    if (m) {
      if (lang() === 'en' && key !== 'err.network') return capital(message);
      return t(key, { a: m[1] || '', b: m[2] || '' });
    }
  }
  return capital(message);
}
