// The table server's one handler for a node that serves session after session (a lab day): it passes
// every table event to the session in force, whose runtime changes at each new session while the
// table server, its connections and its seq ledger stay. Two things make the change invisible to a
// table's bookkeeping:
// - the state's `version` never goes back: each session's versions are shifted above the highest one
//   any table was sent before it (a table keeps the newest state by version);
// - once the session in force is over and a next one is offered (`next`), a table's `new-game` starts
//   it and is then applied to it; until then the finished session answers (its final state, its
//   refusals).
// While a switch is under way (`hold`), card and control events wait for it rather than reach a
// session that is going or not yet attached.

import type {
  CardEvent,
  ControlEvent,
  RefusedAgain,
  SessionSnapshot,
  TableHandler,
  TableInfo,
  Verdict,
} from '../../../table-bridge/index.js';
import { refuse } from '../../../table-bridge/index.js';

export class SessionSwitch implements TableHandler {
  #current: TableHandler | null = null;
  #offset = 0;
  #highest = -1;
  #hold: Promise<void> | null = null;
  /**
   * Starts the next session (resolving once it is in force); null when none is offered, and a
   * new-game after the session is over goes to the finished session, which refuses it.
   */
  next: (() => Promise<void>) | null = null;

  /** What the next session's versions are shifted by: above every one sent before. */
  nextBase(): number {
    return this.#current ? Math.max(this.#offset, this.#highest + 1) : this.#offset;
  }

  /**
   * The session in force from now on, its versions shifted by `base` (default nextBase()). A session
   * resumed after a restart passes the base its recording names, so its versions go on where the
   * tables left them.
   */
  use(handler: TableHandler, base = this.nextBase()): void {
    this.#offset = base;
    this.#current = handler;
  }

  /** What the tables' versions of the session in force are shifted by. */
  get offset(): number {
    return this.#offset;
  }

  /** Card and control events wait until `switching` settles (whichever way). */
  hold(switching: Promise<unknown>): void {
    const h = switching.then(
      () => {},
      () => {},
    );
    this.#hold = h;
    void h.then(() => {
      if (this.#hold === h) this.#hold = null;
    });
  }

  onHello(table: TableInfo): Verdict {
    return this.#handler().onHello(table);
  }

  onDisconnect(table: TableInfo, reason: string): void {
    this.#handler().onDisconnect?.(table, reason);
  }

  onRefusedAgain(again: RefusedAgain): void {
    this.#handler().onRefusedAgain?.(again);
  }

  onCardDetected(event: CardEvent): Verdict | Promise<Verdict> {
    return this.#after(() => this.#handler().onCardDetected(event));
  }

  onCardRemoved(event: CardEvent): Verdict | Promise<Verdict> {
    return this.#after(() => this.#handler().onCardRemoved(event));
  }

  onControl(event: ControlEvent): Verdict | Promise<Verdict> {
    return this.#after(() => {
      const next = this.next;
      const now = this.#handler().snapshot();
      if (event.action !== 'new-game' || !next || !now.session.complete) return this.#handler().onControl(event);
      // A pause holds across the sessions: nothing starts until someone resumes.
      if (now.paused) return refuse('paused', 'the session is paused: resume, then a new game starts the next session');
      return next().then(
        () => this.#handler().onControl(event),
        (err: unknown) =>
          refuse(
            'internal',
            `the next session could not start (${err instanceof Error ? err.message : String(err)}); nothing changed`,
          ),
      );
    });
  }

  snapshot(): SessionSnapshot {
    const s = this.#handler().snapshot();
    const version = s.version + this.#offset;
    if (version > this.#highest) this.#highest = version;
    return version === s.version ? s : { ...s, version };
  }

  #handler(): TableHandler {
    if (!this.#current) throw new Error('no session is in force');
    return this.#current;
  }

  #after(f: () => Verdict | Promise<Verdict>): Verdict | Promise<Verdict> {
    const h = this.#hold;
    return h ? h.then(f) : f();
  }
}
