// @ts-check
// The engine review of a finished game (docs/api.md, "Engine review"), drawn: the evaluation
// graph (White up, a point per move reviewed, filling in as the results come), the marks of
// the moves (?!, ?, ??), the better move with the engine's line, and the summary per side.
// game.js asks the server for the review, follows it, and calls these to draw it.

import { lang, t } from './i18n.js';

/** @typedef {'white' | 'black'} Color */
/** @typedef {'inaccuracy' | 'mistake' | 'blunder'} Mark */

/**
 * One move reviewed. `before` and `after` are from White's side; `loss` from the mover's.
 * @typedef {object} ReviewMove
 * @property {number} ply
 * @property {Color} side
 * @property {string} move
 * @property {number} before
 * @property {number} after
 * @property {number} loss
 * @property {string} best
 * @property {string[]} best_path
 * @property {string[]} line
 * @property {Mark | null} mark
 * @property {string | null} nag
 * @property {number} accuracy
 */

/** @typedef {{ inaccuracies: number, mistakes: number, blunders: number, accuracy: number }} SideSummary */

/**
 * The review as the server answers it.
 * @typedef {object} Review
 * @property {'none' | 'queued' | 'running' | 'done'} status
 * @property {number} plies
 * @property {'man' | 'race-move'} unit
 * @property {number} nodes
 * @property {ReviewMove[]} moves
 * @property {Record<Color, SideSummary> | null} summary
 */

/** @type {Record<Mark, string>} */
export const NAGS = { inaccuracy: '?!', mistake: '?', blunder: '??' };

/** Whether the review is still being computed (the page keeps asking). @param {Review | null} r */
export const pending = (r) => !!r && (r.status === 'queued' || r.status === 'running');

/** @param {string} s */
function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A value with one decimal, the language's way; `sign`: "+1.5" and "−1.5". @param {number} v @param {boolean} [sign] */
export function fmt(v, sign = false) {
  const f = new Intl.NumberFormat(lang() === 'ru' ? 'ru-RU' : 'en-US', {
    minimumFractionDigits: 1, maximumFractionDigits: 1, signDisplay: sign ? 'exceptZero' : 'auto',
  });
  return f.format(v).replace('-', '−');
}

/** What a move gave away, with its unit: "2.3 men". @param {ReviewMove} m @param {Review['unit']} unit */
export function lossText(m, unit) {
  return t(`review.loss.${unit === 'race-move' ? 'race-move' : 'man'}`, { n: fmt(Math.max(0, m.loss)) });
}

/** The engine's line, shortened: "e3-f4 f6-g5 f4:h6 …". @param {string[]} line */
function lineText(line) {
  const most = 6;
  return line.slice(0, most).join(' ') + (line.length > most ? ' …' : '');
}

/** The tooltip of a marked move in the move list. @param {ReviewMove} m @param {Review['unit']} unit */
export function moveTitle(m, unit) {
  if (!m.mark) return '';
  return `${t('review.gives-away', { mark: t(`review.${m.mark}`), loss: lossText(m, unit) })} ${t('review.better', { move: m.best })}`;
}

/**
 * The line under the turn line for a marked move: its mark, what it gave away, the better move
 * and the engine's line from it.
 * @param {ReviewMove} m @param {Review['unit']} unit
 */
export function noteHtml(m, unit) {
  if (!m.mark) return '';
  const better = m.line && m.line.length ? t('review.better-line', { move: m.best, line: lineText(m.line) }) : t('review.better', { move: m.best });
  return `<span class="nag ${m.mark}" aria-hidden="true">${esc(m.nag || NAGS[m.mark])}</span> `
    + `<span class="what">${esc(t('review.gives-away', { mark: t(`review.${m.mark}`), loss: lossText(m, unit) }))}</span> `
    + `<span class="better">${esc(better)}</span>`;
}

/**
 * The summary per side: inaccuracies, mistakes, blunders and accuracy, each cell with
 * `data-side` and `data-stat`.
 * @param {Record<Color, SideSummary>} summary @param {(c: Color) => string} name
 */
export function summaryHtml(summary, name) {
  /** @type {Color[]} */
  const sides = ['white', 'black'];
  /** @type {[keyof SideSummary, Mark][]} */
  const rows = [['inaccuracies', 'inaccuracy'], ['mistakes', 'mistake'], ['blunders', 'blunder']];
  const pct = (/** @type {number} */ v) => `${Math.round(v).toLocaleString(lang() === 'ru' ? 'ru-RU' : 'en-US')}%`;
  return `<table class="engine-summary">
  <thead><tr><td></td>${sides.map((c) => `<th scope="col"><span class="disc-icon ${c}" aria-hidden="true"></span> ${esc(name(c))}</th>`).join('')}</tr></thead>
  <tbody>
    ${rows.map(([k, mark]) => `<tr><th scope="row"><span class="nag ${mark}" aria-hidden="true">${NAGS[mark]}</span> ${esc(t(`review.${k}`))}</th>${sides.map((c) => `<td data-side="${c}" data-stat="${k}">${summary[c][k]}</td>`).join('')}</tr>`).join('')}
    <tr class="accuracy"><th scope="row">${esc(t('review.accuracy'))}</th>${sides.map((c) => `<td data-side="${c}" data-stat="accuracy">${pct(summary[c].accuracy)}</td>`).join('')}</tr>
  </tbody>
</table>`;
}

/** What the review says while it runs: "Engine thinking… 12 / 40". @param {Review} r */
export function progressText(r) {
  if (r.status === 'queued') return t('review.queued');
  return t('review.thinking', { n: r.moves.length, total: r.plies });
}

const NS = 'http://www.w3.org/2000/svg';

/**
 * An SVG element with attributes (presentation attributes only: the page's policy allows no
 * inline styles).
 * @param {string} tag @param {Record<string, string | number>} [attrs]
 * @returns {SVGElement}
 */
export function svgEl(tag, attrs = {}) {
  const el = /** @type {SVGElement} */ (document.createElementNS(NS, tag));
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

// The graph's drawing box: x from the start position to the last move, y from +5 (White up)
// to −5; values beyond are drawn at the edge.
const W = 300;
const H = 90;
const PX = 6;
const PY = 6;
const CLAMP = 5;

/** Two decimals are plenty for a path. @param {number} v */
const r2 = (v) => Math.round(v * 100) / 100;

/**
 * The evaluation graph: a dark field (Black's side) with White's area rising from the bottom to
 * the curve of the values after each move, a midline at 0, a point per move reviewed (its
 * class its mark), the part not reviewed yet shaded, and the move shown marked. A click or a
 * tap anywhere picks the nearest move.
 */
export class EvalGraph {
  /** @param {(ply: number) => void} onPick  -1 for the start position */
  constructor(onPick) {
    this.el = /** @type {SVGSVGElement} */ (svgEl('svg', { viewBox: `0 0 ${W} ${H}`, class: 'eval-graph', role: 'img', focusable: 'false' }));
    this.label = svgEl('title');
    this.el.append(this.label);
    this.el.append(svgEl('rect', { class: 'g-field', x: 0, y: 0, width: W, height: H }));
    this.area = svgEl('path', { class: 'g-area', d: '' });
    this.rest = svgEl('rect', { class: 'g-rest', x: W, y: 0, width: 0, height: H });
    this.mid = svgEl('line', { class: 'g-mid', x1: 0, x2: W, y1: H / 2, y2: H / 2 });
    this.curve = svgEl('path', { class: 'g-curve', d: '' });
    this.cursor = svgEl('line', { class: 'g-cursor', x1: 0, x2: 0, y1: 0, y2: H, visibility: 'hidden' });
    this.points = svgEl('g', { class: 'g-points' });
    this.el.append(this.area, this.rest, this.mid, this.curve, this.cursor, this.points);
    /** Moves drawn as points so far, and the total they are spread over. */
    this.drawn = 0;
    this.n = 0;
    this.el.addEventListener('click', (e) => {
      if (!this.n) return;
      const target = e.target instanceof Element ? e.target.closest('[data-ply]') : null;
      if (target) {
        onPick(Number(target.getAttribute('data-ply')));
        return;
      }
      const box = this.el.getBoundingClientRect();
      if (!box.width) return;
      const x = ((e.clientX - box.left) / box.width) * W;
      const k = Math.round((x - PX) / this.step);
      onPick(Math.max(-1, Math.min(this.n - 1, k - 1)));
    });
  }

  get step() {
    return (W - 2 * PX) / Math.max(1, this.n);
  }

  /** x of the position after ply `ply` (-1: the start). @param {number} ply */
  x(ply) {
    return PX + (ply + 1) * this.step;
  }

  /** @param {number} v a value from White's side */
  y(v) {
    const c = Math.max(-CLAMP, Math.min(CLAMP, v));
    return H / 2 - (c / CLAMP) * (H / 2 - PY);
  }

  /**
   * Draws what is known so far and marks the move shown.
   * @param {Review} r @param {number | null} shown  the ply shown in the replay (-1: the start), null: none
   * @param {(m: ReviewMove) => string} title  the tooltip of a point
   */
  update(r, shown, title) {
    const n = Math.max(r.plies, r.moves.length);
    if (n !== this.n) {
      this.n = n;
      this.drawn = 0;
      this.points.replaceChildren();
    }
    this.label.textContent = t('review.graph', { unit: t(`review.unit.${r.unit === 'race-move' ? 'race-move' : 'man'}`) });
    const moves = r.moves;
    // The curve: the start position's value, then the value after each move reviewed.
    const pts = moves.length ? [[this.x(-1), this.y(moves[0].before)], ...moves.map((m) => [this.x(m.ply), this.y(m.after)])] : [];
    const line = pts.map(([x, y], i) => `${i ? 'L' : 'M'}${r2(x)} ${r2(y)}`).join(' ');
    this.curve.setAttribute('d', line);
    this.area.setAttribute('d', pts.length ? `M${r2(pts[0][0])} ${H} ${line.replace(/^M/, 'L')} L${r2(pts[pts.length - 1][0])} ${H} Z` : '');
    const done = pts.length ? pts[pts.length - 1][0] : PX;
    this.rest.setAttribute('x', String(r2(done)));
    this.rest.setAttribute('width', String(r2(Math.max(0, W - done))));
    this.rest.setAttribute('visibility', r.status === 'done' ? 'hidden' : 'visible');
    // New points are added (so that only they fade in); a point whose mark changed is redrawn.
    for (let i = 0; i < moves.length; i++) {
      const m = moves[i];
      const cls = `pt ${m.mark || 'good'}`;
      let c = /** @type {SVGElement | undefined} */ (this.points.children[i]);
      if (c && c.getAttribute('class')?.replace(/ (new|current)/g, '') === cls && c.getAttribute('data-ply') === String(m.ply)) continue;
      const dot = svgEl('circle', { class: `${cls}${i >= this.drawn ? ' new' : ''}`, 'data-ply': m.ply, cx: r2(this.x(m.ply)), cy: r2(this.y(m.after)), r: m.mark ? 4.2 : 2.4 });
      const tip = svgEl('title');
      tip.textContent = title(m);
      dot.append(tip);
      if (c) c.replaceWith(dot);
      else this.points.append(dot);
    }
    while (this.points.children.length > moves.length) this.points.lastElementChild?.remove();
    this.drawn = moves.length;
    // The move shown.
    for (const c of this.points.children) c.classList.toggle('current', shown !== null && c.getAttribute('data-ply') === String(shown));
    if (shown === null) this.cursor.setAttribute('visibility', 'hidden');
    else {
      const x = r2(this.x(Math.max(-1, Math.min(this.n - 1, shown))));
      this.cursor.setAttribute('x1', String(x));
      this.cursor.setAttribute('x2', String(x));
      this.cursor.setAttribute('visibility', 'visible');
    }
  }
}
