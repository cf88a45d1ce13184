// Why one card rather than another (Yano and Onisawa's partner explains its tactics): the two cards are
// played in the same worlds (deals of the hidden cards drawn from the player's information set), each
// world played out to the end by `expert` players, and what happens after each card is compared: who
// takes the trick and with how many points, how many trumps the opponents keep, whether the ace of
// trumps is still there for the last tricks. The reason given is the first of a fixed order that the
// worlds bear out, so it is what separates the two cards, not a template guess. Pure: no clock, a
// seeded generator.

import type { Card, Suit } from '../cards.js';
import { pointsOf, rankOf, suitOf } from '../cards.js';
import type { Game } from '../game.js';
import { ExpertPlayer } from '../players/expert.js';
import type { Rng } from '../rng.js';
import { deriveSeed } from '../rng.js';
import { createDealSampler } from '../sampler.js';
import type { Seat } from '../seats.js';
import { partnerOf, teamOf } from '../seats.js';
import { WorldBuilder } from '../search/world.js';
import type { InfoSet } from '../view.js';
import type { Decision, MoveBelief, ReasonKind, ReasonSummary } from '../decision.js';
import { decidingEdge, winsAsOften } from './edge.js';
import { createRng } from '../rng.js';
import { SeatView } from '../view.js';

/** What followed one card over the worlds. */
export interface CardOutcome {
  card: Card;
  /** Share of worlds in which the player's team takes the current trick, and in which the partner does. */
  teamTakesTrick: number;
  partnerTakesTrick: number;
  /** Mean points of the current trick. */
  trickPoints: number;
  /** Mean trumps the two opponents hold after the current trick. */
  opponentTrumpsAfter: number;
  /** Mean final points of the player's team, and its share of worlds won (more than 60). */
  finalPoints: number;
  winShare: number;
}

export interface Reason {
  kind: ReasonKind;
  chosen: CardOutcome;
  other: CardOutcome;
  /** The points the reason is about (given to the partner, saved, taken), when it is about points. */
  points?: number;
  /** The suit it is about (the partner's void, trumps). */
  suit?: Suit;
  /** The card kept back ('keeps-master-trump'). */
  kept?: Card;
  worlds: number;
}

interface ReasonOptions {
  /** Worlds to play both cards in (default 48: about 5 ms). */
  worlds?: number;
  rng: Rng;
  /** Seed of the rollout players. */
  seed: number;
}

/** The highest trump still unplayed in `info` (held or not), or -1. */
function masterTrump(info: InfoSet): Card | -1 {
  const live = [...info.hand, ...info.unseen].filter((c) => suitOf(c) === info.trump);
  return live.length === 0 ? -1 : live.reduce((a, b) => (rankOf(b) > rankOf(a) ? b : a));
}

/** Plays `card` for the player in `game`, then the rest of the game with `expert` players. */
function playOut(game: Game, card: Card, seat: Seat, seed: number, sums: CardOutcome & { n: number }): void {
  const trick = game.trick;
  game.play(card, seat);
  const players = [0, 1, 2, 3].map((s) => new ExpertPlayer({ seat: s as Seat, seed: deriveSeed(seed, s) }));
  const views = [0, 1, 2, 3].map((s) => new SeatView(game, s as Seat));
  while (game.trick === trick && !game.isOver) game.play(players[game.toMove]!.choose(views[game.toMove]!));
  const winner = game.trickWinner(trick);
  let points = 0;
  for (let i = 0; i < 4; i++) points += pointsOf(game.playAt(trick * 4 + i));
  const opponents = [(seat + 1) & 3, (seat + 3) & 3] as Seat[];
  const trump = game.trump;
  sums.teamTakesTrick += teamOf(winner) === teamOf(seat) ? 1 : 0;
  sums.partnerTakesTrick += winner === partnerOf(seat) ? 1 : 0;
  sums.trickPoints += points;
  sums.opponentTrumpsAfter += game.countInSuit(opponents[0]!, trump) + game.countInSuit(opponents[1]!, trump);
  while (!game.isOver) game.play(players[game.toMove]!.choose(views[game.toMove]!));
  const final = game.points(teamOf(seat));
  sums.finalPoints += final;
  sums.winShare += final > 60 ? 1 : 0;
  sums.n++;
}

const empty = (card: Card): CardOutcome & { n: number } => ({
  card,
  teamTakesTrick: 0,
  partnerTakesTrick: 0,
  trickPoints: 0,
  opponentTrumpsAfter: 0,
  finalPoints: 0,
  winShare: 0,
  n: 0,
});
const mean = (s: CardOutcome & { n: number }): CardOutcome => {
  const n = Math.max(1, s.n);
  return {
    card: s.card,
    teamTakesTrick: s.teamTakesTrick / n,
    partnerTakesTrick: s.partnerTakesTrick / n,
    trickPoints: s.trickPoints / n,
    opponentTrumpsAfter: s.opponentTrumpsAfter / n,
    finalPoints: s.finalPoints / n,
    winShare: s.winShare / n,
  };
};

/**
 * Why `chosen` rather than `other` (both legal for the player of `info`, who is to move): both are
 * played in the same worlds and the first reason of REASON_KINDS (decision.ts) the worlds bear out is given.
 */
export function reasonFor(info: InfoSet, chosen: Card, other: Card, o: ReasonOptions): Reason {
  const sampler = createDealSampler(info);
  const builder = new WorldBuilder(info);
  const worlds = o.worlds ?? 48;
  const a = empty(chosen);
  const b = empty(other);
  const hands: Card[][] = [[], [], [], []];
  for (let w = 0; w < worlds && sampler.count > 0; w++) {
    sampler.sample(o.rng, hands);
    const seed = deriveSeed(o.seed, w);
    playOut(builder.game(hands), chosen, info.seat, seed, a);
    playOut(builder.game(hands), other, info.seat, seed, b);
  }
  const c = mean(a);
  const d = mean(b);
  const base = { chosen: c, other: d, worlds: a.n };
  const leads = info.table.length === 0;
  const trump = info.trump;
  const partner = partnerOf(info.seat);
  const suit = suitOf(chosen);
  // Public knowledge only: the partner has shown it lacks the suit, and may still hold trumps.
  if (
    leads &&
    suit !== trump &&
    info.voids[partner]!.includes(suit) &&
    !info.voids[partner]!.includes(trump) &&
    c.partnerTakesTrick > d.partnerTakesTrick
  ) {
    return { kind: 'partner-ruffs', ...base, suit };
  }
  const master = masterTrump(info);
  if (other === master && suitOf(chosen) !== trump && info.hand.includes(other)) {
    return { kind: 'keeps-master-trump', ...base, kept: other };
  }
  if (leads && suit === trump && suitOf(other) !== trump && d.opponentTrumpsAfter - c.opponentTrumpsAfter >= 0.5) {
    return { kind: 'draws-trumps', ...base, suit: trump };
  }
  if (c.partnerTakesTrick >= 0.9 && pointsOf(chosen) > pointsOf(other)) {
    return { kind: 'points-to-partner', ...base, points: pointsOf(chosen) };
  }
  if (c.teamTakesTrick - d.teamTakesTrick >= 0.25) {
    return { kind: 'takes-trick', ...base, points: Math.round(c.trickPoints) };
  }
  if (c.teamTakesTrick <= 0.2 && d.teamTakesTrick <= 0.2 && pointsOf(chosen) < pointsOf(other)) {
    return { kind: 'saves-points', ...base, points: pointsOf(other) - pointsOf(chosen) };
  }
  // Only a difference the worlds bear out is given as the reason: equal odds are not "more often".
  if (c.winShare > d.winShare) return { kind: 'better-odds', ...base };
  const more = Math.round(c.finalPoints - d.finalPoints);
  if (c.winShare === d.winShare && more >= 1) return { kind: 'more-points', ...base, points: more };
  return { kind: 'close-call', ...base };
}

/** How sure "it wins more often" is, from how much more often (a fifth of the worlds or more is as sure as it gets). */
export const winGainSupport = (gain: number): number => Math.min(1, 0.5 + 2 * Math.max(0, gain));

/** The share of worlds behind a reason (1 when it follows from the rules or the cards held). */
function supportOf(r: Reason): number {
  switch (r.kind) {
    case 'partner-ruffs':
    case 'points-to-partner':
      return r.chosen.partnerTakesTrick;
    case 'takes-trick':
      return r.chosen.teamTakesTrick;
    case 'better-odds':
      return winGainSupport(r.chosen.winShare - r.other.winShare);
    default:
      return 1;
  }
}

export function summarizeReason(r: Reason): ReasonSummary {
  return {
    kind: r.kind,
    card: r.chosen.card,
    other: r.other.card,
    support: Math.round(supportOf(r) * 1000) / 1000,
    ...(r.points === undefined ? {} : { points: r.points }),
    ...(r.suit === undefined ? {} : { suit: r.suit }),
    ...(r.kept === undefined ? {} : { kept: r.kept }),
  };
}

/** The reasons that speak of the whole game's outcome (how often it is won, the points at the end). */
const OUTCOME_KINDS: ReadonlySet<ReasonKind> = new Set(['better-odds', 'more-points', 'close-call']);

/**
 * An outcome reason said from the search's numbers, the ones shown beside it (the dashboard's table,
 * the robot's "88% against 81%"): the rollouts' 48 worlds can see two cards win as often where the
 * search's worlds do not. Wins more often by WIN_EDGE or more: better odds, as sure as that margin
 * (winGainSupport). As often, and at least a point more: more points (support 1: not a share of
 * worlds). Otherwise a close call, also when the other card wins more often (a card ranked first by
 * victories or points): the sentences word the numbers then. Null when the search's values are unknown.
 */
function searchOutcome(r: ReasonSummary, chosen: MoveBelief, other: MoveBelief): ReasonSummary | null {
  const a = { points: chosen.mean, win: chosen.winProbability };
  const b = { points: other.mean, win: other.winProbability };
  const edge = decidingEdge(a, b);
  if (!edge) return null;
  const base = { card: r.card, other: r.other };
  if (edge.kind === 'win') {
    const support = Math.round(winGainSupport(chosen.winProbability - other.winProbability) * 1000) / 1000;
    return { kind: 'better-odds', ...base, support };
  }
  if (edge.kind === 'points' && winsAsOften(a, b))
    return { kind: 'more-points', ...base, support: 1, points: edge.gain };
  return { kind: 'close-call', ...base, support: 1 };
}

/**
 * The decision with the reason for its card against the next best added to its beliefs: none for a
 * forced card, a fallback, or a single move valued. A tactical reason comes from the rollouts; an
 * outcome reason from the search's own values of the two cards (searchOutcome).
 */
export function withReason(decision: Decision, info: InfoSet, seed: number, worlds = 48): Decision {
  const b = decision.beliefs;
  if (!b || b.fallback || b.moves.length < 2 || b.moves[0]!.card !== decision.card) return decision;
  const r = reasonFor(info, decision.card, b.moves[1]!.card, { rng: createRng(seed, 0x3a50), seed, worlds });
  const summary = summarizeReason(r);
  const reason = (OUTCOME_KINDS.has(r.kind) && searchOutcome(summary, b.moves[0]!, b.moves[1]!)) || summary;
  return { card: decision.card, beliefs: { ...b, reason } };
}
