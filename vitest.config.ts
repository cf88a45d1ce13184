import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // CLI tests spawn the built program and tournaments use worker threads: give them room on 2 cores.
    testTimeout: 60_000,
    pool: 'forks',
  },
});
