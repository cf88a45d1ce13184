// Player kinds by the name used on the command line and in config. A name may carry parameters:
// `hybrid:n=10:m=5:t=5`, `pimc:n=50`, `timed:budget=500`, `timed:infer=0`.

import { AdvisedPlayer } from './advised.js';
import { LevelPlayer } from '../memory/level-player.js';
import { LEVEL_NAMES, isLevelName } from '../memory/levels.js';
import { ExpertPlayer } from './expert.js';
import type { PlayerFactory } from './player.js';
import { RandomPlayer } from './random.js';
import { RulePlayer } from './rule.js';
import { BlendPlayer } from './blend.js';
import { IsmctsPlayer } from './ismcts.js';
import { RolloutPlayer } from './rollout.js';
import { SearchPlayer } from './search-player.js';
import type { SearchKind } from './search-player.js';
import { INFERENCE_MODELS } from '../predict/likelihood.js';
import { ImitationPlayer } from '../learned/imitation.js';
import { policyNet } from '../learned/models.js';
import type { PolicyNet } from '../learned/mlp.js';

export const BUILTIN_PLAYERS: Readonly<Record<string, PlayerFactory>> = {
  random: (o) => new RandomPlayer(o),
  rule: (o) => new RulePlayer(o),
  'rule-literal': (o) => new RulePlayer({ ...o, literal: true }),
  expert: (o) => new ExpertPlayer(o),
  pimc: (o) => new SearchPlayer({ ...o, kind: 'pimc' }),
  hybrid: (o) => new SearchPlayer({ ...o, kind: 'hybrid' }),
  timed: (o) => new SearchPlayer({ ...o, kind: 'timed' }),
  'timed-v1': (o) => new SearchPlayer({ ...o, kind: 'timed-v1' }),
  /** The timed player's worlds, each played out by the expert to the last tricks and exact there: `mix:exact=4`. */
  mix: (o) => new SearchPlayer({ ...o, kind: 'mix' }),
  /** PIMC whose worlds value each card by a game played out by the expert policy (issue 37). */
  rollout: (o) => new RolloutPlayer(o),
  /** Single-observer information-set MCTS with expert play-outs (issue 37). */
  ismcts: (o) => new IsmctsPlayer(o),
  /** The roll-out and timed players on half the budget each, their expected victories mixed: `blend:w=50:share=50`. */
  blend: (o) => new BlendPlayer(o),
  /** A casual player (rule) who follows the robot's advice half of the time: `advised:p=PCT`. */
  advised: (o) => new AdvisedPlayer({ ...o, follow: 0.5 }),
  /** A level of play, with a person's memory of the played cards: `level:name=beginner` .. `full` (game/memory). */
  level: () => {
    throw new PlayerSpecError(`level needs a name: level:name=LEVEL (${LEVEL_NAMES.join(', ')})`);
  },
  /** Direct imitation: the policy network's most probable legal card, `imitation:model=FILE.onnx` (game/learned). */
  imitation: () => {
    throw new PlayerSpecError('imitation needs a model: imitation:model=FILE.onnx');
  },
};

export const builtinPlayerKinds = (): string[] => Object.keys(BUILTIN_PLAYERS);

/** A player name that cannot be made: says which part is wrong and what is allowed. */
export class PlayerSpecError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PlayerSpecError';
  }
}

const INFER = {
  option: 'trust',
  min: 0,
  max: 100,
  what: 'percent trust that the other seats play like the rule-based player (0: no inference)',
  scale: 0.01,
} as const;
/** What the inference weighs worlds by: by name (`model=expert`) or number (`model=1`). */
const MODEL = {
  option: 'inferenceModel',
  min: 0,
  max: INFERENCE_MODELS.length - 1,
  what: `the model of the other seats' play the worlds are weighed by: ${INFERENCE_MODELS.join(' or ')} (default rule), or a policy network, model=FILE.onnx`,
  values: INFERENCE_MODELS,
  named: true,
} as const;

interface Param {
  option:
    | 'worlds'
    | 'rollouts'
    | 'rolloutTricks'
    | 'budgetMs'
    | 'trust'
    | 'objective'
    | 'playout'
    | 'inferenceModel'
    | 'iterations'
    | 'exploration'
    | 'reward'
    | 'exactTricks'
    | 'weight'
    | 'share';
  min: number;
  max: number;
  what: string;
  scale?: number;
  /** For a choice given as a number: the option's value for each number. */
  values?: readonly string[];
  /** The choice may be given by its value's name too (`model=expert`). */
  named?: boolean;
}

/** The parameters of the anytime players, `timed` and `timed-v1`. */
const ANYTIME: Record<string, Param> = {
  budget: { option: 'budgetMs', min: 1, max: 600_000, what: 'ms per decision' },
  n: { option: 'worlds', min: 1, max: 100_000, what: 'worlds at most' },
  infer: INFER,
  model: MODEL,
};

/** Who plays the games out in the roll-out and ISMCTS players. */
const PLAYOUT: Param = {
  option: 'playout',
  min: 0,
  max: 1,
  what: 'who plays the games out: random or expert (the default)',
  values: ['random', 'expert'],
  named: true,
};

const PARAMS: Record<SearchKind | 'rollout' | 'ismcts' | 'blend', Record<string, Param>> = {
  blend: {
    budget: { option: 'budgetMs', min: 2, max: 600_000, what: 'ms per decision, shared by the two searches' },
    w: {
      option: 'weight',
      min: 0,
      max: 100,
      what: "percent of the timed player's victories in a card's value (default 50)",
      scale: 0.01,
    },
    share: {
      option: 'share',
      min: 1,
      max: 99,
      what: 'percent of the budget to the timed player (default 50)',
      scale: 0.01,
    },
  },
  pimc: { n: { option: 'worlds', min: 1, max: 100_000, what: 'worlds' }, infer: INFER },
  hybrid: {
    n: { option: 'worlds', min: 1, max: 100_000, what: 'worlds' },
    m: { option: 'rollouts', min: 1, max: 1000, what: 'rollouts per world' },
    t: { option: 'rolloutTricks', min: 0, max: 10, what: 'tricks rolled out before exact search' },
    infer: INFER,
  },
  timed: {
    ...ANYTIME,
    // For measuring what each half of the timed player's design is worth.
    victories: {
      option: 'objective',
      min: 0,
      max: 1,
      what: '1 to play for expected victories (the default), 0 for expected points',
      values: ['points', 'victories'],
    },
    expert: {
      option: 'playout',
      min: 0,
      max: 1,
      what: '1 to roll out with the expert player (the default), 0 with the rule-based player',
      values: ['rule', 'expert'],
    },
  },
  'timed-v1': ANYTIME,
  mix: {
    ...ANYTIME,
    exact: { option: 'exactTricks', min: 1, max: 10, what: 'the last tricks valued exactly (default 4)' },
    victories: {
      option: 'objective',
      min: 0,
      max: 1,
      what: '1 to play for expected victories (the default), 0 for expected points',
      values: ['points', 'victories'],
    },
  },
  rollout: {
    budget: ANYTIME.budget!,
    n: { option: 'worlds', min: 1, max: 100_000, what: 'worlds at most (default 2000)' },
    infer: INFER,
    choice: {
      option: 'objective',
      min: 0,
      max: 1,
      what: 'what the card is chosen by: victories (expected victories, then points; the default) or points',
      values: ['points', 'victories'],
      named: true,
    },
    playout: PLAYOUT,
  },
  ismcts: {
    budget: ANYTIME.budget!,
    n: { option: 'iterations', min: 1, max: 10_000_000, what: 'iterations at most (default 100000)' },
    c: {
      option: 'exploration',
      min: 0,
      max: 1000,
      what: 'UCB1 exploration constant in hundredths (default 70)',
      scale: 0.01,
    },
    infer: INFER,
    reward: {
      option: 'reward',
      min: 0,
      max: 1,
      what: 'what a play-out scores: victories (the victory class, the default) or points',
      values: ['points', 'victories'],
      named: true,
    },
    playout: PLAYOUT,
  },
};

/** The factory for a player name such as `rule` or `hybrid:n=5:m=5:t=5`; throws PlayerSpecError. */
export function playerFactory(spec: string): PlayerFactory {
  const [kind, ...parts] = spec.split(':');
  const base = BUILTIN_PLAYERS[kind ?? ''];
  if (!base) throw new PlayerSpecError(`unknown player '${spec}' (known: ${builtinPlayerKinds().join(', ')})`);
  if (kind === 'level') return levelFactory(spec, parts);
  if (kind === 'imitation') return imitationFactory(spec, parts);
  if (!parts.length) return base;
  if (kind === 'advised') return advisedFactory(spec, parts);
  const params = PARAMS[kind as keyof typeof PARAMS];
  if (!params) throw new PlayerSpecError(`player '${kind}' takes no parameters, got '${spec}'`);
  const settings: Record<string, number | string | PolicyNet> = {};
  for (const part of parts) {
    const [key, value] = part.split('=');
    // timed:policy=FILE.onnx: the rollouts before the exact horizon played by a policy network (game/learned).
    if (key === 'policy' && kind === 'timed') {
      if (!value) throw new PlayerSpecError(`${spec}: policy takes a model file, policy=FILE.onnx`);
      try {
        settings.policyNet = policyNet(value);
      } catch (e) {
        throw new PlayerSpecError(`${spec}: ${(e as Error).message}`);
      }
      settings.playout = 'policy';
      continue;
    }
    // timed:prior=FILE.onnx[:bias=N]: the network's probabilities added to the searched values at the root, N hundredths of a victory (default 20).
    if (key === 'prior' && kind === 'timed') {
      if (!value) throw new PlayerSpecError(`${spec}: prior takes a model file, prior=FILE.onnx`);
      try {
        settings.priorNet = policyNet(value);
      } catch (e) {
        throw new PlayerSpecError(`${spec}: ${(e as Error).message}`);
      }
      continue;
    }
    // timed:model=FILE.onnx: the worlds weighed by a policy network (a lab's model of its people) instead of a built-in model.
    if (key === 'model' && value?.endsWith('.onnx') && (kind === 'timed' || kind === 'timed-v1')) {
      try {
        settings.inferenceNet = policyNet(value);
      } catch (e) {
        throw new PlayerSpecError(`${spec}: ${(e as Error).message}`);
      }
      continue;
    }
    if (key === 'bias' && kind === 'timed') {
      const n = Number(value);
      if (!Number.isInteger(n) || n < 0 || n > 400)
        throw new PlayerSpecError(
          `${spec}: bias expects a whole number from 0 to 400 (hundredths of a victory the prior's probability is worth at the root), got '${value ?? ''}'`,
        );
      settings.priorWeight = n / 100;
      continue;
    }
    const p = params[key ?? ''];
    if (!p)
      throw new PlayerSpecError(
        `${spec}: '${key}' is not a parameter of ${kind} (it takes ${Object.entries(params)
          .map(([k, v]) => `${k}=${v.what}`)
          .join(', ')})`,
      );
    // A choice may be named as well as numbered.
    const named = p.named && p.values && value !== undefined ? p.values.indexOf(value) : -1;
    const n = named >= 0 ? named : Number(value);
    if (!Number.isInteger(n) || n < p.min || n > p.max)
      throw new PlayerSpecError(
        `${spec}: ${key} expects ${p.named && p.values ? `one of ${p.values.join(', ')} or ` : ''}a whole number from ${p.min} to ${p.max} (${p.what}), got '${value ?? ''}'`,
      );
    settings[p.option] = p.values ? p.values[n]! : n * (p.scale ?? 1);
  }
  if ((settings.inferenceNet || settings.inferenceModel) && settings.trust === 0)
    throw new PlayerSpecError(
      `${spec}: model= is what the worlds are weighed by, and infer=0 weighs none: leave out one of them`,
    );
  if (settings.priorWeight !== undefined && !settings.priorNet)
    throw new PlayerSpecError(`${spec}: bias weighs the prior at the root: name it with prior=FILE.onnx`);
  if (kind === 'rollout') return (o) => new RolloutPlayer({ ...o, ...settings, name: spec });
  if (kind === 'ismcts') return (o) => new IsmctsPlayer({ ...o, ...settings, name: spec });
  if (kind === 'blend') return (o) => new BlendPlayer({ ...o, ...settings, name: spec });
  return (o) => new SearchPlayer({ ...o, ...settings, kind: kind as SearchKind, name: spec });
}

/** `advised:p=PCT` (percent of the advice followed) and optionally `budget=MS` (the advice's search). */
function advisedFactory(spec: string, parts: string[]): PlayerFactory {
  let follow = 0.5;
  let budgetMs: number | undefined;
  for (const part of parts) {
    const [key, value] = part.split('=');
    const n = Number(value);
    if (key === 'p' && Number.isInteger(n) && n >= 0 && n <= 100) follow = n / 100;
    else if (key === 'budget' && Number.isInteger(n) && n >= 1 && n <= 600_000) budgetMs = n;
    else
      throw new PlayerSpecError(
        `${spec}: advised takes p=PCT (0 to 100: how often the advice is followed) and budget=MS (the advice's search), got '${part}'`,
      );
  }
  return (o) => new AdvisedPlayer({ ...o, follow, ...(budgetMs === undefined ? {} : { budgetMs }) });
}

/** `level:name=LEVEL` (beginner, casual, club, expert, full) and optionally `budget=MS`. */
function levelFactory(spec: string, parts: string[]): PlayerFactory {
  let level: string | undefined;
  let budgetMs: number | undefined;
  for (const part of parts) {
    const [key, value] = part.split('=');
    const n = Number(value);
    if (key === 'name' && value !== undefined && isLevelName(value)) level = value;
    else if (key === 'budget' && Number.isInteger(n) && n >= 1 && n <= 600_000) budgetMs = n;
    else if (key === 'name')
      throw new PlayerSpecError(`${spec}: unknown level '${value ?? ''}' (levels: ${LEVEL_NAMES.join(', ')})`);
    else
      throw new PlayerSpecError(
        `${spec}: level takes name=LEVEL (${LEVEL_NAMES.join(', ')}) and budget=MS, got '${part}'`,
      );
  }
  if (!level || !isLevelName(level))
    throw new PlayerSpecError(`${spec}: level needs a name: level:name=LEVEL (${LEVEL_NAMES.join(', ')})`);
  const name = level;
  return (o) => new LevelPlayer({ ...o, level: name, name: spec, ...(budgetMs === undefined ? {} : { budgetMs }) });
}

const ONNX_RUNTIME = ':runtime=onnx';

/**
 * The model file of `imitation:model=FILE.onnx:runtime=onnx`, a player whose network runs in
 * onnxruntime-node (robot/arena/onnx-imitation.ts; asynchronous, so tournaments only); else undefined.
 */
export function onnxImitationModel(spec: string): string | undefined {
  if (!spec.startsWith('imitation:model=') || !spec.endsWith(ONNX_RUNTIME)) return undefined;
  return spec.slice('imitation:model='.length, -ONNX_RUNTIME.length) || undefined;
}

/** `imitation:model=FILE.onnx`: the network is read once, when the spec is made (a bad file is told then). */
function imitationFactory(spec: string, parts: string[]): PlayerFactory {
  if (onnxImitationModel(spec) !== undefined) {
    throw new PlayerSpecError(
      `${spec}: runtime=onnx runs the network in onnxruntime-node, which answers asynchronously: only parceiro tournament plays it (without runtime=, the same network runs here in TypeScript)`,
    );
  }
  const joined = parts.join(':');
  if (!joined.startsWith('model=') || joined.length === 'model='.length)
    throw new PlayerSpecError(`${spec}: imitation takes model=FILE.onnx (a policy network from parceiro train)`);
  const path = joined.slice('model='.length);
  let net;
  try {
    net = policyNet(path);
  } catch (e) {
    throw new PlayerSpecError(`${spec}: ${(e as Error).message}`);
  }
  return (o) => new ImitationPlayer({ ...o, net, name: spec });
}
