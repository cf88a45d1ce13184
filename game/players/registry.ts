// Built-in player kinds by the name used on the command line and in config.

import type { PlayerFactory } from './player.js';
import { RandomPlayer } from './random.js';
import { RulePlayer } from './rule.js';

export const BUILTIN_PLAYERS: Readonly<Record<string, PlayerFactory>> = {
  random: (o) => new RandomPlayer(o),
  rule: (o) => new RulePlayer(o),
  'rule-literal': (o) => new RulePlayer({ ...o, literal: true }),
};

export const builtinPlayerKinds = (): string[] => Object.keys(BUILTIN_PLAYERS);
