// The appraisal's share of the robot's reaction time: how long appraising one event takes, per
// preset, over the events of seeded rule-based games with seeded beliefs (a random walk of the
// expectation, as the player would report it). Fixed seeds; time per event from performance.now().

import { performance } from 'node:perf_hooks';
import type { Character, Perception } from '../../appraisal/index.js';
import { appraise, initialState, loadCharacter, presetNames } from '../../appraisal/index.js';
import type { Seat } from '../../game/index.js';
import { RulePlayer, createRng, dealCards, playGame } from '../../game/index.js';

export interface AppraisalBench {
  events: number;
  seed: number;
  /** Per preset: microseconds per appraised event. */
  presets: Record<string, { medianUs: number; p99Us: number; maxUs: number; eventsPerSecond: number }>;
}

/** The events seat 0 perceives over enough seeded games to make `count`, with beliefs on its deal and plays. */
export function benchPerceptions(count: number, seed: number): { perception: Perception; atMs: number }[] {
  const out: { perception: Perception; atMs: number }[] = [];
  let t = 0;
  for (let g = 0; out.length < count; g++) {
    const rng = createRng(seed, g);
    const players = [0, 1, 2, 3].map((s) => new RulePlayer({ seat: s as Seat, seed: seed + g * 4 + s }));
    let expected = 60;
    let p = 0.5;
    playGame(dealCards(createRng(seed, 1_000_000 + g), (g & 3) as Seat), players, {
      onEvent: (event) => {
        if ((event.type === 'deal' && event.seat !== 0) || out.length >= count) return;
        t += event.type === 'play' ? 2500 : 1000;
        if (event.type === 'deal' || event.type === 'play') {
          const step = (rng.next() - 0.5) * 12;
          expected = Math.min(120, Math.max(0, expected + step));
          p = Math.min(1, Math.max(0, p + step / 60));
          out.push({
            perception: { event, beliefs: { after: { expectedPoints: expected, winProbability: p } } },
            atMs: t,
          });
        } else {
          out.push({ perception: { event }, atMs: t });
        }
      },
    });
  }
  return out;
}

const quantile = (sorted: number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
const r3 = (x: number): number => Math.round(x * 1000) / 1000;

function timeOne(character: Character, perceptions: readonly { perception: Perception; atMs: number }[]): number[] {
  let state = initialState(character, 0, 0);
  const us: number[] = [];
  for (const { perception, atMs } of perceptions) {
    const t0 = performance.now();
    state = appraise(character, state, perception, atMs).state;
    us.push((performance.now() - t0) * 1000);
  }
  return us;
}

export function appraisalSection(options: {
  events: number;
  seed: number;
  log: (line: string) => void;
}): AppraisalBench {
  const perceptions = benchPerceptions(options.events, options.seed);
  const presets: AppraisalBench['presets'] = {};
  for (const name of presetNames()) {
    const character = loadCharacter(name);
    timeOne(character, perceptions); // warm-up: compile and optimize before measuring
    const us = timeOne(character, perceptions).sort((a, b) => a - b);
    const total = us.reduce((a, b) => a + b, 0);
    presets[name] = {
      medianUs: r3(quantile(us, 0.5)),
      p99Us: r3(quantile(us, 0.99)),
      maxUs: r3(us[us.length - 1]!),
      eventsPerSecond: Math.round(us.length / (total / 1e6)),
    };
    options.log(`appraisal: ${name}: median ${presets[name].medianUs} us, p99 ${presets[name].p99Us} us per event`);
  }
  return { events: perceptions.length, seed: options.seed, presets };
}
