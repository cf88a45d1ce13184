// Shared pieces for the behaviour tests: the real configuration, a session's events from a real game,
// a publisher that records, and speech outputs that can be told to fail.

import fc from 'fast-check';
import { afterAll } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GameEvent, Seat } from '../../game/index.js';
import { RandomPlayer, createRng, dealCards, nextSeat, playGame } from '../../game/index.js';
import type {
  BehaviourEvent,
  BehaviourSetup,
  EmotionInput,
  Publisher,
  SpeechOutput,
  SpeechRequest,
  Topic,
  TopicMessages,
} from '../../behaviours/index.js';
import { EMOTION_TYPES, defaultConfigDir, loadBehaviourSetup } from '../../behaviours/index.js';

// Temporary folders made by a test file are removed when it ends.
const made: string[] = [];
afterAll(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});
export const tempDir = (prefix: string): string => {
  const d = mkdtempSync(join(tmpdir(), prefix));
  made.push(d);
  return d;
};

const cached: Record<string, BehaviourSetup> = {};
/** The shipped configuration (config/), in Portuguese unless told otherwise. */
export function shippedSetup(language = 'pt'): BehaviourSetup {
  return (cached[language] ??= loadBehaviourSetup({ language }));
}

export const configText = (file: string): string => readFileSync(join(defaultConfigDir(), file), 'utf8');

/** A copy of config/ in a temporary folder, with some files replaced; returns the folder. */
export function configCopy(replace: Record<string, string>): string {
  const dir = tempDir('parceiro-config-');
  mkdirSync(join(dir, 'utterances'));
  for (const f of [
    'behaviours.yaml',
    'postures.yaml',
    'table-geometry.yaml',
    'utterances/pt.yaml',
    'utterances/en.yaml',
  ]) {
    writeFileSync(join(dir, f), replace[f] ?? configText(f));
  }
  return dir;
}

/** The events of one real game (random players) as the robot at `robotSeat` hears them, with the session around it. */
export function sessionEvents(seed: number, robotSeat: Seat = 0): BehaviourEvent[] {
  const dealer = nextSeat(robotSeat, seed & 3);
  const deal = dealCards(createRng(seed, 1), dealer);
  const events: BehaviourEvent[] = [
    { type: 'session-start', robotSeat, games: 1, names: [null, 'Rita', 'João', null] },
    { type: 'game-start', game: 1, dealer },
    { type: 'shuffling', seat: nextSeat(dealer, 3) },
    { type: 'cutting', seat: nextSeat(dealer, 1) },
    { type: 'dealing', seat: dealer },
  ];
  const players = [0, 1, 2, 3].map((s) => new RandomPlayer({ seat: s as Seat, seed: seed * 4 + s }));
  playGame(deal, players, {
    onEvent: (e: GameEvent) => {
      if (e.type === 'deal') {
        if (e.seat !== robotSeat) return;
        events.push(e, { type: 'turn', seat: nextSeat(dealer) });
        return;
      }
      events.push(e);
      if (e.type === 'play' && e.trick < 9) events.push({ type: 'turn', seat: nextSeat(e.seat) });
    },
  });
  const end = events.findLast((e) => e.type === 'end');
  const victories: [number, number] = [0, 0];
  if (end?.type === 'end' && end.outcome.winner !== 'draw')
    victories[end.outcome.winner === 'A' ? 0 : 1] = end.outcome.victories;
  events.push({ type: 'session-end', victories });
  return events;
}

export const emotionArb: fc.Arbitrary<EmotionInput> = fc.record({
  type: fc.constantFrom(...EMOTION_TYPES),
  intensity: fc.double({ min: 0, max: 10, noNaN: true }),
});

export interface Published {
  topic: Topic;
  message: unknown;
  atMs: number;
}

/** A publisher that keeps everything, stamped with the clock. */
export class RecordingPublisher implements Publisher {
  readonly log: Published[] = [];
  constructor(private readonly now: () => number) {}
  publish<T extends Topic>(topic: T, message: TopicMessages[T]): void {
    this.log.push({ topic, message: structuredClone(message), atMs: this.now() });
  }
  on<T extends Topic>(topic: T): (TopicMessages[T] & { atMs: number })[] {
    return this.log.filter((p) => p.topic === topic).map((p) => ({ ...(p.message as TopicMessages[T]), atMs: p.atMs }));
  }
}

/** A speech output whose lines take `ms` on the given clock, and which can be told to fail. */
export class FakeSpeech implements SpeechOutput {
  readonly name = 'fake';
  readonly said: { request: SpeechRequest; atMs: number }[] = [];
  failWith: Error | null = null;
  stops = 0;
  constructor(
    private readonly clock: { now(): number; setTimeout(cb: () => void, ms: number): unknown },
    private readonly ms = 0,
  ) {}
  say(request: SpeechRequest): Promise<void> {
    this.said.push({ request, atMs: this.clock.now() });
    if (this.failWith) return Promise.reject(this.failWith);
    return new Promise((resolve) => void this.clock.setTimeout(resolve, this.ms));
  }
  stop(): void {
    this.stops++;
  }
}
