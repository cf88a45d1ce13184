// Reading a file a person or a file names, within a bound: /dev/zero, a FIFO that never ends or a
// file of gigabytes must end a command in one line, not grow its memory until the process dies.
// Every reader of a named file or of standard input goes through here (config files, game records,
// scenarios, model files, recordings' kind check), each with the bound of what it expects to read.

import type { Stats } from 'node:fs';
import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';

/** A file that could not be read within its bound; `reason` says why, without the file's name. */
export class BoundedReadError extends Error {
  constructor(
    readonly reason: string,
    /** The system's error code when the file could not be read at all (ENOENT...). */
    readonly code?: string,
  ) {
    super(reason);
    this.name = 'BoundedReadError';
  }
}

/** A size in words: 64 MB, 512 kB. */
export const sizeInWords = (bytes: number): string =>
  bytes >= 1 << 20 ? `${+(bytes / (1 << 20)).toFixed(1)} MB` : `${+(bytes / 1024).toFixed(1)} kB`;

const kindOf = (st: Stats): string =>
  st.isDirectory()
    ? 'a directory'
    : st.isFIFO()
      ? 'a named pipe (FIFO)'
      : st.isCharacterDevice()
        ? 'a character device'
        : st.isBlockDevice()
          ? 'a block device'
          : st.isSocket()
            ? 'a socket'
            : 'not a regular file';

/**
 * What kind of file system object `path` is, in words, when it is not a regular file (null when it
 * is): for readers that need a file they can seek in (a recording), not a stream.
 */
export function notAFile(path: string, expected = 'a recording file'): string | null {
  let st: Stats;
  try {
    st = statSync(path);
  } catch (e) {
    return `cannot read the file (${(e as NodeJS.ErrnoException).code ?? String(e)})`;
  }
  return st.isFile() ? null : `is ${kindOf(st)}, not ${expected}`;
}

const why = (e: unknown): string => {
  const code = (e as NodeJS.ErrnoException).code;
  return code === 'ENOENT'
    ? 'no such file'
    : code === 'EISDIR'
      ? 'is a folder'
      : code === 'EACCES'
        ? 'permission denied'
        : (code ?? (e as Error).message);
};

const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Reads what comes next into `chunk`: the bytes read, 0 at the end. A non-blocking standard input
 * with nothing yet is waited for a little and read again.
 */
function readSome(fd: number, chunk: Buffer): number {
  for (;;) {
    try {
      return readSync(fd, chunk, 0, chunk.length, null);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') {
        Atomics.wait(pause, 0, 0, 10);
        continue;
      }
      if (code === 'EOF') return 0;
      throw new BoundedReadError(why(e), code);
    }
  }
}

/** What a bounded read is for: its most bytes, and what the file should be, to say why in one line. */
export interface ReadBound {
  /** The most bytes read; one more and the read stops with a BoundedReadError. */
  maxBytes: number;
  /** What the file should be, e.g. "a game record"; the message says the bound is this reader's. */
  what: string;
}

export const tooLarge = (bound: ReadBound): string =>
  `more than ${sizeInWords(bound.maxBytes)}, the most read as ${bound.what} (is it the right file?)`;

/**
 * Reads `file` (a path, or 0 for standard input) through, at most `bound.maxBytes`: a regular file is
 * refused by its size before it is read; a device, FIFO or pipe is read until the bound, then
 * refused. Throws BoundedReadError.
 */
export function readBounded(file: string | 0, bound: ReadBound): Buffer {
  let fd: number;
  try {
    fd = file === 0 ? 0 : openSync(file, 'r');
  } catch (e) {
    throw new BoundedReadError(why(e), (e as NodeJS.ErrnoException).code);
  }
  try {
    return readFd(fd, bound);
  } finally {
    if (file !== 0) closeSync(fd);
  }
}

function readFd(fd: number, bound: ReadBound): Buffer {
  let st: Stats | null = null;
  try {
    st = fstatSync(fd);
  } catch {
    // Standard input closed or odd: read it and see.
  }
  if (st?.isDirectory()) throw new BoundedReadError('is a folder', 'EISDIR');
  if (st?.isFile() && st.size > bound.maxBytes) throw new BoundedReadError(tooLarge(bound));
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(Math.min(1 << 16, bound.maxBytes + 1 - total));
    const n = readSome(fd, chunk);
    if (n === 0) break;
    total += n;
    if (total > bound.maxBytes) throw new BoundedReadError(tooLarge(bound));
    chunks.push(n === chunk.length ? chunk : chunk.subarray(0, n));
  }
  return Buffer.concat(chunks, total);
}

/**
 * The lines of `file` (a path, or 0 for standard input), read 64 kB at a time, so that a file of any
 * length is read in the memory of its longest line; a line longer than `bound.maxBytes` (a file of
 * zeros, or not one of lines) stops the read with a BoundedReadError naming its line.
 */
export function* readBoundedLines(file: string | 0, bound: ReadBound): Generator<string, void, undefined> {
  let fd: number;
  try {
    fd = file === 0 ? 0 : openSync(file, 'r');
  } catch (e) {
    throw new BoundedReadError(why(e), (e as NodeJS.ErrnoException).code);
  }
  const decoder = new TextDecoder('utf-8');
  try {
    try {
      if (fstatSync(fd).isDirectory()) throw new BoundedReadError('is a folder', 'EISDIR');
    } catch (e) {
      if (e instanceof BoundedReadError) throw e;
    }
    const chunk = Buffer.allocUnsafe(1 << 16);
    let pending = '';
    let line = 0;
    for (;;) {
      const n = readSome(fd, chunk);
      pending += n === 0 ? decoder.decode() : decoder.decode(chunk.subarray(0, n), { stream: true });
      const parts = pending.split('\n');
      pending = parts.pop()!;
      for (const p of parts) {
        line++;
        yield p;
      }
      if (Buffer.byteLength(pending) > bound.maxBytes)
        throw new BoundedReadError(`line ${line + 1}: longer than ${tooLarge(bound).slice('more than '.length)}`);
      if (n === 0) break;
    }
    if (pending) yield pending;
  } finally {
    if (file !== 0) closeSync(fd);
  }
}
