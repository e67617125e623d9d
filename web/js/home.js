// @ts-check
// The home screen: a new game (Уголки or Шашки, the rule set or preset, the opponent and
// level, the colour, optionally a position to start from), the games to continue, the
// finished games (open one to replay it) and the player's stats.

import * as api from './api.js';
import { navigate } from './app.js';
import { lang, plural, t } from './i18n.js';
import { levelName, modeName, rulesDesc, rulesName, reasonText, errorText } from './names.js';
import { load, save, saveSeat } from './prefs.js';
import { ORDER, UGOLKI } from './rulesets.js';

/**
 * @typedef {object} Choice
 * @property {'draughts' | 'ugolki'} kind
 * @property {string} draughts
 * @property {string} ugolki
 * @property {'computer' | 'friend' | 'hotseat'} opponent
 * @property {string} level
 * @property {'white' | 'black' | 'random'} color
 */

const LEVELS = ['easy', 'medium', 'hard', 'insane'];

/** @param {string} s */
function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export class HomeScreen {
  /** @param {HTMLElement} main */
  constructor(main) {
    this.main = main;
    const kept = load('choice', null);
    /** @type {Choice} */
    this.choice = {
      kind: 'draughts', draughts: lang() === 'ru' ? 'russian' : 'american', ugolki: 'ugolki',
      opponent: 'computer', level: 'easy', color: 'white',
      ...(kept || {}),
    };
    // The first visit's defaults follow its language; kept from then on, so switching the
    // language later never changes the rule set shown.
    if (!kept) save('choice', this.choice);
    this.position = '';
    this.busy = false;
    /** @type {any} */
    this.games = null;
    /** @type {any} */
    this.stats = null;
    this.render();
    this.refresh();
  }

  async refresh() {
    try {
      const [games, stats] = await Promise.all([api.listGames(), api.stats()]);
      this.games = games;
      this.stats = stats;
    } catch {
      this.games = this.games || { unfinished: [], finished: [] };
    }
    this.renderLists();
  }

  relabel() {
    const form = this.main.querySelector('form');
    if (form) {
      const ta = form.querySelector('textarea');
      if (ta) this.position = ta.value;
    }
    this.render();
    this.renderLists();
  }

  render() {
    const c = this.choice;
    document.title = t('title.home');
    const rulesList = c.kind === 'draughts' ? ORDER[lang()] : [...UGOLKI];
    const current = c.kind === 'draughts' ? c.draughts : c.ugolki;
    this.main.innerHTML = `
<section class="home">
  <div class="hero">
    <h1>${esc(t('home.title'))}</h1>
    <p>${esc(t('home.tagline'))}</p>
    <div class="hero-links"><a class="button analysis-link" href="/analysis" data-link>${esc(t('home.analysis'))}</a></div>
  </div>
  <div class="home-grid">
    <form class="card new-game" novalidate>
      <h2>${esc(t('home.new-game'))}</h2>
      <div class="ng-cols"><div class="ng-rules">
      <div class="seg kind" role="radiogroup" aria-label="${esc(t('home.game'))}">
        ${radio('kind', 'draughts', t('home.kind.draughts'), c.kind === 'draughts')}
        ${radio('kind', 'ugolki', t('home.kind.ugolki'), c.kind === 'ugolki')}
      </div>
      <fieldset class="rules-choice">
        <legend>${esc(t(c.kind === 'draughts' ? 'home.rules' : 'home.preset'))}</legend>
        <div class="choices">
          ${rulesList.map((id) => `
          <label class="choice${id === current ? ' checked' : ''}" data-rules="${id}">
            <input type="radio" name="rules" value="${id}"${id === current ? ' checked' : ''}>
            <span class="choice-name">${esc(rulesName(id))}</span>
            <span class="choice-desc">${esc(rulesDesc(id))}</span>
          </label>`).join('')}
        </div>
        <p class="selected-desc">${esc(rulesDesc(current))}</p>
        <a class="rules-link" href="/rules/${current}" data-link>${esc(t('home.rules-of', { name: rulesName(current) }))}</a>
      </fieldset>
      </div><div class="ng-options">
      <fieldset>
        <legend>${esc(t('home.opponent'))}</legend>
        <div class="seg" role="radiogroup">
          ${radio('opponent', 'computer', t('opponent.computer'), c.opponent === 'computer')}
          ${radio('opponent', 'friend', t('opponent.friend'), c.opponent === 'friend')}
          ${radio('opponent', 'hotseat', t('opponent.hotseat'), c.opponent === 'hotseat')}
        </div>
      </fieldset>
      <fieldset class="levels"${c.opponent === 'computer' ? '' : ' hidden'}>
        <legend>${esc(t('home.level'))}</legend>
        <div class="seg" role="radiogroup">
          ${LEVELS.map((l) => radio('level', l, levelName(l), c.level === l)).join('')}
        </div>
      </fieldset>
      <fieldset class="colors"${c.opponent === 'hotseat' ? ' hidden' : ''}>
        <legend>${esc(t('home.color'))}</legend>
        <div class="seg" role="radiogroup">
          ${radio('color', 'white', t('color.white'), c.color === 'white')}
          ${radio('color', 'black', t('color.black'), c.color === 'black')}
          ${radio('color', 'random', t('color.random'), c.color === 'random')}
        </div>
      </fieldset>
      <details class="position"${this.position ? ' open' : ''}>
        <summary>${esc(t('home.from-position'))}</summary>
        <label class="sr-only" for="position">${esc(t('home.position-label'))}</label>
        <textarea id="position" name="position" rows="3" spellcheck="false" autocomplete="off"
          placeholder="${esc(t(c.kind === 'ugolki' ? 'home.position-placeholder-ugolki' : 'home.position-placeholder'))}">${esc(this.position)}</textarea>
        <p class="hint">${esc(t('home.position-hint'))}</p>
      </details>
      <p class="form-error" role="alert" hidden></p>
      <button type="submit" class="primary play">${esc(t('home.play'))}</button>
      </div></div>
    </form>
    <div class="home-side">
      <section class="card continue" aria-live="polite">
        <h2>${esc(t('home.continue'))}</h2>
        <div class="list unfinished"><p class="muted">${esc(t('home.loading'))}</p></div>
      </section>
      <section class="card finished">
        <h2>${esc(t('home.finished'))}</h2>
        <div class="list done"><p class="muted">${esc(t('home.loading'))}</p></div>
      </section>
      <section class="card stats">
        <h2>${esc(t('home.stats'))}</h2>
        <div class="stats-table"></div>
      </section>
    </div>
  </div>
</section>`;
    const form = /** @type {HTMLFormElement} */ (this.main.querySelector('form'));
    form.addEventListener('change', (e) => this.changed(/** @type {HTMLInputElement} */ (e.target)));
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.play();
    });
    const ta = /** @type {HTMLTextAreaElement} */ (form.querySelector('textarea'));
    ta.addEventListener('input', () => (this.position = ta.value));
  }

  /** @param {HTMLInputElement} input */
  changed(input) {
    const c = this.choice;
    const v = input.value;
    switch (input.name) {
      case 'kind':
        c.kind = v === 'ugolki' ? 'ugolki' : 'draughts';
        break;
      case 'rules':
        if (c.kind === 'ugolki') c.ugolki = v;
        else c.draughts = v;
        break;
      case 'opponent':
        c.opponent = /** @type {Choice['opponent']} */ (v);
        break;
      case 'level':
        c.level = v;
        break;
      case 'color':
        c.color = /** @type {Choice['color']} */ (v);
        break;
      default:
        return;
    }
    save('choice', c);
    if (input.name === 'rules') {
      for (const l of this.main.querySelectorAll('.choice')) l.classList.toggle('checked', l.getAttribute('data-rules') === v);
      const desc = this.main.querySelector('.selected-desc');
      if (desc) desc.textContent = rulesDesc(v);
      const link = /** @type {HTMLAnchorElement} */ (this.main.querySelector('.rules-link'));
      link.href = `/rules/${v}`;
      link.textContent = t('home.rules-of', { name: rulesName(v) });
      return;
    }
    const scroll = window.scrollY;
    this.render();
    this.renderLists();
    window.scrollTo(0, scroll);
    const again = /** @type {HTMLElement | null} */ (this.main.querySelector(`input[name="${input.name}"][value="${v}"]`));
    if (again) again.focus();
  }

  async play() {
    if (this.busy) return;
    const c = this.choice;
    const err = /** @type {HTMLElement} */ (this.main.querySelector('.form-error'));
    err.hidden = true;
    this.busy = true;
    const button = /** @type {HTMLButtonElement} */ (this.main.querySelector('button.play'));
    button.disabled = true;
    try {
      /** @type {api.CreateGame} */
      const req = {
        rules: c.kind === 'ugolki' ? c.ugolki : c.draughts,
        opponent: c.opponent,
        color: c.opponent === 'hotseat' ? 'white' : c.color,
      };
      if (c.opponent === 'computer') req.level = c.level;
      const pos = this.position.trim();
      if (pos) req.position = pos;
      const res = await api.createGame(req);
      saveSeat(res.id, { token: res.token, invite_url: res.invite_url ? location.origin + res.invite_url : null });
      navigate(res.url);
    } catch (e) {
      err.textContent = errorText(e instanceof Error ? e.message : String(e));
      err.hidden = false;
      button.disabled = false;
    } finally {
      this.busy = false;
    }
  }

  renderLists() {
    const g = this.games;
    const un = this.main.querySelector('.list.unfinished');
    const done = this.main.querySelector('.list.done');
    if (!un || !done || !g) return;
    this.main.querySelector('.home-grid')?.classList.toggle('returning', g.unfinished.length > 0);
    un.innerHTML = g.unfinished.length
      ? `<ul class="games">${g.unfinished.map((/** @type {any} */ s) => gameRow(s, false)).join('')}</ul>`
      : `<p class="muted">${esc(t('home.no-unfinished'))}</p>`;
    done.innerHTML = g.finished.length
      ? `<ul class="games">${g.finished.slice(0, 20).map((/** @type {any} */ s) => gameRow(s, true)).join('')}</ul>`
      : `<p class="muted">${esc(t('home.no-finished'))}</p>`;
    for (const b of this.main.querySelectorAll('button.hide-game')) {
      b.addEventListener('click', async () => {
        const id = /** @type {HTMLElement} */ (b).dataset.id || '';
        try {
          await api.hideGame(id);
        } catch {
          /* already gone */
        }
        this.refresh();
      });
    }
    this.renderStats();
  }

  renderStats() {
    const host = this.main.querySelector('.stats-table');
    if (!host) return;
    const mine = (this.stats && this.stats.mine) || [];
    if (!mine.length) {
      host.innerHTML = `<p class="muted">${esc(t('home.no-stats'))}</p>`;
      return;
    }
    host.innerHTML = `
<table>
  <thead><tr><th>${esc(t('stats.rules'))}</th><th title="${esc(t('stats.wins'))}">${esc(t('stats.w'))}</th><th title="${esc(t('stats.losses'))}">${esc(t('stats.l'))}</th><th title="${esc(t('stats.draws'))}">${esc(t('stats.d'))}</th><th>%</th><th title="${esc(t('stats.streak-best'))}">${esc(t('stats.streak-short'))}</th><th title="${esc(t('stats.clean-streak-title'))}">${esc(t('stats.clean-short'))}</th></tr></thead>
  <tbody>${mine.map((/** @type {any} */ b) => b.bucket === 'hotseat' ? `
    <tr class="hotseat"><th scope="row">${esc(rulesName(b.rules))}<small>${esc(bucketName(b.bucket))}: ${esc(t('stats.hotseat-line', { w: b.white_wins, b: b.black_wins }))}</small></th>
    <td>–</td><td>–</td><td>${b.draws}</td><td>–</td><td>–</td><td>–</td></tr>` : `
    <tr><th scope="row">${esc(rulesName(b.rules))}<small>${esc(bucketName(b.bucket))}</small></th>
    <td>${b.wins}</td><td>${b.losses}</td><td>${b.draws}</td><td>${Math.round(b.win_pct)}</td><td>${b.streak}/${b.best_streak}</td><td data-stat="clean-streak"${b.hinted > 0 ? ` title="${esc(t('stats.hinted'))}: ${b.hinted}"` : ''}>${b.bucket.startsWith('computer') ? b.clean_streak ?? 0 : '–'}</td></tr>`).join('')}
  </tbody>
</table>`;
  }
}

/** `computer:easy` → "Computer, Easy". @param {string} bucket */
export function bucketName(bucket) {
  const [mode, level] = bucket.split(':');
  return modeName({ mode, level });
}

/**
 * @param {string} name @param {string} value @param {string} label @param {boolean} checked
 */
function radio(name, value, label, checked) {
  return `<label class="opt${checked ? ' checked' : ''}"><input type="radio" name="${name}" value="${value}"${checked ? ' checked' : ''}><span>${esc(label)}</span></label>`;
}

/** @param {any} s @param {boolean} finished */
function gameRow(s, finished) {
  const side = s.you === 'both' ? t('you.both') : t(`you.${s.you}`);
  let status;
  if (finished) {
    if (s.status === 'aborted') status = t('result.aborted');
    else if (s.winner === 'draw') status = t('result.draw');
    else if (s.you === 'both') status = t(`result.${s.winner}-won`);
    else status = s.winner === s.you ? t('result.won') : t('result.lost');
  } else if (s.status === 'waiting') status = t('status.waiting-friend');
  else status = s.you === 'both' || s.turn === s.you ? t('status.your-turn') : t('status.their-turn');
  const cls = finished ? (s.winner === 'draw' || s.status === 'aborted' ? 'draw' : s.you !== 'both' && s.winner === s.you ? 'won' : s.you === 'both' ? '' : 'lost') : (s.you === 'both' || s.turn === s.you ? 'turn' : '');
  const title = finished && s.reason ? reasonText({ reason: s.reason, text: s.result_text, winner: s.winner }, s.you) : '';
  return `<li class="game-row ${cls}">
  <a href="${esc(s.url)}" data-link data-game="${esc(s.id)}" title="${esc(title)}">
    <span class="g-name">${esc(rulesName(s.rules))}</span>
    <span class="g-meta">${esc(modeName(s))} · ${esc(side)} · ${esc(plural('n.moves', Math.ceil(s.plies / 2)))}</span>
    <span class="g-status">${esc(status)}</span>
  </a>
  ${finished && s.plies > 0 ? `<a class="review-game icon" href="${esc(s.url)}?review=1" data-link aria-label="${esc(t('review.open'))}" title="${esc(t('review.open'))}"><svg viewBox="0 0 24 24" aria-hidden="true"><path d="M3 19h18M4 15l4.5-5 4 3L20 5"/></svg></a>` : ''}
  <button type="button" class="hide-game icon" data-id="${esc(s.id)}" aria-label="${esc(t('home.hide'))}" title="${esc(t('home.hide'))}">×</button>
</li>`;
}
