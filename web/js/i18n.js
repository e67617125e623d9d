// @ts-check
// The UI's words: one catalogue per language (web/i18n/ru.js, en.js), chosen from the
// browser on the first visit and switchable; the choice is kept in localStorage.

import ru from '../i18n/ru.js';
import en from '../i18n/en.js';

/** @typedef {'ru' | 'en'} Lang */

/** @type {Record<Lang, Record<string, string>>} */
const CATALOGUES = { ru, en };

const KEY = 'doska.lang';

/** @returns {Lang} */
function initial() {
  const kept = safeGet(KEY);
  if (kept === 'ru' || kept === 'en') return kept;
  const wanted = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language];
  for (const l of wanted) {
    const base = String(l || '').toLowerCase().slice(0, 2);
    if (base === 'ru' || base === 'uk' || base === 'be' || base === 'kk') return 'ru';
    if (base === 'en') return 'en';
  }
  return 'en';
}

/** @param {string} key */
function safeGet(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** @type {Lang} */
let current = initial();

/** @type {Set<() => void>} */
const listeners = new Set();

/** The language in use. */
export function lang() {
  return current;
}

/**
 * Switches the language and tells the listeners (the screens re-render).
 * @param {Lang} l
 */
export function setLang(l) {
  if (l === current) return;
  current = l;
  try {
    localStorage.setItem(KEY, l);
  } catch {
    /* private mode: the choice lasts this page */
  }
  document.documentElement.lang = l;
  for (const f of listeners) f();
}

/** @param {() => void} f */
export function onLangChange(f) {
  listeners.add(f);
  return () => listeners.delete(f);
}

/**
 * The text of `key` with `{name}` placeholders filled. A missing key shows itself, so a
 * forgotten string is visible (and caught by the tests) rather than silently empty.
 * @param {string} key
 * @param {Record<string, string | number>} [params]
 */
export function t(key, params) {
  const cat = CATALOGUES[current];
  let s = cat[key];
  if (s === undefined) s = CATALOGUES.en[key];
  if (s === undefined) return key;
  if (params) s = s.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
  return s;
}

/** Whether the catalogue has `key`. @param {string} key */
export function has(key) {
  return key in CATALOGUES[current] || key in CATALOGUES.en;
}

/**
 * A count with its noun in the right plural form: the catalogue holds `key.one`, `key.few`,
 * `key.many` (Russian) or `key.one`, `key.other` (English), each with `{n}`.
 * @param {string} key
 * @param {number} n
 */
export function plural(key, n) {
  const form = new Intl.PluralRules(current).select(n);
  const k = has(`${key}.${form}`) ? `${key}.${form}` : has(`${key}.other`) ? `${key}.other` : `${key}.many`;
  return t(k, { n });
}

document.documentElement.lang = current;
