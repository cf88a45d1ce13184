// The report for a terminal: one screen per session, then the sessions together. Short tables; every
// figure is also in the JSON (`--json`), which lists more of each check's findings.

import type { Finding } from './checks.js';
import type { CheckFigures, Figures } from './figures.js';
import { EXAMPLES } from './figures.js';
import type { TargetRelation } from './felt.js';
import { TARGET_RELATIONS } from './felt.js';
import type { CheckName, EventKind, FaceCounts } from './session-facts.js';
import { EVENT_KINDS, FACES } from './session-facts.js';
import type { Report, SessionReport } from './session-report.js';

const TEXT_EXAMPLES = 3;
const EMOTION_ROWS = 8;

const signed = (x: number | null, digits = 1): string => (x === null ? '-' : `${x > 0 ? '+' : ''}${x.toFixed(digits)}`);
const num = (x: number | null, digits = 2): string => (x === null ? '-' : String(Number(x.toFixed(digits))));
const pct = (x: number | null): string => (x === null ? '-' : `${Math.round(x * 1000) / 10}%`);
const plural = (n: number, word: string, many = `${word}s`): string => `${n} ${n === 1 ? word : many}`;
const pad = (s: string, n: number): string => (s.length >= n ? s : s + ' '.repeat(n - s.length));
const padLeft = (s: string, n: number): string => (s.length >= n ? s : ' '.repeat(n - s.length) + s);

const KIND_TITLES: Record<EventKind, string> = {
  deal: 'deal',
  'play.self': 'own card',
  'play.partner': "partner's card",
  'play.opponent': "opponent's card",
  'trick.self': 'trick to itself',
  'trick.partner': 'trick to partner',
  'trick.opponent': 'trick to opponent',
  end: 'game end',
  renounce: 'renounce',
};

const CHECK_TITLES: Record<CheckName, string> = {
  misaddressed: 'misaddressed lines',
  lateLines: 'late lines',
  forcedBlame: 'blame for forced plays',
  gloatingPity: 'gloating/pity targets',
  happyAfterLoss: 'happy after a lost game',
  facesAgainstWords: 'faces against the words',
  facesAgainstTricks: 'faces against the trick',
  facesAgainstCards: 'faces against the card',
  panelAgainstFace: 'panel against the face',
  linesAgainstTheGame: 'lines against the game',
  nudgesTooSoon: 'nudges too soon',
  looksAgainstLines: 'looks against the lines',
};

/** What each check counted, in words. */
const CHECK_SCOPE: Record<CheckName, (c: CheckFigures) => string> = {
  misaddressed: (c) =>
    `of ${plural(c.applicable, 'line')} about another seat's card or trick, said to someone (${c.examined} spoken lines checked)`,
  lateLines: (c) => `of ${plural(c.applicable, 'line')} about a card, trick, deal or result`,
  forcedBlame: (c) => `in reactions to ${plural(c.applicable, 'forced play')} (of ${c.examined} plays judged)`,
  gloatingPity: (c) => `of ${c.applicable} gloating or pity toward a seat at ${plural(c.examined, 'trick')}`,
  happyAfterLoss: (c) =>
    `happy ${c.count === 1 ? 'face' : 'faces'} after ${plural(c.applicable, 'lost game')} (of ${c.examined} finished)`,
  facesAgainstWords: (c) =>
    `of ${plural(c.applicable, 'glad or sad face')} shown while a glad or sorry line was said or on show as it began (${c.examined} in all)`,
  facesAgainstCards: (c) =>
    `of ${plural(c.applicable, 'card')} taking the lead of a trick of 10 points or more for another seat (a glad face at an opponent's, a sorry one at the partner's)`,
  panelAgainstFace: (c) => `of ${c.applicable} panel states naming a feeling beside a face (${c.examined} in all)`,
  linesAgainstTheGame: (c) =>
    `of ${plural(c.applicable, 'line')} about the game before, a card or who holds the trick (${c.examined} spoken lines checked)`,
  nudgesTooSoon: (c) =>
    `of ${plural(c.applicable, 'nudge')}: within 10 s of the turn, or to whoever just took the trick`,
  looksAgainstLines: (c) =>
    `of ${plural(c.applicable, 'line')} to the partner, an opponent, or everyone about an opponent's card, with the head elsewhere`,
  facesAgainstTricks: (c) =>
    `of ${plural(c.applicable, 'trick')} with points followed by a glad or sad face before the next card (of ${c.examined} with points)`,
};

const sparks = '▁▂▃▄▅▆▇█';
function sparkline(counts: readonly number[]): string {
  const max = Math.max(1, ...counts);
  return counts
    .map((c) => (c === 0 ? ' ' : sparks[Math.min(sparks.length - 1, Math.floor((c / max) * (sparks.length - 1)))]!))
    .join('');
}

function moodLines(f: Figures): string[] {
  const m = f.mood;
  const counts = m.histogram.map((b) => b.count);
  return [
    `Mood (${m.messages} emotions messages): median ${signed(m.median)}, |mood| >= 9 in ${pct(m.extremeShare)}; at a game's end median ${signed(m.atGameEnd.median)} (${signed(m.atGameEnd.min)} to ${signed(m.atGameEnd.max)})`,
    `  -10 |${sparkline(counts.slice(0, 5))}|${sparkline(counts.slice(5))}| +10   bins of 2: ${counts.slice(0, 5).join(' ')} | ${counts.slice(5).join(' ')}`,
  ];
}

function emotionLines(f: Figures): string[] {
  const types = Object.entries(f.emotions.types);
  const out = [`Emotions            strongest in      median   p90   (in ${f.emotions.messages} messages)`];
  for (const [type, t] of types.slice(0, EMOTION_ROWS)) {
    out.push(
      `  ${pad(type, 17)} ${padLeft(pct(t.strongestShare), 6)} ${padLeft(`(${t.strongest})`, 6)}   ${padLeft(num(t.median), 6)} ${padLeft(num(t.p90), 5)}`,
    );
  }
  if (types.length > EMOTION_ROWS)
    out.push(
      `  ... and ${types
        .slice(EMOTION_ROWS)
        .map(([t]) => t)
        .join(', ')}`,
    );
  return out;
}

function towardLines(f: Figures): string[] {
  const out = ['Felt toward seats after each event (count x median intensity):'];
  for (const kind of EVENT_KINDS) {
    const k = f.emotions.towardSeats[kind];
    if (k.events === 0) continue;
    const parts = TARGET_RELATIONS.map((r: TargetRelation) => {
      const felt = Object.entries(k[r]).sort(([, a], [, b]) => b.count - a.count);
      return felt.length
        ? `${r === 'team' ? 'team' : r}: ${felt.map(([type, x]) => `${type} ${x.count}x${x.median === null ? '-' : x.median.toFixed(1)}`).join(', ')}`
        : '';
    }).filter(Boolean);
    out.push(
      `  ${pad(`${KIND_TITLES[kind]} (${k.events})`, 24)} ${parts.length ? parts.join(' | ') : 'nothing toward a seat'}`,
    );
  }
  return out;
}

const FACE_HEAD = FACES.map((f) => padLeft(f.slice(0, 7), 8)).join('');
const faceRow = (title: string, c: FaceCounts): string =>
  `  ${pad(title, 24)}${FACES.map((f) => padLeft(String(c[f] ?? 0), 8)).join('')}`;

function faceLinesOfSession(s: SessionReport): string[] {
  const out = [`Faces${' '.repeat(21)}${FACE_HEAD}`];
  if (Object.values(s.figures.faces.beforeFirstGame).some((n) => n > 0))
    out.push(faceRow('before the first card', s.figures.faces.beforeFirstGame));
  for (const g of s.games) {
    out.push(faceRow(`game ${g.game} (${g.result})`, g.faces.during));
    out.push(faceRow(`  after its end`, g.faces.after));
  }
  return out;
}

/** How the face changed, as people see it. */
function faceChangeLine(f: Figures): string {
  const c = f.faces.changes;
  return `Face changes: ${c.total} over ${plural(c.tricks, 'trick')} (a trick: median ${num(c.perTrick.median, 1)}, 90% ${num(c.perTrick.p90, 1)}, mean ${num(c.perTrick.mean, 2)}); replaced within the ${c.holdMs} ms hold ${c.replacedWithinHold.count} (${pct(c.replacedWithinHold.share)}); strongest feeling against the face ${c.strongestAgainstFace.count} of ${c.strongestAgainstFace.of} panel states`;
}

function faceLinesByResult(f: Figures): string[] {
  const out = [`Faces by result${' '.repeat(11)}${FACE_HEAD}`];
  for (const [result, r] of Object.entries(f.faces.byResult)) {
    if (r.games === 0) continue;
    out.push(faceRow(`${result} (${plural(r.games, 'game')})`, r.during));
    out.push(faceRow('  after their end', r.after));
  }
  return out;
}

function lineLines(f: Figures): string[] {
  const l = f.lines;
  const reasons = Object.entries(l.droppedByReason)
    .map(([r, n]) => `${r} ${n}`)
    .join(', ');
  const a = l.byAddressee;
  const out = [
    `Lines: ${l.spoken} spoken, ${l.dropped} dropped${reasons ? ` (${reasons})` : ''}; spoken to the partner ${a.partner.spoken}, an opponent ${a.opponent.spoken}, everyone ${a.all.spoken}; own card ${pct(l.ownCard.share)} of spoken`,
  ];
  for (const [language, c] of Object.entries(l.coverage)) {
    out.push(
      c
        ? `  library ${language}: ${c.categories.said} of ${c.categories.total} categories said (${pct(c.categories.share)}), ${c.lines.said} of ${c.lines.total} lines (${pct(c.lines.share)})`
        : `  library ${language}: not found`,
    );
  }
  const cats = Object.entries(l.byCategory);
  if (cats.length)
    out.push(
      `  by category: ${cats
        .slice(0, 8)
        .map(([c, n]) => `${c} ${n.spoken}${n.dropped ? `+${n.dropped} dropped` : ''}`)
        .join(', ')}${cats.length > 8 ? ', ...' : ''}`,
    );
  return out;
}

const where = (x: Finding, withSession: boolean): string =>
  [withSession ? x.session : '', x.game !== null ? `game ${x.game}` : '', x.trick !== null ? `trick ${x.trick}` : '']
    .filter(Boolean)
    .join(' ');

function checkLines(f: Figures, examples: number, withSession: boolean): string[] {
  const out = ['Checks'];
  for (const name of Object.keys(CHECK_TITLES) as CheckName[]) {
    const c = f.checks[name];
    const couldNot = c.examined === 0 && c.unknown > 0;
    out.push(
      `  ${pad(CHECK_TITLES[name], 24)} ${couldNot ? `  - ${c.note}` : `${padLeft(String(c.count), 3)} ${CHECK_SCOPE[name](c)}`}`,
    );
    if (c.note && !couldNot) out.push(`  ${' '.repeat(24)}     note: ${c.note}`);
    for (const x of c.examples.slice(0, examples)) out.push(`      ${where(x, withSession)}: "${x.text}": ${x.why}`);
    if (c.count > examples)
      out.push(
        `      ... ${c.count - examples} more (--json lists ${c.count > EXAMPLES ? `the first ${EXAMPLES}` : 'them'})`,
      );
  }
  const r = f.checks.reactionLatency;
  out.push(
    `  ${pad('reaction latency', 24)}     p50 ${num(r.p50, 1)} ms, p95 ${num(r.p95, 1)} ms, max ${num(r.max, 1)} ms over ${plural(r.count, 'game event')}${r.unanswered ? `, ${r.unanswered} with no reaction` : ''}`,
  );
  return out;
}

function gameLine(s: SessionReport): string[] {
  return s.games.map((g) => {
    const score = g.points ? `${g.points[0]}-${g.points[1]}` : '-';
    const v = g.victories ? `victories ${g.victories[0]}-${g.victories[1]}` : '';
    return `  game ${g.game}: ${pad(g.result, 10)} ${pad(score, 7)} ${pad(v, 15)} mood at its end ${signed(g.moodAtEnd)}${g.renounce ? ', ended by a renounce' : ''}`;
  });
}

export function formatSession(s: SessionReport): string {
  const x = s.session;
  const partner = (x.robotSeat + 2) % 4;
  const head = [
    `Session ${x.id} (${s.file})`,
    `  ${[x.seed !== null ? `seed ${x.seed}` : '', `${s.games.length}${x.plannedGames ? ` of ${x.plannedGames}` : ''} games`, `robot in seat ${x.robotSeat} (team ${x.robotSeat % 2 === 0 ? 'A' : 'B'}, partner seat ${partner})`, x.character ? `character ${x.character}` : '', x.player ? `player ${x.player}` : '', `language ${x.language || '?'}`].filter(Boolean).join(', ')}`,
    ...gameLine(s),
    ...s.notes.map((n) => `  note: ${n}`),
    ...s.problems.map((p) => `  problem: ${p}`),
  ];
  const f = s.figures;
  return [
    ...head,
    '',
    ...moodLines(f),
    ...emotionLines(f),
    ...towardLines(f),
    ...faceLinesOfSession(s),
    faceChangeLine(s.figures),
    ...lineLines(f),
    ...checkLines(f, TEXT_EXAMPLES, false),
  ].join('\n');
}

function formatOverall(f: Figures): string {
  const results = Object.entries(f.results)
    .filter(([, n]) => n > 0)
    .map(([r, n]) => `${r} ${n}`)
    .join(', ');
  return [
    `Overall: ${plural(f.sessions, 'session')}, ${plural(f.games, 'game')}${results ? ` (${results})` : ''}`,
    '',
    ...moodLines(f),
    ...emotionLines(f),
    ...towardLines(f),
    ...faceLinesByResult(f),
    faceChangeLine(f),
    ...lineLines(f),
    ...checkLines(f, TEXT_EXAMPLES, true),
  ].join('\n');
}

/** Each session, then (for more than one) all of them together. */
export function formatReport(r: Report): string {
  const parts = r.sessions.map(formatSession);
  if (r.sessions.length > 1) parts.push(formatOverall(r.overall));
  const rule = `\n${'-'.repeat(100)}\n`;
  return parts.join(rule);
}
