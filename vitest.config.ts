import { BaseSequencer } from 'vitest/node';
import type { TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/**
 * The files that take longest (a minute or so each), started first: two files run at a time, and one
 * of these started last would leave the other worker idle at the end of the run. vitest orders by
 * the last run's durations when it has them (node_modules/.vite), but a fresh clone (CI) has none and
 * would start the largest files first. Files next to each other in the list mostly run side by side:
 * the ones that keep the CPU busy (config-errors, cli, the fault suite's programs, the tournaments,
 * replay-large) alternate with ones that mostly wait (sessions at a person's pace, browsers). The order
 * is a whole run's file times (two workers, an idle 2-core machine), with the files whose cases were
 * since made to run at once moved down by what they saved alone. The rest as vitest orders them.
 */
const SLOWEST_FIRST = [
  'test/launch/readme.test.ts',
  'test/launch/config-errors.test.ts',
  'test/robot/speech-timing.test.ts',
  'test/launch/cli.test.ts',
  'test/robot/replay-sessions.test.ts',
  'test/fault/damaged-recordings.test.ts',
  'test/robot/dashboard.browser.test.ts',
  'test/launch/tournament-stop.test.ts',
  'test/robot/review.browser.test.ts',
  'test/fault/crash-resume.test.ts',
  'test/robot/node-estimates.test.ts',
  'test/launch/restart.test.ts',
  'test/robot/advice.test.ts',
  'test/launch/tournament-queue.test.ts',
  'test/robot/virtual-table.browser.test.ts',
  'test/launch/replay-large.test.ts',
  'test/ros2/launch.ros2.test.ts',
  'test/launch/live-day.test.ts',
  'test/robot/social-scenarios.test.ts',
  'test/robot/people-model.test.ts',
  'test/robot/lab-day.browser.test.ts',
  'test/robot/lab-day.test.ts',
  'test/table-bridge/tuio-games.test.ts',
  'test/launch/resume-summary.test.ts',
  'test/launch/simulate.test.ts',
];

class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification): number => {
      const i = SLOWEST_FIRST.findIndex((name) => f.moduleId.endsWith(`/${name}`));
      return i < 0 ? SLOWEST_FIRST.length : i;
    };
    const rest = await super.sort(files.filter((f) => rank(f) === SLOWEST_FIRST.length));
    return [...files.filter((f) => rank(f) < SLOWEST_FIRST.length).sort((a, b) => rank(a) - rank(b)), ...rest];
  }
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // CLI tests spawn the built program and tournaments use worker threads: give them room on 2 cores.
    testTimeout: 60_000,
    pool: 'forks',
    // Three test files at a time: most of the long ones wait on spawned programs, sockets, browsers and
    // timers, not the CPU. On two cores, the same tree: 1,199 s with two at a time, 1,009 s with three
    // (vitest's default on 2 cores is one at a time). With the command line bundled (launch/bundle.mjs),
    // 722 s on an idle 2-core machine; four at a time was no faster, and isolate: false failed.
    maxWorkers: 3,
    minWorkers: 1,
    sequence: { sequencer: SlowestFirst },
    // Tests that drive chromium, espeak-ng or festival skip without them (CI fails instead); this
    // prints, once at the end of the run, what was skipped and how to install it.
    globalSetup: ['test/system-programs-note.ts'],
    setupFiles: ['test/yield-between-tests.ts'],
  },
});
