import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // CLI tests spawn the built program and tournaments use worker threads: give them room on 2 cores.
    testTimeout: 60_000,
    pool: 'forks',
    // Tests that drive chromium, espeak-ng or festival skip without them (CI fails instead); this
    // prints, once at the end of the run, what was skipped and how to install it.
    globalSetup: ['test/system-programs-note.ts'],
  },
});
