// vitest's globalSetup (vitest.config.ts): once the run is over, one line on stderr per missing
// system program, with how many tests it skipped and how to install it (see system-programs.ts).
// A globalSetup runs in every run, whatever reporter was chosen; its teardown comes after the
// reporter's summary, so the lines are the last thing printed.

import type { TestProject } from 'vitest/node';
import { summary } from './system-programs-check.js';

export default function setup(project: TestProject): () => void {
  return () => {
    const notes: (string | undefined)[] = [];
    for (const module of project.vitest.state.getTestModules()) {
      for (const test of module.children.allTests('skipped')) {
        const result = test.result();
        notes.push(result.state === 'skipped' ? result.note : undefined);
      }
    }
    for (const line of summary(notes)) process.stderr.write(`${line}\n`);
  };
}
