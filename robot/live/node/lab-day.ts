// A lab day: one node serving session after session without a restart (`parceiro live`), on the same
// table address and token, the same dashboard. When a session is over the node finishes it (the
// robot's last words, its parts and recording closed) and offers the next one: the session-over
// prompt says so, and the next `new-game` from a table (or the operator's "next session" on the
// dashboard) starts it, with its own id, seed and recording, and is then applied to it. Until then
// the finished session answers the tables. The day ends after `sessions` sessions, or when stopped.
// A session over is finished only after a while (`answerForMs`, or when the next one is asked for):
// people ask "porquê?" and "como correu?" after the last card, and a finished session's listeners
// are closed with its recording.

import type { SessionRecord } from '../../web/index.js';
import type { NodeSummary, ParceiroNode, SessionOptions } from './parceiro-node.js';

interface LabDayOptions {
  /** Sessions to serve in all, the one already running included; default: until stopped. */
  sessions?: number;
  /** The seeds and settings of the day's session number `k` (2 for the second, ...). */
  session: (k: number) => SessionOptions;
  /** Session `k` began (not called for the first, which runs when the day is made). */
  onStart?: (k: number) => void;
  /** Session `k` is over (its last card played); `more`: a next one is offered. It still answers the tables. */
  onOver?: (summary: NodeSummary, k: number, more: boolean) => void;
  /** Session `k` is over and finished (its recording closed); `more`: a next one is offered. */
  onFinish?: (summary: NodeSummary, k: number, more: boolean) => void;
  /**
   * How long a session over keeps answering the tables' "why" and "review" (its parts and recording
   * open) before it is finished, unless the next session is asked for sooner (ms; default 2 minutes).
   */
  answerForMs?: number;
}

/** People ask about the last game in the minute or two after it, not later. */
export const ANSWER_FOR_MS = 120_000;

export class LabDay {
  readonly #node: ParceiroNode;
  readonly #o: LabDayOptions;
  /** Sessions begun today (the one running when the day was made counts as the first). */
  #count = 1;
  #stopped = false;
  #starting: Promise<void> | null = null;
  readonly #finishing = new Map<string, Promise<NodeSummary>>();
  #started: () => void = () => {};
  /** Ends the wait of a session over for questions (null when none waits). */
  #release: (() => void) | null = null;
  /** The next session was asked for: the session in force does not wait for questions once over. */
  #hurry = false;
  readonly #done: Promise<void>;

  constructor(node: ParceiroNode, o: LabDayOptions) {
    if (o.sessions !== undefined && !(Number.isInteger(o.sessions) && o.sessions >= 1))
      throw new Error(`a lab day serves at least one session, got ${o.sessions}`);
    this.#node = node;
    this.#o = o;
    this.#offer();
    this.#done = this.#run();
  }

  /** Sessions begun today. */
  get count(): number {
    return this.#count;
  }

  /** Resolves once the day's last session (`sessions`) is over and finished; never without a limit. */
  done(): Promise<void> {
    return this.#done;
  }

  /** The sessions so far (the node's list). */
  sessions(): SessionRecord[] {
    return this.#node.sessions();
  }

  /** Stops the day: a session being played is interrupted, everything is closed. Resolves with the day's sessions. */
  async stop(): Promise<SessionRecord[]> {
    this.#stopped = true;
    this.#release?.();
    this.#node.offerNextSession(null);
    await this.#starting?.catch(() => {});
    await this.#node.close();
    return this.#node.sessions();
  }

  /** Starts the next session once the one in force is finished (the node calls it; one at a time). */
  readonly #startNext = (): Promise<void> => {
    this.#starting ??= (async () => {
      // Asked for before the session's end was through (its last reactions, its review): no wait then either.
      this.#hurry = true;
      this.#release?.();
      await this.#finish();
      if (this.#stopped) throw new Error('the lab day is over');
      const k = this.#count + 1;
      await this.#node.startSession(this.#o.session(k));
      this.#count = k;
      this.#offer();
      this.#o.onStart?.(k);
      this.#started();
    })().finally(() => {
      this.#hurry = false;
      this.#starting = null;
    });
    return this.#starting;
  };

  #more(): boolean {
    return !this.#stopped && (this.#o.sessions === undefined || this.#count < this.#o.sessions);
  }

  #offer(): void {
    this.#node.offerNextSession(this.#more() ? this.#startNext : null);
  }

  /** The session in force, finished once it is over (one promise per session). */
  #finish(): Promise<NodeSummary> {
    const node = this.#node;
    const id = node.sessionId;
    let p = this.#finishing.get(id);
    if (!p) {
      // A session resumed after it was over (its end not seen again) is finished at once.
      const resumedOver = node.runtime.status === 'session_over';
      const over = resumedOver ? Promise.resolve() : node.finished().then(() => {});
      const k = this.#count;
      p = over
        .then(() => {
          if (resumedOver) return;
          this.#o.onOver?.(node.summary(), k, this.#more());
          return this.#answerFor();
        })
        .then(() => node.finishSession());
      this.#finishing.set(id, p);
    }
    return p;
  }

  /** Waits while the tables may still ask about the session just over. */
  #answerFor(): Promise<void> {
    const ms = this.#o.answerForMs ?? ANSWER_FOR_MS;
    if (ms <= 0 || this.#stopped || this.#hurry) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        if (this.#release === done) this.#release = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.#release = done;
    });
  }

  async #run(): Promise<void> {
    for (;;) {
      const k = this.#count;
      const started = new Promise<void>((r) => (this.#started = r));
      const summary = await this.#finish();
      if (this.#stopped) return;
      const more = this.#more();
      this.#o.onFinish?.(summary, k, more);
      if (!more) return;
      await started;
    }
  }
}
