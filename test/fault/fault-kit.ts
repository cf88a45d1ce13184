// Shared by the fault suite: a seeded generator, the tally of inputs tried and faults
// survived (printed and written as JSON, so the README's figures come from a command), and the checks
// every fault ends with: a whole session read from its recordings (40 plays a game, no card twice,
// 120 points, victories as the points say) and the answers of a CLI run (one line, no stack trace).

import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRng } from '../../game/index.js';
import type { GameEventMessage } from '../../robot/bus/index.js';
import type * as Robot from '../../robot/index.js';
import type * as Recording from '../../robot/recording/index.js';
import type * as Replay from '../../robot/offline/replay/index.js';

/**
 * The built program the suite runs: dist/ (`npm test` builds it first), or the folder named by
 * PARCEIRO_FAULT_DIST, e.g. a build of the working tree made elsewhere so that dist/ is left alone
 * (`npx tsc -p tsconfig.build.json --outDir /tmp/p/dist`, with package.json, config and node_modules
 * beside it in /tmp/p). The node is loaded from it too: its estimates run in compiled workers.
 */
export const DIST = process.env.PARCEIRO_FAULT_DIST ?? fileURLToPath(new URL('../../dist/', import.meta.url));
export const CLI = join(DIST, 'launch', 'cli.js');
const load = async <T>(p: string): Promise<T> => (await import(pathToFileURL(join(DIST, p)).href)) as T;
export const robot = await load<typeof Robot>('robot/index.js');
export const recording = await load<typeof Recording>('robot/recording/index.js');
export const replay = await load<typeof Replay>('robot/offline/replay/index.js');

/** Where each file of the suite writes its figures (`<file>.json`). */
export const FIGURES_DIR = process.env.PARCEIRO_FAULT_FIGURES ?? join(tmpdir(), 'parceiro-fault-figures');

/** The seed of the whole suite; `PARCEIRO_FAULT_SEED=n` tries other inputs (a failure names its seed). */
export const SUITE_SEED = Number(process.env.PARCEIRO_FAULT_SEED ?? 18);

/** A seeded generator with the helpers the suite uses. */
export class Gen {
  readonly #next: () => number;
  constructor(
    readonly seed: number,
    ...path: number[]
  ) {
    const rng = createRng(seed, ...path);
    this.#next = () => rng.next();
  }
  /** A float in [0, 1). */
  float(): number {
    return this.#next();
  }
  /** A whole number in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.#next() * (hi - lo + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)]!;
  }
  chance(p: number): boolean {
    return this.#next() < p;
  }
}

/** Inputs tried and faults survived, by kind; what failed, with enough to reproduce it. */
export class Tally {
  readonly kinds = new Map<string, { tried: number; survived: number }>();
  readonly failures: string[] = [];
  constructor(readonly file: string) {}

  /** One input of `kind`; `problem` null when the node came through it as it should. */
  note(kind: string, problem: string | null): void {
    const k = this.kinds.get(kind) ?? { tried: 0, survived: 0 };
    k.tried++;
    if (problem === null) k.survived++;
    // Ten of each kind are kept (a flood's could hide every other).
    else if (k.tried - k.survived <= 10) this.failures.push(`${kind}: ${problem}`);
    this.kinds.set(kind, k);
  }
  get tried(): number {
    return [...this.kinds.values()].reduce((a, k) => a + k.tried, 0);
  }
  get survived(): number {
    return [...this.kinds.values()].reduce((a, k) => a + k.survived, 0);
  }
  /** Prints one line and writes `<FIGURES_DIR>/<file>.json`. */
  write(extra: Record<string, unknown> = {}): void {
    mkdirSync(FIGURES_DIR, { recursive: true });
    const figures = {
      file: this.file,
      seed: SUITE_SEED,
      tried: this.tried,
      survived: this.survived,
      kinds: Object.fromEntries(this.kinds),
      failures: this.failures,
      ...extra,
    };
    writeFileSync(join(FIGURES_DIR, `${this.file}.json`), `${JSON.stringify(figures, null, 2)}\n`);
    console.log(
      `fault suite ${this.file} (seed ${SUITE_SEED}): ${this.tried} inputs tried, ${this.survived} faults survived${this.failures.length ? `; failed: ${this.failures.slice(0, 5).join(' | ')}` : ''}`,
    );
  }
}

/** Sueca's scoring of a game's points (team A's, team B's) into victories [A, B]. */
export function victoriesOf(points: readonly number[]): [number, number] {
  const [a, b] = [points[0]!, points[1]!];
  const v = (p: number): number => (p === 120 ? 4 : p >= 91 ? 2 : p >= 61 ? 1 : 0);
  return [v(a), v(b)];
}

export interface SessionCheck {
  games: number;
  plays: number;
  victories: [number, number];
  points: [number, number][];
  problems: string[];
}

/**
 * A session read from its game events (every part's, in order): each game dealt once, 40 plays with
 * no card twice and 4 a trick, 10 tricks worth 120, an end whose points are the tricks' and whose
 * victories are the points', and a session end with the victories added up. `games` is how many the
 * session planned.
 */
export function checkSessionEvents(events: readonly GameEventMessage[], games: number): SessionCheck {
  const problems: string[] = [];
  const points: [number, number][] = [];
  const total: [number, number] = [0, 0];
  let plays = 0;
  for (let g = 0; g < games; g++) {
    const of = events.filter((e) => e.game === g);
    const cards = of.filter((e) => e.type === 'play').map((e) => e.card);
    plays += cards.length;
    if (of.filter((e) => e.type === 'deal').length > 1)
      problems.push(`game ${g + 1} dealt ${of.filter((e) => e.type === 'deal').length} times`);
    if (cards.length !== 40) problems.push(`game ${g + 1}: ${cards.length} plays, not 40`);
    if (new Set(cards).size !== cards.length)
      problems.push(
        `game ${g + 1}: a card played twice (${cards.filter((c, i) => cards.indexOf(c) !== i).join(', ')})`,
      );
    const tricks = of.filter((e) => e.type === 'trick');
    if (tricks.length !== 10) problems.push(`game ${g + 1}: ${tricks.length} tricks, not 10`);
    const trickPoints = tricks.reduce((a, t) => a + t.points, 0);
    if (tricks.length === 10 && trickPoints !== 120)
      problems.push(`game ${g + 1}: tricks worth ${trickPoints}, not 120`);
    const ends = of.filter((e) => e.type === 'end');
    if (ends.length !== 1) {
      problems.push(`game ${g + 1}: ${ends.length} ends`);
      continue;
    }
    const end = ends[0]!;
    const p: [number, number] = [end.final_points[0]!, end.final_points[1]!];
    points.push(p);
    if (p[0] + p[1] !== 120) problems.push(`game ${g + 1}: points ${p[0]}-${p[1]} do not add up to 120`);
    const byTeam: [number, number] = [0, 0];
    for (const t of tricks) byTeam[t.winner % 2]! += t.points;
    if (byTeam[0] !== p[0] || byTeam[1] !== p[1])
      problems.push(`game ${g + 1}: end says ${p.join('-')}, its tricks ${byTeam.join('-')}`);
    const v = victoriesOf(p);
    total[0] += v[0];
    total[1] += v[1];
  }
  const sessionEnds = events.filter((e) => e.type === 'session_end');
  if (sessionEnds.length !== 1) problems.push(`${sessionEnds.length} session ends, not 1`);
  else if (sessionEnds[0]!.victories[0] !== total[0] || sessionEnds[0]!.victories[1] !== total[1]) {
    problems.push(
      `the session ends with victories ${sessionEnds[0]!.victories.join('-')}, its games' points say ${total.join('-')}`,
    );
  }
  if (events.some((e) => e.game >= games && e.type !== 'session_end'))
    problems.push(`events of a game past the ${games} planned`);
  return { games, plays, victories: total, points, problems };
}

/** What a CLI run that met a user's (or a file's) mistake must look like; null when it does. */
export function oneLineError(
  r: { code: number; signal: string | null; out: string; err: string },
  mustName?: string,
): string | null {
  const all = `${r.out}\n${r.err}`;
  if (r.signal) return `ended by ${r.signal}`;
  if (/\n\s+at .+\(?.*:\d+:\d+\)?/.test(`\n${all}`))
    return `a stack trace (exit ${r.code}): ${firstLines(r.err || r.out)}`;
  if (r.code !== 2) return `exit ${r.code}, not 2: ${firstLines(r.err || r.out)}`;
  const lines = r.err.trim().split('\n');
  if (lines.length !== 1 || !lines[0]!.startsWith('parceiro: error: '))
    return `stderr is not one line "parceiro: error: ...": ${firstLines(r.err)}`;
  if (mustName && !lines[0]!.includes(mustName)) return `the line does not name ${mustName}: ${lines[0]}`;
  return null;
}

export const firstLines = (s: string, n = 3): string =>
  JSON.stringify(s.trim().split('\n').slice(0, n).join(' / ').slice(0, 300));

/** What a program run by `runWatched` did; `hung`: it gave no answer within `hangMs` and was killed. */
export interface WatchedRun {
  code: number;
  signal: string | null;
  out: string;
  err: string;
  hung: boolean;
  /** `until` held (the program was then stopped). */
  reached: boolean;
}

/**
 * Runs `cmd args...` in `cwd`, stopped (SIGKILL) as soon as its output satisfies `until`, or after
 * `hangMs` as a program that hangs: "never hangs" is what some faults check, so this wait is the check.
 */
export function runWatched(
  cmd: string,
  args: readonly string[],
  cwd: string,
  hangMs: number,
  until?: (out: string) => boolean,
): Promise<WatchedRun> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd });
    let out = '';
    let err = '';
    let hung = false;
    let reached = false;
    const timer = setTimeout(() => {
      hung = true;
      child.kill('SIGKILL');
    }, hangMs);
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (!reached && until?.(out)) {
        reached = true;
        child.kill('SIGKILL');
      }
    });
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, signal, out, err, hung, reached });
    });
  });
}
