// Speech output behind one interface. The backend is chosen in config/behaviours.yaml; whichever it
// is, a missing or broken one falls back to the log with one warning, a line it cannot say goes to the
// log alone, and a session never stops for it.

import type { BehaviourLog } from '../log.js';
import { TOPICS } from '../topics.js';
import type { Publisher } from '../topics.js';

export interface SpeechRequest {
  id: string;
  text: string;
  /** The language of the text (pt, en): backends pick a voice for it. */
  language: string;
}

export interface SpeechOutput {
  readonly name: string;
  /** Speaks; resolves when done. Rejects when the backend failed. */
  say(request: SpeechRequest): Promise<void>;
  /** Cuts the current line short, if the backend can. */
  stop?(): void;
  /** Rejects, saying why, when the backend cannot work at all (not installed). */
  probe?(): Promise<void>;
}

/** Writes what would be said to the log: the backend of last resort. */
export class LogSpeech implements SpeechOutput {
  readonly name = 'log';
  constructor(private readonly log: BehaviourLog) {}
  async say(request: SpeechRequest): Promise<void> {
    this.log.info(`says (${request.language}): ${request.text}`);
  }
}

/** Hands the text to the robot's own text-to-speech over the bus (`/tts/say`). */
export class PublishSpeech implements SpeechOutput {
  readonly name = 'publish';
  constructor(private readonly publisher: Publisher) {}
  async say(request: SpeechRequest): Promise<void> {
    this.publisher.publish(TOPICS.say, { text: request.text, language: request.language, id: request.id });
  }
}

/**
 * Speaks through `primary`, falling back to the log. A backend that cannot work (its probe fails, or
 * it fails before ever speaking, or `giveUpAfter` lines in a row) is given up for the rest of the
 * session, after one warning that names it and the reason. A backend that has worked and fails on one
 * line (something in that line's text) says that line to the log with a warning and keeps the next
 * lines: one bad character must not silence the robot for the rest of the session.
 */
export class DegradingSpeech implements SpeechOutput {
  private failed: string | null = null;
  private stopping = false;
  /** Lines the primary has said; failures in a row since its last success. */
  private spoken = 0;
  private failures = 0;

  constructor(
    private readonly primary: SpeechOutput,
    private readonly fallback: SpeechOutput,
    private readonly log: BehaviourLog,
    private readonly giveUpAfter = 3,
  ) {}

  /** The backend in use now. */
  get name(): string {
    return this.failed === null ? this.primary.name : this.fallback.name;
  }

  /** Why the primary backend was given up, or null while it works. */
  get failure(): string | null {
    return this.failed;
  }

  /** Checks the primary backend now rather than at the first line. */
  async probe(): Promise<void> {
    if (this.failed !== null || !this.primary.probe) return;
    try {
      await this.primary.probe();
    } catch (e) {
      this.degrade(e);
    }
  }

  async say(request: SpeechRequest): Promise<void> {
    if (this.failed === null) {
      this.stopping = false;
      try {
        await this.primary.say(request);
        this.spoken++;
        this.failures = 0;
        return;
      } catch (e) {
        // A line cut short on purpose is not a failure.
        if (this.stopping) return;
        this.failures++;
        if (this.spoken === 0 || this.failures >= this.giveUpAfter) this.degrade(e);
        else
          this.log.warn(
            `speech: the ${this.primary.name} backend could not say line ${request.id} (${reasonOf(e)}); it goes to the log, the next lines to ${this.primary.name} again`,
          );
      }
    }
    try {
      await this.fallback.say(request);
    } catch {
      // The log cannot fail in a way worth stopping a session for.
    }
  }

  stop(): void {
    if (this.failed !== null) return;
    this.stopping = true;
    this.primary.stop?.();
  }

  private degrade(e: unknown): void {
    if (this.failed !== null) return;
    this.failed = reasonOf(e);
    this.log.warn(
      `speech: the ${this.primary.name} backend does not work (${this.failed}); from now on the robot's lines go to the log only`,
    );
  }
}

const reasonOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));
