// What the robot felt about an event. An `emotions` message lists every active emotion, and active
// emotions decay slowly (a half-life of many seconds), so an anger from three cards ago is still in
// the message after this card. What the event made the robot feel is what is new in its reaction,
// or stronger than just before it: decay only ever lowers an intensity, an appraisal raises it.

import type { Seat } from '../../../game/index.js';
import { partnerOf } from '../../../game/index.js';
import type { EmotionalStateMessage } from '../../bus/index.js';
import type { At, Reaction, Timeline } from './timeline.js';

export interface Felt {
  type: string;
  intensity: number;
  /** A seat, or -1 (none, or a team). */
  target: number;
  /** team, opponents or "". */
  team: string;
}

/** Who an emotion is about, from the robot's seat: one seat's relation, or the robot's team. */
export type TargetRelation = 'partner' | 'opponent' | 'self' | 'team';
export const TARGET_RELATIONS: readonly TargetRelation[] = ['partner', 'opponent', 'self', 'team'];

export type SeatRelation = 'self' | 'partner' | 'opponent';
export const relationOf = (robot: Seat, seat: number): SeatRelation =>
  seat === robot ? 'self' : seat === partnerOf(robot) ? 'partner' : 'opponent';

/** An emotion's target as a relation: the opponents as a team count as opponents; null for no target. */
export function targetRelation(robot: Seat, f: Pick<Felt, 'target' | 'team'>): TargetRelation | null {
  if (f.target >= 0 && f.target <= 3) return relationOf(robot, f.target);
  if (f.team === 'team') return 'team';
  if (f.team === 'opponents') return 'opponent';
  return null;
}

/** Whether an emotion is about `seat`: the seat itself, or a team it belongs to. */
export function isAbout(robot: Seat, f: Pick<Felt, 'target' | 'team'>, seat: number): boolean {
  if (f.target >= 0) return f.target === seat;
  const ours = seat === robot || seat === partnerOf(robot);
  return (f.team === 'team' && ours) || (f.team === 'opponents' && !ours);
}

const key = (e: { type: string; target: number; target_team: string }): string =>
  `${e.type}|${e.target}|${e.target_team}`;

/** The emotions of `now` that are new since `before`, or stronger. */
function feltBetween(before: EmotionalStateMessage | null, now: EmotionalStateMessage): Felt[] {
  const was = new Map((before?.emotions ?? []).map((e) => [key(e), e.intensity]));
  return now.emotions
    .filter((e) => e.intensity > (was.get(key(e)) ?? 0))
    .map((e) => ({ type: e.type, intensity: e.intensity, target: e.target, team: e.target_team }));
}

/** Finds, for any emotions message, the one recorded just before it. */
export function previousEmotions(t: Timeline): (m: At<EmotionalStateMessage>) => EmotionalStateMessage | null {
  const position = new Map(t.emotions.map((e, i) => [e.index, i]));
  return (m) => {
    const i = position.get(m.index);
    return i === undefined || i === 0 ? null : t.emotions[i - 1]!.message;
  };
}

/** What the robot felt about one event: in its reaction and in its reappraisals, each emotion once at its strongest. */
export function feltAbout(
  r: Reaction,
  previous: (m: At<EmotionalStateMessage>) => EmotionalStateMessage | null,
): Felt[] {
  const out = new Map<string, Felt>();
  for (const m of r.emotions ? [r.emotions, ...r.reappraisals] : []) {
    for (const f of feltBetween(previous(m), m.message)) {
      const k = `${f.type}|${f.target}|${f.team}`;
      const had = out.get(k);
      if (!had || had.intensity < f.intensity) out.set(k, f);
    }
  }
  return [...out.values()];
}
