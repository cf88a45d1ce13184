// Native inference runs in flight (onnxruntime-node answers on its own thread, after a turn of the event
// loop). A replay waits for them wherever it lets promises settle (robot/offline/replay/replay-clock.ts), so an
// answer takes effect before the replay moves its clock or feeds the next event, where a live session
// had it, however long the run took. No onnxruntime here: importing this loads no native code.

const running = new Set<Promise<unknown>>();
let started = 0;

/** Counts `run` as in flight until it settles; returns it. */
export function inFlight<T>(run: Promise<T>): Promise<T> {
  started++;
  running.add(run);
  const done = (): void => void running.delete(run);
  run.then(done, done);
  return run;
}

/** Whether any native run is in flight. */
export const runsInFlight = (): number => running.size;

/** Resolves once the runs in flight now have settled (failed ones too). */
export async function runsSettled(): Promise<void> {
  await Promise.allSettled([...running]);
}

/** Runs started in this thread so far (for tests: that a network really ran). */
export const runsStarted = (): number => started;
