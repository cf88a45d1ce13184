// The report as a page to look at: for each game, the robot's mood and its strongest emotions over
// time, with the faces it showed and the lines it said (or dropped) as marks, beside the running score
// of both teams. One self-contained HTML file: inline SVG and CSS, no script, nothing fetched; hovering
// a mark shows what it was (SVG <title>).

import type { Finding } from './checks.js';
import type { GameFacts } from './session-facts.js';
import type { Report, SessionReport } from './session-report.js';
import type { GameTimeline, Timeline } from './timeline.js';

const esc = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const fx = (x: number): string => (Math.round(x * 10) / 10).toString();

/** Colours for emotion types, fixed so a type looks the same in every game. */
const EMOTION_COLOURS: Record<string, string> = {
  joy: '#f59f00',
  hope: '#2b8a3e',
  distress: '#1c7ed6',
  fear: '#7048e8',
  gratification: '#ae3ec9',
  pride: '#a61e4d',
  gloating: '#e8590c',
  satisfaction: '#0ca678',
  'happy-for': '#f783ac',
  pity: '#15aabf',
  resentment: '#8d6e63',
  'fears-confirmed': '#364fc7',
  relief: '#94d82d',
  disappointment: '#4dabf7',
  shame: '#868e96',
  admiration: '#20c997',
  reproach: '#c92a2a',
  remorse: '#495057',
  gratitude: '#66a80f',
  anger: '#fa5252',
  love: '#e64980',
  hate: '#212529',
};
const colourOf = (type: string): string => EMOTION_COLOURS[type] ?? '#999999';

const FACE_COLOURS: Record<string, string> = {
  happy: '#f2c200',
  sad: '#3b6fb6',
  angry: '#e03131',
  surprised: '#f08c00',
  scared: '#7b4fb0',
  disgusted: '#2f9e44',
  neutral: '#adb5bd',
};
const ADDRESSEE_COLOURS = { partner: '#2e9e5b', opponent: '#e03131', all: '#495057' } as const;

/** How many emotion types each game's timeline draws. */
const EMOTION_LINES = 5;

interface Window {
  from: number;
  to: number;
}

/** A game's span: its deal (else first card) to the next game's first card (else the recording's end). */
function windowOf(t: Timeline, g: GameTimeline): Window {
  const from = (g.deal ?? g.plays[0] ?? g.end)?.time ?? t.start;
  const next = t.games.find((x) => x.game === g.game + 1);
  const to = (next?.plays[0] ?? next?.end)?.time ?? t.end;
  return { from, to: Math.max(to, from + 1000) };
}

const W = 940;
const H = 300;
const PLOT = { left: 46, right: 150, top: 26, height: 200 };
/** Under the plot: the time axis, then the faces, then the lines. */
const STRIPS = {
  time: PLOT.top + PLOT.height + 15,
  faces: PLOT.top + PLOT.height + 34,
  lines: PLOT.top + PLOT.height + 58,
};

function timelineSvg(t: Timeline, g: GameTimeline, lost: boolean): string {
  const win = windowOf(t, g);
  const inWin = <T extends { time: number }>(xs: readonly T[]): T[] =>
    xs.filter((x) => x.time >= win.from && x.time <= win.to);
  const width = W - PLOT.left - PLOT.right;
  const x = (time: number): number => PLOT.left + ((time - win.from) / (win.to - win.from)) * width;
  const y = (v: number): number => PLOT.top + ((10 - Math.max(-10, Math.min(10, v))) / 20) * PLOT.height;
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" role="img" aria-label="Game ${g.game}: mood, emotions, faces and lines over time">`,
  );
  out.push(
    `<rect x="${PLOT.left}" y="${PLOT.top}" width="${width}" height="${PLOT.height}" fill="#fbfbfd" stroke="#ced4da"/>`,
  );
  // Value grid: mood runs -10..10, an intensity 0..10 on the same scale.
  for (const v of [-10, -5, 0, 5, 10]) {
    out.push(
      `<line x1="${PLOT.left}" x2="${PLOT.left + width}" y1="${fx(y(v))}" y2="${fx(y(v))}" stroke="${v === 0 ? '#868e96' : '#e9ecef'}"/>`,
    );
    out.push(
      `<text x="${PLOT.left - 6}" y="${fx(y(v) + 4)}" class="tick" text-anchor="end">${v > 0 ? `+${v}` : v}</text>`,
    );
  }
  // Time axis, every 10 s (every 30 s for long games).
  const seconds = (win.to - win.from) / 1000;
  const step = seconds > 240 ? 30 : 10;
  for (let s = 0; s <= seconds; s += step) {
    const px = x(win.from + s * 1000);
    out.push(
      `<line x1="${fx(px)}" x2="${fx(px)}" y1="${PLOT.top + PLOT.height}" y2="${PLOT.top + PLOT.height + 4}" stroke="#868e96"/>`,
    );
    out.push(`<text x="${fx(px)}" y="${STRIPS.time}" class="tick" text-anchor="middle">${s} s</text>`);
  }
  // Tricks and the game's end.
  for (const tr of g.tricks) {
    const px = x(tr.time);
    out.push(
      `<line x1="${fx(px)}" x2="${fx(px)}" y1="${PLOT.top}" y2="${PLOT.top + PLOT.height}" stroke="#dee2e6" stroke-dasharray="3 3"/>`,
    );
    out.push(
      `<text x="${fx(px)}" y="${PLOT.top - 4}" class="tick" text-anchor="middle">T${tr.message.trick + 1}<title>trick ${tr.message.trick + 1}: ${esc(tr.message.cards.join(' '))}, ${tr.message.points} points to seat ${tr.message.winner}</title></text>`,
    );
  }
  if (g.end) {
    const px = x(g.end.time);
    out.push(
      `<line x1="${fx(px)}" x2="${fx(px)}" y1="${PLOT.top}" y2="${STRIPS.lines + 8}" stroke="#212529" stroke-width="1.5"/>`,
    );
    out.push(`<text x="${fx(px + 3)}" y="${PLOT.top + 12}" class="tick">end</text>`);
  }
  // The next game's deal, when it falls before that game's first card (faces there are still "after" this game).
  const nextDeal = t.games.find((x) => x.game === g.game + 1)?.deal;
  if (nextDeal && nextDeal.time <= win.to) {
    const px = x(nextDeal.time);
    out.push(
      `<line x1="${fx(px)}" x2="${fx(px)}" y1="${PLOT.top}" y2="${STRIPS.lines + 8}" stroke="#868e96" stroke-dasharray="5 3"/>`,
    );
    out.push(`<text x="${fx(px - 3)}" y="${PLOT.top + 24}" class="tick" text-anchor="end">next deal</text>`);
  }
  // The strongest emotions: the types most often strongest in this game, then the most intense.
  const emotions = inWin(t.emotions);
  const strongestCount = new Map<string, number>();
  const peak = new Map<string, number>();
  for (const e of emotions) {
    if (e.message.strongest)
      strongestCount.set(e.message.strongest, (strongestCount.get(e.message.strongest) ?? 0) + 1);
    for (const x0 of e.message.emotions) peak.set(x0.type, Math.max(peak.get(x0.type) ?? 0, x0.intensity));
  }
  const drawn = [...peak.keys()]
    .sort((a, b) => (strongestCount.get(b) ?? 0) - (strongestCount.get(a) ?? 0) || peak.get(b)! - peak.get(a)!)
    .slice(0, EMOTION_LINES);
  for (const type of drawn) {
    // One stretch of line for each span the emotion was active: a gap where it was not felt.
    const stretches: string[][] = [[]];
    for (const e of emotions) {
      const felt = e.message.emotions.filter((x0) => x0.type === type).map((x0) => x0.intensity);
      if (felt.length) stretches.at(-1)!.push(`${fx(x(e.time))},${fx(y(Math.max(...felt)))}`);
      else if (stretches.at(-1)!.length) stretches.push([]);
    }
    for (const pts of stretches.filter((p) => p.length)) {
      out.push(
        `<polyline fill="none" stroke="${colourOf(type)}" stroke-width="1.6" stroke-opacity="0.9" points="${pts.join(' ')}"><title>${esc(type)} (intensity 0..10)</title></polyline>`,
      );
    }
  }
  if (emotions.length) {
    out.push(
      `<polyline fill="none" stroke="#111" stroke-width="2.6" points="${emotions.map((e) => `${fx(x(e.time))},${fx(y(e.message.mood))}`).join(' ')}"><title>mood (-10..10)</title></polyline>`,
    );
  }
  // Legend, right of the plot.
  const lx = PLOT.left + width + 14;
  out.push(
    `<line x1="${lx}" x2="${lx + 18}" y1="${PLOT.top + 8}" y2="${PLOT.top + 8}" stroke="#111" stroke-width="2.6"/><text x="${lx + 24}" y="${PLOT.top + 12}" class="legend">mood</text>`,
  );
  drawn.forEach((type, i) => {
    const ly = PLOT.top + 28 + i * 18;
    out.push(
      `<line x1="${lx}" x2="${lx + 18}" y1="${ly}" y2="${ly}" stroke="${colourOf(type)}" stroke-width="2"/><text x="${lx + 24}" y="${ly + 4}" class="legend">${esc(type)}</text>`,
    );
  });
  // Faces, then lines, as marks under the plot.
  out.push(`<text x="${PLOT.left - 6}" y="${STRIPS.faces + 4}" class="tick" text-anchor="end">face</text>`);
  for (const f of inWin(t.faces)) {
    // A happy face after a lost game is one of the report's findings: ringed in red.
    const flagged = lost && g.end !== null && f.index > g.end.index && f.message.expression === 'happy';
    out.push(
      `<circle cx="${fx(x(f.time))}" cy="${STRIPS.faces}" r="${flagged ? 6 : 4.5}" fill="${FACE_COLOURS[f.message.expression] ?? '#999'}" stroke="${flagged ? '#c92a2a' : '#fff'}" stroke-width="${flagged ? 2.5 : 0.8}"><title>${esc(f.message.expression)} face (valence ${f.message.valence.toFixed(2)}) at ${((f.time - win.from) / 1000).toFixed(1)} s</title></circle>`,
    );
  }
  out.push(`<text x="${PLOT.left - 6}" y="${STRIPS.lines + 4}" class="tick" text-anchor="end">lines</text>`);
  for (const l of inWin(t.lines)) {
    const m = l.message;
    if (m.phase !== 'start' && m.phase !== 'dropped') continue;
    const to =
      m.addressee < 0 || m.addressee === t.robotSeat
        ? 'all'
        : (m.addressee - t.robotSeat + 4) % 4 === 2
          ? 'partner'
          : 'opponent';
    const px = x(l.time);
    const py = STRIPS.lines;
    const title = `<title>${esc(`${m.phase === 'start' ? 'said' : `dropped (${m.reason})`} to ${to === 'all' ? 'everyone' : `the ${to}`}, ${m.category}: "${m.text}"`)}</title>`;
    out.push(
      m.phase === 'start'
        ? `<path d="M${fx(px - 5)},${fx(py + 5)} L${fx(px + 5)},${fx(py + 5)} L${fx(px)},${fx(py - 5)} Z" fill="${ADDRESSEE_COLOURS[to]}">${title}</path>`
        : `<path d="M${fx(px - 4)},${fx(py - 4)} L${fx(px + 4)},${fx(py + 4)} M${fx(px - 4)},${fx(py + 4)} L${fx(px + 4)},${fx(py - 4)}" stroke="${ADDRESSEE_COLOURS[to]}" stroke-width="1.6">${title}</path>`,
    );
  }
  out.push('</svg>');
  return out.join('\n');
}

const SW = 330;
function scoreSvg(t: Timeline, g: GameTimeline): string {
  const plot = { left: 40, top: 26, width: SW - 60, height: 200 };
  const ours = t.robotSeat % 2;
  const run: [number, number][] = [[0, 0]];
  for (const tr of g.tricks) {
    const [a, b] = run.at(-1)!;
    run.push((tr.message.winner & 1) === ours ? [a + tr.message.points, b] : [a, b + tr.message.points]);
  }
  const x = (trick: number): number => plot.left + (trick / 10) * plot.width;
  const y = (points: number): number => plot.top + plot.height - (Math.min(120, points) / 120) * plot.height;
  // Steps: a team's points change at the trick that brought them.
  const step = (side: 0 | 1): string =>
    `M${fx(x(0))},${fx(y(0))} ${run
      .slice(1)
      .map((p, i) => `H${fx(x(i + 1))} V${fx(y(p[side]))}`)
      .join(' ')}`;
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${SW}" height="${H}" viewBox="0 0 ${SW} ${H}" role="img" aria-label="Game ${g.game}: running score">`,
  ];
  out.push(
    `<rect x="${plot.left}" y="${plot.top}" width="${plot.width}" height="${plot.height}" fill="#fbfbfd" stroke="#ced4da"/>`,
  );
  for (const v of [0, 30, 60, 90, 120]) {
    out.push(
      `<line x1="${plot.left}" x2="${plot.left + plot.width}" y1="${fx(y(v))}" y2="${fx(y(v))}" stroke="${v === 60 ? '#868e96' : '#e9ecef'}" ${v === 60 ? 'stroke-dasharray="4 3"' : ''}/>`,
    );
    out.push(`<text x="${plot.left - 6}" y="${fx(y(v) + 4)}" class="tick" text-anchor="end">${v}</text>`);
  }
  for (let i = 0; i <= 10; i += 2)
    out.push(`<text x="${fx(x(i))}" y="${plot.top + plot.height + 16}" class="tick" text-anchor="middle">${i}</text>`);
  out.push(
    `<text x="${plot.left + plot.width / 2}" y="${plot.top + plot.height + 32}" class="tick" text-anchor="middle">tricks played (61 points win)</text>`,
  );
  const [us, them] = run.at(-1)!;
  out.push(
    `<path d="${step(0)}" fill="none" stroke="#1c7ed6" stroke-width="2.4"><title>the robot's team: ${us}</title></path>`,
  );
  out.push(
    `<path d="${step(1)}" fill="none" stroke="#e8590c" stroke-width="2.4"><title>the opponents: ${them}</title></path>`,
  );
  out.push(`<text x="${plot.left + 6}" y="${plot.top + 14}" class="legend" fill="#1c7ed6">robot's team ${us}</text>`);
  out.push(`<text x="${plot.left + 6}" y="${plot.top + 30}" class="legend" fill="#e8590c">opponents ${them}</text>`);
  out.push('</svg>');
  return out.join('\n');
}

function gameTitle(g: GameFacts | undefined, n: number): string {
  if (!g) return `Game ${n}`;
  const score = g.points ? ` ${g.points[0]}-${g.points[1]}` : '';
  return `Game ${n}: ${g.result}${score}${g.renounce ? ' (renounce)' : ''}${g.moodAtEnd !== null ? `, mood at its end ${g.moodAtEnd > 0 ? '+' : ''}${g.moodAtEnd.toFixed(1)}` : ''}`;
}

function findingsOf(s: SessionReport, game: number): Finding[] {
  return Object.values(s.figures.checks)
    .flatMap((c) => ('examples' in c ? c.examples : []))
    .filter((f) => f.game === game);
}

function sessionHtml(s: SessionReport, t: Timeline): string {
  const parts = [
    `<section><h2>Session ${esc(s.session.id)}</h2><p class="meta">${esc(s.file)}: ${s.games.length} game${s.games.length === 1 ? '' : 's'}, the robot in seat ${s.session.robotSeat}${s.session.character ? `, ${esc(s.session.character)}` : ''}, language ${esc(s.session.language || '?')}${s.complete ? '' : '; <b>the recording is incomplete</b>'}</p>`,
  ];
  for (const n of s.notes) parts.push(`<p class="note">note: ${esc(n)}</p>`);
  for (const g of t.games) {
    const facts = s.games.find((x) => x.game === g.game);
    const findings = findingsOf(s, g.game);
    parts.push(
      `<div class="game"><h3>${esc(gameTitle(facts, g.game))}</h3><div class="row">${timelineSvg(t, g, facts?.result === 'lost')}${scoreSvg(t, g)}</div>`,
    );
    if (findings.length)
      parts.push(
        `<ul class="findings">${findings.map((f) => `<li>${f.trick !== null ? `trick ${f.trick}: ` : ''}<q>${esc(f.text)}</q>: ${esc(f.why)}</li>`).join('')}</ul>`,
      );
    parts.push('</div>');
  }
  parts.push('</section>');
  return parts.join('\n');
}

const FACE_LEGEND = Object.entries(FACE_COLOURS)
  .map(
    ([name, c]) => `<span><svg width="12" height="12"><circle cx="6" cy="6" r="5" fill="${c}"/></svg> ${name}</span>`,
  )
  .join(' ');
const LINE_LEGEND = Object.entries(ADDRESSEE_COLOURS)
  .map(
    ([to, c]) =>
      `<span><svg width="12" height="12"><path d="M1,11 L11,11 L6,1 Z" fill="${c}"/></svg> to ${to === 'all' ? 'everyone' : `the ${to}`}</span>`,
  )
  .join(' ');

/** The whole page: every session's games, in order. `timelines` are the sessions' own, in the report's order. */
export function chartHtml(report: Report, timelines: readonly Timeline[]): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Parceiro: session report</title>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 20px 28px; color: #212529; background: #fff; }
h1 { font-size: 20px; margin: 0 0 4px; } h2 { font-size: 17px; margin: 26px 0 2px; } h3 { font-size: 14px; margin: 14px 0 4px; }
.meta, .note, .legend-row { color: #495057; margin: 2px 0; }
.row { display: flex; gap: 10px; align-items: flex-start; }
svg text.tick { font-size: 11px; fill: #495057; } svg text.legend { font-size: 12px; fill: #212529; }
.findings { margin: 2px 0 0; color: #c92a2a; font-size: 13px; }
.legend-row span { margin-right: 12px; white-space: nowrap; }
</style></head><body>
<h1>Parceiro: how the robot behaved, game by game</h1>
<p class="meta">Left: the robot's mood (black, -10..10) and its strongest emotions (0..10) over the game; dashed lines are tricks; under them the faces it showed and the lines it said (a cross: dropped). Right: the running score of both teams. Hover a mark to see what it was.</p>
<p class="legend-row">Faces: ${FACE_LEGEND}</p>
<p class="legend-row">Lines: ${LINE_LEGEND}</p>
${report.sessions.map((s, i) => sessionHtml(s, timelines[i]!)).join('\n')}
</body></html>
`;
}
