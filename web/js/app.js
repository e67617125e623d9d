// @ts-check
// The page: routes `/` (home), `/g/{id}` (a game), `/analysis` (the analysis board), `/rules`
// and `/rules/{id}` (rules pages), anything else to a not-found page; the header with the language switch, and small shared bits (toasts, links).

import { lang, onLangChange, setLang, t } from './i18n.js';

/** @typedef {{ destroy?: () => void, relabel?: () => void }} Screen */

const main = /** @type {HTMLElement} */ (document.getElementById('main'));
/** @type {Screen | null} */
let screen = null;
let routeSeq = 0;

/** Goes to a page of the app without reloading. @param {string} url @param {boolean} [replace] */
export function navigate(url, replace) {
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  route();
}

async function route() {
  const seq = ++routeSeq;
  if (screen && screen.destroy) screen.destroy();
  screen = null;
  const path = location.pathname.replace(/\/+$/, '') || '/';
  let m;
  /** @type {Screen | null} */
  let next;
  document.body.dataset.screen = '';
  if ((m = /^\/g\/([A-Za-z0-9]+)$/.exec(path))) {
    const { GameScreen } = await import('./game.js');
    if (seq !== routeSeq) return;
    next = new GameScreen(main, m[1], new URLSearchParams(location.search));
    document.body.dataset.screen = 'game';
  } else if (path === '/analysis') {
    const { AnalysisScreen } = await import('./analysis.js');
    if (seq !== routeSeq) return;
    next = new AnalysisScreen(main, new URLSearchParams(location.search));
    document.body.dataset.screen = 'analysis';
  } else if ((m = /^\/rules(?:\/([a-z0-9:=,-]+))?$/.exec(path))) {
    const { RulesScreen } = await import('./rules-page.js');
    if (seq !== routeSeq) return;
    next = new RulesScreen(main, m[1] || null);
    document.body.dataset.screen = 'rules';
  } else if (path !== '/') {
    next = notFound(main, path);
    document.body.dataset.screen = 'missing';
  } else {
    const { HomeScreen } = await import('./home.js');
    if (seq !== routeSeq) return;
    next = new HomeScreen(main);
    document.body.dataset.screen = 'home';
  }
  screen = next;
  header();
}

/** @param {string} s */
function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The page for an address the site does not have (or rules it does not know): says what was
 * asked for and where to go instead.
 * @param {HTMLElement} host @param {string} path @param {string | null} [rules] the unknown rule set id
 * @returns {Screen}
 */
export function notFound(host, path, rules = null) {
  const render = () => {
    document.title = t('title.not-found');
    host.innerHTML = `<section class="not-found card">
  <h1>${esc(t('notfound.title'))}</h1>
  <p>${esc(rules !== null ? t('notfound.rules', { id: rules }) : t('notfound.page', { path }))}</p>
  <p class="not-found-links"><a class="button primary" href="/" data-link>${esc(t('notfound.home'))}</a>
  <a class="button" href="/rules" data-link>${esc(t('notfound.rules-index'))}</a></p>
</section>`;
  };
  render();
  return { relabel: render };
}

function header() {
  for (const el of document.querySelectorAll('[data-i18n]')) {
    el.textContent = t(/** @type {HTMLElement} */ (el).dataset.i18n || '');
  }
  const brand = document.querySelector('.brand-name');
  if (brand) brand.textContent = t('brand');
  const b = /** @type {HTMLButtonElement} */ (document.getElementById('lang'));
  const other = lang() === 'ru' ? 'en' : 'ru';
  b.textContent = other.toUpperCase();
  b.setAttribute('aria-label', t('lang.switch'));
  b.title = t('lang.switch');
  b.dataset.lang = other;
  const path = location.pathname;
  document.getElementById('nav-play')?.toggleAttribute('aria-current', path === '/');
  document.getElementById('nav-rules')?.toggleAttribute('aria-current', path.startsWith('/rules'));
}

/** @type {number | undefined} */
let toastTimer;
/** Shows a short message at the bottom. @param {string} text */
export function toast(text) {
  const el = /** @type {HTMLElement} */ (document.getElementById('toast'));
  el.textContent = text;
  el.classList.add('show');
  clearTimeout(toastTimer);
  toastTimer = window.setTimeout(() => el.classList.remove('show'), 2600);
}

document.addEventListener('click', (e) => {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  const a = /** @type {HTMLElement} */ (e.target).closest('a[data-link]');
  if (!(a instanceof HTMLAnchorElement) || a.origin !== location.origin) return;
  e.preventDefault();
  if (a.pathname + a.search !== location.pathname + location.search) navigate(a.pathname + a.search);
  else window.scrollTo(0, 0);
});

document.getElementById('lang')?.addEventListener('click', (e) => {
  const l = /** @type {HTMLElement} */ (e.currentTarget).dataset.lang;
  setLang(l === 'en' ? 'en' : 'ru');
});

onLangChange(() => {
  header();
  if (screen && screen.relabel) screen.relabel();
});

window.addEventListener('popstate', route);
route();
