// parceiro appraise FILE|-: runs a scenario (events with beliefs and times, JSON lines) through a
// character's appraisal on a manual clock and says, after each line, what the robot feels.

import type { AppraisalFrame, Character, FeltEmotion, ScenarioStep, Target } from '../../appraisal/index.js';
import { ConfigError } from '../../config/index.js';
import type { ReadBound } from '../../config/index.js';
import { ScenarioError, loadCharacter, parseScenario, runScenario } from '../../appraisal/index.js';
import type { Seat } from '../../game/index.js';
import { formatCard } from '../../game/index.js';
import { UsageError } from '../errors.js';
import { readInput } from '../io.js';

/** A scenario is a line per event, a few hundred bytes each: a session of games is under a megabyte. */
const SCENARIO: ReadBound = { maxBytes: 16 << 20, what: 'a scenario' };

interface AppraiseOptions {
  /** A preset name or a preset file; default: the one config/appraisal/appraisal.yaml names. */
  character?: string;
  /** The robot's seat until a deal line says otherwise. */
  seat: number;
}

interface EmotionOut {
  type: string;
  target: Target | null;
  intensity: number;
}

/** One line of output: the state after one scenario line. Names are stable (JSON). */
interface AppraisalLine {
  line: number;
  atMs: number;
  /** The event type, or "wait". */
  event: string;
  /** What happened, in words. */
  what: string;
  seat: Seat;
  /** The rules that matched and the appraisal variables they set. */
  rules: string[];
  variables: Record<string, unknown>;
  emotions: EmotionOut[];
  strongest: EmotionOut | null;
  /** The strongest emotion about each other seat (directly or through its team). */
  toward: Record<string, EmotionOut | null>;
  mood: number;
}

interface AppraiseRun {
  character: Character;
  lines: AppraisalLine[];
}

const r3 = (x: number): number => Math.round(x * 1000) / 1000;
const out = (e: FeltEmotion): EmotionOut => ({ type: e.type, target: e.target, intensity: r3(e.intensity) });

function variables(frame: AppraisalFrame): Record<string, unknown> {
  const v: Record<string, unknown> = {};
  const map = (m: Map<unknown, number>): Record<string, number> =>
    Object.fromEntries([...m].map(([k, x]) => [String(k), r3(x)]));
  if (frame.desirability !== null) v.desirability = r3(frame.desirability);
  if (frame.desirabilityForOther.size) v['desirability-for-other'] = map(frame.desirabilityForOther);
  if (frame.praiseworthiness.size) v.praiseworthiness = map(frame.praiseworthiness);
  if (frame.like.size) v.like = map(frame.like);
  if (frame.goalSuccessProbability.size) v['goal-success-probability'] = map(frame.goalSuccessProbability);
  if (frame.goalAchieved.size) v['goal-achieved'] = Object.fromEntries(frame.goalAchieved);
  if (frame.surprise > 0) v.surprise = r3(frame.surprise);
  return v;
}

function describe(step: ScenarioStep): string {
  const e = step.perception?.event;
  if (!e) return '(time passes)';
  switch (e.type) {
    case 'deal':
      return `deal: dealer ${e.dealer}, trump ${formatCard(e.trumpCard)}`;
    case 'trump':
      return `trump ${formatCard(e.trumpCard)} (dealer ${e.dealer})`;
    case 'play':
      return `seat ${e.seat} plays ${formatCard(e.card)}`;
    case 'trick':
      return `trick ${e.trick + 1} to seat ${e.winner}, ${e.points} pts`;
    case 'end':
      return `game over: A ${e.points[0]} - B ${e.points[1]}${e.renounce ? ' (renounce)' : ''}`;
    case 'renounce':
      return `renounce by seat ${e.renounce.seat}`;
    case 'session-end':
      return `session over: A ${e.victories[0]} - B ${e.victories[1]}`;
  }
}

function loadOrUsage(character: string | undefined): Character {
  try {
    return loadCharacter(character);
  } catch (e) {
    if (e instanceof ConfigError) throw new UsageError(e.message);
    throw e;
  }
}

export function appraiseCommand(file: string, o: AppraiseOptions): AppraiseRun {
  const source = file === '-' ? 'standard input' : file;
  const character = loadOrUsage(o.character);
  let steps: ScenarioStep[];
  try {
    steps = parseScenario(readInput(file, SCENARIO), source);
  } catch (e) {
    if (e instanceof ScenarioError) throw new UsageError(e.message);
    throw e;
  }
  const lines = runScenario(character, steps, { seat: o.seat as Seat }).map(
    ({ step, result, report }): AppraisalLine => {
      return {
        line: step.line,
        atMs: step.atMs,
        event: step.perception?.event.type ?? 'wait',
        what: describe(step),
        seat: report.seat,
        rules: result?.rules ?? [],
        variables: result ? variables(result.frame) : {},
        emotions: report.emotions.map(out),
        strongest: report.strongest && out(report.strongest),
        toward: Object.fromEntries(report.toward.map((t) => [String(t.seat), t.emotion && out(t.emotion)])),
        mood: r3(report.mood),
      };
    },
  );
  return { character, lines };
}

const name = (e: EmotionOut | null, self: Seat): string => {
  if (!e) return '-';
  const t = e.target === null ? '' : e.target === self ? '(self)' : `(${e.target})`;
  return `${e.type}${t} ${e.intensity.toFixed(2)}`;
};

/** The readable table for a terminal. */
export function formatAppraisal(run: AppraiseRun): string {
  const c = run.character;
  const first = run.lines[0];
  const self = first?.seat ?? 0;
  const others = first ? Object.keys(first.toward) : [];
  const head = [
    'line',
    'time',
    'event',
    'mood',
    'strongest',
    ...others.map((s) => `toward ${s}${Number(s) === ((self + 2) & 3) ? ' (partner)' : ''}`),
  ];
  const rows = run.lines.map((l) => [
    String(l.line),
    `${(l.atMs / 1000).toFixed(1)} s`,
    l.what,
    `${l.mood >= 0 ? '+' : ''}${l.mood.toFixed(2)}`,
    name(l.strongest, l.seat),
    ...others.map((s) => name(l.toward[s] ?? null, l.seat)),
  ]);
  const widths = head.map((_, i) => Math.max(head[i]!.length, ...rows.map((r) => r[i]!.length)));
  const fmt = (r: string[]): string =>
    r
      .map((x, i) => (i === 0 || i === 1 || i === 3 ? x.padStart(widths[i]!) : x.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  const indent = ' '.repeat(widths[0]! + widths[1]! + 4);
  const lines = [
    `character: ${c.name}${c.description ? ` (${c.description})` : ''}; robot at seat ${self}`,
    '',
    fmt(head),
  ];
  run.lines.forEach((l, i) => {
    lines.push(fmt(rows[i]!));
    if (l.emotions.length > 1) lines.push(`${indent}feels: ${l.emotions.map((e) => name(e, l.seat)).join(', ')}`);
    if (l.rules.length) lines.push(`${indent}rules: ${l.rules.join(', ')}`);
  });
  return lines.join('\n');
}
