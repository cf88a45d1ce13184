// What separated the card played from the next best in the search that chose it: the numbers the
// dashboard's table shows and the robot says ("88% against 81%"). The reason a decision carries
// (reasons.ts) and every sentence that words it take the outcome from here, so none of them can say
// "as often" beside a table that shows otherwise. Imports nothing: the dashboard's page uses it too.

/** One card's value in a search: mean final points of the team and its chance to win the game (0..1). */
export interface SearchValue {
  points: number;
  win: number;
}

/**
 * What decided, in whole numbers: the chance to win (in whole percent), or else the points; `even`
 * when neither by enough to name.
 */
export type DecidingEdge =
  { kind: 'win'; chance: number; otherChance: number } | { kind: 'points'; gain: number } | { kind: 'even' };

/** Two points of percent: closer than that, the search's sampled worlds do not tell the cards apart. */
export const WIN_EDGE = 2;

/** The chance to win in whole percent, as the table shows it. */
export const chanceOf = (v: SearchValue): number => Math.round(v.win * 100);

/** The two cards win as often, as far as the search's worlds tell: within WIN_EDGE of each other. */
export const winsAsOften = (chosen: SearchValue, other: SearchValue): boolean =>
  Math.abs(chanceOf(chosen) - chanceOf(other)) < WIN_EDGE;

/**
 * Null when the values are not known (an older recording). `points` says only that the card makes
 * more points: the other card may still win more often (a card ranked first by victories).
 */
export function decidingEdge(chosen: SearchValue, other: SearchValue): DecidingEdge | null {
  if (![chosen.win, other.win, chosen.points, other.points].every(Number.isFinite)) return null;
  const chance = chanceOf(chosen);
  const otherChance = chanceOf(other);
  if (chance - otherChance >= WIN_EDGE) return { kind: 'win', chance, otherChance };
  const gain = Math.round(chosen.points - other.points);
  return gain >= 1 ? { kind: 'points', gain } : { kind: 'even' };
}
