import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.js';

// The fast loop (npm run test:unit): the unit-level tests, about two minutes on two cores. Left out
// are the tests that run the built program as a user would (test/launch), the fault suite, the
// browser tests, the tests on a real ROS 2 graph (test/ros2) and the files that play whole sessions (each over 20 s on a loaded two-core
// machine); `npm test`, which CI runs, runs them all.
export default mergeConfig(
  base,
  defineConfig({
    test: {
      exclude: [
        'test/launch/**',
        'test/fault/**',
        'test/ros2/**',
        '**/*.browser.test.ts',
        'test/appraisal/properties.test.ts',
        'test/appraisal/scenarios.test.ts',
        'test/learned/dataset-cli.test.ts',
        'test/learned/human-model.test.ts',
        'test/learned/onnx.test.ts',
        'test/robot/advice.test.ts',
        'test/robot/external-player-tournament.test.ts',
        'test/robot/lab-day.test.ts',
        'test/robot/level-memory.test.ts',
        'test/robot/node-estimates.test.ts',
        'test/robot/people-model.test.ts',
        'test/robot/physical-replay.test.ts',
        'test/robot/prediction.test.ts',
        'test/robot/replay-formats.test.ts',
        'test/robot/replay-ros2-bus.test.ts',
        'test/robot/replay-sessions.test.ts',
        'test/robot/review.test.ts',
        'test/robot/social-scenarios.test.ts',
        'test/robot/speech-timing.test.ts',
        'test/robot/why.test.ts',
        'test/solver/bounds.test.ts',
        'test/solver/classes.test.ts',
        'test/solver/solver.test.ts',
        'test/table-bridge/tuio-games.test.ts',
        // parceiro study as a lab runs it: the built program, and simulated sessions.
        'test/study/study-cli.test.ts',
        'test/study/study-export.test.ts',
        'test/study/study-resume.test.ts',
        'test/study/study-run.test.ts',
        'test/study/study-conditions.test.ts',
        'test/study/study-partner.test.ts',
      ],
    },
  }),
);
