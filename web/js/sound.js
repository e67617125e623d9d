// @ts-check
// Short tones made with WebAudio (no files to load): a move, a capture, your turn, the end.
// A switch in the menu turns them off; the choice is remembered.

import { load, save } from './prefs.js';

/** @type {AudioContext | null} */
let ctx = null;
let on = !!load('sound', true);

export function soundOn() {
  return on;
}

/** @param {boolean} v */
export function setSound(v) {
  on = v;
  save('sound', v);
}

function audio() {
  if (!ctx) {
    const C = window.AudioContext || /** @type {any} */ (window).webkitAudioContext;
    if (!C) return null;
    ctx = new C();
  }
  if (ctx.state === 'suspended') ctx.resume().catch(() => {});
  return ctx;
}

/**
 * @param {number} freq @param {number} at seconds from now @param {number} len seconds
 * @param {OscillatorType} type @param {number} gain
 */
function tone(freq, at, len, type, gain) {
  const a = audio();
  if (!a) return;
  const t0 = a.currentTime + at;
  const o = a.createOscillator();
  const g = a.createGain();
  o.type = type;
  o.frequency.setValueAtTime(freq, t0);
  g.gain.setValueAtTime(0.0001, t0);
  g.gain.exponentialRampToValueAtTime(gain, t0 + 0.008);
  g.gain.exponentialRampToValueAtTime(0.0001, t0 + len);
  o.connect(g).connect(a.destination);
  o.start(t0);
  o.stop(t0 + len + 0.02);
}

/** @param {'move' | 'capture' | 'turn' | 'win' | 'lose' | 'draw' | 'error'} kind */
export function play(kind) {
  if (!on) return;
  try {
    switch (kind) {
      case 'move': tone(520, 0, 0.07, 'triangle', 0.25); tone(260, 0, 0.05, 'sine', 0.15); break;
      case 'capture': tone(420, 0, 0.06, 'square', 0.08); tone(640, 0.07, 0.09, 'triangle', 0.25); break;
      case 'turn': tone(880, 0, 0.09, 'sine', 0.15); tone(1175, 0.1, 0.12, 'sine', 0.12); break;
      case 'win': [523, 659, 784, 1047].forEach((f, i) => tone(f, i * 0.11, 0.22, 'triangle', 0.2)); break;
      case 'lose': [392, 330, 262].forEach((f, i) => tone(f, i * 0.14, 0.25, 'sine', 0.18)); break;
      case 'draw': [523, 523].forEach((f, i) => tone(f, i * 0.16, 0.18, 'sine', 0.15)); break;
      case 'error': tone(180, 0, 0.12, 'sawtooth', 0.05); break;
    }
  } catch {
    /* no audio device */
  }
}
