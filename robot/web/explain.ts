// One sentence on why the robot chose its card, derived from the beliefs of its decision message:
// "Played 7H: it keeps 68 points on average over 120 worlds, 9 more than AH; 74% to win." A player
// that plays for victories (the timed player) is explained in victories: "Played 7H: 0.85 victories
// expected over 120 worlds (about 68 points), 0.3 more than AH; 74% to win." Then the reason that
// separates it from the next best, when the decision carries one. Pure, and free of Node APIs: the
// server and the browser both use it.

import { chanceOf, decidingEdge, winsAsOften } from '../../game/explain/edge.js';
import type { DecisionMessage } from '../bus/messages.js';

const pct = (p: number): string => `${Math.round(p * 100)}%`;
const pts = (x: number): string => `${Math.round(x)} point${Math.round(x) === 1 ? '' : 's'}`;
const round2 = (x: number): number => Math.round(x * 100) / 100;
const vics = (x: number): string => `${round2(x)} victor${Math.abs(round2(x)) === 1 ? 'y' : 'ies'}`;
type Move = DecisionMessage['moves'][number];

export function explainDecision(d: DecisionMessage): string {
  const head = `Played ${d.card}`;
  if (d.fallback === 'forced') return `${head}: it was the only legal card.`;
  // Out of time before the first deal was searched: the values it reports are empty, not beliefs.
  if (d.fallback === 'rule' && d.worlds === 0)
    return `${head}: the search ran out of time before it had searched a deal, so the rule-based player chose it.`;
  const chosen = d.moves.find((m) => m.card === d.card);
  if (!chosen) {
    const why = d.explanation || 'the player reports no beliefs';
    return `${head}: ${d.fallback === 'rule' ? 'the rule-based fallback chose it' : why}.`;
  }
  const others = d.moves.filter((m) => m.card !== d.card);
  // With inference the worlds come from candidates weighed by the other seats' plays; few effective
  // candidates mean the plays point at few deals, and the worlds repeat them.
  const weighed =
    d.worlds > 0 && d.inference_trust >= 0
      ? ` weighed by the others' plays (${Math.round(d.inference_effective)} effective of ${d.inference_candidates})`
      : '';
  const over = d.worlds > 0 ? ` over ${d.worlds} world${d.worlds === 1 ? '' : 's'}${weighed}` : '';
  const victories = d.objective === 'victories' && d.move_victories.length === d.moves.length ? d.move_victories : null;
  let sentence = victories
    ? `${head}: ${vics(victories[d.moves.indexOf(chosen)]!)} expected${over} (about ${pts(chosen.mean)})`
    : `${head}: it keeps ${pts(chosen.mean)} on average${over}`;
  if (others.length === 0) sentence += ', the only card it could play';
  else if (victories) {
    // Ranked by expected victories, then points: compared with the next card that way.
    const vic = (m: Move): number => victories[d.moves.indexOf(m)]!;
    const best = others.reduce((a, b) => (vic(b) > vic(a) || (vic(b) === vic(a) && b.mean > a.mean) ? b : a));
    const diff = round2(vic(chosen) - vic(best));
    const dp = Math.round(chosen.mean - best.mean);
    sentence +=
      diff > 0
        ? `, ${vics(diff)} more than ${best.card}`
        : diff < 0
          ? `, ${vics(-diff)} fewer than ${best.card}`
          : dp > 0
            ? `, as many as ${best.card} and ${pts(dp)} more`
            : `, as many as ${best.card}`;
  } else {
    const best = others.reduce((a, b) => (b.mean > a.mean ? b : a));
    const diff = Math.round(chosen.mean - best.mean);
    sentence +=
      diff > 0
        ? `, ${pts(diff)} more than ${best.card}`
        : diff < 0
          ? `, ${pts(-diff)} fewer than ${best.card}`
          : `, as much as ${best.card}`;
  }
  const win = d.win_probability >= 0 ? d.win_probability : chosen.win_probability;
  if (win >= 0) sentence += `; ${pct(win)} to win`;
  if (d.fallback === 'rule') sentence += ' (the search ran out of time: rule-based fallback)';
  const why = reasonLine(d);
  return `${sentence}.${why ? ` ${why}` : ''}`;
}

const SUIT_NAMES: Readonly<Record<string, string>> = { S: 'spades', H: 'hearts', D: 'diamonds', C: 'clubs' };

/**
 * An outcome reason (better odds, more points, a close call) in the numbers the table beside it
 * shows, by game/'s rule (decidingEdge): whatever the message's kind says, the sentence cannot
 * contradict its table, and it names each card it speaks of. Null without both cards' values.
 */
function outcomeWords(d: DecisionMessage): string | null {
  const value = (card: string): { points: number; win: number } | null => {
    const m = d.moves.find((x) => x.card === card);
    return m && m.win_probability >= 0 ? { points: m.mean, win: m.win_probability } : null;
  };
  const a = value(d.card);
  const b = value(d.reason_other);
  const edge = a && b && decidingEdge(a, b);
  if (!a || !b || !edge) return null;
  const [card, other] = [d.card, d.reason_other];
  const [ca, cb] = [`${chanceOf(a)}%`, `${chanceOf(b)}%`];
  if (edge.kind === 'win') return `${other} would win less often (${cb} against ${ca} for ${card})`;
  const asOften = winsAsOften(a, b);
  const chances = ca === cb ? `${ca} each` : `${ca} and ${cb}`;
  if (edge.kind === 'points')
    return asOften
      ? `${card} wins as often as ${other} (${chances}) and makes ${pts(edge.gain)} more`
      : `${card} makes ${pts(edge.gain)} more, though ${other} would win more often (${cb} against ${ca})`;
  const ranked = d.objective === 'victories' ? 'victories' : 'points';
  return asOften
    ? `${card} and ${other} come to about the same (${chances} to win; a close call)`
    : `${other} would win more often (${cb} against ${ca}), but ${card} was ranked first on ${ranked}`;
}

/**
 * The reason the decision carries (game/explain: both cards played in the same worlds), for the
 * operator, who may know the robot's hand: "Why not 2S: 7S gives 10 points to the partner, who takes
 * the trick in 100% of the worlds." Each sentence names the card it speaks of. Empty when the
 * decision carries none.
 */
function reasonLine(d: DecisionMessage): string {
  if (!d.reason_kind || !d.reason_other) return '';
  const [card, other] = [d.card, d.reason_other];
  const share = d.reason_support >= 0 ? pct(d.reason_support) : '';
  const points = d.reason_points >= 0 ? pts(d.reason_points) : '';
  const because: Readonly<Record<string, string>> = {
    'partner-ruffs': `${card} leads ${SUIT_NAMES[d.reason_suit] ?? 'a suit'}, which the partner has run out of, so the partner can ruff (takes the trick in ${share} of the worlds)`,
    'keeps-master-trump': `${card} keeps ${d.reason_kept} for the last tricks`,
    'draws-trumps': `${card} draws the opponents' trumps`,
    'points-to-partner': `${card} gives ${points} to the partner, who takes the trick in ${share} of the worlds`,
    'takes-trick': `${card} takes the trick (${points}) in ${share} of the worlds`,
    'saves-points': `the trick is lost either way, and ${card} gives away ${points} fewer`,
    // Without the search's values (older recordings), the kind as the message has it.
    'better-odds': `${card} wins more often than ${other} over the same worlds (${share} sure)`,
    'more-points': `${card} wins as often as ${other} and makes ${points} more`,
    'close-call': `${card} and ${other} come to about the same (a close call)`,
  };
  const outcome = OUTCOME_KINDS.has(d.reason_kind) ? outcomeWords(d) : null;
  const text = outcome ?? because[d.reason_kind];
  return text ? `Why not ${other}: ${text}.` : '';
}

const OUTCOME_KINDS: ReadonlySet<string> = new Set(['better-odds', 'more-points', 'close-call']);
