// parceiro simulate: a whole session through the real node: the table server on 127.0.0.1 (a free
// port), a simulated table with rule-based bots in the three human seats over socket.io, and the
// robot in seat 0 on its timed player, appraising and behaving. Narrated from the bus.

import { randomBytes } from 'node:crypto';
import type { SpeechBackendKind } from '../../behaviours/index.js';
import { deriveSeed } from '../../game/index.js';
import type { NodeLogger } from '../../robot/index.js';
import { ParceiroNode, createLogger } from '../../robot/index.js';
import { SimulatedTable } from '../../table-bridge/index.js';
import { UsageError } from '../errors.js';
import { Narrator, medianAndMax } from '../narration/narrator.js';

export interface SimulateOptions {
  games: number;
  seed: number;
  /** The robot's budget per decision (ms). */
  budget: number;
  speech: string;
  record: boolean;
  recordings?: string;
  /** Overrides config/session.yaml's minimum think time (ms). */
  minThink?: number;
  json: boolean;
}

export interface SimulateSummary {
  sessionId: string;
  games: number;
  victories: { A: number; B: number };
  points: { A: number; B: number }[];
  robotTeam: 'A';
  decisions: { searched: number; forced: number; p50Ms: number; maxMs: number; budgetMs: number };
  utterances: number;
  expressions: number;
  recording: string | null;
  messages: number;
  seconds: number;
}

/** What the speech option accepts: the backends, with `say` for festival as in config/behaviours.yaml. */
export function speechKind(value: string): SpeechBackendKind {
  if (value === 'say') return 'festival';
  if (value === 'log' || value === 'espeak-ng' || value === 'publish' || value === 'festival') return value;
  throw new UsageError(`--speech expects log, espeak-ng, say or publish, got "${value}"`);
}

export async function simulateCommand(o: SimulateOptions, write: (line: string) => void, logger: NodeLogger = createLogger({ level: 'warn' })): Promise<SimulateSummary> {
  const started = Date.now();
  const token = randomBytes(12).toString('hex');
  const say = o.json ? () => {} : write;
  const node = await ParceiroNode.start({
    seed: o.seed,
    token,
    games: o.games,
    budgetMs: o.budget,
    speech: speechKind(o.speech),
    ...(o.record ? (o.recordings === undefined ? {} : { recordingsDir: o.recordings }) : { recordingsDir: null }),
    host: '127.0.0.1',
    port: 0,
    sessionId: `sim-${o.seed}-${new Date(started).toISOString().replace(/[:.]/g, '-')}`,
    ...(o.minThink === undefined ? {} : { minThinkMs: o.minThink }),
    logger,
  });
  const narrator = new Narrator(node.bus, say);
  say(`Parceiro: a simulated session of ${o.games} game${o.games === 1 ? '' : 's'}, seed ${o.seed}.`);
  say(`The robot (seat 0, team A, timed player, ${o.budget} ms a decision) partners seat 2 against seats 1 and 3 (rule-based bots),`);
  say(`over the table protocol at ${node.url}.`);
  const table = new SimulatedTable({ url: node.url, token, seed: deriveSeed(o.seed, 0x7ab1e), bots: 'rule', logger });
  try {
    await table.start();
    await node.finished();
    await node.quiet();
  } finally {
    table.close();
  }
  const closed = await node.close();
  const f = narrator.figures;
  const times = medianAndMax(f.decisionMs);
  const summary: SimulateSummary = {
    sessionId: closed.sessionId,
    games: f.games,
    victories: { A: closed.score.victories[0], B: closed.score.victories[1] },
    points: f.points.map(([A, B]) => ({ A, B })),
    robotTeam: 'A',
    decisions: { searched: f.decisionMs.length, forced: f.forced, p50Ms: Math.round(times.p50), maxMs: Math.round(times.max), budgetMs: o.budget },
    utterances: f.utterances,
    expressions: f.expressions,
    recording: closed.recording,
    messages: closed.messages,
    seconds: Math.round((Date.now() - started) / 100) / 10,
  };
  if (o.json) {
    write(JSON.stringify(summary, null, 2));
    return summary;
  }
  const { A, B } = summary.victories;
  write('');
  write(`Session over after ${summary.games} game${summary.games === 1 ? '' : 's'}: victories A ${A} - B ${B}; the robot's team ${A > B ? 'wins' : A < B ? 'loses' : 'draws'}.`);
  write(`Points by game (A-B): ${summary.points.map((p) => `${p.A}-${p.B}`).join(', ')}`);
  write(
    `The robot's decisions: ${summary.decisions.searched} searched, p50 ${(times.p50 / 1000).toFixed(2)} s, max ${(times.max / 1000).toFixed(2)} s (budget ${(o.budget / 1000).toFixed(2)} s); ${summary.decisions.forced} forced.`,
  );
  const felt = Object.entries(f.emotions).sort((x, y) => y[1] - x[1]).slice(0, 4).map(([t, n]) => `${t} ${n}`).join(', ');
  write(`It spoke ${summary.utterances} lines and changed its face ${summary.expressions} times; its strongest emotions: ${felt || 'none'}.`);
  write(summary.recording ? `Recording: ${summary.recording} (${summary.messages} messages)` : `Not recorded (${summary.messages} messages crossed the bus).`);
  write(`Took ${summary.seconds} s.`);
  return summary;
}
