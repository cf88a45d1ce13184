// The robot's social behaviour over whole sessions (parceiro report): simulated five-game sessions on
// fixed seeds (seeds 1..n; both characters and both languages unless one is given), each `parceiro simulate` in its own process, two at a time (the machines
// have two cores), then the report over their recordings. The figures are the report's overall ones:
// mood, emotions toward each seat, faces by result, lines and the checks' counts. They depend on the
// seeds, the character and the language, not on the machine, except the reaction latency and which
// lines the pace of the session left time to say.

import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { reportCommand } from '../../launch/commands/report.js';
import type { Figures } from '../../robot/offline/report/index.js';

const CLI = fileURLToPath(new URL('../../launch/cli.js', import.meta.url));
const GAMES = 5;
/** Simulated sessions running at once. */
const AT_ONCE = 2;

export interface SocialOptions {
  sessions: number;
  /** One character or language for every session; unset: the reference mix (sessionSetting). */
  character?: string;
  language?: string;
  /** Keep the recordings in this folder (for `parceiro report --chart`); default a temporary one. */
  keep?: string;
  /** Sessions simulated at once (default 2, one per core). */
  parallel?: number;
  log: (line: string) => void;
}

/**
 * The reference set: seed i alternates the characters (odd warm, even competitive) and speaks
 * Portuguese in the first half of the sessions, English in the second, so ten sessions cover both
 * characters in both languages.
 */
export function sessionSetting(
  seed: number,
  sessions: number,
  o: Pick<SocialOptions, 'character' | 'language'>,
): { character: string; language: string } {
  return {
    character: o.character ?? (seed % 2 ? 'warm' : 'competitive'),
    language: o.language ?? (seed <= Math.ceil(sessions / 2) ? 'pt' : 'en'),
  };
}

export interface SocialBench {
  sessions: number;
  gamesPerSession: number;
  seeds: number[];
  character: string | null;
  language: string | null;
  /** Wall time of the simulations and of the report. */
  simulateSeconds: number;
  reportSeconds: number;
  /** Each session: its victories and recording's message count, from simulate's JSON summary. */
  simulated: {
    seed: number;
    character: string;
    language: string;
    victories: { A: number; B: number };
    messages: number;
  }[];
  overall: Figures;
}

interface SimulateSummary {
  victories: { A: number; B: number };
  recording: string | null;
  messages: number;
}

function simulate(seed: number, dir: string, o: SocialOptions): Promise<SimulateSummary> {
  const { character, language } = sessionSetting(seed, o.sessions, o);
  const args = [
    CLI,
    'simulate',
    '--games',
    String(GAMES),
    '--seed',
    String(seed),
    '--session',
    `bench-social-${seed}`,
    '--recordings',
    dir,
    '--json',
    '--character',
    character,
    '--language',
    language,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0)
        reject(
          new Error(`simulate --seed ${seed} exited with ${code}: ${err.trim().split('\n').slice(-3).join(' / ')}`),
        );
      else resolve(JSON.parse(out) as SimulateSummary);
    });
  });
}

/** Runs `jobs` with at most `n` at a time, results in the jobs' order. */
async function pooled<T>(jobs: (() => Promise<T>)[], n: number): Promise<T[]> {
  const results: T[] = new Array(jobs.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await jobs[i]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, jobs.length) }, worker));
  return results;
}

export async function socialSection(o: SocialOptions): Promise<SocialBench> {
  if (o.keep !== undefined) mkdirSync(o.keep, { recursive: true });
  const dir = o.keep ?? mkdtempSync(join(tmpdir(), 'parceiro-bench-social-'));
  try {
    const seeds = Array.from({ length: o.sessions }, (_, i) => i + 1);
    const t0 = performance.now();
    const summaries = await pooled(
      seeds.map((seed) => async () => {
        const setting = sessionSetting(seed, o.sessions, o);
        o.log(`social: simulating session ${seed} (${GAMES} games, ${setting.character}, ${setting.language})...`);
        const s = await simulate(seed, dir, o);
        o.log(`social: session ${seed}: victories ${s.victories.A}-${s.victories.B}, ${s.messages} messages`);
        return s;
      }),
      o.parallel ?? AT_ONCE,
    );
    const simulateSeconds = (performance.now() - t0) / 1000;
    const t1 = performance.now();
    const files = summaries.map((s, i) => s.recording ?? join(dir, `bench-social-${seeds[i]}.mcap`));
    const { report } = reportCommand(files, { json: true });
    const reportSeconds = (performance.now() - t1) / 1000;
    const f = report.overall;
    const c = f.checks;
    o.log(
      `social: mood median ${f.mood.median}, |mood| >= 9 in ${f.mood.extremeShare}; lines ${f.lines.spoken} spoken, ${f.lines.dropped} dropped; ` +
        `findings: misaddressed ${c.misaddressed.count}, late ${c.lateLines.count}, forced blame ${c.forcedBlame.count}, gloating/pity ${c.gloatingPity.count}, happy after a loss ${c.happyAfterLoss.count}`,
    );
    return {
      sessions: o.sessions,
      gamesPerSession: GAMES,
      seeds,
      character: o.character ?? null,
      language: o.language ?? null,
      simulateSeconds: Math.round(simulateSeconds * 10) / 10,
      reportSeconds: Math.round(reportSeconds * 100) / 100,
      simulated: summaries.map((s, i) => ({
        seed: seeds[i]!,
        ...sessionSetting(seeds[i]!, o.sessions, o),
        victories: s.victories,
        messages: s.messages,
      })),
      overall: f,
    };
  } finally {
    if (o.keep === undefined) rmSync(dir, { recursive: true, force: true });
  }
}

const pct = (x: number | null): string => (x === null ? '-' : `${Math.round(x * 1000) / 10}%`);

/** The bench's readable lines for this section. */
export function socialLines(s: SocialBench): string[] {
  const f = s.overall;
  const c = f.checks;
  const setting = [
    s.character ? `character ${s.character}` : 'warm and competitive',
    s.language ? `language ${s.language}` : 'pt and en',
  ].join(', ');
  const coverage = Object.entries(f.lines.coverage)
    .map(([lang, x]) =>
      x
        ? `${lang} ${x.categories.said}/${x.categories.total} categories, ${x.lines.said}/${x.lines.total} lines`
        : `${lang} no library`,
    )
    .join('; ');
  const finding = (name: string, x: { count: number; applicable: number }): string =>
    `${name} ${x.count}/${x.applicable}`;
  return [
    `  social, ${s.sessions} sessions of ${s.gamesPerSession} games (seeds ${s.seeds.join(', ')}${setting ? `; ${setting}` : ''}): results ${Object.entries(
      f.results,
    )
      .filter(([, n]) => n > 0)
      .map(([r, n]) => `${r} ${n}`)
      .join(', ')}; simulated in ${s.simulateSeconds} s, reported in ${s.reportSeconds} s`,
    `    mood median ${f.mood.median}, |mood| >= 9 in ${pct(f.mood.extremeShare)}, at a game's end median ${f.mood.atGameEnd.median}; histogram ${f.mood.histogram.map((b) => b.count).join(' ')}`,
    `    strongest: ${Object.entries(f.emotions.types)
      .slice(0, 4)
      .map(([t, x]) => `${t} ${pct(x.strongestShare)}`)
      .join(', ')}`,
    `    faces after a lost game: ${
      Object.entries(f.faces.byResult.lost.after)
        .filter(([, n]) => n > 0)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ') || 'none'
    }; after a won game: ${
      Object.entries(f.faces.byResult.won.after)
        .filter(([, n]) => n > 0)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ') || 'none'
    }`,
    `    lines ${f.lines.spoken} spoken, ${f.lines.dropped} dropped; own card ${pct(f.lines.ownCard.share)}; library ${coverage}`,
    `    findings (of applicable): ${[finding('misaddressed', c.misaddressed), finding('late', c.lateLines), finding('forced blame', c.forcedBlame), finding('gloating/pity', c.gloatingPity), finding('happy after a loss', c.happyAfterLoss)].join(', ')}`,
    `    reaction latency p50 ${c.reactionLatency.p50} p95 ${c.reactionLatency.p95} max ${c.reactionLatency.max} ms over ${c.reactionLatency.count} events`,
  ];
}
