// Lets each test file's worker read its messages from vitest between tests. A worker answers
// vitest's calls (onTaskUpdate) only when its event loop reaches the poll phase; a file of long
// synchronous tests (the solver's) on a loaded machine kept it busy past vitest's fixed 60 s, and the
// run failed with "Timeout calling onTaskUpdate" though every test passed. setImmediate runs after the
// poll phase, so each test's end gives the worker that chance.
import { afterEach } from 'vitest';

afterEach(() => new Promise<void>((resolve) => setImmediate(resolve)));
