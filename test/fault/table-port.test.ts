// Fault suite: what a local program or a web page can do to the node's ports, against `parceiro live`
// run as a lab runs it, with a file-descriptor limit of 1024 (a common default): wrong tokens from
// the table's own address, browser pages of other origins on the table port and the dashboard's, and
// the held-connection probe (thousands of TCP connections from one address that send half a request
// and never finish, each opened again when the node closes it). Through all of it a table with the
// right token must join. Nothing here depends on the machine's speed: each hello has a minute.

import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import type { Socket as NetSocket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { io } from 'socket.io-client';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, Tally } from './fault-kit.js';

const PRLIMIT = ['/usr/bin/prlimit', '/bin/prlimit'].find((p) => existsSync(p));
const TOKEN = 'fault-suite-table-token-0123';
const WAIT_MS = 60_000;
const dir = mkdtempSync(join(tmpdir(), 'parceiro-table-port-'));
const tally = new Tally('table-port');
const closers: (() => void)[] = [];

let live: ChildProcess;
let tableUrl = '';
let dashboardUrl = '';
let operatorToken = '';

beforeAll(async () => {
  const args = [CLI, 'live', '--port', '0', '--dashboard-port', '0', '--no-record', '--token', TOKEN];
  // 1024 descriptors, as many machines give a process: the probe below holds more connections than that.
  live = PRLIMIT
    ? spawn(PRLIMIT, ['--nofile=1024', process.execPath, ...args], { cwd: dir })
    : spawn(process.execPath, args, { cwd: dir });
  let out = '';
  live.stderr!.resume();
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`parceiro live did not start: ${out}`)), 120_000);
    live.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const table = /waiting for a table at (http:\/\/\S+) /.exec(out);
      const dash = /Operator dashboard: (http:\/\/[^/\s]+)\/#pass=\S+ .*operator token (\S+) for more browsers/.exec(
        out,
      );
      if (table && dash) {
        clearTimeout(timer);
        [tableUrl, dashboardUrl, operatorToken] = [table[1]!, dash[1]!, dash[2]!];
        resolve();
      }
    });
  });
}, 180_000);

let probeFigures: Record<string, unknown> = {};

afterAll(async () => {
  for (const c of closers) c();
  if (live && live.exitCode === null) {
    const gone = new Promise((resolve) => live.once('close', resolve));
    live.kill('SIGINT');
    await gone;
  }
  tally.write({ probe: probeFigures });
  rmSync(dir, { recursive: true, force: true });
});

type Answer = { ok: boolean; code?: string; retryAfterMs?: number } | { error: string };

/** A socket.io client on `ns`, as a program (no Origin) or as a page of `origin`. */
function client(base: string, ns: string, origin?: string, auth?: Record<string, string>): Socket {
  const socket = io(`${base}${ns}`, {
    transports: ['websocket'],
    forceNew: true,
    reconnection: false,
    timeout: WAIT_MS,
    ...(origin ? { extraHeaders: { Origin: origin } } : {}),
    ...(auth ? { auth } : {}),
  });
  closers.push(() => socket.disconnect());
  return socket;
}

/** A hello on a new connection: its answer, or why there was none (connect_error, closed, no answer). */
function hello(token: string, id: string, origin?: string): Promise<Answer> {
  const socket = client(tableUrl, '/table', origin);
  return new Promise<Answer>((resolve) => {
    const timer = setTimeout(() => resolve({ error: 'no answer' }), WAIT_MS);
    let answered = false;
    const done = (a: Answer): void => {
      if (answered) return;
      answered = true;
      clearTimeout(timer);
      resolve(a);
      socket.disconnect();
    };
    socket.once('connect_error', (e) => done({ error: `connect_error: ${e.message}` }));
    socket.once('disconnect', (reason) => done({ error: `closed: ${reason}` }));
    socket.emit('hello', { protocol: 1, token, table: { id, name: id, kind: 'touch' }, seats: [] }, (a: Answer) =>
      done(a),
    );
  });
}

const joined = (a: Answer): boolean => 'ok' in a && a.ok;

/** A table as the simulated table and the TUIO adapter connect: again after a refused connection. */
function reconnectingHello(id: string): Promise<{ ok: boolean; attempts: number; last: string }> {
  const socket = io(`${tableUrl}/table`, {
    transports: ['websocket'],
    forceNew: true,
    reconnectionDelay: 100,
    reconnectionDelayMax: 1000,
  });
  closers.push(() => socket.disconnect());
  let attempts = 0;
  let last = '';
  return new Promise((resolve) => {
    const finish = (ok: boolean): void => {
      clearTimeout(timer);
      resolve({ ok, attempts, last });
      socket.disconnect();
    };
    const timer = setTimeout(() => finish(false), WAIT_MS);
    socket.io.on('reconnect_attempt', () => attempts++);
    socket.on('connect_error', (e) => (last = e.message));
    socket.on('connect', () => {
      socket.emit(
        'hello',
        { protocol: 1, token: TOKEN, table: { id, name: id, kind: 'touch' }, seats: [] },
        (a: Answer) => {
          last = JSON.stringify(a);
          if (joined(a)) finish(true);
        },
      );
    });
    attempts = 1;
  });
}

describe('the table port and the dashboard, against local programs and pages', () => {
  it('wrong tokens from the table’s own address never keep the right token out', async () => {
    // Seven wrong hellos from 127.0.0.1, like every local program: five answered bad-token, then each
    // held a while that doubles (1 s, 2 s) before it is answered too-many-attempts.
    const codes: string[] = [];
    for (let i = 0; i < 7; i++) {
      const a = await hello('a-wrong-token-guessed-0000', `w${i}`);
      codes.push('code' in a ? a.code! : 'error' in a ? a.error : 'ok');
    }
    const expected = [...Array(5).fill('bad-token'), 'too-many-attempts', 'too-many-attempts'];
    tally.note('wrong tokens answered', codes.join() === expected.join() ? null : codes.join(', '));
    expect(codes).toEqual(expected);
    // Then, and while more wrong ones are being held, the table with the right token joins.
    const more = hello('a-wrong-token-guessed-0000', 'w-more');
    const right = await hello(TOKEN, 'the-table');
    tally.note('right token after wrong ones', joined(right) ? null : JSON.stringify(right));
    expect(right).toMatchObject({ ok: true });
    expect(await more).toMatchObject({ ok: false, code: 'too-many-attempts' });
  }, 300_000);

  it('a page of another origin is refused on the table port and the dashboard; the project’s own pages and programs are not', async () => {
    const evil = await hello(TOKEN, 'evil-page', 'http://evil.example');
    tally.note(
      'table port, other origin',
      'error' in evil && /connect_error/.test(evil.error) ? null : JSON.stringify(evil),
    );
    expect(evil).toMatchObject({ error: expect.stringMatching(/^connect_error/) });
    const local = await hello(TOKEN, 'local-page', 'http://127.0.0.1:9');
    tally.note('table port, another local port', 'error' in local ? null : JSON.stringify(local));
    expect(local).toMatchObject({ error: expect.stringMatching(/^connect_error/) });
    // The virtual table, served by the dashboard, and a program with no Origin.
    const own = await hello(TOKEN, 'virtual', dashboardUrl);
    tally.note('table port, own page', joined(own) ? null : JSON.stringify(own));
    expect(own).toMatchObject({ ok: true });
    expect(await hello(TOKEN, 'program')).toMatchObject({ ok: true });

    const dashboard = (origin?: string): Promise<string> =>
      new Promise((resolve) => {
        const s = client(dashboardUrl, '/dashboard', origin, { token: operatorToken });
        s.once('connect', () => resolve('connected'));
        s.once('connect_error', (e) => resolve(`connect_error: ${e.message}`));
      });
    const other = await dashboard('http://evil.example');
    tally.note('dashboard, other origin', /connect_error/.test(other) ? null : other);
    expect(other).toMatch(/^connect_error/);
    expect(await dashboard(dashboardUrl)).toBe('connected');
    expect(await dashboard()).toBe('connected');
  }, 300_000);

  it('the held-connection probe: 4,000 connections that never finish a request, from one address, and a table still joins', async () => {
    const { hostname, port } = new URL(tableUrl);
    const WANT = 4000;
    const open = new Set<NetSocket>();
    let opened = 0;
    let stopping = false;
    // Half a request, never finished; opened again whenever the node closes it, as the probe did.
    const hold = (): void => {
      if (stopping) return;
      const s = connect({ host: hostname, port: Number(port) });
      opened++;
      open.add(s);
      s.on('connect', () => s.write('GET /socket.io/?EIO=4&transport=polling HTTP/1.1\r\nHost: x\r\nX-Held: '));
      s.on('error', () => {});
      s.on('close', () => {
        open.delete(s);
        setTimeout(hold, 10);
      });
    };
    for (let i = 0; i < WANT; i++) hold();
    closers.push(() => {
      stopping = true;
      for (const s of open) s.destroy();
    });
    // The node's descriptors, watched all along (Linux): under its limit of 1024, which the probe
    // alone would take whole if every connection it opens were held.
    let most = 0;
    const fds = (): number => {
      try {
        return readdirSync(`/proc/${live.pid}/fd`).length;
      } catch {
        return 0;
      }
    };
    const watch = setInterval(() => (most = Math.max(most, fds())), 100);
    closers.push(() => clearInterval(watch));
    // Until the probe has opened all of them once at least.
    await expect.poll(() => opened, { timeout: WAIT_MS, interval: 200 }).toBeGreaterThanOrEqual(WANT);
    // Tables connect again by themselves when a connection is refused (socket.io's reconnection, as the
    // simulated table and the TUIO adapter do): each must join within the minute.
    const tries = 5;
    let ok = 0;
    const attempts: number[] = [];
    for (let i = 0; i < tries; i++) {
      const a = await reconnectingHello(`held-${i}`);
      attempts.push(a.attempts);
      tally.note('hello during the probe', a.ok ? null : `not joined after ${a.attempts} connections: ${a.last}`);
      if (a.ok) ok++;
    }
    clearInterval(watch);
    probeFigures = { held: WANT, opened, attempts, mostDescriptors: most };
    if (PRLIMIT && existsSync(`/proc/${live.pid}/fd`)) {
      tally.note('descriptors under the limit', most < 1000 ? null : `the node held ${most} descriptors of 1024`);
      expect(most).toBeLessThan(1000);
    }
    stopping = true;
    for (const s of open) s.destroy();
    expect(ok).toBe(tries);
    expect(live.exitCode).toBeNull();
  }, 600_000);
});
