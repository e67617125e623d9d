// @ts-check
// What this browser remembers: settings, and per game the seat token and the friend's
// invitation link (the server keeps only their hashes, so it cannot show them again).

const PREFIX = 'doska.';

/** @param {string} key @param {unknown} fallback @returns {any} */
export function load(key, fallback) {
  try {
    const v = localStorage.getItem(PREFIX + key);
    return v === null ? fallback : JSON.parse(v);
  } catch {
    return fallback;
  }
}

/** @param {string} key @param {unknown} value */
export function save(key, value) {
  try {
    localStorage.setItem(PREFIX + key, JSON.stringify(value));
  } catch {
    /* storage full or disabled: the setting lasts this page */
  }
}

/**
 * @typedef {object} Seat
 * @property {string | null} [token]
 * @property {string | null} [invite_url]
 */

/** @param {string} id @returns {Seat} */
export function seat(id) {
  return load(`game.${id}`, {});
}

/** @param {string} id @param {Seat} s */
export function saveSeat(id, s) {
  save(`game.${id}`, { ...seat(id), ...s });
}
