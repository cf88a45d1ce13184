// Requests on `setToggles` to the ToggleBoard. The message carries every toggle; `changed` names the
// ones the request is about (a dashboard that only flips speech sends changed: [speech]), and an empty
// `changed` asks for all the values as given. The board reports the change on `toggles`.

import type { ToggleBoard, ToggleName } from '../../../behaviours/index.js';
import { TOGGLE_NAMES, ToggleError } from '../../../behaviours/index.js';
import type { BehaviourTogglesMessage, Bus, Unsubscribe } from '../../bus/index.js';
import type { NodeLogger } from './logger.js';

const SNAKE: Record<string, ToggleName> = Object.fromEntries(
  TOGGLE_NAMES.map((n) => [n.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), n]),
);

export function togglePatch(m: BehaviourTogglesMessage): Record<string, unknown> {
  const all: Record<ToggleName, unknown> = {
    speech: m.speech,
    postures: m.postures,
    gaze: m.gaze,
    partnerSpeech: m.partner_speech,
    opponentSpeech: m.opponent_speech,
    expressiveness: m.expressiveness,
  };
  if (m.changed.length === 0) return all;
  const patch: Record<string, unknown> = {};
  for (const name of m.changed) {
    const key = SNAKE[name];
    // An unknown name is passed on as it is, so the board refuses the request and says why.
    if (key) patch[key] = all[key];
    else patch[name] = true;
  }
  return patch;
}

export function listenForToggles(bus: Bus, board: ToggleBoard, log: NodeLogger): Unsubscribe {
  return bus.subscribe('setToggles', (m) => {
    try {
      board.set(togglePatch(m), m.by || 'operator');
    } catch (e) {
      if (!(e instanceof ToggleError)) throw e;
      log.warn({ request: m, reason: e.message }, 'a toggle request was refused');
    }
  });
}
