// Runs the built `parceiro` as a user would, from `cwd`, and collects what it printed and its exit code.
// Asynchronously on purpose: a test file that runs the program with spawnSync blocks vitest's worker
// for as long as the file takes, so the worker cannot read the answers to its progress reports, and
// past 60 s (a loaded machine) vitest fails the run ("Timeout calling onTaskUpdate").

import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const CLI = fileURLToPath(new URL('../../dist/launch/cli.js', import.meta.url));

/** The program's exit code (-1 when a signal ended it, named in `signal`), standard output and error. */
export interface CliRun {
  code: number;
  signal: NodeJS.Signals | null;
  out: string;
  err: string;
}

/**
 * Runs `parceiro args...` in `cwd`, with `input` on its standard input (none: an empty one); `nodeArgs`
 * go to Node before the program (e.g. `--max-old-space-size=64`).
 */
export function runCli(args: string[], cwd: string, input?: string, nodeArgs: readonly string[] = []): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, CLI, ...args], { cwd });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code: code ?? -1, signal, out, err }));
    // A program that exits without reading all of its input is not an error here.
    child.stdin.on('error', () => {});
    child.stdin.end(input ?? '');
  });
}

/** A `parceiro` (the program at `cli`) left running: what it printed so far, and its end. */
export interface RunningCli {
  child: ChildProcessWithoutNullStreams;
  out: () => string;
  done: Promise<{ code: number | null; signal: string | null; err: string }>;
}

/** Starts `parceiro args...` in `cwd` and leaves it running (to kill it at a moment it prints). */
export function startCli(args: string[], cwd: string, cli = CLI): RunningCli {
  const child = spawn(process.execPath, [cli, ...args], { cwd });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const done = new Promise<{ code: number | null; signal: string | null; err: string }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, err })),
  );
  return { child, out: () => out, done };
}
