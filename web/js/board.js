// @ts-check
// The board: one <button data-square="c3" aria-label="..."> per square, so it is played by
// mouse, touch, keyboard (arrow keys move between squares, Enter or Space taps) and screen
// readers, and tests find squares by name. Draws pieces, kings, Lasca columns, coordinates in
// the rule set's notation, the last move, the selection, legal destinations, the pieces that
// must capture and Ugolki's corners, an arrow along a move (the engine review's better move, or
// a hint in a game against the computer, with its piece marked); animates a move along its path.

import { t } from './i18n.js';
import { inHome, playable, squareName, squareNumber, squareXY } from './rulesets.js';

/** @typedef {import('./input.js').Piece} Piece */

/**
 * @typedef {object} Scene
 * @property {Piece[]} pieces
 * @property {string[]} [last]       squares of the last move's path
 * @property {string | null} [selected]
 * @property {Set<string>} [next]    where a tap can go next
 * @property {Set<string>} [final]   ends of the moves still possible
 * @property {Set<string>} [glow]    pieces that must capture
 * @property {Set<string>} [taken]   pieces jumped by a capture being entered
 * @property {'white' | 'black' | null} [mine]  the viewer's colour (Ugolki: whose corner is the target)
 * @property {string[] | null} [arrow]  squares of a move to point out (the engine's better move)
 * @property {'hint' | null} [arrowKind]  a hint's arrow (drawn in the hint's colour)
 * @property {string | null} [hint]  the piece a hint moves
 */

const HOP_MS = 170;

const CROWN = '<svg class="crown" viewBox="0 0 24 24" aria-hidden="true"><path d="M3 18h18l-1.6-9.2-4.7 3.8L12 5.5l-2.7 7.1-4.7-3.8z"/><rect x="3" y="19.2" width="18" height="2.2" rx="1"/></svg>';

export class Board {
  /**
   * @param {HTMLElement} host
   * @param {import('./rulesets.js').Geometry} g
   * @param {(square: string) => void} onTap
   */
  constructor(host, g, onTap) {
    this.g = g;
    this.onTap = onTap;
    /** Black at the bottom. */
    this.flipped = false;
    /** @type {Map<string, HTMLButtonElement>} */
    this.squares = new Map();
    /** @type {Scene} */
    this.scene = { pieces: [] };
    this.el = document.createElement('div');
    this.el.className = `board board-${g.kind} size-${g.size}`;
    this.el.setAttribute('role', 'grid');
    this.el.style.setProperty('--n', String(g.size));
    this.layer = document.createElement('div');
    this.layer.className = 'board-layer';
    /** The arrow drawn (its squares and the orientation), so that it is drawn again only when it changes. */
    this.arrowKey = '';
    host.replaceChildren(this.el);
    this.focusSquare = '';
    this.el.addEventListener('click', (e) => {
      const b = /** @type {HTMLElement} */ (e.target).closest('button[data-square]');
      if (b instanceof HTMLButtonElement && !b.disabled) {
        this.focusSquare = b.dataset.square || '';
        this.onTap(this.focusSquare);
      }
    });
    this.el.addEventListener('keydown', (e) => this.key(e));
    this.build();
  }

  /** @param {boolean} flipped */
  setFlipped(flipped) {
    if (flipped === this.flipped) return;
    this.flipped = flipped;
    this.build();
    this.render(this.scene);
  }

  /** Lays out the squares for the current orientation. */
  build() {
    const g = this.g;
    this.el.replaceChildren();
    this.squares.clear();
    this.el.classList.toggle('flipped', this.flipped);
    for (let row = 0; row < g.size; row++) {
      const r = this.flipped ? row : g.size - 1 - row;
      const line = document.createElement('div');
      line.className = 'rank';
      line.setAttribute('role', 'row');
      for (let col = 0; col < g.size; col++) {
        const f = this.flipped ? g.size - 1 - col : col;
        const name = squareName(f, r);
        const b = document.createElement('button');
        b.type = 'button';
        b.dataset.square = name;
        b.setAttribute('role', 'gridcell');
        const play = playable(g, f, r);
        const dark = g.playable === 'mirrored' ? (f + r) % 2 === 1 : (f + r) % 2 === 0;
        b.className = `sq ${dark ? 'dark' : 'light'}${play ? '' : ' off'}`;
        if (!play) b.tabIndex = -1;
        if (g.kind === 'ugolki') {
          if (inHome(g, 'white', f, r)) b.classList.add('home-white');
          if (inHome(g, 'black', f, r)) b.classList.add('home-black');
        }
        const num = squareNumber(g, f, r);
        if (num !== null) {
          const s = document.createElement('span');
          s.className = 'num';
          s.textContent = String(num);
          b.append(s);
        } else if (g.numbering === 'algebraic') {
          if (row === g.size - 1) {
            const s = document.createElement('span');
            s.className = 'coord coord-file';
            s.textContent = name[0];
            b.append(s);
          }
          if (col === 0) {
            const s = document.createElement('span');
            s.className = 'coord coord-rank';
            s.textContent = String(r + 1);
            b.append(s);
          }
        }
        this.squares.set(name, b);
        line.append(b);
      }
      this.el.append(line);
    }
    this.el.append(this.layer);
    this.layer.replaceChildren();
    this.arrowKey = '';
    const first = this.focusSquare && this.squares.get(this.focusSquare);
    this.roving(first ? this.focusSquare : this.firstPlayable());
  }

  firstPlayable() {
    for (const [name, b] of this.squares) if (!b.classList.contains('off')) return name;
    return 'a1';
  }

  /** Keeps exactly one square in the tab order. @param {string} name */
  roving(name) {
    for (const [n, b] of this.squares) b.tabIndex = n === name ? 0 : -1;
    this.focusSquare = name;
  }

  /** @param {KeyboardEvent} e */
  key(e) {
    const moves = { ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
    const d = /** @type {Record<string, number[]>} */ (moves)[e.key];
    if (!d) return;
    const from = /** @type {HTMLElement} */ (e.target).closest('button[data-square]');
    if (!(from instanceof HTMLElement)) return;
    e.preventDefault();
    const [f0, r0] = squareXY(from.dataset.square || 'a1');
    const sign = this.flipped ? -1 : 1;
    const f = f0 + d[0] * sign;
    const r = r0 + d[1] * sign;
    if (f < 0 || r < 0 || f >= this.g.size || r >= this.g.size) return;
    const name = squareName(f, r);
    const b = this.squares.get(name);
    if (b) {
      this.roving(name);
      b.focus();
    }
  }

  /**
   * Draws a scene.
   * @param {Scene} scene
   */
  render(scene) {
    this.scene = scene;
    const at = new Map(scene.pieces.map((p) => [p.square, p]));
    const last = new Set(scene.last || []);
    const lastEnds = scene.last && scene.last.length ? [scene.last[0], scene.last[scene.last.length - 1]] : [];
    for (const [name, b] of this.squares) {
      const p = at.get(name);
      const cls = b.classList;
      cls.toggle('last', last.has(name));
      cls.toggle('last-end', lastEnds.includes(name));
      cls.toggle('selected', scene.selected === name);
      cls.toggle('next', !!scene.next && scene.next.has(name));
      cls.toggle('final', !!scene.final && scene.final.has(name));
      cls.toggle('glow', !!scene.glow && scene.glow.has(name));
      cls.toggle('taken', !!scene.taken && scene.taken.has(name));
      cls.toggle('hint', scene.hint === name);
      if (this.g.kind === 'ugolki') {
        const [f, r] = squareXY(name);
        const target = scene.mine === 'black' ? inHome(this.g, 'white', f, r) : scene.mine === 'white' ? inHome(this.g, 'black', f, r) : false;
        cls.toggle('target', target);
      }
      // A captured piece still fading out (a ghost) is not the square's piece: a piece landing
      // where one fades is drawn beside it.
      const old = b.querySelector('.piece:not(.ghost)');
      const sig = p ? signature(p) : '';
      if ((old ? old.getAttribute('data-sig') : '') !== sig) {
        if (old) old.remove();
        if (p) b.append(pieceElement(p));
      }
      b.setAttribute('aria-label', this.label(name, p, scene));
    }
    this.drawArrow(scene.arrow || null, scene.arrowKind || null);
  }

  /**
   * An arrow through the squares of a move, from its first square to its last, over the
   * pieces: an SVG over the squares (the board's frame excluded) with one unit per square.
   * @param {string[] | null} path @param {'hint' | null} [kind]
   */
  drawArrow(path, kind = null) {
    const key = path && path.length > 1 ? `${path.join(' ')}${this.flipped ? ' flipped' : ''}${kind ? ` ${kind}` : ''}` : '';
    if (key === this.arrowKey) return;
    this.arrowKey = key;
    this.layer.replaceChildren();
    if (!path || path.length < 2) return;
    const n = this.g.size;
    const pts = path.map((sq) => {
      const [f, r] = squareXY(sq);
      return [(this.flipped ? n - 1 - f : f) + 0.5, (this.flipped ? r : n - 1 - r) + 0.5];
    });
    const head = 0.42;
    const half = 0.3;
    const [tx, ty] = pts[pts.length - 1];
    const [px, py] = pts[pts.length - 2];
    const len = Math.hypot(tx - px, ty - py) || 1;
    const [dx, dy] = [(tx - px) / len, (ty - py) / len];
    // The shaft stops where the head begins.
    const bx = tx - dx * head;
    const by = ty - dy * head;
    const shaft = [...pts.slice(0, -1), [bx + dx * 0.02, by + dy * 0.02]];
    const r3 = (/** @type {number} */ v) => Math.round(v * 1000) / 1000;
    const NS = 'http://www.w3.org/2000/svg';
    const svg = document.createElementNS(NS, 'svg');
    svg.setAttribute('class', 'arrows');
    svg.setAttribute('viewBox', `0 0 ${n} ${n}`);
    svg.setAttribute('aria-hidden', 'true');
    const g = document.createElementNS(NS, 'g');
    g.setAttribute('class', kind === 'hint' ? 'engine-arrow hint-arrow' : 'engine-arrow');
    g.setAttribute('data-from', path[0]);
    g.setAttribute('data-to', path[path.length - 1]);
    const line = document.createElementNS(NS, 'path');
    line.setAttribute('d', shaft.map(([x, y], i) => `${i ? 'L' : 'M'}${r3(x)} ${r3(y)}`).join(' '));
    const tip = document.createElementNS(NS, 'polygon');
    tip.setAttribute('points', [[tx, ty], [bx - dy * half, by + dx * half], [bx + dy * half, by - dx * half]].map(([x, y]) => `${r3(x)},${r3(y)}`).join(' '));
    g.append(line, tip);
    svg.append(g);
    this.layer.append(svg);
  }

  /**
   * The words a screen reader says for a square.
   * @param {string} name @param {Piece | undefined} p @param {Scene} scene
   */
  label(name, p, scene) {
    const [f, r] = squareXY(name);
    const num = squareNumber(this.g, f, r);
    const parts = [num !== null ? `${num} (${name})` : name];
    if (p) {
      parts.push(pieceWords(p));
      if (p.under && p.under.length) parts.push(t('sq.under', { list: p.under.map((u) => pieceWords({ square: '', ...u })).join(', ') }));
    } else parts.push(t('sq.empty'));
    if (scene.selected === name) parts.push(t('sq.selected'));
    if (scene.glow && scene.glow.has(name)) parts.push(t('sq.must-capture'));
    if (scene.hint === name && scene.arrow && scene.arrow.length > 1) parts.push(t('sq.hint', { to: scene.arrow[scene.arrow.length - 1] }));
    if (scene.next && scene.next.has(name)) parts.push(t('sq.can-go'));
    else if (scene.final && scene.final.has(name)) parts.push(t('sq.can-go'));
    if (scene.last && scene.last.includes(name)) parts.push(t('sq.last-move'));
    if (scene.taken && scene.taken.has(name)) parts.push(t('sq.taken'));
    return parts.join(', ');
  }

  /**
   * Animates the piece now on the path's last square from the first square through every
   * landing; the captured pieces (given as they stood before) fade as they are jumped.
   * @param {string[]} path @param {string[]} captures @param {Piece[]} before
   */
  animate(path, captures, before) {
    if (path.length < 2 || matchMedia('(prefers-reduced-motion: reduce)').matches) return;
    const end = this.squares.get(path[path.length - 1]);
    const piece = end && /** @type {HTMLElement | null} */ (end.querySelector('.piece:not(.ghost)'));
    if (!end || !piece) return;
    const box = end.getBoundingClientRect();
    const frames = path.map((sq) => {
      const b = this.squares.get(sq);
      const r = b ? b.getBoundingClientRect() : box;
      return { transform: `translate(${r.left - box.left}px, ${r.top - box.top}px)` };
    });
    const hops = path.length - 1;
    const duration = HOP_MS * Math.min(hops, 8) + 60;
    piece.classList.add('moving');
    const a = piece.animate(frames, { duration, easing: 'ease-in-out' });
    a.onfinish = a.oncancel = () => piece.classList.remove('moving');
    const old = new Map(before.map((p) => [p.square, p]));
    captures.forEach((sq, i) => {
      const b = this.squares.get(sq);
      const was = old.get(sq);
      if (!b || !was || b.querySelector('.piece:not(.ghost)')) return;
      const ghost = pieceElement(was);
      ghost.classList.add('ghost');
      b.append(ghost);
      const delay = (duration * (i + 1)) / (hops + 1);
      const fade = ghost.animate([{ opacity: 1 }, { opacity: 1, offset: 0.6 }, { opacity: 0, transform: 'scale(.6)' }], { duration: delay + 160, easing: 'ease-in' });
      fade.onfinish = fade.oncancel = () => ghost.remove();
    });
  }

  /** @param {string} name */
  focus(name) {
    const b = this.squares.get(name);
    if (b) {
      this.roving(name);
      b.focus();
    }
  }
}

/** @param {Piece} p */
function signature(p) {
  return `${p.color}${p.king ? 'K' : ''}${(p.under || []).map((u) => (u.color === 'white' ? 'w' : 'b') + (u.king ? 'K' : '')).join('')}`;
}

/** @param {Piece} p */
function pieceWords(p) {
  return t(`piece.${p.color}.${p.king ? 'king' : 'man'}`);
}

/**
 * A piece, or a Lasca column drawn as a stack with the pieces underneath showing.
 * @param {Piece} p
 */
function pieceElement(p) {
  const el = document.createElement('span');
  el.className = 'piece';
  el.setAttribute('data-sig', signature(p));
  el.setAttribute('aria-hidden', 'true');
  const under = p.under || [];
  if (under.length) {
    el.classList.add('column');
    const k = Math.min(under.length, 6);
    el.style.setProperty('--k', String(k));
    el.style.setProperty('--step', `${Math.min(24, 72 / k)}%`);
  }
  // Bottom first, so the top is drawn last; at most 7 layers shown.
  const shown = under.slice(0, 6).reverse();
  shown.forEach((u, i) => {
    const d = document.createElement('span');
    d.className = `disc ${u.color}${u.king ? ' king' : ''} layer`;
    d.style.setProperty('--i', String(shown.length - i));
    el.append(d);
  });
  const top = document.createElement('span');
  top.className = `disc ${p.color}${p.king ? ' king' : ''} top`;
  if (p.king) top.innerHTML = CROWN;
  el.append(top);
  if (under.length > 6) {
    const c = document.createElement('span');
    c.className = 'count';
    c.textContent = String(under.length + 1);
    el.append(c);
  }
  return el;
}
