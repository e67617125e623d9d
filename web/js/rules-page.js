// @ts-check
// Rules pages: `/rules` lists every rule set and Ugolki preset, `/rules/{id}` shows one with
// the questions players ask, in the chosen language (web/i18n/rules.ru.js, rules.en.js).

import { navigate, notFound } from './app.js';
import { lang, t } from './i18n.js';
import { rulesDesc, rulesName } from './names.js';
import { load, save } from './prefs.js';
import { DRAUGHTS, ORDER, UGOLKI, isUgolki } from './rulesets.js';
import ru from '../i18n/rules.ru.js';
import en from '../i18n/rules.en.js';

/**
 * @typedef {{ h: string, p?: string, items?: string[] }} Section
 * @typedef {{ title: string, intro: string, sections: Section[], faq: { q: string, a: string }[] }} Page
 */

/** @param {string} s */
function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** @returns {Record<string, Page>} */
function pages() {
  return lang() === 'ru' ? ru : en;
}

export class RulesScreen {
  /** @param {HTMLElement} main @param {string | null} id */
  constructor(main, id) {
    this.main = main;
    const known = !!id && (/** @type {readonly string[]} */ (DRAUGHTS).includes(id) || /** @type {readonly string[]} */ (UGOLKI).includes(id));
    this.id = known ? id : null;
    /** A rule set the site does not have. @type {string | null} */
    this.unknown = id && !known ? id : null;
    this.render();
    window.scrollTo(0, 0);
  }

  relabel() {
    this.render();
  }

  render() {
    if (this.unknown !== null) {
      notFound(this.main, `/rules/${this.unknown}`, this.unknown);
      return;
    }
    if (!this.id) return this.index();
    const id = this.id;
    const page = pages()[id];
    document.title = t('title.rules', { name: rulesName(id) });
    const section = (/** @type {Section} */ s) => `
      <h2>${esc(s.h)}</h2>
      ${s.p ? `<p>${esc(s.p)}</p>` : ''}
      ${s.items ? `<ul>${s.items.map((i) => `<li>${esc(i)}</li>`).join('')}</ul>` : ''}`;
    this.main.innerHTML = `
<section class="rules-page">
  <article class="card" lang="${lang()}">
    <p><a href="/rules" data-link>← ${esc(t('rules.back'))}</a></p>
    <h1>${esc(page.title)}</h1>
    <p class="lead">${esc(page.intro)}</p>
    <p><button type="button" class="primary play-this">${esc(t('rules.play-this', { name: rulesName(id) }))}</button></p>
    ${page.sections.map(section).join('')}
    <p class="rule-book"><a href="/rulebook/${id}" hreflang="en">${esc(t('rules.book'))}</a></p>
    <h2>${esc(t('rules.faq'))}</h2>
    <dl class="faq">${page.faq.map((f) => `<dt>${esc(f.q)}</dt><dd>${esc(f.a)}</dd>`).join('')}</dl>
    <p class="play-this"><button type="button" class="primary play-this">${esc(t('rules.play-this', { name: rulesName(id) }))}</button></p>
  </article>
  <nav class="card" aria-label="${esc(t('rules.other'))}">
    ${this.list('rules.draughts', ORDER[lang()], id)}
    ${this.list('rules.ugolki', [...UGOLKI], id)}
  </nav>
</section>`;
    for (const b of this.main.querySelectorAll('button.play-this')) b.addEventListener('click', () => this.play(id));
  }

  /** @param {string} heading @param {string[]} ids @param {string | null} current */
  list(heading, ids, current) {
    return `<h2>${esc(t(heading))}</h2><ul>${ids.map((i) => `<li><a href="/rules/${i}" data-link${i === current ? ' aria-current="page"' : ''}>${esc(rulesName(i))}</a></li>`).join('')}</ul>`;
  }

  index() {
    document.title = t('title.rules-index');
    const card = (/** @type {string} */ heading, /** @type {string[]} */ ids) => `
      <section class="card"><h2>${esc(t(heading))}</h2><ul>${ids.map((i) => `
        <li><a href="/rules/${i}" data-link><b>${esc(rulesName(i))}</b><span>${esc(rulesDesc(i))}</span></a></li>`).join('')}</ul></section>`;
    this.main.innerHTML = `
<section class="rules-index">
  <div class="hero"><h1>${esc(t('rules.index-title'))}</h1><p>${esc(t('rules.index-intro'))}</p></div>
  ${card('rules.ugolki', [...UGOLKI])}
  ${card('rules.draughts', ORDER[lang()])}
</section>`;
  }

  /** Opens the home screen with this rule set chosen. @param {string} id */
  play(id) {
    const choice = load('choice', {});
    if (isUgolki(id)) save('choice', { ...choice, kind: 'ugolki', ugolki: id });
    else save('choice', { ...choice, kind: 'draughts', draughts: id });
    navigate('/');
  }
}
