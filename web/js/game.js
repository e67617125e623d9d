// @ts-check
// A game: the board, the score line, whose turn, the move list, the menu, friend invitations,
// draw offers, takebacks, hints against the computer (the engine's move, asked for on the
// player's move: an arrow on the board until the player moves, counted on the results and in
// the stats), the results screen, the replay of a finished game and its engine review
// (review.js draws it). Everything it shows comes from the server's state; taps become
// moves through input.js.

import * as api from './api.js';
import { navigate, toast } from './app.js';
import { Board } from './board.js';
import { Connection } from './connection.js';
import { lang, t } from './i18n.js';
import { MoveInput, entering, entryActions } from './input.js';
import { errorText, modeName, reasonText, rulesName } from './names.js';
import { seat as savedSeat, saveSeat } from './prefs.js';
import { EvalGraph, NAGS, fmt, moveTitle, noteHtml, pending, progressText, summaryHtml } from './review.js';
import { geometry, inHome, squareXY } from './rulesets.js';
import * as sound from './sound.js';
import { bucketName } from './home.js';

/** @param {string} s */
function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** @typedef {'white' | 'black'} Color */
/** @param {Color} c @returns {Color} */
const other = (c) => (c === 'white' ? 'black' : 'white');

export class GameScreen {
  /**
   * @param {HTMLElement} main
   * @param {string} id
   * @param {URLSearchParams} query
   */
  constructor(main, id, query) {
    this.main = main;
    this.id = id;
    /** @type {any} */
    this.state = null;
    /** @type {string} white, black, both or spectator */
    this.you = 'spectator';
    /** @type {Connection | null} */
    this.conn = null;
    /** @type {Board | null} */
    this.board = null;
    /** @type {MoveInput | null} */
    this.input = null;
    this.userFlip = false;
    this.online = false;
    /** @type {{ text: string, kind: string } | null} */
    this.prompt = null;
    this.skipAnim = false;
    this.rematchAsked = false;
    /** @type {any} */
    this.replayData = null;
    /** Ply shown in review (-1: the start), or null for the live position. @type {number | null} */
    this.review = null;
    /** @type {any} */
    this.stats = null;
    /** The engine review as far as known (null: none asked for, or none seen yet). @type {import('./review.js').Review | null} */
    this.engine = null;
    /** Why asking for the engine review failed, shown beside the button to ask again. */
    this.engineError = '';
    /** Polls of the review that failed in a row. */
    this.engineFails = 0;
    /** @type {number | undefined} */
    this.enginePoll = undefined;
    /** @type {EvalGraph | null} */
    this.graph = null;
    this.summaryShown = '';
    /** `?review=1`: open the engine review as soon as the game is shown. */
    this.wantReview = query.get('review') === '1';
    this.resultsShown = false;
    this.destroyed = false;
    this.title = '';
    this.armed = '';
    /** The player has moved the piece jump by jump (no animation of the whole move then). */
    this.stepped = false;
    /** The hint shown: the engine's move for the position after `plies` plies. @type {{ move: string, path: string[], plies: number } | null} */
    this.hint = null;
    /** A hint asked for at this many plies, not answered yet. @type {number | null} */
    this.hintAsked = null;
    /** @type {number | undefined} */
    this.tick = undefined;
    this.onVisible = () => {
      if (!document.hidden && this.title) document.title = this.title;
    };
    document.addEventListener('visibilitychange', this.onVisible);
    this.onKey = (/** @type {KeyboardEvent} */ e) => {
      if (this.replayKey(e)) return;
      if (e.key === 'Escape' && this.input && this.input.path.length) {
        this.input.reset();
        this.prompt = null;
        this.renderBoard();
        this.renderPrompt();
      }
    };
    document.addEventListener('keydown', this.onKey);
    this.main.innerHTML = `<section class="game loading"><p class="muted center">${esc(t('game.loading'))}</p></section>`;
    this.start(query.get('invite'));
  }

  /** @param {string | null} invite */
  async start(invite) {
    let token = savedSeat(this.id).token || null;
    if (invite) {
      try {
        const res = await api.joinGame(this.id, invite);
        if (res.token) {
          token = res.token;
          saveSeat(this.id, { token: res.token });
        }
      } catch (e) {
        toast(errorText(e instanceof Error ? e.message : String(e)));
      }
      history.replaceState(null, '', `/g/${this.id}`);
    }
    if (this.wantReview) history.replaceState(null, '', `/g/${this.id}`);
    if (this.destroyed) return;
    /** @type {any} */
    let first;
    try {
      first = await api.gameState(this.id, token);
    } catch (e) {
      if (e instanceof api.ApiError && e.status === 403 && token) {
        // A stale token: the cookie may still hold the seat.
        token = null;
        saveSeat(this.id, { token: null });
        try {
          first = await api.gameState(this.id, null);
        } catch (e2) {
          return this.fail(e2);
        }
      } else return this.fail(e);
    }
    if (this.destroyed) return;
    this.you = first.you || 'spectator';
    this.layout(first);
    this.apply(first);
    // A finished game: its engine review when asked for by the address, else the one there is.
    if (this.over && this.state.moves.length) {
      if (this.wantReview) this.engineReview();
      else this.followEngine('peek');
    }
    this.conn = new Connection(this.id, token, {
      hello: (you) => {
        this.you = you;
      },
      state: (s) => this.apply(s),
      error: (m) => this.refused(m),
      hint: (h) => this.hinted(h),
      status: (online) => {
        this.online = online;
        if (!online) this.hintAsked = null;
        this.renderStatus();
        if (online) this.refreshInput();
      },
    });
  }

  /** @param {unknown} e */
  fail(e) {
    const msg = e instanceof api.ApiError && e.status === 404 ? t('game.not-found') : errorText(e instanceof Error ? e.message : String(e));
    this.main.innerHTML = `<section class="game-missing card"><h1>${esc(t('game.cannot-open'))}</h1><p>${esc(msg)}</p><p><a class="button primary" href="/" data-link>${esc(t('game.home'))}</a></p></section>`;
  }

  destroy() {
    this.destroyed = true;
    if (this.conn) this.conn.close();
    clearInterval(this.tick);
    clearTimeout(this.enginePoll);
    document.removeEventListener('visibilitychange', this.onVisible);
    document.removeEventListener('keydown', this.onKey);
  }

  relabel() {
    if (!this.state) return;
    const s = this.state;
    const resultsOpen = !!this.main.querySelector('dialog.results[open]');
    this.layout(s);
    this.renderAll();
    if (resultsOpen) this.showResults();
  }

  get g() {
    return geometry(this.state.rules);
  }

  /** Whether the game is over, so its moves can be stepped through. */
  get over() {
    const s = this.state;
    return !!s && (s.status === 'finished' || s.status === 'aborted');
  }

  /**
   * The position on the screen: the live one, or in replay the one after the ply shown.
   * @returns {{ pieces: any[], turn: Color }}
   */
  get shown() {
    const s = this.state;
    if (this.review !== null && this.replayData) {
      const at = this.review < 0 ? this.replayData.start : this.replayData.plies[this.review];
      return { pieces: at.pieces, turn: at.turn };
    }
    return { pieces: s.pieces, turn: s.turn };
  }

  /**
   * Replay by keyboard: left and right arrows step, Home and End jump (not while the focus is
   * on the board, where arrows move between squares, or in a field or a dialog).
   * @param {KeyboardEvent} e @returns {boolean} whether the key was used
   */
  replayKey(e) {
    if (!this.over || !this.state.moves.length || e.altKey || e.ctrlKey || e.metaKey) return false;
    const how = { ArrowLeft: 'prev', ArrowRight: 'next', Home: 'first', End: 'last' }[e.key];
    const el = /** @type {HTMLElement | null} */ (e.target instanceof HTMLElement ? e.target : null);
    if (!how || (el && el.closest('.board, input, textarea, select, dialog'))) return false;
    e.preventDefault();
    this.step(how);
    return true;
  }

  /** The side this screen plays now (hot-seat: the side to move), or null. @returns {Color | null} */
  get me() {
    if (this.you === 'white' || this.you === 'black') return this.you;
    if (this.you === 'both' && this.state) return this.state.turn;
    return null;
  }

  get myTurn() {
    const s = this.state;
    return !!s && s.status === 'playing' && this.online && this.review === null && (this.you === 'both' || this.you === s.turn);
  }

  /** @param {any} s */
  layout(s) {
    const g = geometry(s.rules);
    this.main.innerHTML = `
<section class="game game-${g.kind}" data-rules="${esc(s.rules)}">
  <div class="game-head">
    <button type="button" class="icon menu-button" aria-haspopup="dialog" aria-label="${esc(t('menu.open'))}" title="${esc(t('menu.open'))}">
      <svg viewBox="0 0 24 24" aria-hidden="true"><path d="M4 6h16M4 12h16M4 18h16"/></svg>
    </button>
    <div class="game-title">
      <h1>${esc(rulesName(s.rules))}</h1>
      <p class="game-mode">${esc(this.modeLine(s))}</p>
    </div>
    <a class="icon rules-help" href="/rules/${esc(s.rules.split(':')[0])}" data-link aria-label="${esc(t('game.rules'))}" title="${esc(t('game.rules'))}">?</a>
  </div>
  <div class="game-body">
    <div class="score" aria-live="polite"></div>
    <div class="board-col">
      <div class="board-wrap"><div class="board-host"></div></div>
    </div>
    <div class="move-panel">
      <div class="turn-line" aria-live="polite"></div>
      <p class="engine-note" hidden></p>
      <div class="prompt" role="status" aria-live="assertive"></div>
      <div class="actions"></div>
      <div class="hint-bar" hidden>
        <button type="button" class="hint-button" data-act="hint" title="${esc(t('hint.title'))}" aria-describedby="hint-cost"><svg viewBox="0 0 24 24" aria-hidden="true"><path d="M9 18h6M10 21h4M12 3a6 6 0 0 0-3.5 10.9c.6.5 1 1.2 1 2.1h5c0-.9.4-1.6 1-2.1A6 6 0 0 0 12 3z"/></svg><span class="label">${esc(t('hint.button'))}</span></button>
        <span class="hint-cost" id="hint-cost">${esc(t('hint.cost'))}</span>
        <span class="hint-count" hidden></span>
        <p class="hint-line" role="status" hidden></p>
      </div>
    </div>
    <aside class="side">
      <div class="banner-host"></div>
      <div class="invite-host"></div>
      <section class="card engine-card" aria-labelledby="engine-title" hidden>
        <h2 id="engine-title">${esc(t('review.title'))}</h2>
        <div class="graph-host"></div>
        <div class="engine-progress" role="status" hidden><span class="thinking" aria-hidden="true"><i></i><i></i><i></i></span> <span class="text"></span><progress max="1" value="0"></progress></div>
        <div class="summary-host"></div>
      </section>
      <div class="card moves-card">
        <h2>${esc(t('game.moves'))}</h2>
        <ol class="moves" aria-label="${esc(t('game.moves'))}"></ol>
        <div class="replay-controls" hidden>
          <button type="button" class="icon" data-replay="first" aria-label="${esc(t('replay.first'))}"><svg viewBox="0 0 24 24" aria-hidden="true"><path d="M6 5v14M18 6l-8 6 8 6z"/></svg></button>
          <button type="button" class="icon" data-replay="prev" aria-label="${esc(t('replay.prev'))}"><svg viewBox="0 0 24 24" aria-hidden="true"><path d="M15 6l-7 6 7 6"/></svg></button>
          <button type="button" class="icon" data-replay="next" aria-label="${esc(t('replay.next'))}"><svg viewBox="0 0 24 24" aria-hidden="true"><path d="M9 6l7 6-7 6"/></svg></button>
          <button type="button" class="icon" data-replay="last" aria-label="${esc(t('replay.last'))}"><svg viewBox="0 0 24 24" aria-hidden="true"><path d="M18 5v14M6 6l8 6-8 6z"/></svg></button>
        </div>
        <a class="button analyse-here" href="/analysis?game=${esc(this.id)}" data-link hidden>${esc(t('game.analyse'))}</a>
        <div class="engine-start" hidden>
          <button type="button" data-act="engine-review"><svg viewBox="0 0 24 24" aria-hidden="true"><path d="M3 19h18M4 15l4.5-5 4 3L20 5"/></svg>${esc(t('review.start'))}</button>
          <p class="engine-error" role="alert" hidden></p>
        </div>
      </div>
      <div class="quick">
        <button type="button" class="ghost" data-act="flip">${esc(t('menu.flip'))}</button>
        <button type="button" class="ghost" data-act="sound" aria-pressed="${sound.soundOn()}">${esc(t(sound.soundOn() ? 'menu.sound-on' : 'menu.sound-off'))}</button>
      </div>
    </aside>
  </div>
  <dialog class="menu" aria-label="${esc(t('menu.title'))}"></dialog>
  <dialog class="results" aria-labelledby="results-title"></dialog>
</section>`;
    const host = /** @type {HTMLElement} */ (this.main.querySelector('.board-host'));
    this.board = new Board(host, g, (sq) => this.tap(sq));
    this.graph = null;
    this.board.setFlipped(this.flipped(s));
    this.main.querySelector('.menu-button')?.addEventListener('click', () => this.openMenu());
    this.main.querySelector('.quick')?.addEventListener('click', (e) => {
      const b = /** @type {HTMLElement} */ (e.target).closest('button[data-act]');
      if (b instanceof HTMLElement) this.act(b.dataset.act || '');
    });
    this.main.querySelector('.replay-controls')?.addEventListener('click', (e) => {
      const b = /** @type {HTMLElement} */ (e.target).closest('button[data-replay]');
      if (b instanceof HTMLElement) this.step(b.dataset.replay || '');
    });
    this.main.querySelector('.moves')?.addEventListener('click', (e) => {
      const b = /** @type {HTMLElement} */ (e.target).closest('button[data-ply]');
      if (b instanceof HTMLElement) this.showPly(parseInt(b.dataset.ply || '0', 10));
    });
    this.main.querySelector('.engine-start')?.addEventListener('click', (e) => {
      const b = /** @type {HTMLElement} */ (e.target).closest('button[data-act]');
      if (b instanceof HTMLElement) this.act(b.dataset.act || '');
    });
    this.main.querySelector('.hint-bar')?.addEventListener('click', (e) => {
      const b = /** @type {HTMLElement} */ (e.target).closest('button[data-act]');
      if (b instanceof HTMLElement) this.act(b.dataset.act || '');
    });
    this.main.querySelector('.actions')?.addEventListener('click', (e) => {
      const b = /** @type {HTMLElement} */ (e.target).closest('button[data-act]');
      if (b instanceof HTMLElement) this.act(b.dataset.act || '');
    });
    const dialogs = this.main.querySelectorAll('dialog');
    for (const d of dialogs) {
      d.addEventListener('close', () => this.main.querySelector('.game')?.classList.remove('paused'));
      d.addEventListener('click', (e) => {
        if (e.target === d) d.close();
        const b = /** @type {HTMLElement} */ (e.target).closest('button[data-act]');
        if (b instanceof HTMLElement) this.act(b.dataset.act || '');
      });
    }
  }

  /** @param {any} s */
  modeLine(s) {
    const side = this.you === 'white' || this.you === 'black' ? ` · ${t(`you.${this.you}`)}` : this.you === 'spectator' ? ` · ${t('game.watching')}` : '';
    return modeName(s) + side;
  }

  /** Black at the bottom: the player is Black, or the board was turned. @param {any} _s */
  flipped(_s) {
    return (this.you === 'black') !== this.userFlip;
  }

  /**
   * A new state from the server.
   * @param {any} s
   */
  apply(s) {
    if (this.destroyed) return;
    const prev = this.state;
    this.state = s;
    if (!this.board) this.layout(s);
    const moved = prev && s.plies === prev.plies + 1 && s.last_move;
    const changed = !prev || s.plies !== prev.plies || s.fen !== prev.fen;
    if (changed) {
      this.prompt = null;
      if (this.review !== null && s.status === 'playing') this.review = null;
      // A hint is for the position it was asked at.
      if (this.hint && this.hint.plies !== s.plies) this.hint = null;
      if (this.hintAsked !== null && this.hintAsked !== s.plies) this.hintAsked = null;
    }
    this.refreshInput(!changed);
    this.renderAll();
    if (moved && this.review === null && !this.skipAnim && this.board) {
      this.board.animate(s.last_move.path, s.last_move.captures, prev.pieces);
    }
    this.skipAnim = false;
    if (prev && s.plies > prev.plies) {
      sound.play(s.last_move && s.last_move.captures.length ? 'capture' : 'move');
      // The opponent moved while this tab is in the background: say so in the title.
      if (document.hidden && (this.you === 'white' || this.you === 'black') && s.status === 'playing' && s.turn === this.you) {
        document.title = t('title.your-turn');
        setTimeout(() => sound.play('turn'), 250);
      }
    }
    if (prev && prev.status !== s.status && (s.status === 'finished' || s.status === 'aborted')) {
      this.finished(s);
    }
    if (prev && this.main.querySelector('dialog.results[open]')) this.renderResults();
    if (prev && !prev.rematch && s.rematch && this.rematchAsked) {
      navigate(`/g/${s.rematch}`);
    }
    if (prev && prev.status === 'waiting' && s.status === 'playing') toast(t('game.friend-joined'));
  }

  /** @param {boolean} [keep] keep the selection (the position did not change) */
  refreshInput(keep) {
    const s = this.state;
    if (!s) return;
    const path = keep && this.input ? this.input.path : [];
    const aim = keep && this.input ? this.input.aim : null;
    this.input = new MoveInput(this.g, this.myTurn ? s.legal_moves : [], s.pieces, s.turn, s.must_capture);
    if (path.length && this.input.movesFrom(path[0]).length) {
      this.input.path = path;
      this.input.aim = aim;
    }
  }

  renderAll() {
    this.renderBoard();
    this.renderScore();
    this.renderStatus();
    this.renderMoves();
    this.renderSide();
    this.renderPrompt();
    this.renderHint();
    this.renderEngine();
  }

  /** Whether hints are offered on this screen: the player of a game against the computer, while it is played. */
  get hintsOffered() {
    const s = this.state;
    return !!s && s.mode === 'computer' && s.status === 'playing' && (this.you === 'white' || this.you === 'black');
  }

  /** The hint to show now: the one for the position on the board, while it is the player's move. */
  get shownHint() {
    const s = this.state;
    const h = this.hint;
    return h && s && this.hintsOffered && this.review === null && h.plies === s.plies && s.turn === this.you ? h : null;
  }

  /** The Hint button (on the player's own move only), its cost, the hints used, and the hint in words. */
  renderHint() {
    const s = this.state;
    const bar = /** @type {HTMLElement | null} */ (this.main.querySelector('.hint-bar'));
    if (!s || !bar) return;
    bar.hidden = !this.hintsOffered;
    if (bar.hidden) return;
    const button = /** @type {HTMLButtonElement} */ (bar.querySelector('.hint-button'));
    const asking = this.hintAsked !== null;
    button.disabled = !this.myTurn || asking || !!this.shownHint;
    button.classList.toggle('asking', asking);
    button.setAttribute('aria-busy', String(asking));
    const count = /** @type {HTMLElement} */ (bar.querySelector('.hint-count'));
    const n = s.hints || 0;
    count.hidden = n === 0;
    count.textContent = t('hint.count', { n });
    count.setAttribute('data-hints', String(n));
    const line = /** @type {HTMLElement} */ (bar.querySelector('.hint-line'));
    const h = this.shownHint;
    const text = h ? t('hint.text', { move: h.move }) : asking ? t('hint.asking') : '';
    line.hidden = !text;
    line.classList.toggle('asking', !h && asking);
    if (line.textContent !== text) line.textContent = text;
  }

  /** The engine's move, answered to this screen's question. @param {{ move: string, path: string[], hints: number }} h */
  hinted(h) {
    const s = this.state;
    const asked = this.hintAsked;
    this.hintAsked = null;
    if (!s) return;
    if (typeof h.hints === 'number') s.hints = Math.max(s.hints || 0, h.hints);
    // Asked before a move that has been played since: that position is gone.
    if (asked === null || asked === s.plies) {
      const path = Array.isArray(h.path) && h.path.length ? h.path : [];
      this.hint = { move: h.move, path, plies: s.plies };
    }
    this.renderBoard();
    this.renderHint();
  }

  renderBoard() {
    const s = this.state;
    if (!s || !this.board) return;
    this.board.setFlipped(this.flipped(s));
    if (this.review !== null && this.replayData) {
      const last = this.review >= 0 ? this.replayData.plies[this.review].path : [];
      // A move the engine review marks: an arrow along the better move.
      const m = this.reviewedMove(this.review);
      const arrow = m && m.mark && m.best_path && m.best_path.length > 1 ? m.best_path : null;
      this.board.render({ pieces: this.shown.pieces, last, mine: this.me, arrow });
      return;
    }
    const input = this.input;
    const { pieces, taken, selected, next, final } = entering(input, s.pieces);
    const lm = s.last_move;
    const last = lm ? (lm.path && lm.path.length ? lm.path : [lm.from, lm.to].filter(Boolean)) : [];
    const glow = this.myTurn && !(input && input.path.length > 1) ? new Set(s.must_capture) : new Set();
    // A hint: its arrow and its piece, until the player moves.
    const h = this.shownHint;
    const arrow = h && h.path.length > 1 ? h.path : null;
    this.board.render({ pieces, last, selected, next, final, glow, taken, mine: this.me, arrow, arrowKind: arrow ? 'hint' : null, hint: arrow ? arrow[0] : null });
  }

  renderScore() {
    const s = this.state;
    const el = this.main.querySelector('.score');
    if (!s || !el) return;
    const g = this.g;
    const bottom = this.flipped(s) ? 'black' : 'white';
    const sides = /** @type {Color[]} */ ([other(bottom), bottom]);
    // In replay, the counts and the side to move are those of the position shown.
    const { pieces, turn } = this.shown;
    const count = (/** @type {Color} */ c) => {
      const own = pieces.filter((/** @type {any} */ p) => p.color === c);
      if (g.kind === 'ugolki') {
        const inCorner = own.filter((/** @type {any} */ p) => inHome(g, other(c), ...squareXY(p.square))).length;
        return `<b>${inCorner}</b><small>/${own.length}</small>`;
      }
      return `<b>${own.length}</b>`;
    };
    // The side to move is marked while the game goes on, and in replay before its last move.
    const moving = !this.over || (this.review !== null && !!this.replayData && this.review < this.replayData.plies.length - 1);
    el.innerHTML = sides.map((c) => `
      <div class="side-score ${c}${moving && turn === c ? ' to-move' : ''}" data-side="${c}">
        <span class="disc-icon ${c}" aria-hidden="true"></span>
        <span class="who">${esc(this.sideName(c))}</span>
        <span class="count" aria-label="${esc(g.kind === 'ugolki' ? t('score.in-corner') : t('score.pieces'))}">${count(c)}</span>
        ${s.thinking && s.turn === c ? `<span class="thinking" aria-label="${esc(t('game.thinking'))}"><i></i><i></i><i></i></span>` : ''}
      </div>`).join('<span class="score-sep" aria-hidden="true">:</span>')
      + (g.kind === 'ugolki' ? `<span class="score-caption">${esc(t('score.in-corner'))}</span>` : '');
  }

  /** @param {Color} c */
  sideName(c) {
    const s = this.state;
    if (this.you === c) return t('side.you');
    if (s.computer === c) return t('side.computer');
    if (s.mode === 'friend' && (this.you === 'white' || this.you === 'black')) return t('side.friend');
    return t(`side.${c}`);
  }

  renderStatus() {
    const s = this.state;
    const el = this.main.querySelector('.turn-line');
    if (!s || !el) return;
    let text;
    const num = t('game.move-number', { n: s.move_number });
    if (!this.online && s.status !== 'finished' && s.status !== 'aborted' && this.conn) text = t('game.reconnecting');
    else if (s.status === 'waiting') text = this.you === 'spectator' ? t('game.waiting-spectator') : t('game.waiting-friend');
    else if (this.review !== null && this.replayData) text = this.replayLine();
    else if (s.status === 'finished' || s.status === 'aborted') text = this.resultHeadline(s);
    else if (s.thinking) text = `${num} · ${t('game.thinking')}`;
    else if (this.myTurn) {
      text = `${num} · ${this.you === 'both' ? t(`turn.${s.turn}`) : t('game.your-turn')}`;
      if (s.must_capture.length) text += ` · ${t('game.must-capture')}`;
    } else if (this.you === 'white' || this.you === 'black') text = `${num} · ${t('game.their-turn')}`;
    else text = `${num} · ${t(`turn.${s.turn}`)}`;
    el.textContent = text;
    el.classList.toggle('mine', this.myTurn);
    el.classList.toggle('replay', this.review !== null && !!this.replayData);
    el.classList.toggle('offline', !this.online && !!this.conn);
    this.title = `${this.myTurn ? '● ' : ''}${rulesName(s.rules)} — ${t('brand')}`;
    if (!document.hidden) document.title = this.title;
  }

  /** What the replay shows: "Move 6 of 26: c3-d4 · Black to move". */
  replayLine() {
    const total = this.replayData.plies.length;
    const turn = t(`turn.${this.shown.turn}`);
    if (this.review === null || this.review < 0) return `${t('replay.start', { total })} · ${turn}`;
    const p = this.replayData.plies[this.review];
    const last = this.review === total - 1;
    return `${t('replay.at', { n: this.review + 1, total, move: p.notation })} · ${last ? this.resultHeadline(this.state) : turn}`;
  }

  renderPrompt() {
    const el = this.main.querySelector('.prompt');
    const acts = this.main.querySelector('.actions');
    const s = this.state;
    if (!el || !acts || !s) return;
    const input = this.input;
    let text = this.prompt ? this.prompt.text : '';
    let kind = this.prompt ? this.prompt.kind : '';
    /** @type {string[]} */
    const buttons = [];
    if (this.myTurn && input) {
      const a = entryActions(input, this.g.kind);
      if (a.hint && (a.force || !text)) {
        text = t(a.hint);
        kind = 'info';
      }
      for (const b of a.buttons) buttons.push(`<button type="button" class="${b.cls}" data-act="${b.act}">${esc(t(b.key))}</button>`);
    }
    const g = this.g;
    const warnSide = this.you === 'both' ? s.turn : this.me;
    if (g.kind === 'ugolki' && s.status === 'playing' && warnSide && s.warning[warnSide]) {
      const n = g.leaveHome.after;
      const w = `<p class="warning" role="alert">${esc(t(g.leaveHome.rule === 'brainking' ? 'game.warning-brainking' : 'game.warning', { n }))}</p>`;
      el.innerHTML = w + (text ? `<p class="${kind}">${esc(text)}</p>` : '');
    } else {
      el.innerHTML = text ? `<p class="${kind}">${esc(text)}</p>` : '';
    }
    acts.innerHTML = buttons.join('');
  }

  renderMoves() {
    const s = this.state;
    const ol = this.main.querySelector('.moves');
    if (!s || !ol) return;
    const g = this.g;
    const startSide = s.start_fen.trim()[0] === 'B' ? 'black' : 'white';
    const nm = /:N(\d+)/.exec(s.start_fen);
    const n0 = nm ? parseInt(nm[1], 10) : 1;
    const offset = startSide === g.first ? 0 : 1;
    /** @type {{ n: number, cells: (string | null)[] }[]} */
    const rows = [];
    s.moves.forEach((/** @type {string} */ m, /** @type {number} */ i) => {
      const k = i + offset;
      const n = n0 + Math.floor(k / 2);
      if (!rows.length || rows[rows.length - 1].n !== n) rows.push({ n, cells: [null, null] });
      rows[rows.length - 1].cells[k % 2] = `<button type="button" data-ply="${i}" class="mv${this.review === i ? ' current' : ''}${i < s.imported ? ' imported' : ''}">${esc(m)}</button>`;
    });
    const reviewing = s.status === 'finished' || s.status === 'aborted';
    const start = reviewing && s.moves.length
      ? `<li class="start-row"><button type="button" data-ply="-1" class="mv start${this.review === -1 ? ' current' : ''}">${esc(t('replay.start-position'))}</button></li>`
      : '';
    ol.innerHTML = start + rows.map((r) => `<li value="${r.n}"><span class="n">${r.n}.</span>${r.cells.map((c) => `<span class="cell">${c ?? (rows[0] === r && !r.cells[0] && c === null ? '…' : '')}</span>`).join('')}</li>`).join('') || `<li class="empty muted">${esc(t('game.no-moves-yet'))}</li>`;
    ol.classList.toggle('clickable', reviewing);
    const controls = /** @type {HTMLElement} */ (this.main.querySelector('.replay-controls'));
    controls.hidden = !reviewing || !s.moves.length;
    // The analysis board at the position shown, once the game is over (never while it is played).
    const analyse = /** @type {HTMLAnchorElement | null} */ (this.main.querySelector('.analyse-here'));
    if (analyse) {
      analyse.hidden = !reviewing;
      analyse.href = `/analysis?game=${encodeURIComponent(this.id)}&ply=${this.review === null ? s.moves.length : this.review + 1}`;
    }
    this.markMoves();
    if (this.review === null) ol.scrollTop = ol.scrollHeight;
    else ol.querySelector('.current')?.scrollIntoView({ block: 'nearest' });
  }

  /** The engine review of ply `ply`, when reviewed. @param {number | null} ply */
  reviewedMove(ply) {
    if (!this.engine || ply === null || ply < 0) return null;
    const m = this.engine.moves[ply];
    return m && m.ply === ply ? m : this.engine.moves.find((x) => x.ply === ply) || null;
  }

  /** The marks of the engine review in the move list: ?!, ? and ?? after the moves, with what they gave away. */
  markMoves() {
    const ol = this.main.querySelector('.moves');
    if (!ol) return;
    const unit = this.engine ? this.engine.unit : 'man';
    for (const b of ol.querySelectorAll('button.mv[data-ply]')) {
      const m = this.reviewedMove(parseInt(/** @type {HTMLElement} */ (b).dataset.ply || '-1', 10));
      const mark = m && m.mark ? m.mark : '';
      const old = b.querySelector('.nag');
      if ((old ? old.getAttribute('data-mark') : '') === mark) continue;
      if (old) old.remove();
      b.removeAttribute('title');
      b.removeAttribute('aria-label');
      if (!m || !m.mark) continue;
      const nag = document.createElement('span');
      nag.className = `nag ${m.mark}`;
      nag.setAttribute('data-mark', m.mark);
      nag.textContent = m.nag || NAGS[m.mark];
      b.append(nag);
      const title = moveTitle(m, unit);
      b.setAttribute('title', title);
      b.setAttribute('aria-label', `${m.move}: ${title}`);
    }
  }

  /**
   * Asks the server for the engine review: `start` asks for it to be computed (POST), `poll`
   * and `peek` read what there is (`peek`: once, on opening a finished game, quietly). While
   * the review is computed it is read again every half second and drawn as it grows.
   * @param {'start' | 'poll' | 'peek'} how
   */
  async followEngine(how) {
    clearTimeout(this.enginePoll);
    this.enginePoll = undefined;
    /** @type {import('./review.js').Review} */
    let r;
    try {
      r = how === 'start' ? await api.startReview(this.id) : await api.review(this.id);
    } catch (e) {
      if (this.destroyed || how === 'peek') return;
      if (how === 'poll' && ++this.engineFails < 6) {
        this.enginePoll = window.setTimeout(() => this.followEngine('poll'), 1000);
        return;
      }
      this.engine = null;
      this.engineError = t('review.failed', { error: errorText(e instanceof Error ? e.message : String(e)) });
      this.renderEngine();
      return;
    }
    if (this.destroyed) return;
    this.engineFails = 0;
    if (!r || !Array.isArray(r.moves)) return;
    // A peek that finds nothing leaves the screen as it is.
    if (how === 'peek' && r.status === 'none') return;
    this.engine = r;
    this.engineError = '';
    this.engineDrawn();
    if (pending(r)) this.enginePoll = window.setTimeout(() => this.followEngine('poll'), 500);
  }

  /** Draws a new answer of the review: the graph, the marks, the arrow; the rest stays. */
  engineDrawn() {
    this.renderEngine();
    this.markMoves();
    if (this.review !== null) this.renderBoard();
  }

  /** The player asked for the engine review: the replay starts, and the review with it. */
  async engineReview() {
    const s = this.state;
    if (!s || !this.over || !s.moves.length) return;
    if (this.review === null || !this.replayData) await this.startReview();
    if (!this.replayData || this.destroyed) return;
    // Asked for already, and on its way or done: nothing more to ask.
    const ask = !this.engine || this.engine.status === 'none';
    if (ask) {
      this.engineError = '';
      this.engine = { status: 'queued', plies: this.replayData.plies.length, unit: this.g.kind === 'ugolki' ? 'race-move' : 'man', nodes: 0, moves: [], summary: null };
      this.renderEngine();
    }
    this.main.querySelector('.engine-card')?.scrollIntoView({ block: 'nearest' });
    if (ask) await this.followEngine('start');
  }

  /**
   * The engine review: the button that asks for it (with why it failed), or its card (progress,
   * graph, summary), and the note under the turn line for a marked move shown.
   */
  renderEngine() {
    const s = this.state;
    const card = /** @type {HTMLElement | null} */ (this.main.querySelector('.engine-card'));
    const start = /** @type {HTMLElement | null} */ (this.main.querySelector('.engine-start'));
    const note = /** @type {HTMLElement | null} */ (this.main.querySelector('.engine-note'));
    if (!s || !card || !start || !note) return;
    const r = this.engine;
    const can = this.over && s.moves.length > 0;
    const shown = !!r && r.status !== 'none';
    start.hidden = !can || shown;
    const err = /** @type {HTMLElement} */ (start.querySelector('.engine-error'));
    err.hidden = !this.engineError;
    err.textContent = this.engineError;
    card.hidden = !can || !shown;
    // Under the turn line, in replay: a marked move's mark and the better move, else the
    // evaluation; always the same height, so that nothing below it moves from move to move.
    const replaying = can && shown && !!r && this.review !== null;
    const m = replaying ? this.reviewedMove(this.review) : null;
    let html = '';
    if (r && m) html = m.mark ? noteHtml(m, r.unit) : esc(t('review.eval-after', { move: m.move, eval: fmt(m.after, true) }));
    else if (r && replaying && this.review !== null && this.review < 0 && r.moves.length) html = esc(t('review.eval-start', { eval: fmt(r.moves[0].before, true) }));
    else if (r && replaying && pending(r)) html = `<span class="muted-note">${esc(progressText(r))}</span>`;
    note.hidden = !replaying;
    note.className = `engine-note${m && m.mark ? ` ${m.mark}` : ''}`;
    if (note.dataset.html !== html) {
      note.dataset.html = html;
      note.innerHTML = html;
      note.title = note.textContent || '';
    }
    if (card.hidden || !r) return;
    const progress = /** @type {HTMLElement} */ (card.querySelector('.engine-progress'));
    progress.hidden = !pending(r);
    /** @type {HTMLElement} */ (progress.querySelector('.text')).textContent = progressText(r);
    const bar = /** @type {HTMLProgressElement} */ (progress.querySelector('progress'));
    bar.max = Math.max(1, r.plies);
    bar.value = r.moves.length;
    const host = /** @type {HTMLElement} */ (card.querySelector('.graph-host'));
    if (!this.graph) {
      this.graph = new EvalGraph((ply) => this.showPly(ply));
      host.replaceChildren(this.graph.el);
    }
    const title = (/** @type {import('./review.js').ReviewMove} */ x) => {
      const head = `${t('replay.at', { n: x.ply + 1, total: r.plies, move: x.move })} · ${fmt(x.after, true)}`;
      return x.mark ? `${head} · ${moveTitle(x, r.unit)}` : head;
    };
    this.graph.update(r, this.review, title);
    const summary = /** @type {HTMLElement} */ (card.querySelector('.summary-host'));
    const sum = r.status === 'done' && r.summary ? summaryHtml(r.summary, (c) => this.sideName(c)) : r.status === 'done' && !r.plies ? `<p class="muted">${esc(t('review.none'))}</p>` : '';
    if (this.summaryShown !== sum || !summary.firstChild) {
      summary.innerHTML = sum;
      this.summaryShown = sum;
    }
  }

  renderSide() {
    const s = this.state;
    const banner = this.main.querySelector('.banner-host');
    const invite = this.main.querySelector('.invite-host');
    if (!s || !banner || !invite) return;
    const parts = [];
    const mine = this.you === 'white' || this.you === 'black' || this.you === 'both';
    if (this.you === 'spectator') parts.push(`<p class="banner info">${esc(t('game.spectating'))}</p>`);
    if (s.draw_offer && s.status === 'playing') {
      const offeredToMe = this.you === 'both' || (mine && s.draw_offer !== this.you);
      if (offeredToMe) {
        parts.push(`<div class="banner offer" role="alert"><p>${esc(s.mode === 'friend' && this.you !== 'both' ? t('game.draw-offered-by-friend') : t('game.draw-offered', { side: this.sideName(s.draw_offer) }))}</p>
          <button type="button" class="primary" data-act="draw-accept">${esc(t('game.draw-accept'))}</button>
          <button type="button" class="ghost" data-act="draw-decline">${esc(t('game.draw-decline'))}</button></div>`);
      } else if (mine) parts.push(`<p class="banner info">${esc(t('game.draw-sent'))}</p>`);
    }
    if (s.mode === 'friend' && (this.you === 'white' || this.you === 'black') && s.status === 'playing') {
      const them = s.seats[other(this.you)];
      if (them.kind === 'player' && !them.connected) {
        const away = them.away_since ? Date.now() - them.away_since : 0;
        const claim = away >= s.claim_after_ms;
        parts.push(`<div class="banner warn"><p>${esc(t('game.opponent-away'))}</p>${claim ? `<button type="button" class="primary" data-act="claim-win">${esc(t('game.claim-win'))}</button>` : ''}</div>`);
        if (!claim && this.tick === undefined) this.tick = window.setInterval(() => this.renderSide(), 1000);
      }
    }
    if (s.status === 'finished' || s.status === 'aborted') {
      parts.push(`<div class="banner result"><p><b>${esc(this.resultHeadline(s))}</b><br>${esc(s.outcome ? reasonText(s.outcome, this.you) : '')}</p>
        <button type="button" class="primary" data-act="results">${esc(t('game.show-results'))}</button></div>`);
      if (s.rematch) parts.push(`<p class="banner info"><a href="/g/${esc(s.rematch)}" data-link>${esc(t('game.to-rematch'))}</a></p>`);
    }
    if (s.status !== 'playing' || !(s.mode === 'friend')) {
      if (this.tick !== undefined && s.status !== 'playing') {
        clearInterval(this.tick);
        this.tick = undefined;
      }
    }
    banner.innerHTML = parts.join('');
    for (const b of banner.querySelectorAll('button[data-act]')) {
      b.addEventListener('click', () => this.act(/** @type {HTMLElement} */ (b).dataset.act || ''));
    }
    // The invitation, for the creator of a friend game (kept in this browser).
    const link = savedSeat(this.id).invite_url;
    if (s.mode === 'friend' && link && s.status === 'waiting') {
      invite.innerHTML = `<div class="card invite">
        <h2>${esc(t('invite.title'))}</h2>
        <p>${esc(t('invite.text'))}</p>
        <div class="invite-row"><input type="text" readonly value="${esc(link)}" aria-label="${esc(t('invite.link'))}" class="invite-link">
        <button type="button" class="primary copy-link">${esc(t('invite.copy'))}</button></div>
      </div>`;
      const input = /** @type {HTMLInputElement} */ (invite.querySelector('input'));
      invite.querySelector('.copy-link')?.addEventListener('click', async () => {
        input.select();
        let ok = false;
        try {
          await navigator.clipboard.writeText(link);
          ok = true;
        } catch {
          ok = document.execCommand && document.execCommand('copy');
        }
        toast(ok ? t('invite.copied') : t('invite.copy-failed'));
      });
    } else invite.innerHTML = '';
    const soundBtn = this.main.querySelector('.quick [data-act="sound"]');
    if (soundBtn) {
      soundBtn.textContent = t(sound.soundOn() ? 'menu.sound-on' : 'menu.sound-off');
      soundBtn.setAttribute('aria-pressed', String(sound.soundOn()));
    }
  }

  /** @param {any} s */
  resultHeadline(s) {
    if (s.status === 'aborted') return t('result.aborted');
    const w = s.outcome && s.outcome.winner;
    if (w === 'draw') return t('result.draw');
    if (!w) return t('result.over');
    if (this.you === 'white' || this.you === 'black') return w === this.you ? t('result.you-won') : t('result.you-lost');
    return t(`result.${w}-won`);
  }

  /** @param {string} sq */
  tap(sq) {
    const s = this.state;
    if (!s || !this.input) return;
    if (this.review !== null) {
      this.review = null;
      this.renderAll();
      return;
    }
    if (!this.myTurn) {
      if (s.status === 'playing' && this.you !== 'spectator' && s.pieces.some((/** @type {any} */ p) => p.square === sq)) {
        this.say(!this.online ? t('game.reconnecting') : s.thinking ? t('game.wait-computer') : t('game.wait-opponent'), 'info');
      } else if (this.you === 'spectator' && s.status === 'playing') this.say(t('game.spectating'), 'info');
      return;
    }
    const r = this.input.tap(sq);
    switch (r.kind) {
      case 'move':
        this.sendMove(r.path, this.stepped);
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
        this.stepped = false;
        this.prompt = null;
        break;
      case 'deselect':
        this.stepped = false;
        this.prompt = null;
        break;
      case 'refuse':
        this.prompt = {
          text: r.reason === 'must-capture' ? t('game.must-capture-refuse') : r.reason === 'no-moves' ? t('game.no-moves-piece') : r.reason === 'not-your-piece' ? t('game.not-your-piece') : t('game.wait-opponent'),
          kind: 'error',
        };
        sound.play('error');
        if (r.reason === 'must-capture') this.flashGlow();
        break;
      case 'try':
        this.sendMove(r.path, false);
        break;
      default:
        break;
    }
    this.renderBoard();
    this.renderPrompt();
    this.renderStatus();
  }

  /** @param {string} text @param {string} kind */
  say(text, kind) {
    this.prompt = { text, kind };
    this.renderPrompt();
  }

  flashGlow() {
    for (const sq of this.state.must_capture) {
      const b = this.board && this.board.squares.get(sq);
      if (b) {
        b.classList.remove('flash');
        void b.offsetWidth;
        b.classList.add('flash');
      }
    }
  }

  /**
   * @param {string[]} path
   * @param {boolean} already  the piece was already shown moving jump by jump
   */
  sendMove(path, already) {
    if (!this.conn || !this.conn.send({ type: 'move', path })) {
      this.say(t('game.reconnecting'), 'error');
      return;
    }
    this.skipAnim = already;
  }

  /** A refusal from the server. @param {string} message */
  refused(message) {
    if (this.hintAsked !== null) {
      // The hint is not coming (not the player's move, or the game changed meanwhile).
      this.hintAsked = null;
      this.renderHint();
    }
    this.say(errorText(message), 'error');
    sound.play('error');
    if (/capture/.test(message)) this.flashGlow();
  }

  /** @param {string} act */
  act(act) {
    const s = this.state;
    if (!s) return;
    const send = (/** @type {string} */ type) => {
      if (!this.conn || !this.conn.send({ type })) this.say(t('game.reconnecting'), 'error');
    };
    switch (act) {
      case 'end-move': {
        if (!this.input) return;
        const r = this.input.endChain();
        if (r.kind === 'move' || r.kind === 'try') this.sendMove(r.path, true);
        this.renderBoard();
        this.renderPrompt();
        return;
      }
      case 'cancel':
        if (this.input) this.input.reset();
        this.prompt = null;
        this.renderBoard();
        this.renderPrompt();
        return;
      case 'pass':
        if (this.conn) this.conn.send({ type: 'move', text: 'pass' });
        return;
      case 'flip':
        this.userFlip = !this.userFlip;
        this.closeMenu();
        this.renderBoard();
        this.renderScore();
        return;
      case 'sound':
        sound.setSound(!sound.soundOn());
        if (sound.soundOn()) sound.play('move');
        this.renderSide();
        if (this.main.querySelector('dialog.menu[open]')) this.openMenu();
        return;
      case 'continue':
        this.closeMenu();
        return;
      case 'new-game':
        navigate('/');
        return;
      case 'rules':
        navigate(`/rules/${s.rules.split(':')[0]}`);
        return;
      case 'resign':
        if (this.armed !== 'resign') {
          this.armed = 'resign';
          this.openMenu();
          setTimeout(() => {
            if (this.armed === 'resign') {
              this.armed = '';
              if (this.main.querySelector('dialog.menu[open]')) this.openMenu();
            }
          }, 4000);
          return;
        }
        this.armed = '';
        send('resign');
        this.closeMenu();
        return;
      case 'hint':
        if (!this.hintsOffered || !this.myTurn || this.hintAsked !== null || this.shownHint) return;
        if (!this.conn || !this.conn.send({ type: 'hint' })) {
          this.say(t('game.reconnecting'), 'error');
          return;
        }
        this.hintAsked = s.plies;
        this.renderHint();
        return;
      case 'takeback':
      case 'draw-offer':
      case 'draw-accept':
      case 'draw-decline':
      case 'abort':
      case 'claim-win':
        send(act);
        this.closeMenu();
        return;
      case 'rematch':
        this.rematchAsked = true;
        if (s.rematch) {
          navigate(`/g/${s.rematch}`);
          return;
        }
        send('rematch');
        this.renderResults();
        return;
      case 'results':
        this.showResults();
        return;
      case 'review':
        this.closeResults();
        this.startReview();
        return;
      case 'engine-review':
        this.closeResults();
        this.engineReview();
        return;
      case 'close-results':
        this.closeResults();
        return;
      default:
        return;
    }
  }

  openMenu() {
    const d = /** @type {HTMLDialogElement | null} */ (this.main.querySelector('dialog.menu'));
    const s = this.state;
    if (!d || !s) return;
    const playing = s.status === 'playing';
    const seated = this.you !== 'spectator';
    const items = [];
    const item = (/** @type {string} */ act, /** @type {string} */ label, cls = '') => items.push(`<button type="button" data-act="${act}" class="${cls}">${esc(label)}</button>`);
    item('continue', t('menu.continue'), 'primary');
    item('new-game', t('menu.new-game'));
    item('sound', t(sound.soundOn() ? 'menu.sound-on' : 'menu.sound-off'));
    item('flip', t('menu.flip'));
    if (playing && seated && s.mode === 'computer') item('takeback', t('menu.takeback'));
    if (playing && seated && s.mode !== 'computer' && !s.draw_offer) item('draw-offer', t('menu.draw'));
    // Before both sides moved there is nothing to resign: the game can only be cancelled.
    if (seated && s.can_abort && (s.status === 'waiting' || playing)) item('abort', t('menu.abort'), playing ? 'danger' : '');
    else if (playing && seated) item('resign', this.armed === 'resign' ? t('menu.resign-confirm') : t('menu.resign'), 'danger');
    item('rules', t('menu.rules'));
    items.push(`<a class="button" href="${api.pdnUrl(this.id)}" download>${esc(t('menu.pdn'))}</a>`);
    d.innerHTML = `<h2>${esc(t('menu.title'))}</h2><div class="menu-items">${items.join('')}</div>`;
    if (!d.open) {
      d.showModal();
      this.main.querySelector('.game')?.classList.add('paused');
    }
  }

  closeMenu() {
    const d = /** @type {HTMLDialogElement | null} */ (this.main.querySelector('dialog.menu'));
    if (d && d.open) d.close();
    this.armed = '';
  }

  /** The game just ended while this screen was open. @param {any} s */
  finished(s) {
    if (this.input) this.input.reset();
    const w = s.outcome && s.outcome.winner;
    const mine = this.you === 'white' || this.you === 'black';
    setTimeout(() => sound.play(w === 'draw' || !mine ? 'draw' : w === this.you ? 'win' : 'lose'), 350);
    this.closeMenu();
    if (s.status === 'finished') setTimeout(() => this.showResults(), 600);
  }

  async showResults() {
    const d = /** @type {HTMLDialogElement | null} */ (this.main.querySelector('dialog.results'));
    if (!d || this.destroyed) return;
    this.renderResults();
    if (!d.open) d.showModal();
    if (this.you !== 'spectator') {
      try {
        this.stats = await api.stats();
      } catch {
        this.stats = null;
      }
      if (!this.destroyed) this.renderResults();
    }
  }

  closeResults() {
    const d = /** @type {HTMLDialogElement | null} */ (this.main.querySelector('dialog.results'));
    if (d && d.open) d.close();
  }

  renderResults() {
    const d = /** @type {HTMLDialogElement | null} */ (this.main.querySelector('dialog.results'));
    const s = this.state;
    if (!d || !s) return;
    const g = this.g;
    const w = s.outcome && s.outcome.winner;
    const mine = this.you === 'white' || this.you === 'black';
    const mood = w === 'draw' ? 'draw' : mine ? (w === this.you ? 'won' : 'lost') : 'neutral';
    const moves = Math.ceil((s.moves.length - s.imported) / 2);
    const sides = /** @type {Color[]} */ (mine ? [this.you, other(/** @type {Color} */ (this.you))] : ['white', 'black']);
    const left = sides.map((c) => {
      const n = g.kind === 'ugolki'
        ? s.pieces.filter((/** @type {any} */ p) => p.color === c && inHome(g, other(c), ...squareXY(p.square))).length
        : s.pieces_left[c];
      return `<li><span class="disc-icon ${c}" aria-hidden="true"></span>${esc(this.sideName(c))}: <b>${n}</b></li>`;
    }).join('');
    const bucket = s.mode === 'computer' ? `computer:${s.level}` : s.mode;
    const b = this.stats && this.stats.mine ? this.stats.mine.find((/** @type {any} */ x) => x.rules === s.rules && x.bucket === bucket) : null;
    const hotseatHtml = b && bucket === 'hotseat' ? `
      <h3>${esc(t('results.stats-for', { rules: rulesName(s.rules), bucket: bucketName(bucket) }))}</h3>
      <dl class="stats-grid">
        <div><dt>${esc(t('stats.games'))}</dt><dd data-stat="games">${b.games}</dd></div>
        <div><dt>${esc(t('stats.white-wins'))}</dt><dd data-stat="white-wins">${b.white_wins}</dd></div>
        <div><dt>${esc(t('stats.black-wins'))}</dt><dd data-stat="black-wins">${b.black_wins}</dd></div>
        <div><dt>${esc(t('stats.draws'))}</dt><dd data-stat="draws">${b.draws}</dd></div>
      </dl>` : '';
    // Two people on one device: neither a win nor a loss of the one holding it.
    const statsHtml = this.you === 'spectator' ? '' : hotseatHtml || (b ? `
      <h3>${esc(t('results.stats-for', { rules: rulesName(s.rules), bucket: bucketName(bucket) }))}</h3>
      <dl class="stats-grid">
        <div><dt>${esc(t('stats.wins'))}</dt><dd data-stat="wins">${b.wins}</dd></div>
        <div><dt>${esc(t('stats.losses'))}</dt><dd data-stat="losses">${b.losses}</dd></div>
        <div><dt>${esc(t('stats.draws'))}</dt><dd data-stat="draws">${b.draws}</dd></div>
        <div><dt>${esc(t('stats.win-pct'))}</dt><dd data-stat="win-pct">${fmtPct(b.win_pct)}</dd></div>
        <div><dt>${esc(t('stats.streak'))}</dt><dd data-stat="streak">${b.streak}</dd></div>
        <div><dt>${esc(t('stats.best-streak'))}</dt><dd data-stat="best-streak">${b.best_streak}</dd></div>
        ${s.mode === 'computer' ? `<div title="${esc(t('stats.clean-streak-title'))}"><dt>${esc(t('stats.clean-streak'))}</dt><dd data-stat="clean-streak">${b.clean_streak ?? 0}</dd></div>` : ''}
        ${s.mode === 'computer' && b.hinted > 0 ? `<div><dt>${esc(t('stats.hinted'))}</dt><dd data-stat="hinted">${b.hinted}</dd></div>` : ''}
      </dl>` : `<p class="muted stats-loading">${esc(this.stats ? t('results.no-stats') : t('home.loading'))}</p>`);
    let rematch = '';
    if (this.you !== 'spectator' && s.status === 'finished') {
      const theyAsked = s.rematch_offer && s.rematch_offer !== this.you && this.you !== 'both';
      const iAsked = s.rematch_offer && s.rematch_offer === this.you;
      rematch = iAsked && !s.rematch
        ? `<p class="muted">${esc(t('results.rematch-sent'))}</p>`
        : `<button type="button" class="primary" data-act="rematch">${esc(theyAsked ? t('results.rematch-accept') : t('results.rematch'))}</button>`;
    }
    d.className = `results ${mood}`;
    d.innerHTML = `
      <div class="results-head">
        <div class="medal" aria-hidden="true">${mood === 'won' || (mood === 'neutral' && w) ? CROWN : ''}</div>
        <h2 id="results-title">${esc(this.resultHeadline(s))}</h2>
        <p class="reason">${esc(s.outcome ? reasonText(s.outcome, this.you) : '')}</p>
      </div>
      <div class="results-facts">
        <p>${esc(t('results.moves', { n: moves }))}</p>
        ${s.hints > 0 ? `<p class="hints-used" data-hints="${s.hints}">${esc(t('results.hints', { n: s.hints }))}</p>` : ''}
        <h3>${esc(t(g.kind === 'ugolki' ? 'results.in-corner' : 'results.pieces-left'))}</h3>
        <ul class="left">${left}</ul>
      </div>
      <div class="results-stats">${statsHtml}</div>
      <div class="results-actions">
        ${rematch ? `<div class="wide">${rematch}</div>` : ''}
        <button type="button" data-act="new-game">${esc(t('menu.new-game'))}</button>
        <button type="button" data-act="review">${esc(t('results.review'))}</button>
        ${s.moves.length ? `<button type="button" data-act="engine-review">${esc(t('review.start'))}</button>` : ''}
        <a class="button" href="${api.pdnUrl(this.id)}" download>${esc(t('results.pdn'))}</a>
        <button type="button" class="ghost${s.moves.length ? ' span' : ''}" data-act="close-results">${esc(t('results.close'))}</button>
      </div>`;
  }

  async startReview() {
    if (!this.replayData) {
      try {
        this.replayData = await api.replay(this.id);
      } catch (e) {
        this.say(errorText(e instanceof Error ? e.message : String(e)), 'error');
        return;
      }
    }
    this.review = this.replayData.plies.length - 1;
    this.renderAll();
    this.main.querySelector('.moves-card')?.scrollIntoView({ block: 'nearest' });
  }

  /** @param {number} ply */
  async showPly(ply) {
    const s = this.state;
    if (!s || (s.status !== 'finished' && s.status !== 'aborted')) return;
    if (!this.replayData) {
      try {
        this.replayData = await api.replay(this.id);
      } catch {
        return;
      }
    }
    const prev = this.review;
    this.review = Math.max(-1, Math.min(ply, this.replayData.plies.length - 1));
    this.renderAll();
    if (prev !== null && this.review === prev + 1 && this.review >= 0 && this.board) {
      const p = this.replayData.plies[this.review];
      const before = prev < 0 ? this.replayData.start.pieces : this.replayData.plies[prev].pieces;
      this.board.animate(p.path, p.captures, before);
      sound.play(p.captures.length ? 'capture' : 'move');
    }
  }

  /** @param {string} how */
  async step(how) {
    if (!this.replayData) await this.startReview();
    if (!this.replayData) return;
    const last = this.replayData.plies.length - 1;
    const cur = this.review === null ? last : this.review;
    const to = how === 'first' ? -1 : how === 'prev' ? cur - 1 : how === 'next' ? cur + 1 : last;
    this.showPly(to);
  }
}

const CROWN = '<svg viewBox="0 0 24 24"><path d="M3 18h18l-1.6-9.2-4.7 3.8L12 5.5l-2.7 7.1-4.7-3.8z"/><rect x="3" y="19.2" width="18" height="2.2" rx="1"/></svg>';

/** @param {number} p */
function fmtPct(p) {
  const v = Math.round(p * 10) / 10;
  return `${v.toLocaleString(lang() === 'ru' ? 'ru-RU' : 'en-US')}%`;
}
