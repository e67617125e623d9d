// @ts-check
// The server's REST API (docs/api.md of the server): games, lists, stats. Errors carry the
// server's own message, which says what was wrong.

export class ApiError extends Error {
  /** @param {number} status @param {string} message */
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/**
 * One request. With a signal, a request it aborts rejects with the abort itself (not an
 * ApiError), so that the caller can tell it from a failure.
 * @param {string} method @param {string} path @param {unknown} [body]
 * @param {{ signal?: AbortSignal }} [opts]
 * @returns {Promise<any>}
 */
async function call(method, path, body, { signal } = {}) {
  /** @type {RequestInit} */
  const init = { method, headers: {}, credentials: 'same-origin' };
  if (body !== undefined) {
    init.headers = { 'content-type': 'application/json' };
    init.body = JSON.stringify(body);
  }
  if (signal) init.signal = signal;
  let res;
  try {
    res = await fetch(path, init);
  } catch (e) {
    if (signal && signal.aborted) throw e;
    throw new ApiError(0, 'network');
  }
  if (res.status === 204) return null;
  const text = await res.text();
  /** @type {any} */
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) throw new ApiError(res.status, (data && data.error) || text || res.statusText);
  return data;
}

/**
 * @typedef {object} CreateGame
 * @property {string} rules
 * @property {'computer' | 'friend' | 'hotseat'} opponent
 * @property {string} [level]
 * @property {'white' | 'black' | 'random'} [color]
 * @property {string} [position]
 */

/** @param {CreateGame} req */
export const createGame = (req) => call('POST', '/api/games', req);
/** @param {string} id @param {string | null} [seat] */
export const gameState = (id, seat) => call('GET', `/api/games/${encodeURIComponent(id)}${seat ? `?seat=${encodeURIComponent(seat)}` : ''}`);
/** @param {string} id @param {string} invite */
export const joinGame = (id, invite) => call('POST', `/api/games/${encodeURIComponent(id)}/join`, { invite });
export const listGames = () => call('GET', '/api/games');
/** @param {string} id */
export const hideGame = (id) => call('DELETE', `/api/games/${encodeURIComponent(id)}`);
/** @param {string} id */
export const replay = (id) => call('GET', `/api/games/${encodeURIComponent(id)}/replay`);
export const stats = () => call('GET', '/api/stats');
/** @param {string} id */
export const pdnUrl = (id) => `/api/games/${encodeURIComponent(id)}/pdn`;
/** The engine review of a finished game as far as it has got. @param {string} id */
export const review = (id) => call('GET', `/api/games/${encodeURIComponent(id)}/review`);
/** Asks the engine to review a finished game (nothing new when asked before). @param {string} id */
export const startReview = (id) => call('POST', `/api/games/${encodeURIComponent(id)}/review`);
/**
 * A position alone (the analysis board's): its pieces, side to move, legal moves each with the
 * FEN after it, and its end if it is over. No game is made. @param {string} rules @param {string} fen
 */
export const position = (rules, fen) => call('GET', `/api/position?${new URLSearchParams({ rules, fen })}`);
/**
 * The engine's best lines in a position alone (the analysis board's), searched to `depth`.
 * Errors carry the server's message (400: a bad rule set or position; 409: the game is over
 * there). @param {string} rules @param {string} fen @param {number} depth @param {number} lines
 * @param {AbortSignal} [signal]
 */
export const analysis = (rules, fen, depth, lines, signal) =>
  call('GET', `/api/analysis?${new URLSearchParams({ rules, fen, depth: String(depth), lines: String(lines) })}`, undefined, { signal });
