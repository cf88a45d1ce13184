// Tournaments on a BullMQ queue, against a real redis-server (Debian's, started here on a free port):
// `parceiro tournament --queue` with `parceiro worker`s gives the local run's summary and records; two
// workers share the boards; a worker SIGKILLed mid-board loses nothing (its board is played again by
// another, and counted once); the coordinator leaves nothing of its run on the queue; an unreachable
// Redis, a bad URL and a worker that cannot play a board are one line and exit 2. Nothing measures
// time: every wait is for a condition (a line printed, a job in Redis), with generous timeouts as a
// safety net only.
//
// redis-server is a system program like chromium: missing on a developer's machine, these tests are
// skipped with a note saying how to install it; under CI (CI=true) the file fails instead.

import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue, UnrecoverableError, Worker } from 'bullmq';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type * as QueueModule from '../../robot/arena/tournament/queue.js';
import { findOnPath, isCI } from '../system-programs-check.js';
import type { CliRun, RunningCli } from './run-cli.js';
import { runCli, startCli } from './run-cli.js';

// The shared names and settings, from the built program the tests run.
const Q = (await import(
  new URL('../../dist/robot/arena/tournament/queue.js', import.meta.url).href
)) as typeof QueueModule;

const INSTALL_REDIS = 'sudo apt-get install redis-server';
const REDIS = findOnPath('redis-server');
if (!REDIS) {
  const reason = 'redis-server is not installed';
  if (isCI())
    throw new Error(
      `${reason}: under CI (CI=true) the tests that need it must run, not skip; install with: ${INSTALL_REDIS}`,
    );
  process.stderr.write(
    `test/launch/tournament-queue.test.ts: skipping its tests: ${reason}; enable with: ${INSTALL_REDIS}\n`,
  );
  beforeEach((ctx) => ctx.skip(`${reason}; enable with: ${INSTALL_REDIS}`));
}

/** A safety net only: how long a condition may take on a loaded machine. */
const WAIT = 120_000;

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

async function waitFor(what: string, cond: () => boolean | Promise<boolean>, timeoutMs = WAIT): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

// The shared reference run and the cases that need no Redis work here; each case that needs one starts
// a redis-server of its own, so that the cases run at once without seeing each other's jobs.
const dir = REDIS ? mkdtempSync(join(tmpdir(), 'parceiro-queue-')) : '';
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A case's own redis-server and folder, the programs it started and what it opened, all ended by close(). */
class Lab {
  url = '';
  readonly dir = mkdtempSync(join(dir, 'lab-'));
  readonly children: RunningCli[] = [];
  readonly closers: (() => Promise<unknown>)[] = [];
  #redis: ChildProcess | null = null;

  async start(): Promise<void> {
    const port = await freePort();
    this.url = `redis://127.0.0.1:${port}`;
    let log = '';
    const redis = spawn(REDIS!, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      cwd: this.dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.#redis = redis;
    redis.stdout.on('data', (d: Buffer) => (log += d.toString()));
    redis.stderr.on('data', (d: Buffer) => (log += d.toString()));
    await waitFor(
      'redis-server to accept connections',
      () => /Ready to accept connections/.test(log) || redis.exitCode !== null,
    );
    if (redis.exitCode !== null) throw new Error(`redis-server exited at once: ${log}`);
  }

  async close(): Promise<void> {
    for (const c of this.children.splice(0)) {
      if (c.child.exitCode === null && c.child.signalCode === null) {
        c.child.kill('SIGCONT');
        c.child.kill('SIGKILL');
      }
      await c.done;
    }
    for (const close of this.closers.splice(0)) await close();
    const redis = this.#redis;
    if (redis && redis.exitCode === null) {
      const gone = new Promise((r) => redis.once('exit', r));
      redis.kill('SIGKILL');
      await gone;
    }
  }

  /** A `parceiro worker` on this Redis, once it says it serves the queue. */
  async startWorker(concurrency = 1): Promise<RunningCli> {
    const w = startCli(['worker', this.url, '--concurrency', String(concurrency)], this.dir);
    this.children.push(w);
    await waitFor(
      'the worker to serve the queue',
      () => w.out().includes('serving the tournaments') || w.child.exitCode !== null,
    );
    expect(w.out()).toContain('serving the tournaments');
    return w;
  }

  /** The queue as the tests inspect it. */
  inspect(): Queue {
    const q = new Queue(Q.QUEUE_NAME, { connection: { url: this.url } as never, prefix: Q.QUEUE_PREFIX });
    q.on('error', () => {});
    this.closers.push(() => q.close());
    return q;
  }

  async expectQueueEmpty(): Promise<void> {
    const q = this.inspect();
    const counts = await q.getJobCounts('waiting', 'active', 'delayed', 'completed', 'failed', 'prioritized', 'paused');
    expect(Object.entries(counts).filter(([, n]) => n > 0)).toEqual([]);
    expect(await runKeys(await q.client)).toEqual([]);
  }
}

/** Runs `work` with a Lab of its own, closed however the work ends. */
async function withLab(work: (lab: Lab) => Promise<void>): Promise<void> {
  const lab = new Lab();
  try {
    await lab.start();
    await work(lab);
  } finally {
    await lab.close();
  }
}

/** The tournaments' run keys left in Redis. */
function runKeys(client: Awaited<Queue['client']>): Promise<string[]> {
  return new Promise<string[]>((resolve, reject) => {
    const found: string[] = [];
    const stream = client.scanStream({ match: `${Q.QUEUE_PREFIX}:runs:*` });
    stream.on('data', (keys: string[]) => found.push(...keys));
    stream.on('end', () => resolve(found));
    stream.on('error', reject);
  });
}

type Summary = Record<string, unknown> & { decisionMs: Record<string, { decisions: number }> };

/** The summary without its timings: decision counts stay, their times go. */
const untimed = (s: Summary): unknown => ({
  ...s,
  decisionMs: Object.fromEntries(Object.entries(s.decisionMs).map(([name, d]) => [name, { decisions: d.decisions }])),
});

const parse = (out: string): Summary => JSON.parse(out) as Summary;

/** A --records file's games (the last line, the summary, without its timings). */
function recordsOf(file: string): unknown[] {
  const lines = readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Summary);
  const summary = lines.pop()!;
  return [...lines, untimed(summary)];
}

/**
 * The tournament the worker tests share: boards long enough (a search player, about a second of CPU
 * each) for a worker to be caught holding one, four of them so that others are left for the next
 * worker. Its local run, the reference each queued run must equal, is played once for them all.
 */
const BOARDS = [
  'tournament',
  '--team-a',
  'pimc:n=2,rule',
  '--team-b',
  'random,random',
  '--games',
  '8',
  '--seed',
  '3',
  '--json',
];
let boardsReference: Promise<CliRun> | null = null;
async function boardsLocally(): Promise<CliRun> {
  const local = await (boardsReference ??= runCli(BOARDS, dir));
  expect(local.code, local.err).toBe(0);
  return local;
}

// Each test starts one to three parceiro processes and plays boards: at a load of 12 on 2 cores one
// took 60 s, the default timeout. The bound is a safety net, not a measure.
describe('parceiro tournament --queue', { concurrent: true, timeout: 3 * WAIT }, () => {
  it('gives the local run’s summary and records, and leaves the queue empty', () =>
    withLab(async (lab) => {
      const args = [
        'tournament',
        '--team-a',
        'rule,rule',
        '--team-b',
        'random,random',
        '--games',
        '40',
        '--seed',
        '7',
        '--json',
      ];
      const local = await runCli([...args, '--records', 'local.jsonl'], lab.dir);
      expect(local.code, local.err).toBe(0);
      await lab.startWorker(2);
      const queued = await runCli([...args, '--records', 'queued.jsonl', '--queue', lab.url], lab.dir);
      expect(queued.code, queued.err).toBe(0);
      expect(JSON.stringify(untimed(parse(queued.out)))).toBe(JSON.stringify(untimed(parse(local.out))));
      expect(parse(queued.out).games).toBe(40);
      expect(recordsOf(join(lab.dir, 'queued.jsonl'))).toEqual(recordsOf(join(lab.dir, 'local.jsonl')));
      await lab.expectQueueEmpty();
    }));

  it('shares the boards between two workers, each board counted once', () =>
    withLab(async (lab) => {
      const args = BOARDS;
      const local = await boardsLocally();
      const first = await lab.startWorker();
      const run = runCli([...args, '--queue', lab.url], lab.dir);
      // The first worker holds a board and is frozen with it: the second must play the others.
      await waitFor('the first worker to take a board', () => first.out().includes('playing board'));
      first.child.kill('SIGSTOP');
      const second = await lab.startWorker();
      await waitFor('the second worker to play a board', () => second.out().includes('played board'));
      first.child.kill('SIGCONT');
      const queued = await run;
      expect(queued.code, queued.err).toBe(0);
      expect(JSON.stringify(untimed(parse(queued.out)))).toBe(JSON.stringify(untimed(parse(local.out))));
      expect(first.out()).toMatch(/playing board/);
      expect(second.out()).toMatch(/played board/);
      await lab.expectQueueEmpty();
    }));

  it('loses no board when a worker is SIGKILLed mid-board: another plays it again', () =>
    withLab(async (lab) => {
      const args = BOARDS;
      const local = await boardsLocally();
      const doomed = await lab.startWorker();
      const run = runCli([...args, '--queue', lab.url], lab.dir);
      await waitFor('the worker to take a board', () => doomed.out().includes('playing board'));
      const held = /playing (board \d+)/.exec(doomed.out())![1]!;
      doomed.child.kill('SIGKILL');
      await doomed.done;
      const heir = await lab.startWorker();
      const queued = await run;
      expect(queued.code, queued.err).toBe(0);
      expect(JSON.stringify(untimed(parse(queued.out)))).toBe(JSON.stringify(untimed(parse(local.out))));
      // Unless it finished its board just before it died, the board it held was played again.
      if (!doomed.out().includes(`played ${held} `)) expect(heir.out()).toContain(`played ${held} `);
      await lab.expectQueueEmpty();
    }));

  it('a worker stopped by a signal finishes its board, and by a second one gives it back at once', () =>
    withLab(async (lab) => {
      const args = BOARDS;
      const local = await boardsLocally();
      const finisher = await lab.startWorker();
      const run = runCli([...args, '--queue', lab.url], lab.dir);
      await waitFor('the worker to take a board', () => finisher.out().includes('playing board'));
      const first = /playing (board \d+)/.exec(finisher.out())![1]!;
      finisher.child.kill('SIGINT');
      expect(await finisher.done).toMatchObject({ code: 0 });
      // It finished the board in hand, and took no other.
      expect(finisher.out()).toContain(`played ${first} `);
      expect(finisher.out().match(/playing board/g)).toHaveLength(1);
      expect(finisher.out()).toMatch(/stopped\n$/);

      const giver = await lab.startWorker();
      await waitFor('the worker to take a board', () => giver.out().includes('playing board'));
      const second = /playing (board \d+)/.exec(giver.out())![1]!;
      giver.child.kill('SIGTERM');
      await waitFor('the worker to hear the signal', () => giver.out().includes('SIGTERM: finishing'));
      giver.child.kill('SIGTERM');
      expect(await giver.done).toMatchObject({ code: 0 });
      // Unless it finished the board before the second signal, it gave it back.
      const gaveBack = giver.out().includes(`gave back ${second} `);
      if (!gaveBack) expect(giver.out()).toContain(`played ${second} `);

      const last = await lab.startWorker();
      const queued = await run;
      expect(queued.code, queued.err).toBe(0);
      expect(JSON.stringify(untimed(parse(queued.out)))).toBe(JSON.stringify(untimed(parse(local.out))));
      if (gaveBack) expect(last.out()).toContain(`played ${second} `);
      await lab.expectQueueEmpty();
    }));

  it('stops with one line and exit 2 when a worker cannot play a board, and names why', () =>
    withLab(async (lab) => {
      // A worker of another version, that does not know a player the tournament uses.
      const reason = "this worker (parceiro 0.0.1) does not know the player 'rule'";
      const old = new Worker(
        Q.QUEUE_NAME,
        async () => {
          throw new UnrecoverableError(reason);
        },
        { connection: { url: lab.url } as never, prefix: Q.QUEUE_PREFIX },
      );
      old.on('error', () => {});
      lab.closers.push(() => old.close());
      const r = await runCli(
        ['tournament', '--team-a', 'rule,rule', '--team-b', 'random,random', '--games', '2', '--queue', lab.url],
        dir,
      );
      expect(r.code).toBe(2);
      expect(r.err).toBe(`parceiro: error: a worker could not play board 0 of this tournament: ${reason}\n`);
      await old.close();
      await lab.expectQueueEmpty();
    }));

  it('a worker refuses a job whose player it does not know, with the reason on the job, and keeps serving', () =>
    withLab(async (lab) => {
      const w = await lab.startWorker();
      const q = lab.inspect();
      const client = await q.client;
      await client.set(Q.runKey('testrun'), '1', { EX: 600 });
      const spec = {
        teamA: ['nosuch', 'rule'],
        teamB: ['random', 'random'],
        games: 2,
        seed: 1,
        duplicate: true,
        sessionGames: 1,
      };
      const data = {
        protocol: Q.QUEUE_PROTOCOL,
        version: '9.9.9',
        runId: 'testrun',
        spec,
        from: 0,
        to: 1,
        records: false,
      };
      const job = await q.add('boards', data, { jobId: Q.jobId('testrun', 0), attempts: 3 });
      await waitFor('the job to fail', async () => (await job.getState()) === 'failed');
      const failed = await q.getJob(job.id!);
      expect(failed!.failedReason).toMatch(/does not know the player 'nosuch'/);
      expect(failed!.attemptsMade).toBe(1);
      expect(w.child.exitCode).toBeNull();
      await failed!.remove();
      await client.del(Q.runKey('testrun'));
      await lab.expectQueueEmpty();
    }));

  it('gives one line and exit 2 for an unreachable Redis', async () => {
    const port = await freePort();
    const t = await runCli(['tournament', '--games', '2', '--queue', `redis://127.0.0.1:${port}`], dir);
    expect(t.code).toBe(2);
    expect(t.err).toBe(
      `parceiro: error: --queue redis://127.0.0.1:${port}: cannot reach Redis (connection refused: is redis-server running there?)\n`,
    );
    const w = await runCli(['worker', `redis://127.0.0.1:${port}`], dir);
    expect(w.code).toBe(2);
    expect(w.err).toBe(
      `parceiro: error: worker redis://127.0.0.1:${port}: cannot reach Redis (connection refused: is redis-server running there?)\n`,
    );
  });

  it('gives one line and exit 2 for a bad URL', async () => {
    for (const [args, option] of [
      [['tournament', '--games', '2', '--queue', 'http://127.0.0.1:6379'], '--queue'],
      [['tournament', '--games', '2', '--queue', 'redis://'], '--queue'],
      [['worker', 'localhost:6379'], 'worker'],
    ] as const) {
      const r = await runCli([...args], dir);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(
        new RegExp(
          `^parceiro: error: ${option} expects a Redis URL such as redis://127.0.0.1:6379, got "[^"]*" \\(.+\\)\\n$`,
        ),
      );
    }
  });
});
