// @ts-check
// What the board needs to know of each rule set: its size, which squares are played on, how
// squares are numbered in the rule set's own notation (docs/rules/README.md), and for Ugolki
// the homes and the directions. The rules themselves are the server's: it sends the legal
// moves; this file only draws.

/** @typedef {'dark' | 'mirrored' | 'all'} Playable */
/** @typedef {'algebraic' | 'top-left' | 'bottom-right'} Numbering */
/**
 * @typedef {object} Geometry
 * @property {'draughts' | 'ugolki'} kind
 * @property {string} id          the rule set text as the server writes it
 * @property {number} size        squares per side
 * @property {Playable} playable  dark squares (a1 dark), mirrored (a1 light), or all
 * @property {Numbering} numbering
 * @property {'white' | 'black'} first   who moves first from the start position
 * @property {number} dirs        Ugolki: 4 or 8 directions of steps and jumps
 * @property {(file: number, rank: number) => boolean} whiteHome  Ugolki: White's start squares
 * @property {{ rule: 'off' | 'ugolki' | 'brainking', after: number }} leaveHome  Ugolki
 */

/** Draughts rule set ids, in the order of the rule book's index (docs/rules/README.md). */
export const DRAUGHTS = /** @type {const} */ ([
  'american', 'international', 'brazilian', 'canadian', 'italian', 'spanish', 'russian',
  'czech', 'turkish', 'armenian', 'thai', 'poddavki', 'frisian', 'lasca',
]);

/** Ugolki presets. */
export const UGOLKI = /** @type {const} */ (['ugolki', 'ugolki-brainking', 'ugolki-brainking-10']);

/** The order rule sets are offered in: the player's own game first. */
export const ORDER = {
  ru: ['russian', 'poddavki', 'international', 'american', 'brazilian', 'canadian', 'italian',
    'spanish', 'czech', 'turkish', 'armenian', 'thai', 'frisian', 'lasca'],
  en: ['american', 'international', 'russian', 'brazilian', 'canadian', 'italian', 'spanish',
    'czech', 'turkish', 'armenian', 'thai', 'poddavki', 'frisian', 'lasca'],
};

/** @type {Record<string, [number, Playable, Numbering, 'white' | 'black']>} */
const TABLE = {
  american: [8, 'dark', 'top-left', 'black'],
  international: [10, 'dark', 'top-left', 'white'],
  brazilian: [8, 'dark', 'algebraic', 'white'],
  canadian: [12, 'dark', 'top-left', 'white'],
  italian: [8, 'mirrored', 'top-left', 'white'],
  spanish: [8, 'mirrored', 'bottom-right', 'white'],
  russian: [8, 'dark', 'algebraic', 'white'],
  czech: [8, 'dark', 'algebraic', 'white'],
  turkish: [8, 'all', 'algebraic', 'white'],
  armenian: [8, 'all', 'algebraic', 'white'],
  thai: [8, 'dark', 'algebraic', 'black'],
  poddavki: [8, 'dark', 'algebraic', 'white'],
  frisian: [10, 'dark', 'top-left', 'white'],
  lasca: [7, 'dark', 'algebraic', 'white'],
};

/** @type {Record<string, (f: number, r: number) => boolean>} */
const HOMES = {
  '3x3': (f, r) => f < 3 && r < 3,
  '3x4': (f, r) => f < 4 && r < 3,
  stair: (f, r) => f + r <= 3,
  staircase: (f, r) => f + r <= 3,
  '4x4': (f, r) => f < 4 && r < 4,
};

/** @type {Record<string, Record<string, string>>} */
const UGOLKI_PRESETS = {
  ugolki: { board: '8', home: '3x3', dirs: '4', 'home-rule': 'ugolki-40' },
  'ugolki-brainking': { board: '8', home: '3x3', dirs: '8', 'home-rule': 'brainking-30' },
  'ugolki-brainking-10': { board: '10', home: '4x4', dirs: '8', 'home-rule': 'brainking-50' },
};

/** Whether a rule set text is Ugolki. @param {string} id */
export function isUgolki(id) {
  return id.startsWith('ugolki');
}

/**
 * The board of a rule set text (`russian`, `ugolki`, `ugolki:dirs=8,board=10`).
 * @param {string} id
 * @returns {Geometry}
 */
export function geometry(id) {
  if (isUgolki(id)) {
    const [preset, params] = id.split(':');
    const p = { ...(UGOLKI_PRESETS[preset] || UGOLKI_PRESETS.ugolki) };
    for (const kv of (params || '').split(',')) {
      const [k, v] = kv.split('=').map((s) => s.trim());
      if (k && v) p[k] = v;
    }
    const size = parseInt(p.board, 10) === 10 ? 10 : 8;
    const hr = p['home-rule'] || 'off';
    const m = /^(ugolki|brainking)-(\d+)$/.exec(hr);
    return {
      kind: 'ugolki', id, size, playable: 'all', numbering: 'algebraic', first: 'white',
      dirs: p.dirs === '8' ? 8 : 4,
      whiteHome: HOMES[p.home] || HOMES['3x3'],
      leaveHome: m ? { rule: /** @type {'ugolki' | 'brainking'} */ (m[1]), after: parseInt(m[2], 10) } : { rule: 'off', after: 0 },
    };
  }
  const [size, playable, numbering, first] = TABLE[id] || TABLE.russian;
  return {
    kind: 'draughts', id, size, playable, numbering, first, dirs: 4,
    whiteHome: () => false, leaveHome: { rule: 'off', after: 0 },
  };
}

const FILES = 'abcdefghijkl';

/** `c3` from 0-based file and rank. @param {number} f @param {number} r */
export function squareName(f, r) {
  return FILES[f] + String(r + 1);
}

/** 0-based [file, rank] of `c3`. @param {string} sq @returns {[number, number]} */
export function squareXY(sq) {
  return [FILES.indexOf(sq[0]), parseInt(sq.slice(1), 10) - 1];
}

/** Whether a square is played on. @param {Geometry} g @param {number} f @param {number} r */
export function playable(g, f, r) {
  if (g.playable === 'all') return true;
  const even = (f + r) % 2 === 0;
  return g.playable === 'dark' ? even : !even;
}

/**
 * The square's number in numeric notations, or null where squares are algebraic.
 * @param {Geometry} g @param {number} f @param {number} r
 */
export function squareNumber(g, f, r) {
  if (g.numbering === 'algebraic' || !playable(g, f, r)) return null;
  const perRow = g.size / 2;
  if (g.numbering === 'top-left') {
    const row = g.size - 1 - r;
    return row * perRow + Math.floor(f / 2) + 1;
  }
  // bottom-right: from h1 leftwards, then up (Spanish).
  return r * perRow + Math.floor((g.size - 1 - f) / 2) + 1;
}

/**
 * Ugolki: whether a square is in the home of `color` (Black's is the point reflection).
 * @param {Geometry} g @param {'white' | 'black'} color @param {number} f @param {number} r
 */
export function inHome(g, color, f, r) {
  return color === 'white' ? g.whiteHome(f, r) : g.whiteHome(g.size - 1 - f, g.size - 1 - r);
}

/**
 * Ugolki directions as [df, dr].
 * @param {Geometry} g
 * @returns {[number, number][]}
 */
export function directions(g) {
  const orth = /** @type {[number, number][]} */ ([[1, 0], [-1, 0], [0, 1], [0, -1]]);
  if (g.dirs !== 8) return orth;
  return orth.concat([[1, 1], [1, -1], [-1, 1], [-1, -1]]);
}
