// Runs a speech program: argument array, no shell, input on stdin as bytes, a time limit. Nothing the
// robot says can become a command, because no text is ever parsed by a shell.

import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';

interface ProcessResult {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

/** The program could not run, timed out, or failed; `message` says which in one line. */
export class SpeechBackendError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SpeechBackendError';
  }
}

export interface RunOptions {
  input?: Buffer;
  timeoutMs: number;
  /** Told about the child so that `stop()` can end it. */
  onSpawn?: (child: ChildProcess) => void;
}

export function runProcess(command: string, args: readonly string[], options: RunOptions): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    let child: ChildProcess;
    try {
      child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'], shell: false, windowsHide: true });
    } catch (e) {
      reject(new SpeechBackendError(`cannot start ${command}: ${(e as Error).message}`));
      return;
    }
    options.onSpawn?.(child);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let settled = false;
    const finish = (f: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      f();
    };
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      finish(() => reject(new SpeechBackendError(`${command} did not finish within ${options.timeoutMs} ms`)));
    }, options.timeoutMs);
    child.stdout!.on('data', (d: Buffer) => out.push(d));
    child.stderr!.on('data', (d: Buffer) => err.push(d));
    child.on('error', (e: NodeJS.ErrnoException) =>
      finish(() =>
        reject(
          new SpeechBackendError(
            e.code === 'ENOENT' ? `${command} is not installed (not found on PATH)` : `${command}: ${e.message}`,
          ),
        ),
      ),
    );
    child.on('close', (code, signal) =>
      finish(() =>
        signal && code === null
          ? reject(new SpeechBackendError(`${command} was stopped (${signal})`))
          : resolve({ code, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8') }),
      ),
    );
    // A program that exits without reading its input closes the pipe; that is its exit's business.
    child.stdin!.on('error', () => {});
    child.stdin!.end(options.input ?? Buffer.alloc(0));
  });
}

/** The first line of a program's complaint, for a one-line warning. */
export const firstLine = (s: string): string =>
  s
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l.length > 0) ?? '';

/** Plays a WAV file with the configured player; a failure names the player and its complaint. */
export async function play(
  player: readonly string[],
  wav: string,
  timeoutMs: number,
  onSpawn?: (c: ChildProcess) => void,
): Promise<void> {
  const [command, ...args] = player;
  const r = await runProcess(command!, [...args, wav], { timeoutMs, ...(onSpawn ? { onSpawn } : {}) });
  if (r.code !== 0)
    throw new SpeechBackendError(
      `${command} could not play the audio (exit ${r.code}${r.stderr ? `: ${firstLine(r.stderr)}` : ''})`,
    );
}
