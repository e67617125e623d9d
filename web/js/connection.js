// @ts-check
// A game's socket: hello, then a state after every change. Reconnects by itself after a
// dropped connection (the server keeps everything: the state it sends on reconnect is the
// game as it is), and pings now and then so idle proxies keep it open.

/**
 * @typedef {object} Handlers
 * @property {(you: string) => void} hello
 * @property {(state: any) => void} state
 * @property {(message: string) => void} error
 * @property {(online: boolean) => void} status
 * @property {(hint: { move: string, path: string[], hints: number }) => void} [hint]  the engine's move for the asker (games against the computer)
 */

export class Connection {
  /**
   * @param {string} id
   * @param {string | null} seat
   * @param {Handlers} on
   */
  constructor(id, seat, on) {
    this.id = id;
    this.seat = seat;
    this.on = on;
    /** @type {WebSocket | null} */
    this.ws = null;
    this.closed = false;
    this.attempt = 0;
    this.online = false;
    /** @type {number | undefined} */
    this.timer = undefined;
    /** @type {number | undefined} */
    this.pinger = undefined;
    this.open();
    this.wake = () => {
      if (!this.online && !this.closed) {
        clearTimeout(this.timer);
        this.open();
      }
    };
    window.addEventListener('online', this.wake);
    document.addEventListener('visibilitychange', this.wake);
  }

  open() {
    if (this.closed) return;
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const q = this.seat ? `?seat=${encodeURIComponent(this.seat)}` : '';
    const ws = new WebSocket(`${proto}//${location.host}/api/games/${encodeURIComponent(this.id)}/ws${q}`);
    this.ws = ws;
    ws.onopen = () => {
      this.attempt = 0;
      this.setOnline(true);
      clearInterval(this.pinger);
      this.pinger = window.setInterval(() => this.send({ type: 'ping' }), 25000);
    };
    ws.onmessage = (e) => {
      /** @type {any} */
      let msg;
      try {
        msg = JSON.parse(String(e.data));
      } catch {
        return;
      }
      if (msg.type === 'hello') this.on.hello(msg.you);
      else if (msg.type === 'state') this.on.state(msg);
      else if (msg.type === 'error') this.on.error(msg.message);
      else if (msg.type === 'hint' && this.on.hint) this.on.hint(msg);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      clearInterval(this.pinger);
      this.setOnline(false);
      if (this.closed) return;
      const delay = Math.min(5000, 300 * 2 ** this.attempt);
      this.attempt++;
      this.timer = window.setTimeout(() => this.open(), delay);
    };
  }

  /** @param {boolean} v */
  setOnline(v) {
    if (v === this.online) return;
    this.online = v;
    this.on.status(v);
  }

  /**
   * Sends a message; false when the socket is not open (the UI says it is reconnecting).
   * @param {object} msg
   */
  send(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  /** Drops the socket on purpose (tests and the "reconnect" path use this). */
  drop() {
    if (this.ws) this.ws.close();
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    window.removeEventListener('online', this.wake);
    document.removeEventListener('visibilitychange', this.wake);
    if (this.ws) this.ws.close();
    this.ws = null;
  }
}
