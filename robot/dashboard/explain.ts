// One sentence on why the robot chose its card, derived from the beliefs of its decision message:
// "Played 7H: it keeps 68 points on average over 120 worlds, 9 more than AH; 74% to win." Pure, and
// free of Node APIs: the server and the browser both use it.

import type { DecisionMessage } from '../bus/messages.js';

const pct = (p: number): string => `${Math.round(p * 100)}%`;
const pts = (x: number): string => `${Math.round(x)} point${Math.round(x) === 1 ? '' : 's'}`;

export function explainDecision(d: DecisionMessage): string {
  const head = `Played ${d.card}`;
  if (d.fallback === 'forced') return `${head}: it was the only legal card.`;
  const chosen = d.moves.find((m) => m.card === d.card);
  if (!chosen) {
    const why = d.explanation || 'the player reports no beliefs';
    return `${head}: ${d.fallback === 'rule' ? 'the rule-based fallback chose it' : why}.`;
  }
  const others = d.moves.filter((m) => m.card !== d.card);
  // With inference the worlds come from candidates weighed by the other seats' plays; few effective
  // candidates mean the plays point at few deals, and the worlds repeat them.
  const weighed = d.worlds > 0 && d.inference_trust >= 0 ? ` weighed by the others' plays (${Math.round(d.inference_effective)} effective of ${d.inference_candidates})` : '';
  const over = d.worlds > 0 ? ` over ${d.worlds} world${d.worlds === 1 ? '' : 's'}${weighed}` : '';
  let sentence = `${head}: it keeps ${pts(chosen.mean)} on average${over}`;
  if (others.length > 0) {
    const best = others.reduce((a, b) => (b.mean > a.mean ? b : a));
    const diff = Math.round(chosen.mean - best.mean);
    sentence += diff > 0 ? `, ${pts(diff)} more than ${best.card}` : diff < 0 ? `, ${pts(-diff)} fewer than ${best.card}` : `, as much as ${best.card}`;
  } else {
    sentence += ', the only card it could play';
  }
  const win = d.win_probability >= 0 ? d.win_probability : chosen.win_probability;
  if (win >= 0) sentence += `; ${pct(win)} to win`;
  if (d.fallback === 'rule') sentence += ' (the search ran out of time: rule-based fallback)';
  return `${sentence}.`;
}
