// The real server binary on a free port over a temporary SQLite file, and Debian's chromium
// driven by playwright-core. Shared by the browser tests.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.resolve(here, '..');
export const BIN = process.env.DOSKA_BIN || path.join(ROOT, 'target/release/doska');
export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
export const SHOTS = path.join(ROOT, 'docs/screenshots');
export const UPDATE_SCREENSHOTS = process.env.UPDATE_SCREENSHOTS === '1';

/**
 * A running server.
 * @typedef {{ url: string, port: number, db: string, dir: string, stop: () => Promise<void>, log: () => string }} Server
 */

/**
 * Starts `doska serve` on `port` (0: a free one) over the database in `dir` (new: a fresh
 * temporary folder), and waits for the address it prints.
 * @param {{ port?: number, dir?: string }} [opts]
 * @returns {Promise<Server>}
 */
export async function startServer(opts = {}) {
  const dir = opts.dir || fs.mkdtempSync(path.join(os.tmpdir(), 'doska-e2e-db-'));
  const db = `sqlite://${path.join(dir, 'doska.sqlite')}?mode=rwc`;
  const args = ['serve', '--addr', `127.0.0.1:${opts.port || 0}`, '--database-url', db];
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
    stop: () => new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.removeAllListeners('exit');
      child.on('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 5000).unref();
    }),
  };
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
 * @param {{ locale?: string, width?: number, height?: number, mobile?: boolean }} [o]
 */
export async function openPage(browser, o = {}) {
  const mobile = !!o.mobile;
  const context = await browser.newContext({
    locale: o.locale || 'ru-RU',
    viewport: { width: o.width || (mobile ? 360 : 1280), height: o.height || (mobile ? 740 : 860) },
    hasTouch: mobile,
    isMobile: mobile,
    deviceScaleFactor: 1,
    reducedMotion: 'reduce',
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
