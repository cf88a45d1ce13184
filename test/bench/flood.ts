// A table that floods: a real `parceiro live` (dist/), a table joined in seats 1 and 3 with
// a game started, and a flooding table in seat 2 that sends out-of-turn cards with 200 in flight, and
// says hello again whenever it is closed. Every 250 ms a new table says hello (seats none) and the
// operator dashboard is fetched: how long each took while the flood went on, what the flood was
// answered, and what the recording grew by. Before the rate limits (8303433): 5,331 refusals a second
// all recorded (+25 MB in 10 s), hello p50 118 ms, max 408 ms.

import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { io } from 'socket.io-client';
import type { Socket } from 'socket.io-client';

const CLI = fileURLToPath(new URL('../../launch/cli.js', import.meta.url));
const TOKEN = 'bench-flood-token-0123456789abcdef';

const quantile = (xs: number[], q: number): number => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!);
};

export async function floodSection(options: { seconds: number; log: (line: string) => void }) {
  const recordings = mkdtempSync(join(tmpdir(), 'parceiro-flood-'));
  const child = spawn(
    process.execPath,
    [
      CLI,
      'live',
      '--port',
      '0',
      '--dashboard-port',
      '0',
      '--token',
      TOKEN,
      '--dashboard-token',
      'bench-flood-dashboard-0123456789',
      '--seed',
      '3',
      '--recordings',
      recordings,
      '--min-think',
      '0',
      '--budget',
      '50',
      '--speech',
      'log',
    ],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  let out = '';
  const urls = await new Promise<{ table: string; dashboard: string }>((resolve, reject) => {
    child.on('exit', (code) => reject(new Error(`parceiro live exited (${code}) before it listened`)));
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const t = /waiting for a table at (\S+) /.exec(out);
      const dash = /Operator dashboard: (http\S+?)\/#/.exec(out);
      if (t && dash) resolve({ table: t[1]!, dashboard: dash[1]! });
    });
  });
  const join_ = (id: string, seats: number[]): Promise<{ socket: Socket; ok: boolean; ms: number }> =>
    new Promise((resolve) => {
      const t0 = performance.now();
      const socket = io(`${urls.table}/table`, { transports: ['websocket'], forceNew: true, reconnection: false });
      socket.on('connect', () =>
        socket.emit(
          'hello',
          { protocol: 1, token: TOKEN, table: { id, name: id, kind: 'touch' }, seats },
          (a: { ok: boolean }) => resolve({ socket, ok: a.ok, ms: performance.now() - t0 }),
        ),
      );
    });
  const honest = await join_('honest', [1, 3]);
  await honest.socket.emitWithAck('game:control', { seq: 1, action: 'new-game' });

  const codes: Record<string, number> = {};
  let sent = 0;
  let seq = 0;
  let stop = false;
  let flooder: Socket | null = null;
  let helloes = 0;
  let refusedHellos = 0;
  // The flooder: 200 events in flight; closed, it says hello again at once.
  const flood = async (): Promise<void> => {
    while (!stop) {
      if (!flooder?.connected) {
        const j = await join_('flooder', [2]);
        helloes++;
        if (!j.ok) {
          refusedHellos++;
          j.socket.disconnect();
          await new Promise((r) => setTimeout(r, 50));
          continue;
        }
        flooder = j.socket;
      }
      const s = flooder;
      await Promise.all(
        Array.from({ length: 200 }, async () => {
          while (!stop && s.connected) {
            sent++;
            const a = (await s
              .timeout(2000)
              .emitWithAck('card:detected', { seq: ++seq, card: 'AS', zone: { area: 'play', seat: 2 } })
              .catch(() => null)) as { ok: boolean; code?: string } | null;
            const c = a ? (a.ok ? 'ok' : a.code!) : 'none';
            codes[c] = (codes[c] ?? 0) + 1;
          }
        }),
      );
    }
  };
  const flooding = flood();
  const hellos: number[] = [];
  const gets: number[] = [];
  let k = 0;
  const probe = setInterval(() => {
    void join_(`probe-${k++}`, []).then(({ socket, ms }) => {
      hellos.push(ms);
      socket.disconnect();
    });
    const t0 = performance.now();
    void fetch(`${urls.dashboard}/`)
      .then((r) => r.text())
      .then(() => gets.push(performance.now() - t0));
  }, 250);
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, options.seconds * 1000));
  stop = true;
  clearInterval(probe);
  const seconds = (performance.now() - t0) / 1000;
  (flooder as Socket | null)?.disconnect();
  await flooding;
  honest.socket.disconnect();
  child.kill('SIGINT');
  await new Promise((r) => child.on('close', r));
  const recordingBytes = readdirSync(recordings).reduce((n, f) => n + statSync(join(recordings, f)).size, 0);
  rmSync(recordings, { recursive: true, force: true });
  const result = {
    seconds: Math.round(seconds),
    eventsSent: sent,
    answers: codes,
    flooderHellos: helloes,
    flooderHellosRefused: refusedHellos,
    helloMs: { count: hellos.length, p50: quantile(hellos, 0.5), max: quantile(hellos, 1) },
    dashboardGetMs: { count: gets.length, p50: quantile(gets, 0.5), max: quantile(gets, 1) },
    recordingBytes,
  };
  options.log(
    `flood: ${sent} events in ${result.seconds} s (${Object.entries(codes)
      .map(([c, n]) => `${c} ${n}`)
      .join(
        ', ',
      )}); flooder hellos ${helloes}, ${refusedHellos} refused; hello p50 ${result.helloMs.p50} ms, max ${result.helloMs.max} ms; dashboard GET p50 ${result.dashboardGetMs.p50} ms, max ${result.dashboardGetMs.max} ms; recording ${recordingBytes} bytes`,
  );
  return result;
}
