// The instant of the reaction under way. Each reaction (to an event, an estimate, the session's start,
// the robot's announcement) reads the time once; its appraisal, the emotions message that records it
// and its behaviour plan all take that one reading. A replay gives back the recorded instant (the
// emotions message's at_ms), so the plan, and what it lets the robot say, come out as they were.

export class ReactionInstant {
  #latched: number | null = null;

  /** `source`: the live clock, or a replay's recorded instants. */
  constructor(private readonly source: () => number) {}

  /** The reaction's instant while one is under way, else the source's time. */
  now(): number {
    return this.#latched ?? this.source();
  }

  /** Runs `react` at one instant, read now. */
  at<T>(react: (atMs: number) => T): T {
    const outer = this.#latched;
    const atMs = outer ?? this.source();
    this.#latched = atMs;
    try {
      return react(atMs);
    } finally {
      this.#latched = outer;
    }
  }
}
