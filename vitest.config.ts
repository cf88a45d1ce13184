import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // CLI tests spawn the built program and tournaments use worker threads: give them room on 2 cores.
    testTimeout: 60_000,
    pool: 'forks',
    // Two test files at a time: most of the long ones wait on spawned programs, sockets and timers, not
    // the CPU (vitest's default on 2 cores is one at a time, and the suite took 12 minutes).
    maxWorkers: 2,
    minWorkers: 1,
    // Tests that drive chromium, espeak-ng or festival skip without them (CI fails instead); this
    // prints, once at the end of the run, what was skipped and how to install it.
    globalSetup: ['test/system-programs-note.ts'],
    setupFiles: ['test/yield-between-tests.ts'],
  },
});
