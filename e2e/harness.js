// The real server binary on a free port over a temporary SQLite file, and Debian's chromium
// driven by playwright-core. Shared by the browser tests.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before } from 'node:test';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.resolve(here, '..');
// The binary under test: DOSKA_BIN, else the release build in cargo's target folder
// (CARGO_TARGET_DIR when set).
export const BIN = process.env.DOSKA_BIN
  || path.join(process.env.CARGO_TARGET_DIR ? path.resolve(ROOT, process.env.CARGO_TARGET_DIR) : path.join(ROOT, 'target'), 'release/doska');
export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
export const SHOTS = path.join(ROOT, 'docs/screenshots');
export const UPDATE_SCREENSHOTS = process.env.UPDATE_SCREENSHOTS === '1';

/**
 * A running server. `stop()` ends it and removes its folder (the database and any endgame
 * databases made there); `stop({ keep: true })` leaves the folder for a server started again
 * over it.
 * @typedef {{ url: string, port: number, db: string, dir: string, stop: (opts?: { keep?: boolean }) => Promise<void>, log: () => string }} Server
 */

/**
 * Starts `doska serve` on `port` (0: a free one) over the database in `dir` (new: a fresh
 * temporary folder), and waits for the address it prints. Its endgame databases are those in
 * `<dir>/egdb` (none unless a test makes them there).
 * @param {{ port?: number, dir?: string }} [opts]
 * @returns {Promise<Server>}
 */
export async function startServer(opts = {}) {
  const dir = opts.dir || fs.mkdtempSync(path.join(os.tmpdir(), 'doska-e2e-db-'));
  const db = `sqlite://${path.join(dir, 'doska.sqlite')}?mode=rwc`;
  const args = ['serve', '--addr', `127.0.0.1:${opts.port || 0}`, '--database-url', db,
    '--egdb', path.join(dir, 'egdb')];
  const child = spawn(BIN, args, {
    env: {
      ...process.env,
      // Quick and reproducible computer moves; friend games claimable after 2 s.
      DOSKA_SEED: '7',
      DOSKA_ENGINE_THREADS: '1',
      DOSKA_ENGINE_SCALE: process.env.DOSKA_ENGINE_SCALE || '0.2',
      DOSKA_CLAIM_AFTER: '2',
      RUST_LOG: process.env.RUST_LOG || 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start in 20 s:\n${out}`)), 20000);
    const look = () => {
      const m = /http:\/\/(127\.0\.0\.1:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(`http://${m[1]}`);
      }
    };
    child.stdout.on('data', look);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code}):\n${out}`));
    });
  });
  const port = Number(new URL(url).port);
  return {
    url, port, db, dir,
    log: () => out,
    stop: async ({ keep = false } = {}) => {
      await new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(undefined);
        child.removeAllListeners('exit');
        child.on('exit', () => resolve(undefined));
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      });
      if (!keep) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * One server and one browser for a test file: started before its first test, stopped after
 * its last. Read `env.server` and `env.browser` inside the tests.
 */
export function serverAndBrowser() {
  const env = {
    /** @type {Server} */ server: /** @type {any} */ (null),
    /** @type {import('playwright-core').Browser} */ browser: /** @type {any} */ (null),
  };
  before(async () => {
    env.server = await startServer();
    env.browser = await launch();
  });
  after(async () => {
    if (env.browser) await env.browser.close();
    if (env.server) await env.server.stop();
  });
  return env;
}

/** Launches chromium. */
export async function launch() {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--autoplay-policy=no-user-gesture-required'],
  });
}

/** Pages with a touch screen: they tap rather than click. */
const touchPages = new WeakSet();

/**
 * A fresh browser profile (its own cookie: its own player) with one page.
 * @param {import('playwright-core').Browser} browser
 * Animations are off (reduced motion) unless `motion` is set: then the page plays every
 * animation as a player sees it.
 * @param {{ locale?: string, width?: number, height?: number, mobile?: boolean, motion?: boolean }} [o]
 */
export async function openPage(browser, o = {}) {
  const mobile = !!o.mobile;
  const context = await browser.newContext({
    locale: o.locale || 'ru-RU',
    viewport: { width: o.width || (mobile ? 360 : 1280), height: o.height || (mobile ? 740 : 860) },
    hasTouch: mobile,
    isMobile: mobile,
    deviceScaleFactor: 1,
    reducedMotion: o.motion ? 'no-preference' : 'reduce',
  });
  // The server's content security policy must not block anything the UI does: a violation
  // (a blocked script, style, image or socket) is reported as an error like any other.
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || 'inline code'}`);
    });
  });
  const page = await context.newPage();
  if (mobile) touchPages.add(page);
  /** @type {string[]} */
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/favicon|WebSocket/.test(m.text())) errors.push(m.text());
  });
  return { context, page, errors };
}

/**
 * Starts a game from the home screen through clicks.
 * @param {import('playwright-core').Page} page
 * @param {string} base
 * @param {{ kind?: 'draughts' | 'ugolki', rules: string, opponent: 'computer' | 'friend' | 'hotseat', level?: string, color?: string, position?: string }} g
 */
export async function newGame(page, base, g) {
  await page.goto(`${base}/`);
  await page.locator('form.new-game').waitFor();
  await page.click(`label.opt:has(input[name=kind][value=${g.kind || 'draughts'}])`);
  await page.click(`label.choice:has(input[name=rules][value="${g.rules}"])`);
  await page.click(`label.opt:has(input[name=opponent][value=${g.opponent}])`);
  if (g.opponent === 'computer') await page.click(`label.opt:has(input[name=level][value=${g.level || 'easy'}])`);
  if (g.opponent !== 'hotseat') await page.click(`label.opt:has(input[name=color][value=${g.color || 'white'}])`);
  if (g.position) {
    await page.click('details.position summary');
    await page.fill('#position', g.position);
  }
  await page.click('button.play');
  await page.waitForURL(/\/g\/[A-Za-z0-9]+$/);
  await page.locator('.board [data-square]').first().waitFor();
}

/**
 * Taps a square with a real click (or a touch tap on a touch page).
 * @param {import('playwright-core').Page} page @param {string} sq
 */
export async function tap(page, sq) {
  const b = page.locator(`.board [data-square="${sq}"]`);
  if (touchPages.has(page)) await b.tap();
  else await b.click();
}

/** Waits until it is this page's turn to move. @param {import('playwright-core').Page} page */
export async function myTurn(page, timeout = 30000) {
  await page.locator('.turn-line.mine').waitFor({ timeout });
}

/** The move list as texts. @param {import('playwright-core').Page} page */
export async function moveList(page) {
  return page.locator('ol.moves .mv').allTextContents();
}

/**
 * Saves a screenshot into docs/screenshots when UPDATE_SCREENSHOTS=1.
 * @param {import('playwright-core').Page} page @param {string} name
 */
export async function screenshot(page, name) {
  if (!UPDATE_SCREENSHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, name) });
}

/** Waits until no animation runs and no captured piece is still fading out. @param {import('playwright-core').Page} page */
export async function settled(page) {
  await page.waitForFunction(() => !document.querySelector('.board .piece.ghost')
    && document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity));
}

/**
 * What the board draws against the server's state of the game: a list of the squares where
 * they differ (empty when the board shows exactly the state's pieces). Ghosts of captured
 * pieces are not pieces.
 * @param {import('playwright-core').Page} page
 */
export async function boardVsState(page) {
  return page.evaluate(async () => {
    const id = location.pathname.split('/').pop() || '';
    const res = await fetch(`/api/games/${id}`, { credentials: 'same-origin' });
    const state = await res.json();
    /** @type {Map<string, string>} */
    const want = new Map();
    for (const p of state.pieces) {
      want.set(p.square, `${p.color}${p.king ? "K" : ""}/${Math.min((p.under || []).length, 6)}`);
    }
    /** @type {string[]} */
    const diff = [];
    for (const b of document.querySelectorAll('.board [data-square]')) {
      const sq = b.getAttribute('data-square') || '';
      const pieces = b.querySelectorAll(':scope > .piece:not(.ghost)');
      let got = '';
      if (pieces.length === 1) {
        const top = pieces[0].querySelector('.disc.top');
        const color = top && top.classList.contains('white') ? 'white' : top && top.classList.contains('black') ? 'black' : '?';
        got = `${color}${top && top.classList.contains('king') ? 'K' : ''}/${pieces[0].querySelectorAll('.disc.layer').length}`;
      } else if (pieces.length > 1) got = `${pieces.length} pieces`;
      const w = want.get(sq) || '';
      if (got !== w) diff.push(`${sq}: drawn ${got || 'empty'}, state ${w || 'empty'}`);
    }
    return diff;
  });
}

/**
 * Every visible control (button, link styled as a button) whose text or icon does not meet
 * WCAG AA contrast against what is drawn behind it: 4.5:1 for text, 3:1 for large text and for
 * icons. Colours are the computed ones; backgrounds are composited from the control up to the
 * first opaque layer, and a gradient counts with each of its colours (the worst one decides).
 * Disabled controls and the board's squares are left out.
 * @param {import('playwright-core').Page} page
 * @returns {Promise<string[]>}
 */
export async function lowContrast(page) {
  return page.evaluate(() => {
    /** @param {string} s @returns {number[][]} */
    const colours = (s) => [...s.matchAll(/rgba?\(([^)]+)\)/g)].map((m) => {
      const v = m[1].split(/[,\s/]+/).filter(Boolean).map(Number);
      return [v[0], v[1], v[2], v.length > 3 ? v[3] : 1];
    });
    /** @param {number[]} top @param {number[]} under */
    const over = (top, under) => {
      const a = top[3];
      return [0, 1, 2].map((i) => top[i] * a + under[i] * (1 - a)).concat(1);
    };
    /** @param {number[]} c */
    const lum = (c) => {
      const [r, g, b] = c.slice(0, 3).map((v) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    /** @param {number[]} a @param {number[]} b */
    const ratio = (a, b) => {
      const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
      return (x + 0.05) / (y + 0.05);
    };
    /** The possible colours behind an element's content. @param {Element} el */
    const behind = (el) => {
      /** @type {number[][][]} */
      const layers = [];
      for (let e = /** @type {Element | null} */ (el); e; e = e.parentElement) {
        const cs = getComputedStyle(e);
        const grad = /gradient/.test(cs.backgroundImage) ? colours(cs.backgroundImage) : [];
        const bg = colours(cs.backgroundColor)[0];
        const set = [];
        if (grad.length) set.push(...grad.map((g) => (bg && bg[3] > 0 ? over(g, [...bg.slice(0, 3), 1]) : g)));
        else if (bg && bg[3] > 0) set.push(bg);
        if (set.length) {
          layers.push(set);
          if (set.every((c) => c[3] >= 0.999)) break;
        }
        if (e.tagName === 'DIALOG') break;
      }
      let result = [[255, 255, 255, 1]];
      for (const set of layers.reverse()) result = set.flatMap((c) => result.map((u) => over(c, u)));
      return result;
    };
    /** @type {string[]} */
    const bad = [];
    const controls = document.querySelectorAll('button, a.button, a.icon, .seg .opt span, label.choice');
    for (const el of controls) {
      if (el.matches('.sq, .sq *') || (el instanceof HTMLButtonElement && el.disabled)) continue;
      const r = el.getBoundingClientRect();
      const cs = getComputedStyle(el);
      if (!r.width || !r.height || cs.visibility === 'hidden') continue;
      let alpha = 1;
      for (let e = /** @type {Element | null} */ (el); e; e = e.parentElement) alpha *= Number(getComputedStyle(e).opacity);
      const text = (el.textContent || '').trim();
      const icon = !text && !!el.querySelector('svg');
      const size = parseFloat(cs.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(cs.fontWeight) >= 700);
      const need = icon || large ? 3 : 4.5;
      const fg = colours(cs.color)[0];
      for (const b of behind(el)) {
        const c = over([fg[0], fg[1], fg[2], fg[3] * alpha], b);
        const k = ratio(c, b);
        if (k < need) {
          const name = text.slice(0, 30) || el.getAttribute('aria-label') || el.className;
          bad.push(`"${name}": ${k.toFixed(2)}:1 (needs ${need}:1), ${cs.color} on rgb(${b.slice(0, 3).map(Math.round).join(', ')})`);
          break;
        }
      }
    }
    return bad;
  });
}

/**
 * The parts of the screen that stick out of the window (after scrolling to the top): a list
 * of "selector: top-bottom / height" for each selector whose visible elements do not fit.
 * @param {import('playwright-core').Page} page @param {string[]} selectors
 */
export async function outOfView(page, selectors) {
  return page.evaluate((sels) => {
    window.scrollTo(0, 0);
    /** @type {string[]} */
    const out = [];
    for (const s of sels) {
      for (const el of document.querySelectorAll(s)) {
        const r = el.getBoundingClientRect();
        if (!r.width || !r.height) continue;
        if (r.top < 0 || r.bottom > window.innerHeight + 0.5 || r.left < 0 || r.right > window.innerWidth + 0.5) {
          out.push(`${s}: ${Math.round(r.top)}-${Math.round(r.bottom)} / ${window.innerHeight}`);
        }
      }
    }
    return out;
  }, selectors);
}
