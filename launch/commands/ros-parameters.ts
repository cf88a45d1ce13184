// The node's ROS parameters changed at run time (`ros2 param set /parceiro speech false`). A toggle or
// the language is turned into the request a dashboard would send (`setToggles`, `setLanguage` on the
// bus), so it takes effect at once, is announced on the latched topics and is recorded as an input;
// it also becomes the day's setting, which each later session starts from. The settings read once, when
// the node starts (seat, budget_ms, character), are refused with a reason `ros2 param set` prints.

import { loadBehaviourSetup } from '../../behaviours/index.js';
import type { ParameterChange, Ros2NodeBus } from '../../robot/bus/index.js';

/** The toggles as ROS parameters (snake case, as on the toggles topic) and as the board names them. */
export const TOGGLE_PARAMETERS = {
  speech: 'speech',
  postures: 'postures',
  gaze: 'gaze',
  partner_speech: 'partnerSpeech',
  opponent_speech: 'opponentSpeech',
  expressiveness: 'expressiveness',
} as const;
type ToggleParameter = keyof typeof TOGGLE_PARAMETERS;
const isToggle = (name: string): name is ToggleParameter => name in TOGGLE_PARAMETERS;

/** Read when the node starts only. */
const AT_START = ['seat', 'budget_ms', 'character'];

export interface RosParameterTarget {
  /** The toggles in force now. */
  toggles(): Record<(typeof TOGGLE_PARAMETERS)[ToggleParameter], boolean | number>;
  /** The day's settings, which later sessions start from. */
  day: { toggles: Record<string, boolean | number>; setLanguage(language: string): void };
}

/** Why `change` cannot be applied at run time, or null. */
export function refuseParameters(change: ParameterChange): string | null {
  for (const [name, value] of Object.entries(change)) {
    if (AT_START.includes(name))
      return `${name} is read when the node starts; launch it again with ${name}:=${String(value)}`;
    if (name === 'expressiveness') {
      if (typeof value !== 'number' || !(value >= 0 && value <= 1))
        return `expressiveness: expected a number from 0.0 to 1.0, got ${String(value)}`;
    } else if (isToggle(name)) {
      if (typeof value !== 'boolean') return `${name}: expected true or false, got ${String(value)}`;
    } else if (name === 'language') {
      if (typeof value !== 'string') return `language: expected a language such as pt or en`;
      try {
        loadBehaviourSetup({ language: value });
      } catch (e) {
        return `language: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`;
      }
    }
  }
  return null;
}

/** Follows the node's parameters for as long as the bus is open. */
export function followRosParameters(bus: Ros2NodeBus, target: RosParameterTarget): void {
  bus.onParameters(refuseParameters, (change) => {
    const toggles = Object.keys(change).filter(isToggle);
    if (toggles.length > 0) {
      const now = { ...target.toggles() };
      for (const name of toggles) {
        now[TOGGLE_PARAMETERS[name]] = change[name] as boolean | number;
        target.day.toggles[TOGGLE_PARAMETERS[name]] = change[name] as boolean | number;
      }
      bus.publish('setToggles', {
        speech: now.speech as boolean,
        postures: now.postures as boolean,
        gaze: now.gaze as boolean,
        partner_speech: now.partnerSpeech as boolean,
        opponent_speech: now.opponentSpeech as boolean,
        expressiveness: now.expressiveness as number,
        changed: toggles,
        by: 'ros-parameters',
      });
    }
    if (typeof change.language === 'string') {
      target.day.setLanguage(change.language);
      bus.publish('setLanguage', { language: change.language, by: 'ros-parameters' });
    }
  });
}
