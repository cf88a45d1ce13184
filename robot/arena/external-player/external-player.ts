// A player that is another program, speaking JSON lines over stdio (PROTOCOL.md). This is the I/O edge:
// real processes and real timers. The engine stays pure; whatever the program does, every turn ends
// with a legal card: its own, or the fallback RulePlayer's with a fault saying why (late, illegal,
// unreadable, died). A dead program is reported once; after that its seat is played by the fallback at
// once. No timer or process outlives close().

import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import type { Card, GameEvent, SeatView } from '../../../game/index.js';
import { RulePlayer, formatCard, formatCards } from '../../../game/index.js';
import type { AsyncChoice, AsyncPlayerLike, PlayerFault } from '../play-async.js';
import type { RuntimeMessage } from './messages.js';
import { eventMessage, helloMessage, parsePlayerLine, quoteLine, turnMessage } from './messages.js';

interface ExternalPlayerOptions {
  /** The player's name: sent with hello, and its `kind` in faults and statistics. */
  name: string;
  /** The program, started without a shell. */
  command: string;
  args?: readonly string[];
  /** Seeds the fallback RulePlayer that plays the turns this program could not. */
  seed: number;
  /** Time allowed to answer hello with ready (default 5000 ms). */
  helloTimeoutMs?: number;
  /** Deadline of a move when choose() is given none (default 2000 ms). */
  moveTimeoutMs?: number;
  /** How long close() waits for the program to exit after bye before stopping it (default 500 ms). */
  closeTimeoutMs?: number;
  /** When stopping a program: the time between SIGTERM and SIGKILL (default 1000 ms). */
  killGraceMs?: number;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Receives the program's stderr, line by line, and notices about it (faults, death). Never parsed. */
  log?: (line: string) => void;
  /** Prefix of log lines (default: the name). */
  label?: string;
}

/** The program could not be started as a player: it did not start, exited, stayed silent or spoke nonsense. */
export class ExternalPlayerError extends Error {
  constructor(
    readonly player: string,
    readonly commandLine: string,
    readonly problem: string,
  ) {
    super(`external player '${player}' (${commandLine}): ${problem}`);
    this.name = 'ExternalPlayerError';
  }
}

type Phase = 'idle' | 'starting' | 'ready' | 'closing' | 'closed';

interface PendingTurn {
  id: number;
  view: SeatView;
  legal: Card[];
  resolve: (choice: AsyncChoice) => void;
  timer: NodeJS.Timeout;
}

interface Handshake {
  resolve: (name: string | null) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/** After exit (or a broken pipe), how long to wait for the stdio streams to close before deciding. */
const GRACE_MS = 200;
/** After SIGKILL, the longest close() waits for the exit to be seen. */
const KILL_WAIT_MS = 2000;
const MAX_LINE = 1 << 20;
/** Every program still running, so that a runtime exiting for any reason leaves none behind. */
const running = new Set<ChildProcess>();
let exitHookInstalled = false;
/** SIGKILLs every program still running at once (a second Ctrl-C: no more grace). */
export function killRunningPrograms(): void {
  for (const c of running) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
}

function track(child: ChildProcess): void {
  running.add(child);
  child.once('exit', () => running.delete(child));
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', killRunningPrograms);
}
const STDERR_TAIL_LINES = 8;
/**
 * What of a program's stderr reaches the log: a program that writes without end (77 MB in 3 s) would
 * otherwise fill the terminal and the disk. Its tail is kept for its errors all the same.
 */
const MAX_STDERR_SHOWN = 64 * 1024;

const quoteArg = (a: string): string => (/^[\w@%+=:,./-]+$/.test(a) ? a : JSON.stringify(a));

/** Resolves after `ms` or when `p` settles, whichever is first, leaving no timer behind. */
async function within(p: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([p.then(() => true as const), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export class ExternalPlayer implements AsyncPlayerLike {
  readonly kind: string;
  readonly commandLine: string;
  /** The name the program gave in its ready message, if any. */
  readyName: string | null = null;

  private readonly options: ExternalPlayerOptions;
  private fallback: RulePlayer;
  private readonly label: string;
  private child: ChildProcess | null = null;
  private phase: Phase = 'idle';
  private handshake: Handshake | null = null;
  private pending: PendingTurn | null = null;
  private nextId = 1;
  private games = 0;
  /** Why the program can no longer play; null while it can. */
  private death: string | null = null;
  private deathReported = false;
  private exitInfo: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  /** A broken pipe or closed stdout, noticed before the exit that usually follows. */
  private graceTimer: NodeJS.Timeout | null = null;
  private stdoutBuf = '';
  private stderrBuf = '';
  private stderrShown = 0;
  private readonly stderrTail: string[] = [];
  private readonly exited: Promise<void>;
  private markExited!: () => void;
  private hasExited = false;
  private closing: Promise<void> | null = null;

  constructor(options: ExternalPlayerOptions) {
    this.options = options;
    this.kind = options.name;
    this.label = options.label ?? options.name;
    this.commandLine = [options.command, ...(options.args ?? [])].map(quoteArg).join(' ');
    this.fallback = new RulePlayer({ seat: 0, seed: options.seed });
    this.exited = new Promise((resolve) => (this.markExited = resolve));
  }

  /**
   * Seeds the fallback player anew (a tournament does this for each game it plays, so the fallback's
   * cards depend on the game, not on which copy of the program played which games before).
   */
  reseedFallback(seed: number): void {
    this.fallback = new RulePlayer({ seat: 0, seed });
  }

  /** Starts a player and waits for its ready. */
  static async start(options: ExternalPlayerOptions): Promise<ExternalPlayer> {
    return new ExternalPlayer(options).start();
  }

  /** The process, for inspection (exitCode, signalCode, pid); null before start. */
  get childProcess(): ChildProcess | null {
    return this.child;
  }

  /** True while the program can still be asked for moves. */
  get alive(): boolean {
    return this.phase === 'ready' && this.death === null;
  }

  /** Spawns the program, sends hello and waits for ready. Rejects with an ExternalPlayerError. */
  async start(): Promise<this> {
    if (this.phase !== 'idle') throw new Error(`external player '${this.kind}' was already started`);
    this.phase = 'starting';
    const { command, args = [], cwd, env } = this.options;
    let child: ChildProcess;
    try {
      child = spawn(command, args, {
        shell: false,
        stdio: ['pipe', 'pipe', 'pipe'],
        ...(cwd !== undefined ? { cwd } : {}),
        ...(env !== undefined ? { env } : {}),
      });
    } catch (e) {
      this.phase = 'closed';
      this.exitDone();
      throw this.error(`did not start (${e instanceof Error ? e.message : String(e)})`);
    }
    this.child = child;
    if (child.pid !== undefined) track(child);
    this.wire(child);

    const helloTimeoutMs = this.options.helloTimeoutMs ?? 5000;
    const ready = new Promise<string | null>((resolve, reject) => {
      const timer = setTimeout(() => this.failHandshake(`no ready within ${helloTimeoutMs} ms`), helloTimeoutMs);
      this.handshake = { resolve, reject, timer };
    });
    this.send(helloMessage(this.kind));
    try {
      this.readyName = await ready;
    } catch (e) {
      // Stopping it now is not a death to report.
      this.phase = 'closing';
      await this.terminate();
      this.phase = 'closed';
      throw e;
    }
    // A death noticed during the handshake has already rejected it.
    this.phase = 'ready';
    return this;
  }

  observe(event: GameEvent): void {
    if (!this.alive) return;
    if (event.type === 'deal') this.games++;
    this.send(eventMessage(event, this.games));
  }

  /** The program's card for this turn, or the fallback's with the fault that made it necessary. */
  choose(view: SeatView, deadlineMs: number = this.options.moveTimeoutMs ?? 2000): Promise<AsyncChoice> {
    if (this.pending)
      return Promise.reject(
        new Error(`external player '${this.kind}': choose() called while turn ${this.pending.id} is pending`),
      );
    if (this.phase === 'idle' || this.phase === 'starting')
      return Promise.reject(new Error(`external player '${this.kind}' is not started`));
    if (!this.alive) {
      if (this.death !== null && !this.deathReported) {
        this.deathReported = true;
        return Promise.resolve(this.fallbackChoice(view, { kind: 'died', detail: this.deathDetail() }));
      }
      return Promise.resolve(this.fallbackChoice(view, null));
    }
    const id = this.nextId++;
    return new Promise<AsyncChoice>((resolve) => {
      // The deadline is judged after the I/O already waiting is read (setImmediate runs after the event
      // loop's poll phase): an answer that arrived in time while this thread was busy is on time.
      const late = (): void =>
        this.settle(
          id,
          { kind: 'late', detail: `no move for turn ${id} within ${deadlineMs} ms` },
          undefined,
          false,
          deadlineMs,
        );
      const timer = setTimeout(() => setImmediate(late), deadlineMs);
      this.pending = { id, view, legal: view.legalCards(), resolve, timer };
      this.send(turnMessage(id, view, deadlineMs));
    });
  }

  /**
   * Sends bye, closes stdin, waits briefly for the exit, then stops the program (SIGTERM, then SIGKILL
   * after killGraceMs). With `stop`, no bye and no wait: the program is stopped at once, whatever it is
   * doing (a tournament being stopped). Safe to call more than once; a stop hurries a close under way.
   */
  close(options: { stop?: boolean } = {}): Promise<void> {
    if (options.stop) {
      this.stopping = true;
      this.hurry?.();
    }
    this.closing ??= this.doClose();
    return this.closing;
  }

  private stopping = false;
  /** Ends the wait for an exit after bye, when a stop arrives during it. */
  private hurry: (() => void) | null = null;

  private async doClose(): Promise<void> {
    const wasReady = this.phase === 'ready';
    if (this.phase === 'idle') {
      this.phase = 'closed';
      this.exitDone();
      return;
    }
    this.phase = 'closing';
    this.failHandshake('closed before it said ready');
    if (this.pending) this.settle(this.pending.id, null, undefined, true);
    if (!this.hasExited && this.child) {
      if (wasReady && this.death === null && !this.stopping) {
        this.send({ type: 'bye' });
        this.child.stdin?.end();
        const hurried = new Promise<void>((resolve) => (this.hurry = resolve));
        await within(Promise.race([this.exited, hurried]), this.options.closeTimeoutMs ?? 500);
        this.hurry = null;
      }
      await this.terminate();
    }
    this.clearGrace();
    this.phase = 'closed';
  }

  // ---- the process ---------------------------------------------------------------------------

  private wire(child: ChildProcess): void {
    child.on('error', (err) => {
      if (child.pid === undefined) {
        this.onDeath(`did not start (${err.message})`);
        this.exitDone();
      } else {
        this.logLine(`process error: ${err.message}`);
      }
    });
    child.on('exit', (code, signal) => {
      this.exitInfo ??= { code, signal };
      // 'close' follows once the pipes are drained; a grandchild holding them must not keep us waiting.
      this.armGrace(() => this.onClosed());
    });
    child.on('close', (code, signal) => {
      this.exitInfo ??= { code, signal };
      this.onClosed();
    });
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => this.onStdout(chunk));
    child.stdout!.on('end', () => this.onBroken('closed its stdout'));
    child.stdout!.on('error', (err) => this.onBroken(`stdout failed (${err.message})`));
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => this.onStderr(chunk));
    child.stderr!.on('error', () => {});
    child.stdin!.on('error', (err: NodeJS.ErrnoException) =>
      this.onBroken(`could not be written to (${err.code ?? err.message})`),
    );
  }

  private send(message: RuntimeMessage): void {
    const stdin = this.child?.stdin;
    if (!stdin || stdin.destroyed || stdin.writableEnded || this.death !== null) return;
    try {
      stdin.write(`${JSON.stringify(message)}\n`);
    } catch (e) {
      this.onBroken(`could not be written to (${e instanceof Error ? e.message : String(e)})`);
    }
  }

  /** A pipe broke: the process is probably exiting; give its exit a moment to explain why. */
  private onBroken(reason: string): void {
    if (this.death !== null || this.phase === 'closing' || this.phase === 'closed' || this.graceTimer) return;
    this.armGrace(() => this.onDeath(reason));
  }

  private armGrace(then: () => void): void {
    this.clearGrace();
    this.graceTimer = setTimeout(() => {
      this.graceTimer = null;
      then();
    }, GRACE_MS);
  }

  private clearGrace(): void {
    if (this.graceTimer) clearTimeout(this.graceTimer);
    this.graceTimer = null;
  }

  /** The process has exited and its pipes are closed (or we stopped waiting for them). */
  private onClosed(): void {
    this.clearGrace();
    if (this.stderrBuf) this.stderrLine(this.stderrBuf);
    this.stderrBuf = '';
    const e = this.exitInfo;
    this.onDeath(
      e === null ? 'exited' : e.code !== null ? `exited with code ${e.code}` : `was killed by signal ${e.signal}`,
    );
    for (const s of [this.child?.stdin, this.child?.stdout, this.child?.stderr]) s?.destroy();
    this.exitDone();
  }

  private exitDone(): void {
    this.hasExited = true;
    this.markExited();
  }

  /** The program can no longer play. Ends a pending handshake or turn at once. */
  private onDeath(reason: string): void {
    if (this.death !== null) return;
    this.death = reason;
    this.clearGrace();
    if (this.exitInfo === null && this.child && this.child.pid !== undefined) this.child.kill('SIGKILL');
    if (this.phase === 'closing' || this.phase === 'closed') return;
    if (this.handshake) {
      this.failHandshake(`${reason} before saying ready${this.stderrSuffix()}`);
      return;
    }
    this.logLine(`died: ${this.deathDetail()}`);
    if (this.pending) {
      this.deathReported = true;
      this.settle(this.pending.id, { kind: 'died', detail: this.deathDetail() });
    }
  }

  /** Stops the process if it is still running (SIGTERM, then SIGKILL after the grace) and waits (bounded) for the exit. */
  private async terminate(): Promise<void> {
    if (this.hasExited || !this.child) return;
    if (this.exitInfo === null) {
      this.child.kill('SIGTERM');
      if (await within(this.exited, this.options.killGraceMs ?? 1000)) return;
    }
    if (this.exitInfo === null) this.child.kill('SIGKILL');
    if (!(await within(this.exited, KILL_WAIT_MS))) {
      this.logLine(`no exit seen ${KILL_WAIT_MS} ms after SIGKILL`);
      this.onClosed();
    }
  }

  // ---- output --------------------------------------------------------------------------------

  private onStdout(chunk: string): void {
    this.stdoutBuf += chunk;
    let nl: number;
    while ((nl = this.stdoutBuf.indexOf('\n')) >= 0) {
      const line = this.stdoutBuf.slice(0, nl).replace(/\r$/, '');
      this.stdoutBuf = this.stdoutBuf.slice(nl + 1);
      if (line.trim()) this.onLine(line);
    }
    if (this.stdoutBuf.length > MAX_LINE) {
      const line = this.stdoutBuf;
      this.stdoutBuf = '';
      this.onLine(line);
    }
  }

  private onLine(line: string): void {
    if (this.death !== null) return;
    const message = parsePlayerLine(line);
    if (this.handshake) {
      if (message.type === 'ready') {
        const h = this.handshake;
        this.handshake = null;
        clearTimeout(h.timer);
        h.resolve(message.name);
      } else {
        const why = message.type === 'invalid' ? message.reason : `a ${message.type}`;
        this.failHandshake(`sent unreadable line ${quoteLine(line)} (${why}) instead of ready`);
      }
      return;
    }
    if (this.phase !== 'ready') return;
    if (message.type === 'ready') return this.logLine('ignored a second ready');
    const p = this.pending;
    const id = message.id;
    if (id !== null && id >= 1 && id < this.nextId && id !== p?.id) {
      return this.logLine(`ignored a late answer to turn ${id}: ${quoteLine(line)}`);
    }
    if (!p) return this.logLine(`ignored a line outside any turn: ${quoteLine(line)}`);
    if (message.type === 'invalid') {
      return this.settle(p.id, { kind: 'unreadable', detail: `turn ${p.id}: ${message.reason}: ${quoteLine(line)}` });
    }
    if (message.id !== p.id) {
      return this.settle(p.id, {
        kind: 'unreadable',
        detail: `turn ${p.id}: answered with id ${message.id}: ${quoteLine(line)}`,
      });
    }
    if (!p.legal.includes(message.card)) {
      return this.settle(p.id, {
        kind: 'illegal',
        detail: `turn ${p.id}: played ${formatCard(message.card)}, legal were ${formatCards(p.legal).join(' ')}`,
      });
    }
    this.settle(p.id, null, message.card);
  }

  /**
   * Ends turn `id`: with the program's card, or with the fallback's and the fault. A turn that timed out
   * is told to the program (`timeout`, with the card played for it) before anything else it is sent, so
   * it can drop its work on that turn and be on time for the next.
   */
  private settle(id: number, fault: PlayerFault | null, card?: Card, quiet = false, deadlineMs?: number): void {
    const p = this.pending;
    if (!p || p.id !== id) return;
    clearTimeout(p.timer);
    this.pending = null;
    if (fault && fault.kind !== 'died' && !quiet) this.logLine(`${fault.kind}: ${fault.detail}`);
    const choice = card !== undefined && !fault ? { card, fault: null } : this.fallbackChoice(p.view, fault);
    if (fault?.kind === 'late')
      this.send({ type: 'timeout', id, card: formatCard(choice.card), deadlineMs: deadlineMs ?? 0 });
    p.resolve(choice);
  }

  private fallbackChoice(view: SeatView, fault: PlayerFault | null): AsyncChoice {
    return { card: this.fallback.choose(view), fault };
  }

  private failHandshake(problem: string): void {
    const h = this.handshake;
    if (!h) return;
    this.handshake = null;
    clearTimeout(h.timer);
    h.reject(this.error(problem));
  }

  private onStderr(chunk: string): void {
    this.stderrBuf += chunk;
    let nl: number;
    while ((nl = this.stderrBuf.indexOf('\n')) >= 0) {
      this.stderrLine(this.stderrBuf.slice(0, nl).replace(/\r$/, ''));
      this.stderrBuf = this.stderrBuf.slice(nl + 1);
    }
    if (this.stderrBuf.length > MAX_LINE) {
      this.stderrLine(this.stderrBuf);
      this.stderrBuf = '';
    }
  }

  private stderrLine(line: string): void {
    this.stderrTail.push(line.length > 300 ? `${line.slice(0, 300)}...` : line);
    if (this.stderrTail.length > STDERR_TAIL_LINES) this.stderrTail.shift();
    if (this.stderrShown > MAX_STDERR_SHOWN) return;
    this.stderrShown += line.length + 1;
    if (this.stderrShown > MAX_STDERR_SHOWN)
      this.options.log?.(`[${this.label} stderr] (more than 64 kB: the rest of its stderr is not shown)`);
    else this.options.log?.(`[${this.label} stderr] ${line}`);
  }

  private logLine(line: string): void {
    this.options.log?.(`[${this.label}] ${line}`);
  }

  private stderrSuffix(): string {
    const tail = this.stderrTail.filter((l) => l.trim());
    return tail.length ? `; stderr: ${tail.join(' | ')}` : '';
  }

  private deathDetail(): string {
    return `${this.death ?? 'alive'}${this.stderrSuffix()}`;
  }

  private error(problem: string): ExternalPlayerError {
    return new ExternalPlayerError(this.kind, this.commandLine, problem);
  }
}
