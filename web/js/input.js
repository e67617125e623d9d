// @ts-check
// How taps on squares become a move, from the legal moves the server sent. No DOM here, so
// node's test runner checks it directly (e2e/input.test.js).
//
// Draughts (seed 004): select a piece, then tap each landing square in turn, or the final
// square at once when only one move leads there; when two or more different moves share that
// start and end, the player is asked to tap each jump. Ugolki (seed 000): tap the final square
// of a jump chain at once, or jump by jump and then "End move" or the piece again.

import { directions, squareName, squareXY } from './rulesets.js';

/**
 * @typedef {object} MoveView
 * @property {string} notation
 * @property {string | null} from
 * @property {string | null} to
 * @property {string[]} path      start and every landing
 * @property {string[]} captures
 */

/**
 * @typedef {object} Piece
 * @property {string} square
 * @property {'white' | 'black'} color
 * @property {boolean} king
 * @property {{ color: 'white' | 'black', king: boolean }[]} [under]
 */

/**
 * What a tap did.
 * @typedef {{ kind: 'none' }
 *   | { kind: 'select', square: string }
 *   | { kind: 'deselect' }
 *   | { kind: 'hop', path: string[] }
 *   | { kind: 'move', path: string[], move: MoveView | null }
 *   | { kind: 'ambiguous', square: string }
 *   | { kind: 'refuse', reason: 'must-capture' | 'no-moves' | 'not-your-piece' | 'not-your-turn', square: string }
 *   | { kind: 'try', path: string[] }
 * } TapResult
 * `move`: play this path now. `try`: a square no legal move reaches: send it anyway, so the
 * server says why it is refused. `ambiguous`: several moves end there: tap each jump.
 */

export class MoveInput {
  /**
   * @param {import('./rulesets.js').Geometry} geometry
   * @param {MoveView[]} moves   the legal moves of the side to move (empty: not our turn)
   * @param {Piece[]} pieces
   * @param {'white' | 'black'} turn
   * @param {string[]} mustCapture
   */
  constructor(geometry, moves, pieces, turn, mustCapture) {
    this.g = geometry;
    this.moves = moves;
    this.turn = turn;
    this.mustCapture = new Set(mustCapture);
    /** @type {Map<string, Piece>} */
    this.pieces = new Map(pieces.map((p) => [p.square, p]));
    /** Start square and landings tapped so far; empty when nothing is selected. @type {string[]} */
    this.path = [];
    /** Set after an ambiguous final-square tap: the square the player aimed at. @type {string | null} */
    this.aim = null;
  }

  /** The selected piece's square. */
  get selected() {
    return this.path.length ? this.path[0] : null;
  }

  /** Whether a pass is the only move. */
  get mustPass() {
    return this.moves.length > 0 && this.moves.every((m) => m.from === null);
  }

  /** @param {string} sq */
  movesFrom(sq) {
    return this.moves.filter((m) => m.from === sq);
  }

  /** Moves whose path starts with the squares tapped so far (draughts). */
  candidates() {
    const p = this.path;
    return this.moves.filter((m) => m.from === p[0] && p.every((s, i) => m.path[i] === s));
  }

  /**
   * The squares to mark now: `next` are the squares a tap can go to next, `final` the ends of
   * the moves still possible.
   */
  targets() {
    /** @type {Set<string>} */
    const next = new Set();
    /** @type {Set<string>} */
    const final = new Set();
    if (!this.path.length) return { next, final };
    if (this.g.kind === 'ugolki') {
      if (this.path.length === 1) {
        for (const m of this.movesFrom(this.path[0])) if (m.to) final.add(m.to);
        for (const s of this.jumpsFrom(this.path[0])) next.add(s);
        for (const s of final) next.add(s);
      } else {
        for (const s of this.jumpsFrom(this.last)) next.add(s);
      }
      return { next, final };
    }
    const n = this.path.length;
    for (const m of this.candidates()) {
      if (m.path.length > n) next.add(m.path[n]);
      if (m.to && (this.aim === null || m.to === this.aim)) final.add(m.to);
    }
    return { next, final };
  }

  /** The last square of the path. */
  get last() {
    return this.path[this.path.length - 1];
  }

  /** Ugolki: whether "End move" can end the chain here. */
  get canEnd() {
    if (this.path.length < 2) return false;
    if (this.g.kind === 'ugolki') return this.movesFrom(this.path[0]).some((m) => m.to === this.last);
    return this.candidates().some((m) => m.path.length === this.path.length);
  }

  /** Pieces jumped so far along a partial draughts path (to show them as taken). */
  capturedSoFar() {
    if (this.g.kind === 'ugolki' || this.path.length < 2) return [];
    const c = this.candidates()[0];
    return c ? c.captures.slice(0, this.path.length - 1) : [];
  }

  /** Clears the selection. */
  reset() {
    this.path = [];
    this.aim = null;
  }

  /**
   * A tap on a square.
   * @param {string} sq
   * @returns {TapResult}
   */
  tap(sq) {
    if (!this.moves.length) {
      const p = this.pieces.get(sq);
      return p ? { kind: 'refuse', reason: 'not-your-turn', square: sq } : { kind: 'none' };
    }
    return this.g.kind === 'ugolki' ? this.tapUgolki(sq) : this.tapDraughts(sq);
  }

  /** @param {string} sq @returns {TapResult} */
  select(sq) {
    const piece = this.pieces.get(sq);
    if (!piece) {
      if (this.path.length) {
        this.reset();
        return { kind: 'deselect' };
      }
      return { kind: 'none' };
    }
    if (piece.color !== this.turn) {
      this.reset();
      return { kind: 'refuse', reason: 'not-your-piece', square: sq };
    }
    if (!this.movesFrom(sq).length) {
      this.reset();
      const reason = this.mustCapture.size && !this.mustCapture.has(sq) ? 'must-capture' : 'no-moves';
      return { kind: 'refuse', reason, square: sq };
    }
    this.path = [sq];
    this.aim = null;
    return { kind: 'select', square: sq };
  }

  /** @param {string} sq @returns {TapResult} */
  tapDraughts(sq) {
    if (!this.path.length) return this.select(sq);
    if (sq === this.path[0]) {
      // The piece again: back to the plain selection, or off.
      if (this.path.length > 1 || this.aim) {
        this.path = [sq];
        this.aim = null;
        return { kind: 'select', square: sq };
      }
      this.reset();
      return { kind: 'deselect' };
    }
    if (this.path.length > 1 && sq === this.last) {
      // The piece where the capture stands: go on or end there.
      if (this.canEnd && !this.candidates().some((m) => m.path.length > this.path.length)) return this.endChain();
      return { kind: 'none' };
    }
    const cands = this.candidates();
    const n = this.path.length;
    const viaLanding = cands.filter((m) => m.path[n] === sq);
    if (viaLanding.length) {
      const path = [...this.path, sq];
      const rest = viaLanding.filter((m) => this.aim === null || m.to === this.aim);
      const left = rest.length ? rest : viaLanding;
      if (left.length === 1) {
        this.reset();
        return { kind: 'move', path: left[0].path, move: left[0] };
      }
      const endsHere = left.filter((m) => m.path.length === path.length);
      const goesOn = left.filter((m) => m.path.length > path.length);
      if (endsHere.length === 1 && !goesOn.length) {
        this.reset();
        return { kind: 'move', path: endsHere[0].path, move: endsHere[0] };
      }
      this.path = path;
      if (!rest.length) this.aim = null;
      return { kind: 'hop', path };
    }
    const ending = cands.filter((m) => m.to === sq);
    if (ending.length === 1) {
      this.reset();
      return { kind: 'move', path: ending[0].path, move: ending[0] };
    }
    if (ending.length > 1) {
      this.aim = sq;
      return { kind: 'ambiguous', square: sq };
    }
    const piece = this.pieces.get(sq);
    if (piece && piece.color === this.turn) return this.select(sq);
    if (!piece && this.path.length === 1) {
      const from = this.path[0];
      this.reset();
      return { kind: 'try', path: [from, sq] };
    }
    if (!piece && this.path.length > 1) {
      // Off the capture's way: the server says why (the capture must be completed).
      const path = [...this.path, sq];
      this.reset();
      return { kind: 'try', path };
    }
    this.reset();
    return { kind: 'deselect' };
  }

  /** @param {string} sq @returns {TapResult} */
  tapUgolki(sq) {
    if (!this.path.length) return this.select(sq);
    const from = this.path[0];
    if (this.path.length > 1) {
      if (sq === this.last) return this.endChain();
      if (sq === from) {
        this.path = [from];
        return { kind: 'select', square: from };
      }
      if (this.jumpsFrom(this.last).includes(sq)) {
        const path = [...this.path, sq];
        this.path = path;
        if (!this.jumpsFrom(sq).length) return this.endChain();
        return { kind: 'hop', path };
      }
      const direct = this.movesFrom(from).find((m) => m.to === sq);
      if (direct) {
        this.reset();
        return { kind: 'move', path: [from, sq], move: direct };
      }
      return { kind: 'none' };
    }
    if (sq === from) {
      this.reset();
      return { kind: 'deselect' };
    }
    const legal = this.movesFrom(from).find((m) => m.to === sq);
    if (this.jumpsFrom(from).includes(sq)) {
      // A first jump: the chain may go on from there; it ends on "End move" or the piece.
      if (this.jumpsFrom(sq, [from]).length) {
        this.path = [from, sq];
        return { kind: 'hop', path: this.path };
      }
      this.reset();
      return legal ? { kind: 'move', path: [from, sq], move: legal } : { kind: 'try', path: [from, sq] };
    }
    if (legal) {
      this.reset();
      return { kind: 'move', path: legal.path.length >= 2 ? legal.path : [from, sq], move: legal };
    }
    const piece = this.pieces.get(sq);
    if (piece && piece.color === this.turn) return this.select(sq);
    this.reset();
    return piece ? { kind: 'deselect' } : { kind: 'try', path: [from, sq] };
  }

  /** Ends an Ugolki chain where it stands ("End move", or a tap on the piece). @returns {TapResult} */
  endChain() {
    if (this.path.length < 2) return { kind: 'none' };
    const from = this.path[0];
    const path = this.path;
    const move = this.g.kind === 'ugolki'
      ? this.movesFrom(from).find((m) => m.to === this.last) || null
      : this.candidates().find((m) => m.path.length === path.length) || null;
    this.reset();
    return move ? { kind: 'move', path, move } : { kind: 'try', path };
  }

  /**
   * Ugolki: single jumps from `sq`, over an adjacent piece onto the free square behind it,
   * never back to a square this chain visited. The moving piece has left its start square.
   * @param {string} sq
   * @param {string[]} [visited]
   */
  jumpsFrom(sq, visited) {
    if (this.g.kind !== 'ugolki' || !this.path.length) return [];
    const seen = new Set(visited || this.path);
    seen.add(sq);
    const start = this.path[0];
    const occupied = (/** @type {string} */ s) => s !== start && this.pieces.has(s);
    const [f, r] = squareXY(sq);
    const out = [];
    for (const [df, dr] of directions(this.g)) {
      const f1 = f + df, r1 = r + dr, f2 = f + 2 * df, r2 = r + 2 * dr;
      if (f2 < 0 || r2 < 0 || f2 >= this.g.size || r2 >= this.g.size) continue;
      const over = squareName(f1, r1), to = squareName(f2, r2);
      if (occupied(over) && !occupied(to) && to !== start && !seen.has(to)) out.push(to);
    }
    return out;
  }
}

/**
 * What the board shows of a move being entered: the pieces with the moving one on the square it
 * has got to, the pieces it has jumped so far (`taken`), the square selected, and the squares to
 * mark (`next`, `final`: input.targets()). With nothing entered, the pieces as they are.
 * @param {MoveInput | null} input
 * @param {Piece[]} pieces
 * @returns {{ pieces: Piece[], taken: Set<string>, selected: string | null, next: Set<string>, final: Set<string> }}
 */
export function entering(input, pieces) {
  if (!input || !input.path.length) return { pieces, taken: new Set(), selected: null, next: new Set(), final: new Set() };
  const { next, final } = input.targets();
  const selected = input.last;
  if (input.path.length < 2) return { pieces, taken: new Set(), selected, next, final };
  const from = input.path[0];
  return {
    pieces: pieces.map((p) => (p.square === from ? { ...p, square: selected } : p)),
    taken: new Set(input.capturedSoFar()),
    selected,
    next,
    final,
  };
}

/**
 * What the prompt offers while a move is being entered (the game and the analysis board): a
 * hint (an i18n key; `force`: it replaces the caller's own text) and the buttons, each with its
 * action, i18n key and classes.
 * @param {MoveInput} input
 * @param {string} gameKind 'ugolki' or a draughts kind
 * @returns {{ hint: string | null, force: boolean, buttons: { act: string, key: string, cls: string }[] }}
 */
export function entryActions(input, gameKind) {
  const cancel = { act: 'cancel', key: 'game.cancel', cls: 'ghost' };
  if (input.mustPass) {
    return { hint: 'game.no-moves-pass', force: true, buttons: [{ act: 'pass', key: 'game.pass', cls: 'primary' }] };
  }
  if (input.path.length > 1) {
    const end = { act: 'end-move', key: 'game.end-move', cls: 'primary end-move' };
    return {
      hint: gameKind === 'ugolki' ? 'game.chain-hint' : 'game.capture-hint',
      force: false,
      buttons: input.canEnd ? [end, cancel] : [cancel],
    };
  }
  return { hint: null, force: false, buttons: input.aim ? [cancel] : [] };
}
