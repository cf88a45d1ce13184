// The session's emotions over time on a canvas: one line per emotion type (intensity 0..10) and the
// mood (-10..10) dashed around the middle. Drawn by hand: a few dozen lines of canvas code are smaller
// than any chart library, and need nothing from the network. Each emotion has its fixed colour
// (words.ts), so every dashboard, and the virtual table, shows it the same.

import type { EmotionSample } from '../state.js';
import { emotionColour, emotionWord } from './words.js';

export class EmotionChart {
  readonly canvas: HTMLCanvasElement;
  readonly legend: HTMLElement;

  constructor(parent: HTMLElement) {
    this.canvas = document.createElement('canvas');
    this.canvas.width = 640;
    this.canvas.height = 180;
    this.canvas.className = 'chart';
    this.legend = document.createElement('div');
    this.legend.className = 'legend';
    parent.append(this.canvas, this.legend);
  }

  colour(type: string): string {
    return emotionColour(type);
  }

  draw(samples: readonly EmotionSample[]): void {
    const ctx = this.canvas.getContext('2d');
    if (!ctx) return;
    const { width: w, height: h } = this.canvas;
    const pad = 24;
    ctx.clearRect(0, 0, w, h);
    ctx.strokeStyle = '#ddd';
    ctx.lineWidth = 1;
    for (const v of [0, 5, 10]) {
      const y = h - pad - (v / 10) * (h - 2 * pad);
      ctx.beginPath();
      ctx.moveTo(pad, y);
      ctx.lineTo(w - 4, y);
      ctx.stroke();
      ctx.fillStyle = '#888';
      ctx.fillText(String(v), 4, y + 3);
    }
    if (samples.length === 0) {
      ctx.fillStyle = '#888';
      // Large enough to read when a phone scales the canvas down to a third.
      ctx.font = '22px system-ui, sans-serif';
      ctx.textAlign = 'center';
      ctx.fillText('No emotions yet: they appear as the game goes.', w / 2, h / 2);
      ctx.textAlign = 'start';
      ctx.font = '10px sans-serif';
      this.legend.replaceChildren();
      return;
    }
    const t0 = samples[0]!.atMs;
    const t1 = Math.max(samples.at(-1)!.atMs, t0 + 1000);
    const x = (t: number): number => pad + ((t - t0) / (t1 - t0)) * (w - pad - 8);
    const y = (v: number): number => h - pad - (Math.max(0, Math.min(10, v)) / 10) * (h - 2 * pad);
    const types = new Set<string>();
    for (const s of samples) for (const k of Object.keys(s.emotions)) types.add(k);
    for (const type of types) {
      ctx.strokeStyle = this.colour(type);
      ctx.lineWidth = 2;
      ctx.beginPath();
      samples.forEach((s, i) => {
        const v = s.emotions[type] ?? 0;
        if (i === 0) ctx.moveTo(x(s.atMs), y(v));
        else ctx.lineTo(x(s.atMs), y(v));
      });
      ctx.stroke();
    }
    // Mood: -10..10 mapped onto the same height, dashed.
    ctx.setLineDash([4, 3]);
    ctx.strokeStyle = emotionColour('mood');
    ctx.beginPath();
    samples.forEach((s, i) => {
      const v = (s.mood + 10) / 2;
      if (i === 0) ctx.moveTo(x(s.atMs), y(v));
      else ctx.lineTo(x(s.atMs), y(v));
    });
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.fillStyle = '#888';
    ctx.fillText(`${Math.round((t1 - t0) / 1000)} s`, w - 40, h - 6);
    this.legend.replaceChildren(
      ...[...types, 'mood'].map((t) => {
        const s = document.createElement('span');
        s.className = t === 'mood' ? 'key mood' : 'key';
        s.dataset.emotion = t;
        const sw = document.createElement('i');
        if (t !== 'mood') sw.style.background = this.colour(t);
        s.append(sw, t === 'mood' ? 'mood (dashed, -10 to 10)' : emotionWord(t));
        return s;
      }),
    );
  }
}
