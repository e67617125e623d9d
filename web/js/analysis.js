// @ts-check
// The analysis board: `/analysis?rules=R&fen=F` (F a FEN or a PDN; none: the rule set's start
// position) and `/analysis?game=ID&ply=N` (a finished game's moves as the main line, at the
// position after N plies). Both sides move; the engine's best three lines deepen as it thinks
// (docs/api.md, "Analysis board"), with an evaluation bar and an arrow for the best move; going
// back and trying another move keeps the main line and shows the new one as a side line.
//
// Where the legal moves come from. The client does not know the rules (rulesets.js only draws;
// the server is the only judge of legality), and `GET /api/analysis` answers only lines. A
// position is a FEN and nothing else: `GET /api/position?rules=R&fen=F` (docs/api.md, "A
// position alone") gives its pieces, the side to move, the pieces that must capture, whether the
// game is over there, and its legal moves, each with its path for board.js and input.js exactly
// as in play and the FEN after it. Playing a move is taking that move's FEN and asking for the
// position there: no game is made on the server, nothing is played on a socket, nothing counts
// in the player's lists, stats or limits. A finished game's positions (from its replay) are
// asked for when they are shown, so the glow of the pieces that must capture is there at once.
// A pasted PDN's moves become the main line: the server reads the PDN cut after each of its
// moves (the same tags, the moves up to there), and each move is the legal move whose FEN is the
// next position's. A FEN has no history, so a repetition is not seen as a draw here. The
// engine's endpoint is stateless too (a FEN alone), so nothing of a game being played is ever
// analysed here.

import * as api from './api.js';
import { Board } from './board.js';
import { lang, plural, t } from './i18n.js';
import { MoveInput, entering, entryActions } from './input.js';
import { errorText, reasonText, rulesName } from './names.js';
import { load, save } from './prefs.js';
import { DRAUGHTS, ORDER, UGOLKI, geometry } from './rulesets.js';
import * as sound from './sound.js';

/** @typedef {'white' | 'black'} Color */
/** @typedef {import('./input.js').Piece} Piece */
/** @typedef {import('./input.js').MoveView} MoveView */
/** A legal move of a position alone, with the FEN after it. @typedef {MoveView & { fen: string }} LegalMove */
/**
 * `GET /api/position`'s answer.
 * @typedef {{ rules: string, fen: string, turn: Color, move_number: number, pieces: Piece[], legal_moves: LegalMove[], must_capture: string[], pieces_left: { white: number, black: number }, outcome: Node['over'] }} Position
 */

/**
 * A position of the tree: the root, or the position after `move` from `parent`.
 * @typedef {object} Node
 * @property {number} id
 * @property {Node | null} parent
 * @property {Node[]} children  the first is the main continuation, the others side lines
 * @property {number} ply       plies from the root
 * @property {string} fen
 * @property {Color} turn
 * @property {Piece[]} pieces
 * @property {{ notation: string, path: string[], captures: string[] } | null} move  the move that led here
 * @property {LegalMove[] | null} legal  null: not asked for yet (a position of a replay)
 * @property {string[]} must    pieces that must capture
 * @property {{ winner?: string | null, reason?: string | null, text?: string | null } | null} over  the game is over here
 * @property {any} analysis     the engine's deepest answer so far
 * @property {boolean} stalled  a deeper answer came back no deeper (the node budget): no use asking again
 * @property {string} engineError
 */

/** The first depth asked for, the last, and how long a new position waits before the engine starts (stepping quickly through moves asks nothing). */
const FIRST_DEPTH = 4;
const MAX_DEPTH = 24;
const SETTLE_MS = 220;
const LINES = 3;

/** @param {string} s */
function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A value from White's side with one decimal and its sign: "+1.5", "−0.3", "0.0". @param {number} v */
function fmt(v) {
  const f = new Intl.NumberFormat(lang() === 'ru' ? 'ru-RU' : 'en-US', {
    minimumFractionDigits: 1, maximumFractionDigits: 1, signDisplay: 'exceptZero',
  });
  return f.format(v).replace('-', '−');
}

/**
 * White's share of the evaluation bar, in percent: the winning chance of the review's accuracy
 * (docs/api.md), x being half the value in men or a quarter of it in race moves.
 * @param {number} v @param {string} unit
 */
function whiteShare(v, unit) {
  const x = unit === 'race-move' ? v / 4 : v / 2;
  return 50 + 50 * (2 / (1 + Math.exp(-x)) - 1);
}

/** The rule set the page opens with when the address names none: the one last chosen at home. */
function defaultRules() {
  const c = load('choice', null);
  if (c && c.kind === 'ugolki' && c.ugolki) return String(c.ugolki);
  if (c && c.draughts) return String(c.draughts);
  return lang() === 'ru' ? 'russian' : 'american';
}

/** The squares a move goes through (a pass: none). @param {MoveView} m */
function movePath(m) {
  return m.path && m.path.length ? m.path : [m.from, m.to].filter((x) => !!x).map(String);
}

/** A FEN's side to move and pieces (its first three fields), without its counters. @param {string} fen */
function board(fen) {
  return fen.split(':').slice(0, 3).join(':');
}

/** Whether a text is a bare FEN rather than a PDN (as the server tells them apart). @param {string} text */
function isFen(text) {
  const t = text.trim();
  return (!t.startsWith('[') && !/[. ]/.test(t)) || /^[WB]/.test(t);
}

/** The results that end a PDN's moves. */
const RESULTS = new Set(['1-0', '0-1', '2-0', '0-2', '1-1', '1/2-1/2', '*', '0-0']);

/**
 * A PDN's moves, as the server reads them: the tag lines out, then comments, variations, move
 * numbers, marks and NAGs; up to the result.
 * @param {string} text @returns {string[]}
 */
export function pdnMoves(text) {
  const body = text.split('\n').filter((l) => !l.trim().startsWith('[')).join('\n');
  /** @type {string[]} */
  const out = [];
  let word = '';
  const flush = () => {
    let w = word === '*' ? '*' : word.replace(/[!?*]+$/, '');
    word = '';
    if (!w || w.startsWith('$')) return;
    const dot = w.indexOf('.');
    if (dot >= 0 && /^\d*$/.test(w.slice(0, dot))) w = w.slice(dot).replace(/^\.+/, '');
    if (w) out.push(w);
  };
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '{') {
      flush();
      const end = body.indexOf('}', i + 1);
      if (end < 0) break;
      i = end;
    } else if (c === '(') {
      flush();
      let depth = 1;
      while (depth > 0 && ++i < body.length) {
        if (body[i] === '(') depth++;
        else if (body[i] === ')') depth--;
      }
    } else if (/\s/.test(c)) flush();
    else word += c;
  }
  flush();
  const end = out.findIndex((w) => RESULTS.has(w));
  return end < 0 ? out : out.slice(0, end);
}

export class AnalysisScreen {
  /** @param {HTMLElement} main @param {URLSearchParams} query */
  constructor(main, query) {
    this.main = main;
    this.rules = '';
    /** @type {Node | null} */
    this.root = null;
    /** @type {Node | null} */
    this.cur = null;
    this.nextId = 1;
    /** @type {Map<number, Node>} */
    this.nodes = new Map();
    /** @type {Board | null} */
    this.board = null;
    /** @type {MoveInput | null} */
    this.input = null;
    this.flipped = false;
    this.engineOn = load('analysis.engine', true) !== false;
    /** @type {AbortController | null} */
    this.thinking = null;
    /** @type {number | undefined} */
    this.settle = undefined;
    /** Positions asked for, by rule set and FEN (the same position is asked for once). @type {Map<string, Promise<Position>>} */
    this.positions = new Map();
    /** A move (or the legal moves of a position) is on its way from the server. */
    this.busy = false;
    /** The player moved the piece jump by jump (no animation of the whole move then). */
    this.stepped = false;
    /** @type {{ text: string, kind: string } | null} */
    this.prompt = null;
    this.setupError = '';
    this.setupText = '';
    this.loadSeq = 0;
    this.loading = true;
    /** The board's geometry the layout was built for. */
    this.laidOut = '';
    this.destroyed = false;
    this.onKey = (/** @type {KeyboardEvent} */ e) => this.key(e);
    document.addEventListener('keydown', this.onKey);
    document.title = t('title.analysis');
    this.main.innerHTML = `<section class="analysis loading"><p class="muted center">${esc(t('home.loading'))}</p></section>`;
    const game = query.get('game');
    if (game) this.loadGame(game, query.get('ply'));
    else {
      this.setupText = query.get('fen') || '';
      this.loadPosition(query.get('rules') || defaultRules(), this.setupText, true);
    }
  }

  destroy() {
    this.destroyed = true;
    this.stopThinking();
    document.removeEventListener('keydown', this.onKey);
  }

  relabel() {
    document.title = t('title.analysis');
    if (!this.root) return;
    const text = /** @type {HTMLTextAreaElement | null} */ (this.main.querySelector('#an-position'));
    if (text) this.setupText = text.value;
    this.laidOut = '';
    this.renderAll();
  }

  get g() {
    return geometry(this.rules);
  }

  // ---- Positions ----

  /**
   * A position alone, asked for once (`GET /api/position`): a FEN, or a PDN (its last position).
   * @param {string} rules @param {string} fen @returns {Promise<Position>}
   */
  positionOf(rules, fen) {
    const key = `${rules}\n${fen}`;
    let p = this.positions.get(key);
    if (!p) {
      p = api.position(rules, fen);
      this.positions.set(key, p);
      // A failed answer is asked for again next time.
      p.catch(() => this.positions.delete(key));
    }
    return p;
  }

  /**
   * A node of the tree.
   * @param {Node | null} parent
   * @param {{ fen: string, turn: Color, pieces: Piece[], move?: Node['move'], legal?: LegalMove[] | null, must?: string[], over?: Node['over'] }} p
   * @returns {Node}
   */
  node(parent, p) {
    /** @type {Node} */
    const n = {
      id: this.nextId++, parent, children: [], ply: parent ? parent.ply + 1 : 0,
      fen: p.fen, turn: p.turn, pieces: p.pieces, move: p.move || null,
      legal: p.legal === undefined ? null : p.legal, must: p.must || [], over: p.over || null,
      analysis: null, stalled: false, engineError: '',
    };
    this.nodes.set(n.id, n);
    return n;
  }

  /**
   * A node of a position alone, reached by `move` from `parent`.
   * @param {Node | null} parent @param {Position} p @param {LegalMove | null} move
   */
  positionNode(parent, p, move) {
    return this.node(parent, {
      fen: p.fen, turn: p.turn, pieces: p.pieces,
      move: move ? { notation: move.notation, path: movePath(move), captures: move.captures || [] } : null,
      legal: p.outcome ? [] : p.legal_moves, must: p.must_capture || [], over: p.outcome || null,
    });
  }

  /** Fills in a node's legal moves (and the pieces that must capture) from its position. @param {Node} node @param {Position} p */
  learn(node, p) {
    if (node.legal) return;
    node.legal = p.outcome ? [] : p.legal_moves;
    node.must = p.must_capture || [];
    // A replay's end keeps its own end (a resignation is not seen from the position).
    if (!node.over && p.outcome) node.over = p.outcome;
  }

  /**
   * The legal moves of a node shown without them (a replay's position): asked for at once, so
   * that the pieces that must capture glow and the board answers taps.
   * @param {Node} node
   */
  async fetchLegal(node) {
    if (node.legal) return;
    let p;
    try {
      p = await this.positionOf(this.rules, node.fen);
    } catch {
      return;
    }
    if (this.destroyed || node.legal) return;
    this.learn(node, p);
    if (node !== this.cur || this.busy) return;
    this.refreshInput();
    this.renderBoard();
    this.renderTurn();
    this.renderPrompt();
  }

  /**
   * The tree of a replay (`GET /api/games/{id}/replay`): the start, then each ply as the main
   * line.
   * @param {any} rp
   * @returns {Node[]} the main line, root first
   */
  replayTree(rp) {
    const line = [this.node(null, { fen: rp.start.fen, turn: rp.start.turn, pieces: rp.start.pieces })];
    for (const p of rp.plies) {
      const parent = line[line.length - 1];
      const n = this.node(parent, { fen: p.fen, turn: p.turn, pieces: p.pieces, move: { notation: p.notation, path: p.path || [], captures: p.captures || [] } });
      parent.children.push(n);
      line.push(n);
    }
    const end = line[line.length - 1];
    if (rp.status === 'finished' && rp.plies.length) end.over = { winner: rp.winner, reason: rp.reason, text: rp.result_text };
    return line;
  }

  /**
   * A PDN's moves as the main line: the position after each of its moves is the same PDN cut
   * there (its tags, the moves up to there), and the move that leads to it the legal move whose
   * FEN is that position's. Null when a move cannot be matched (then the last position alone).
   * @param {string} rules the PDN's rule set (the server's canonical text)
   * @param {string} text @param {string[]} moves the PDN's move tokens
   * @param {Position} end the position after all of them
   * @returns {Promise<Node[] | null>} the main line, root first
   */
  async pdnLine(rules, text, moves, end) {
    const tags = text.split('\n').map((l) => l.trim()).filter((l) => l.startsWith('[') && !/^\[\s*Variant\b/i.test(l));
    const head = [`[Variant "${rules}"]`, ...tags].join('\n');
    /** @type {Position[]} */
    const at = new Array(moves.length + 1);
    at[moves.length] = end;
    // A few at a time: the server reads each cut PDN from its start.
    let next = 0;
    const worker = async () => {
      while (next < moves.length) {
        const i = next++;
        at[i] = await this.positionOf(rules, `${head}\n${moves.slice(0, i).join(' ')}`);
      }
    };
    await Promise.all(Array.from({ length: Math.min(4, moves.length) }, worker));
    const line = [this.positionNode(null, at[0], null)];
    for (let i = 0; i < moves.length; i++) {
      const p = at[i];
      const q = at[i + 1];
      const mv = p.legal_moves.find((m) => m.fen === q.fen)
        || p.legal_moves.find((m) => board(m.fen) === board(q.fen))
        || p.legal_moves.find((m) => m.notation === moves[i]);
      if (!mv) return null;
      const parent = line[line.length - 1];
      const n = this.positionNode(parent, q, mv);
      parent.children.push(n);
      line.push(n);
    }
    return line;
  }

  /** Starts afresh on a new tree. @param {string} rules @param {Node} root @param {Node} cur */
  setTree(rules, root, cur) {
    this.stopThinking();
    this.rules = rules;
    this.root = root;
    this.cur = cur;
    this.nodes = new Map();
    const walk = (/** @type {Node} */ n) => {
      this.nodes.set(n.id, n);
      n.children.forEach(walk);
    };
    walk(root);
    this.prompt = null;
    this.loading = false;
    this.busy = false;
    this.refreshInput();
    this.renderAll();
    this.think();
    this.fetchLegal(cur);
  }

  /**
   * A position (FEN or PDN; empty: the start position) of a rule set. On a bad one the error
   * is shown and the board stays as it was (on opening the page: the start position).
   * @param {string} rules @param {string} text @param {boolean} [opening]
   */
  async loadPosition(rules, text, opening = false) {
    const seq = ++this.loadSeq;
    this.loading = true;
    this.renderSetup();
    const given = text.trim();
    /** @type {Position} */
    let p;
    /** @type {Node[] | null} */
    let line = null;
    try {
      // The start position: a PDN naming only its rule set.
      p = await this.positionOf(rules, given || `[Variant "${rules}"]`);
      // A PDN's moves are the main line.
      const moves = given && !isFen(given) ? pdnMoves(given) : [];
      if (moves.length) line = await this.pdnLine(p.rules, given, moves, p);
    } catch (e) {
      if (seq !== this.loadSeq || this.destroyed) return;
      this.setupError = errorText(e instanceof Error ? e.message : String(e));
      this.loading = false;
      if (!this.root && opening) {
        // Opening the page on a bad address: the start position (of the default rules when
        // the rules were the trouble), the error beside it.
        const error = this.setupError;
        if (given) await this.loadPosition(rules, '', true);
        else if (rules !== defaultRules()) await this.loadPosition(defaultRules(), '');
        this.setupError = error;
      }
      if (!this.root) {
        this.main.innerHTML = `<section class="game-missing card"><h1>${esc(t('analysis.title'))}</h1><p>${esc(this.setupError)}</p><p><a class="button primary" href="/" data-link>${esc(t('game.home'))}</a></p></section>`;
        return;
      }
      this.renderSetup();
      return;
    }
    if (seq !== this.loadSeq || this.destroyed) return;
    this.setupError = '';
    if (!line) line = [this.positionNode(null, p, null)];
    this.setTree(p.rules, line[0], line[line.length - 1]);
    const q = new URLSearchParams({ rules: p.rules });
    if (given && given.length <= 1500) q.set('fen', given);
    history.replaceState(null, '', `/analysis?${q}`);
  }

  /**
   * A finished game's moves as the main line, at the position after `ply` plies (none: the
   * end). A game still being played is not analysed.
   * @param {string} id @param {string | null} ply
   */
  async loadGame(id, ply) {
    const seq = ++this.loadSeq;
    /** @type {any} */
    let rp;
    try {
      rp = await api.replay(id);
    } catch (e) {
      if (seq !== this.loadSeq || this.destroyed) return;
      const error = e instanceof api.ApiError && e.status === 404 ? t('game.not-found') : errorText(e instanceof Error ? e.message : String(e));
      await this.loadPosition(defaultRules(), '');
      this.setupError = error;
      this.renderSetup();
      return;
    }
    if (seq !== this.loadSeq || this.destroyed) return;
    if (rp.status !== 'finished' && rp.status !== 'aborted') {
      await this.loadPosition(rp.rules, '');
      this.setupError = t('analysis.not-over');
      this.renderSetup();
      return;
    }
    const line = this.replayTree(rp);
    const n = ply === null || ply === '' ? line.length - 1 : Math.max(0, Math.min(line.length - 1, parseInt(ply, 10) || 0));
    this.setTree(rp.rules, line[0], line[n]);
  }

  // ---- Moves ----

  /**
   * The legal move a path (or a move text: `pass`) names at a node, or why there is none, in
   * the words the server uses when it refuses a move (errorText says them in the player's
   * language).
   * @param {Node} node @param {{ path?: string[], text?: string }} m
   * @returns {{ move: LegalMove } | { refused: string }}
   */
  legalMove(node, m) {
    const legal = node.legal || [];
    if (m.text) {
      const mv = legal.find((x) => x.notation === m.text || (m.text === 'pass' && x.from === null));
      return mv ? { move: mv } : { refused: m.text === 'pass' ? 'a side may pass only when it has no legal move' : `${m.text} is not a legal move here` };
    }
    const path = m.path || [];
    const key = path.join(' ');
    const exact = legal.find((x) => x.path.join(' ') === key);
    if (exact) return { move: exact };
    // Another route of the same move (Ugolki's chains of jumps).
    const from = path[0];
    const to = path[path.length - 1];
    const same = legal.filter((x) => x.from === from && x.to === to);
    if (same.length === 1 || (same.length && this.g.kind === 'ugolki')) return { move: same[0] };
    if (same.length > 1) return { refused: `${from}-${to} is ambiguous: tap each jump` };
    const on = path.length > 2 ? legal.find((x) => x.path.length > path.length - 1 && path.slice(0, -1).every((sq, i) => x.path[i] === sq)) : null;
    if (on) return { refused: `the capture must be completed: it goes on from ${path[path.length - 2]}` };
    if (node.must.length) return { refused: `capture is compulsory: ${node.must.join(', ')} must capture` };
    return { refused: `${from}-${to} is not a legal move here` };
  }

  /**
   * Plays a move at the current position: a path of squares, or a move text (`pass`). A move
   * already in the tree is gone to; a new one is the position after it (its legal move's FEN,
   * asked for) and becomes a new line (the main continuation when the position had none).
   * @param {{ path?: string[], text?: string }} m @param {boolean} [stepped] the piece was already shown moving
   */
  async play(m, stepped = false) {
    const node = this.cur;
    if (!node || this.busy || node.over) return;
    const key = m.path ? m.path.join(' ') : '';
    const known = node.children.find((c) => c.move && ((key && c.move.path.join(' ') === key) || (m.text && c.move.notation === m.text)));
    if (known) {
      this.goTo(known, !stepped);
      return;
    }
    this.busy = true;
    this.renderPrompt();
    try {
      if (!node.legal) this.learn(node, await this.positionOf(this.rules, node.fen));
      if (this.cur !== node || this.destroyed) return;
      const found = this.legalMove(node, m);
      if ('refused' in found) throw new Error(found.refused);
      const mv = found.move;
      const again = node.children.find((c) => c.move && c.move.notation === mv.notation);
      let child = again;
      if (!child) {
        const p = await this.positionOf(this.rules, mv.fen);
        if (this.destroyed) return;
        child = node.children.find((c) => c.move && c.move.notation === mv.notation) || this.positionNode(node, p, mv);
        if (!node.children.includes(child)) node.children.push(child);
      }
      this.busy = false;
      if (this.cur === node) this.goTo(child, !stepped);
      else this.renderMoves();
    } catch (e) {
      if (this.destroyed) return;
      this.prompt = { text: errorText(e instanceof Error ? e.message : String(e)), kind: 'error' };
      sound.play('error');
      if (this.input) this.input.reset();
    } finally {
      this.busy = false;
      if (!this.destroyed) {
        this.renderBoard();
        this.renderPrompt();
      }
    }
  }

  /**
   * Shows another position of the tree.
   * @param {Node} node @param {boolean} [animate] animate the move when it is one step forward
   */
  goTo(node, animate = false) {
    if (!this.board) return;
    const prev = this.cur;
    if (node === prev) return;
    this.cur = node;
    this.prompt = null;
    this.stepped = false;
    this.refreshInput();
    this.renderAll();
    if (prev && node.parent === prev && node.move) {
      if (animate) this.board.animate(node.move.path, node.move.captures, prev.pieces);
      sound.play(node.move.captures.length ? 'capture' : 'move');
    }
    this.main.querySelector('.an-moves .mv.current')?.scrollIntoView({ block: 'nearest' });
    this.think();
    this.fetchLegal(node);
  }

  /** @param {string} how first, prev, next, last */
  step(how) {
    const n = this.cur;
    if (!n || !this.root) return;
    if (how === 'first') this.goTo(this.root);
    else if (how === 'prev' && n.parent) this.goTo(n.parent);
    else if (how === 'next' && n.children.length) this.goTo(n.children[0], true);
    else if (how === 'last') {
      let e = n;
      while (e.children.length) e = e.children[0];
      this.goTo(e);
    }
  }

  /** @param {KeyboardEvent} e */
  key(e) {
    if (e.altKey || e.ctrlKey || e.metaKey || !this.root) return;
    const el = e.target instanceof HTMLElement ? e.target : null;
    if (e.key === 'Escape' && this.input && this.input.path.length) {
      this.input.reset();
      this.prompt = null;
      this.renderBoard();
      this.renderPrompt();
      return;
    }
    const how = { ArrowLeft: 'prev', ArrowRight: 'next', Home: 'first', End: 'last' }[e.key];
    if (!how || (el && el.closest('.board, input, textarea, select, dialog'))) return;
    e.preventDefault();
    this.step(how);
  }

  refreshInput() {
    const n = this.cur;
    if (!n) return;
    this.input = new MoveInput(this.g, n.over ? [] : n.legal || [], n.pieces, n.turn, n.must);
  }

  /** @param {string} sq */
  async tap(sq) {
    const node = this.cur;
    if (!node || !this.input || this.busy) return;
    if (node.over) {
      this.prompt = { text: t('analysis.over'), kind: 'info' };
      this.renderPrompt();
      return;
    }
    if (!node.legal) {
      // A position known from a replay whose legal moves are still on their way.
      if (!node.pieces.some((p) => p.square === sq)) return;
      this.busy = true;
      this.renderPrompt();
      try {
        this.learn(node, await this.positionOf(this.rules, node.fen));
      } catch (e) {
        this.busy = false;
        if (this.destroyed) return;
        this.prompt = { text: errorText(e instanceof Error ? e.message : String(e)), kind: 'error' };
        this.renderPrompt();
        return;
      }
      this.busy = false;
      if (this.cur !== node || this.destroyed) return;
      this.refreshInput();
      this.renderTurn();
    }
    const r = this.input.tap(sq);
    switch (r.kind) {
      case 'move':
        this.prompt = null;
        this.play({ path: r.path }, this.stepped);
        this.stepped = false;
        break;
      case 'try':
        this.prompt = null;
        this.play({ path: r.path });
        this.stepped = false;
        break;
      case 'hop':
        this.stepped = true;
        this.prompt = null;
        sound.play('move');
        break;
      case 'ambiguous':
        this.prompt = { text: t('game.tap-each-jump'), kind: 'info' };
        break;
      case 'select':
      case 'deselect':
        this.stepped = false;
        this.prompt = null;
        break;
      case 'refuse':
        this.prompt = {
          text: r.reason === 'must-capture' ? t('game.must-capture-refuse') : r.reason === 'no-moves' ? t('game.no-moves-piece') : t(`analysis.turn.${node.turn}`),
          kind: 'error',
        };
        sound.play('error');
        break;
      default:
        break;
    }
    this.renderBoard();
    this.renderPrompt();
  }

  /** @param {string} act */
  act(act) {
    switch (act) {
      case 'end-move': {
        if (!this.input) return;
        const r = this.input.endChain();
        if (r.kind === 'move' || r.kind === 'try') this.play({ path: r.path }, true);
        this.stepped = false;
        this.renderBoard();
        this.renderPrompt();
        return;
      }
      case 'cancel':
        if (this.input) this.input.reset();
        this.prompt = null;
        this.stepped = false;
        this.renderBoard();
        this.renderPrompt();
        return;
      case 'pass':
        this.play({ text: 'pass' });
        return;
      case 'flip':
        this.flipped = !this.flipped;
        this.renderBoard();
        this.renderEval();
        return;
      case 'engine':
        this.engineOn = !this.engineOn;
        save('analysis.engine', this.engineOn);
        if (this.engineOn) this.think();
        else this.stopThinking();
        this.renderEngine();
        this.renderBoard();
        return;
      case 'start-position':
        this.setupText = '';
        this.loadPosition(this.rules, '');
        return;
      default:
        if (['first', 'prev', 'next', 'last'].includes(act)) this.step(act);
    }
  }

  // ---- The engine ----

  stopThinking() {
    clearTimeout(this.settle);
    this.settle = undefined;
    if (this.thinking) this.thinking.abort();
    this.thinking = null;
  }

  /**
   * (Re)starts the engine on the position shown: depth 4, then one deeper each answer, each
   * answer replacing the lines, until the answer is complete, no deeper than the last (the node
   * budget), depth 24, another position, or the switch turned off.
   */
  think() {
    this.stopThinking();
    const node = this.cur;
    if (!node || !this.engineOn || node.over || this.destroyed) {
      this.renderEngine();
      return;
    }
    const a = node.analysis;
    if (a && (a.complete || node.stalled || a.depth >= MAX_DEPTH)) {
      this.renderEngine();
      return;
    }
    const ac = new AbortController();
    this.thinking = ac;
    this.renderEngine();
    this.settle = window.setTimeout(() => this.deepen(node, ac), a ? 0 : SETTLE_MS);
  }

  /** @param {Node} node @param {AbortController} ac */
  async deepen(node, ac) {
    let depth = node.analysis ? node.analysis.depth + 1 : FIRST_DEPTH;
    while (!ac.signal.aborted && depth <= MAX_DEPTH) {
      /** @type {any} */
      let res;
      try {
        res = await api.analysis(this.rules, node.fen, depth, LINES, ac.signal);
      } catch (e) {
        if (ac.signal.aborted) return;
        node.engineError = e instanceof api.ApiError && e.status === 409 ? t('analysis.over') : t('analysis.failed', { error: errorText(e instanceof Error ? e.message : String(e)) });
        if (e instanceof api.ApiError && e.status === 409) node.stalled = true;
        break;
      }
      if (!res || !Array.isArray(res.lines)) break;
      node.engineError = '';
      node.stalled = res.depth < depth;
      node.analysis = res;
      if (ac.signal.aborted) return;
      if (node === this.cur) {
        this.renderEngine();
        this.renderBoard();
      }
      if (res.complete || node.stalled) break;
      depth = res.depth + 1;
    }
    if (this.thinking === ac) {
      this.thinking = null;
      this.renderEngine();
    }
  }

  // ---- Drawing ----

  /** The move number of the move that led to `n`, and whether the side that starts moved. @param {Node} n */
  moveNo(n) {
    const root = /** @type {Node} */ (this.root);
    const m = /:N(\d+)/.exec(root.fen);
    const n0 = m ? parseInt(m[1], 10) : 1;
    const offset = root.turn === this.g.first ? 0 : 1;
    const k = n.ply - 1 + offset;
    return { num: n0 + Math.floor(k / 2), first: k % 2 === 0 };
  }

  layout() {
    const g = this.g;
    const key = `${this.rules}|${lang()}`;
    if (this.laidOut === key && this.board) return;
    this.laidOut = key;
    this.main.innerHTML = `
<section class="analysis game-${g.kind}" data-rules="${esc(this.rules)}">
  <div class="game-head">
    <div class="game-title">
      <h1>${esc(t('analysis.title'))}</h1>
      <p class="game-mode">${esc(rulesName(this.rules))}</p>
    </div>
    <a class="icon rules-help" href="/rules/${esc(this.rules.split(':')[0])}" data-link aria-label="${esc(t('game.rules'))}" title="${esc(t('game.rules'))}">?</a>
  </div>
  <div class="an-body">
    <div class="an-main">
      <div class="an-board-row">
        <div class="eval-bar" role="img"><div class="eval-white"></div><span class="eval-num"></span></div>
        <div class="board-wrap"><div class="board-host"></div></div>
      </div>
      <div class="an-panel">
        <div class="turn-line an-turn" aria-live="polite"></div>
        <div class="prompt" role="status" aria-live="assertive"></div>
        <div class="actions"></div>
        <div class="an-nav">
          <button type="button" class="icon" data-act="first" aria-label="${esc(t('replay.first'))}" title="${esc(t('replay.first'))}"><svg viewBox="0 0 24 24" aria-hidden="true"><path d="M6 5v14M18 6l-8 6 8 6z"/></svg></button>
          <button type="button" class="icon" data-act="prev" aria-label="${esc(t('replay.prev'))}" title="${esc(t('replay.prev'))}"><svg viewBox="0 0 24 24" aria-hidden="true"><path d="M15 6l-7 6 7 6"/></svg></button>
          <button type="button" class="icon" data-act="next" aria-label="${esc(t('replay.next'))}" title="${esc(t('replay.next'))}"><svg viewBox="0 0 24 24" aria-hidden="true"><path d="M9 6l7 6-7 6"/></svg></button>
          <button type="button" class="icon" data-act="last" aria-label="${esc(t('replay.last'))}" title="${esc(t('replay.last'))}"><svg viewBox="0 0 24 24" aria-hidden="true"><path d="M18 5v14M6 6l8 6-8 6z"/></svg></button>
          <button type="button" class="icon" data-act="flip" aria-label="${esc(t('menu.flip'))}" title="${esc(t('menu.flip'))}"><svg viewBox="0 0 24 24" aria-hidden="true"><path d="M7 4v15M4 16l3 3 3-3M17 20V5M14 8l3-3 3 3"/></svg></button>
        </div>
      </div>
    </div>
    <aside class="side an-side">
      <section class="card an-engine" aria-labelledby="an-engine-title">
        <div class="an-engine-head">
          <h2 id="an-engine-title">${esc(t('analysis.engine'))}</h2>
          <span class="an-depth" aria-live="off"></span>
          <button type="button" class="engine-switch" role="switch" data-act="engine"><span class="track" aria-hidden="true"><span class="knob"></span></span><span class="label"></span></button>
        </div>
        <p class="an-race" hidden></p>
        <p class="an-egdb" hidden></p>
        <p class="an-book" hidden></p>
        <ol class="an-lines" aria-label="${esc(t('analysis.lines'))}"></ol>
        <p class="an-note"></p>
      </section>
      <section class="card moves-card an-moves-card">
        <h2>${esc(t('game.moves'))}</h2>
        <div class="an-moves"></div>
      </section>
      <form class="card an-setup" novalidate>
        <label class="an-field"><span>${esc(t('analysis.rules'))}</span>
          <select name="rules" class="an-rules"></select></label>
        <label class="an-field" for="an-position"><span>${esc(t('home.position-label'))}</span></label>
        <textarea id="an-position" name="position" rows="3" spellcheck="false" autocomplete="off" placeholder="${esc(t(g.kind === 'ugolki' ? 'home.position-placeholder-ugolki' : 'home.position-placeholder'))}"></textarea>
        <p class="form-error" role="alert" hidden></p>
        <div class="an-setup-buttons">
          <button type="submit" class="primary an-load">${esc(t('analysis.load'))}</button>
          <button type="button" data-act="start-position">${esc(t('analysis.start-position'))}</button>
        </div>
        <label class="an-field" for="an-fen"><span>${esc(t('analysis.fen'))}</span></label>
        <input id="an-fen" class="an-fen" type="text" readonly spellcheck="false">
      </form>
    </aside>
  </div>
</section>`;
    const host = /** @type {HTMLElement} */ (this.main.querySelector('.board-host'));
    this.board = new Board(host, g, (sq) => this.tap(sq));
    const section = /** @type {HTMLElement} */ (this.main.querySelector('.analysis'));
    section.addEventListener('click', (e) => {
      const el = /** @type {HTMLElement} */ (e.target);
      const b = el.closest('button[data-act]');
      if (b instanceof HTMLElement && !(b instanceof HTMLButtonElement && b.type === 'submit')) {
        this.act(b.dataset.act || '');
        return;
      }
      const mv = el.closest('button[data-node]');
      if (mv instanceof HTMLElement) {
        const n = this.nodes.get(parseInt(mv.dataset.node || '0', 10));
        if (n) this.goTo(n, n.parent === this.cur);
        return;
      }
      const line = el.closest('button[data-line]');
      if (line instanceof HTMLElement) this.playLine(parseInt(line.dataset.line || '0', 10));
    });
    const form = /** @type {HTMLFormElement} */ (this.main.querySelector('form.an-setup'));
    const text = /** @type {HTMLTextAreaElement} */ (form.querySelector('textarea'));
    text.value = this.setupText;
    text.addEventListener('input', () => (this.setupText = text.value));
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.loadPosition(this.rules, text.value);
    });
    form.querySelector('select')?.addEventListener('change', (e) => {
      const v = /** @type {HTMLSelectElement} */ (e.target).value;
      this.setupText = '';
      text.value = '';
      this.loadPosition(v, '');
    });
    this.main.querySelector('#an-fen')?.addEventListener('focus', (e) => /** @type {HTMLInputElement} */ (e.target).select());
  }

  /** Plays the first move of one of the engine's lines. @param {number} i */
  playLine(i) {
    const n = this.cur;
    const a = n && n.analysis;
    const line = a && a.lines[i];
    if (!n || !line || !line.path || line.path.length < 2 || this.busy) return;
    if (this.input) this.input.reset();
    this.play({ path: line.path });
  }

  renderAll() {
    if (!this.root || !this.cur || this.destroyed) return;
    this.layout();
    this.renderBoard();
    this.renderTurn();
    this.renderPrompt();
    this.renderNav();
    this.renderEngine();
    this.renderMoves();
    this.renderSetup();
  }

  /** The engine's best move, when it is on and has answered for the position shown. */
  bestPath() {
    const n = this.cur;
    const a = n && n.analysis;
    if (!this.engineOn || !a || !a.lines.length || (this.input && this.input.path.length)) return null;
    const p = a.lines[0].path;
    return p && p.length > 1 ? p : null;
  }

  renderBoard() {
    const n = this.cur;
    if (!n || !this.board) return;
    this.board.setFlipped(this.flipped);
    const input = this.input;
    const { pieces, taken, selected, next, final } = entering(input, n.pieces);
    const glow = !n.over && !(input && input.path.length > 1) ? new Set(n.must) : new Set();
    const last = n.move ? n.move.path : [];
    this.board.render({ pieces, last, selected, next, final, glow, taken, mine: n.turn, arrow: this.bestPath() });
  }

  renderTurn() {
    const n = this.cur;
    const el = this.main.querySelector('.an-turn');
    if (!n || !el) return;
    let text;
    if (n.over) {
      const w = n.over.winner;
      text = `${w === 'draw' ? t('result.draw') : w ? t(`result.${w}-won`) : t('result.over')} · ${reasonText(n.over)}`;
    } else {
      text = t(`analysis.turn.${n.turn}`);
      if (n.must.length) text += ` · ${t('game.must-capture')}`;
    }
    el.textContent = text;
    el.setAttribute('data-turn', n.turn);
  }

  renderPrompt() {
    const el = this.main.querySelector('.prompt');
    const acts = this.main.querySelector('.actions');
    const n = this.cur;
    if (!el || !acts || !n) return;
    const input = this.input;
    let text = this.prompt ? this.prompt.text : '';
    let kind = this.prompt ? this.prompt.kind : '';
    /** @type {string[]} */
    const buttons = [];
    if (input && !n.over) {
      const a = entryActions(input, this.g.kind);
      if (a.hint && (a.force || !text)) {
        text = t(a.hint);
        kind = 'info';
      }
      for (const b of a.buttons) buttons.push(`<button type="button" class="${b.cls}" data-act="${b.act}">${esc(t(b.key))}</button>`);
    }
    el.innerHTML = text ? `<p class="${kind}">${esc(text)}</p>` : '';
    el.classList.toggle('busy', this.busy);
    acts.innerHTML = buttons.join('');
  }

  renderNav() {
    const n = this.cur;
    if (!n) return;
    const at = (/** @type {string} */ act) => /** @type {HTMLButtonElement | null} */ (this.main.querySelector(`.an-nav [data-act="${act}"]`));
    for (const act of ['first', 'prev']) {
      const b = at(act);
      if (b) b.disabled = !n.parent;
    }
    for (const act of ['next', 'last']) {
      const b = at(act);
      if (b) b.disabled = !n.children.length;
    }
  }

  renderEval() {
    const bar = /** @type {HTMLElement | null} */ (this.main.querySelector('.eval-bar'));
    const n = this.cur;
    if (!bar || !n) return;
    const a = this.engineOn ? n.analysis : null;
    const known = !!a && a.lines.length > 0;
    const v = known ? a.value : 0;
    let share = known ? whiteShare(v, a.unit) : 50;
    if (n.over) share = n.over.winner === 'white' ? 100 : n.over.winner === 'black' ? 0 : 50;
    bar.style.setProperty('--white', `${Math.round(share * 10) / 10}%`);
    bar.classList.toggle('flipped', this.flipped);
    bar.classList.toggle('off', !known && !n.over);
    const num = /** @type {HTMLElement} */ (bar.querySelector('.eval-num'));
    num.textContent = known ? fmt(v) : '';
    num.classList.toggle('black-side', known && v < 0);
    bar.setAttribute('aria-label', known ? t('analysis.eval', { eval: fmt(v) }) : t('analysis.eval-none'));
    bar.title = bar.getAttribute('aria-label') || '';
  }

  renderEngine() {
    const card = /** @type {HTMLElement | null} */ (this.main.querySelector('.an-engine'));
    const n = this.cur;
    if (!card || !n) return;
    this.renderEval();
    const sw = /** @type {HTMLButtonElement} */ (card.querySelector('.engine-switch'));
    sw.setAttribute('aria-checked', String(this.engineOn));
    /** @type {HTMLElement} */ (sw.querySelector('.label')).textContent = t(this.engineOn ? 'analysis.engine-on' : 'analysis.engine-off');
    const a = this.engineOn ? n.analysis : null;
    const depth = /** @type {HTMLElement} */ (card.querySelector('.an-depth'));
    const thinking = this.engineOn && !!this.thinking;
    depth.innerHTML = a ? `${esc(t('analysis.depth', { n: a.depth }))}${thinking ? ' <span class="thinking" aria-hidden="true"><i></i><i></i><i></i></span>' : ''}`
      : thinking ? `<span class="thinking" aria-hidden="true"><i></i><i></i><i></i></span>` : '';
    depth.setAttribute('data-depth', a ? String(a.depth) : '');
    card.classList.toggle('thinking-now', thinking);
    card.classList.toggle('off', !this.engineOn);
    card.setAttribute('data-fen', a ? n.fen : '');
    const note = /** @type {HTMLElement} */ (card.querySelector('.an-note'));
    let noteText = '';
    if (!this.engineOn) noteText = t('analysis.engine-is-off');
    else if (n.over) noteText = t('analysis.over');
    else if (n.engineError) noteText = n.engineError;
    else if (!a) noteText = t('analysis.starting');
    else noteText = t(a.unit === 'race-move' ? 'analysis.unit.race-move' : 'analysis.unit.man');
    note.textContent = noteText;
    note.classList.toggle('error', !!n.engineError && this.engineOn);
    // Ugolki once the armies have separated: the exact race.
    const race = /** @type {HTMLElement} */ (card.querySelector('.an-race'));
    const r = a && a.race;
    race.hidden = !r;
    if (r) {
      const result = t(`analysis.race.${r.winner === 'white' || r.winner === 'black' ? r.winner : 'draw'}`);
      race.textContent = t('analysis.race', { white: plural('n.moves', r.white), black: r.black, result });
      race.setAttribute('data-white', String(r.white));
      race.setAttribute('data-black', String(r.black));
      race.setAttribute('data-winner', r.winner);
    }
    // Draughts with few pieces, where the server has the endgame database: the exact result.
    const egdb = /** @type {HTMLElement} */ (card.querySelector('.an-egdb'));
    const e = a && a.endgame;
    egdb.hidden = !e;
    if (e) {
      const won = e.winner === 'white' || e.winner === 'black';
      // The winner's moves: its first move and every second ply after it.
      const result = won ? t(`analysis.egdb.${e.winner}`, { moves: plural('n.moves', Math.ceil(e.plies / 2)) }) : t('analysis.egdb.draw');
      egdb.textContent = t('analysis.egdb', { result });
      egdb.setAttribute('data-winner', e.winner);
      egdb.setAttribute('data-plies', String(e.plies));
    }
    // The first moves of a rule set with an opening book: its moves and their values.
    const book = /** @type {HTMLElement} */ (card.querySelector('.an-book'));
    const bk = a && a.book;
    book.hidden = !bk || !bk.length;
    if (bk && bk.length) {
      const moves = bk.map((/** @type {any} */ b) => `${b.move} ${fmt(b.value)}`).join(', ');
      book.textContent = t('analysis.book', { moves });
      book.setAttribute('data-moves', bk.map((/** @type {any} */ b) => b.move).join(' '));
    }
    const ol = /** @type {HTMLElement} */ (card.querySelector('.an-lines'));
    if (!a || n.over) {
      ol.innerHTML = '';
      return;
    }
    const { num, first } = this.moveNo({ ...n, ply: n.ply + 1 });
    ol.innerHTML = a.lines.map((/** @type {any} */ l, /** @type {number} */ i) => {
      const moves = /** @type {string[]} */ (l.moves);
      const parts = [];
      // Numbers before the first move and before each move of the side that starts.
      let k = first ? 0 : 1;
      let no = num;
      for (let j = 0; j < moves.length; j++) {
        const label = k % 2 === 0 ? `${no}.` : j === 0 ? `${no}…` : '';
        const text = `${label ? `<span class="n">${label}</span>` : ''}${esc(moves[j])}`;
        parts.push(j === 0 ? `<button type="button" class="an-first" data-line="${i}" title="${esc(t('analysis.play', { move: moves[0] }))}">${text}</button>` : `<span class="an-mv">${text}</span>`);
        k++;
        if (k % 2 === 0) no++;
      }
      const side = l.value > 0 ? 'white' : l.value < 0 ? 'black' : 'even';
      return `<li class="an-line" data-first="${esc(moves[0] || '')}"><span class="an-value ${side}">${esc(fmt(l.value))}</span><span class="an-pv" title="${esc(moves.join(' '))}">${parts.join(' ')}</span></li>`;
    }).join('');
  }

  renderMoves() {
    const host = this.main.querySelector('.an-moves');
    const root = this.root;
    if (!host || !root) return;
    const cur = this.cur;
    const btn = (/** @type {Node} */ n) => `<button type="button" class="mv${n === cur ? ' current' : ''}" data-node="${n.id}" data-ply="${n.ply}">${esc(n.move ? n.move.notation : '')}</button>`;
    /** A side line and the lines inside it, as text: "3… c5-d4 4. e3-f4 (4. g3-h4 …) …". */
    const seq = (/** @type {Node} */ start) => {
      /** @type {string[]} */
      const out = [];
      let needNum = true;
      for (let n = /** @type {Node | undefined} */ (start); n; n = n.children[0]) {
        const { num, first } = this.moveNo(n);
        const label = first ? `${num}.` : needNum ? `${num}…` : '';
        out.push(`${label ? `<span class="n">${label}</span>` : ''}${btn(n)}`);
        needNum = false;
        const p = n.parent;
        if (n !== start && p && p.children[0] === n && p.children.length > 1) {
          for (const alt of p.children.slice(1)) out.push(`<span class="an-sub">(${seq(alt)})</span>`);
          needNum = true;
        }
      }
      return out.join(' ');
    };
    /** @type {string[]} */
    const rows = [];
    /** @type {{ num: number, cells: (string | null)[] } | null} */
    let row = null;
    const flush = () => {
      if (row) rows.push(`<li value="${row.num}"><span class="n">${row.num}.</span>${row.cells.map((c) => `<span class="cell">${c ?? ''}</span>`).join('')}</li>`);
      row = null;
    };
    for (let n = root.children[0]; n; n = n.children[0]) {
      const { num, first } = this.moveNo(n);
      if (first) {
        flush();
        row = { num, cells: [btn(n), null] };
      } else if (row && row.num === num && row.cells[1] === null) {
        row.cells[1] = btn(n);
      } else {
        flush();
        row = { num, cells: ['<span class="dots">…</span>', btn(n)] };
      }
      const p = /** @type {Node} */ (n.parent);
      if (p.children.length > 1) {
        flush();
        rows.push(`<li class="an-var">${p.children.slice(1).map((alt) => `<div class="an-var-line">${seq(alt)}</div>`).join('')}</li>`);
      }
    }
    flush();
    const start = `<li class="start-row"><button type="button" class="mv start${cur === root ? ' current' : ''}" data-node="${root.id}" data-ply="0">${esc(t('replay.start-position'))}</button></li>`;
    host.innerHTML = `<ol class="moves clickable an-tree" aria-label="${esc(t('game.moves'))}">${start}${rows.join('')}</ol>${root.children.length ? '' : `<p class="muted an-empty">${esc(t('analysis.no-moves'))}</p>`}`;
  }

  renderSetup() {
    const form = this.main.querySelector('form.an-setup');
    if (!form) return;
    const sel = /** @type {HTMLSelectElement} */ (form.querySelector('select'));
    const ids = [...ORDER[lang()], ...UGOLKI];
    const custom = this.rules && !ids.includes(/** @type {any} */ (this.rules)) ? `<option value="${esc(this.rules)}">${esc(rulesName(this.rules))}</option>` : '';
    const opt = (/** @type {string} */ id) => `<option value="${esc(id)}"${id === this.rules ? ' selected' : ''}>${esc(rulesName(id))}</option>`;
    const html = `${custom}<optgroup label="${esc(t('home.kind.draughts'))}">${ORDER[lang()].filter((id) => DRAUGHTS.includes(/** @type {any} */ (id))).map(opt).join('')}</optgroup><optgroup label="${esc(t('home.kind.ugolki'))}">${UGOLKI.map(opt).join('')}</optgroup>`;
    if (sel.dataset.html !== html) {
      sel.innerHTML = html;
      sel.dataset.html = html;
    }
    sel.value = this.rules;
    const err = /** @type {HTMLElement} */ (form.querySelector('.form-error'));
    err.hidden = !this.setupError;
    err.textContent = this.setupError;
    const load = /** @type {HTMLButtonElement} */ (form.querySelector('.an-load'));
    load.disabled = this.loading;
    const fen = /** @type {HTMLInputElement} */ (form.querySelector('#an-fen'));
    fen.value = this.cur ? this.cur.fen : '';
  }
}
