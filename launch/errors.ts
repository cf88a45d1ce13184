// User mistakes (a bad option, an unreadable file, a broken config file, a port in use) end the
// program with one clear line and exit code 2, never a stack trace (cli.ts lists the error classes
// that are told so: this one, and the config loaders' and the recording reader's, each naming the
// file, line and key). The start-up steps' system errors (EADDRINUSE, ENOTFOUND...) are turned here
// into a UsageError naming the option and its value. Imports nothing of ours: the tournament's
// workers load this file.

import { closeSync, mkdirSync, openSync, rmSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** Parses a whole number option, naming the option when it is not one. */
export function intOption(name: string, min: number, max = Number.MAX_SAFE_INTEGER) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^-?\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min || n > max) {
      throw new UsageError(
        `${name} expects a whole number from ${min}${max < Number.MAX_SAFE_INTEGER ? ` to ${max}` : ' up'}, got "${value}"`,
      );
    }
    return n;
  };
}

/** A session id names its recording inside the recordings folder: no path of any kind. */
export function sessionIdOption(name: string, value: string): string {
  if (!/^[\w.-]+$/.test(value) || /^\.+$/.test(value))
    throw new UsageError(`${name} expects a session id (letters, digits, dot, dash or underscore), got "${value}"`);
  return value;
}

/**
 * The shortest token an option may set. The generated ones are longer (the table's 24 hex digits,
 * 96 bits; the operator's 24 base64url characters, 144 bits); 16 characters of either kind is 64 bits
 * or more, out of reach of guessing over the network.
 */
const MIN_TOKEN_LENGTH = 16;

/** A token from an option: empty means "make one" (undefined; the ROS 2 launch file passes ''), a weak one is refused. */
export function tokenOption(name: string, value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^[\x21-\x7e]+$/.test(value))
    throw new UsageError(`${name}: a token is printable ASCII without spaces, got ${JSON.stringify(value)}`);
  if (value.length < MIN_TOKEN_LENGTH) {
    throw new UsageError(
      `${name}: a token needs at least ${MIN_TOKEN_LENGTH} characters, got ${value.length} (leave it out to have a strong one made and printed)`,
    );
  }
  return value;
}

/** An option's value and what set it, for messages: `--port` or `config/node.yaml table.port`. */
interface Setting<T> {
  value: T;
  from: string;
}

/** Where a command starts listening and recording, to name the option behind a system error. */
export interface StartPlaces {
  host?: Setting<string>;
  port?: Setting<number>;
  dashboardPort?: Setting<number>;
  recordings?: Setting<string>;
}

const errnoOf = (e: unknown): (NodeJS.ErrnoException & { port?: unknown; hostname?: unknown }) | null =>
  e instanceof Error && typeof (e as NodeJS.ErrnoException).code === 'string' ? (e as NodeJS.ErrnoException) : null;

const said = (s: Setting<string | number>): string => `${s.from} ${JSON.stringify(s.value)}`;

/** A start-up step's system error as one line naming the option; anything else is returned as it is. */
export function startError(e: unknown, at: StartPlaces): unknown {
  const err = errnoOf(e);
  if (!err) return e;
  const host = at.host ? said(at.host) : 'the address';
  switch (err.code) {
    case 'EADDRINUSE':
    case 'EACCES': {
      if (err.syscall !== 'listen' && err.syscall !== 'bind') break;
      const port = Number(err.port);
      const which = [at.port, at.dashboardPort].filter(
        (s): s is Setting<number> => s !== undefined && s.value === port,
      );
      const named = which.length ? which.map(said).join(' and ') : `port ${port}`;
      return new UsageError(
        err.code === 'EADDRINUSE'
          ? `${named}: the port is in use (another program listens there); choose another, or 0 for a free one`
          : `${named}: not allowed to listen on this port (ports under 1024 need privileges); choose another, or 0 for a free one`,
      );
    }
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_FAIL':
      return new UsageError(`${host}: no such address or host name`);
    case 'EADDRNOTAVAIL':
      return new UsageError(`${host}: not an address of this machine, so nothing can listen on it`);
    case 'EAFNOSUPPORT':
      return new UsageError(`${host}: this machine cannot listen on that kind of address`);
  }
  if (at.recordings && typeof err.path === 'string' && resolve(err.path).startsWith(resolve(at.recordings.value))) {
    return new UsageError(`${said(at.recordings)}: cannot write the recording there (${why(err)})`);
  }
  return e;
}

const why = (e: NodeJS.ErrnoException): string =>
  ({
    ENOENT: 'no such file or folder',
    ENOTDIR: 'a part of the path is a file, not a folder',
    EACCES: 'permission denied',
    EPERM: 'not permitted',
    EROFS: 'a read-only file system',
    EEXIST: 'already exists',
    ENOSPC: 'no space left on the device',
    EISDIR: 'is a folder',
  })[e.code ?? ''] ??
  e.code ??
  e.message;

/**
 * Makes the recordings folder and checks that a file can be written in it, before anything opens:
 * a mistake stops the command at once in one line, and leaves no recording behind. Each missing
 * level is made on its own (Node's recursive mkdir loops for ever under /proc).
 */
export function ensureRecordingsDir(at: Setting<string>): void {
  const dir = resolve(at.value);
  const fail = (e: unknown): never => {
    const reason = typeof e === 'string' ? e : errnoOf(e) ? why(errnoOf(e)!) : String(e);
    throw new UsageError(`${said(at)}: cannot keep recordings there (${reason})`);
  };
  const missing: string[] = [];
  for (let d = dir; ; d = dirname(d)) {
    let isDir: boolean;
    try {
      isDir = statSync(d).isDirectory();
    } catch (e) {
      if (errnoOf(e)?.code !== 'ENOENT') fail(e);
      missing.unshift(d);
      if (dirname(d) === d) break;
      continue;
    }
    if (!isDir) fail(d === dir ? 'it is a file, not a folder' : `${d} is a file, not a folder`);
    break;
  }
  for (const d of missing) {
    try {
      mkdirSync(d);
    } catch (e) {
      if (errnoOf(e)?.code !== 'EEXIST') fail(e);
    }
  }
  const probe = resolve(dir, `.parceiro-write-check-${process.pid}`);
  try {
    closeSync(openSync(probe, 'wx'));
    rmSync(probe, { force: true });
  } catch (e) {
    fail(e);
  }
}
