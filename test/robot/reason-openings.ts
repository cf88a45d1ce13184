// What an answer to "why?" begins with, read from the language's utterance library: a test that
// waits for the answer must not go stale when a reason's sentence is added or reworded.
import { loadBehaviourSetup } from '../../behaviours/index.js';

/** A regex matching the start of any reason the robot gives for a card it played, in this language (case-insensitive). */
export function reasonOpenings(language: string): RegExp {
  const reasons = loadBehaviourSetup({ language }).utterances.reasons;
  if (!reasons) throw new Error(`the ${language} utterance library has no reasons`);
  const sentences = [
    ...Object.values(reasons.kinds),
    ...Object.values(reasons.discreet),
    ...Object.values(reasons.decided),
    ...Object.values(reasons.decidedDiscreet),
    ...Object.values(reasons.toPartner?.kinds ?? {}),
    ...Object.values(reasons.toPartner?.discreet ?? {}),
    reasons.forced,
    reasons.forcedDiscreet ?? '',
    reasons.unknown,
  ].filter((x): x is string => x !== undefined);
  // The words before the first slot are the same whatever the card; a sentence opening with a slot says nothing.
  const openings = [...new Set(sentences.map((s) => s.split('{')[0]!).filter((o) => o.length > 0))];
  return new RegExp(`^(${openings.map((o) => o.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})`, 'i');
}
