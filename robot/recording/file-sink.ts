// Where a recording's bytes go: appended to a file, flushed at least every `flushMs` (and on close),
// so a crash of the runtime loses at most the last second of the session.

import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs';
import type { IWritable } from '@mcap/core';

export class FileSink implements IWritable {
  private readonly fd: number;
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  private written = 0n;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  /** Written to the file but not yet fsynced. */
  private unsynced = false;

  constructor(
    readonly path: string,
    private readonly flushMs = 1000,
  ) {
    this.fd = openSync(path, 'w');
  }

  async write(buffer: Uint8Array): Promise<void> {
    if (this.closed) throw new Error(`recording ${this.path} is closed`);
    // The writer may reuse its buffer: keep a copy.
    this.pending.push(buffer.slice());
    this.pendingBytes += buffer.byteLength;
    this.written += BigInt(buffer.byteLength);
    if (this.pendingBytes >= 1 << 20) this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => this.flush(), this.flushMs);
      this.timer.unref();
    }
  }

  position(): bigint {
    return this.written;
  }

  /** Writes what is pending to the file and asks the OS to keep it on disk. */
  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    this.#writePending();
    if (!this.unsynced) return;
    fsyncSync(this.fd);
    this.unsynced = false;
  }

  /**
   * Writes what is pending to the file without waiting for the disk: a crash of the process loses
   * none of it (the OS has it); the timer's flush still fsyncs within flushMs.
   */
  writeOut(): void {
    if (this.closed) return;
    this.#writePending();
    if (this.unsynced && !this.timer) {
      this.timer = setTimeout(() => this.flush(), this.flushMs);
      this.timer.unref();
    }
  }

  #writePending(): void {
    if (!this.pendingBytes) return;
    const all = Buffer.concat(this.pending);
    this.pending = [];
    this.pendingBytes = 0;
    let off = 0;
    while (off < all.length) off += writeSync(this.fd, all, off);
    this.unsynced = true;
  }

  close(): void {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    closeSync(this.fd);
  }
}
