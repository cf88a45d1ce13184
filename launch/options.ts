// The options several commands share, each described once: its flags, its parser and its usual help
// text. Where a command's text or default differs on purpose (the node's commands read their
// defaults from config/, simulate and the offline tools fix theirs), the command passes its own,
// explicitly, at the call in cli.ts.

import { Option } from 'commander';
import { CHOICE_KEYS, choiceOf, parseChoice } from '../robot/index.js';
import type { ChoiceKey, SessionChoices } from '../robot/index.js';
import { UsageError, intOption } from './errors.js';
import { levelOption } from './levels.js';

/** What a command changes of a shared option: its help text, its default. */
interface OptionText {
  description?: string;
  default?: unknown;
}

const build = (flags: string, description: string, o: OptionText, parse?: (v: string) => unknown): Option => {
  const option = new Option(flags, o.description ?? description);
  if (parse) option.argParser(parse);
  return o.default === undefined ? option : option.default(o.default);
};

/** Where a chosen setting's default comes from, for its help. */
const defaultText = (key: ChoiceKey): string => {
  const c = choiceOf(key).config;
  if (!c) return '';
  return 'session' in c ? ` (default: config/session.yaml ${key})` : ` (default: config/node.yaml ${c.node})`;
};

/** The flag's long name as commander keeps its value: `--min-think <ms>` -> minThink. */
const attributeOf = (flag: string): string =>
  flag
    .split(' ')[0]!
    .replace(/^--/, '')
    .replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/**
 * A session setting's flag, from its line in the session schema (robot/live/session/session-settings.ts):
 * its name, its help and its parser, the setting's codec (a value that does not fit is one line, exit 2).
 * `max` narrows the schema's range for one command.
 */
export const sessionOption = (key: ChoiceKey, o: OptionText & { max?: number } = {}): Option => {
  const { flag, help } = choiceOf(key);
  if (!flag) throw new Error(`the session setting ${key} has no flag`);
  const option = new Option(flag, o.description ?? `${help ?? key}${defaultText(key)}`);
  const name = flag.split(' ')[0]!;
  if (option.required)
    option.argParser((v: string) => {
      const r = parseChoice(key, v);
      if ('expected' in r) throw new UsageError(`${name} expects ${r.expected}, got "${v}"`);
      if (o.max !== undefined && typeof r.value === 'number' && r.value > o.max)
        throw new UsageError(`${name} expects at most ${o.max}, got "${v}"`);
      return r.value;
    });
  return o.default === undefined ? option : option.default(o.default);
};

/** The session settings a command's parsed options choose (those left out keep their defaults). */
export function choicesOf(options: object): SessionChoices {
  const out: Record<string, unknown> = {};
  for (const key of CHOICE_KEYS) {
    const flag = choiceOf(key).flag;
    const value = flag === undefined ? undefined : (options as Record<string, unknown>)[attributeOf(flag)];
    if (value !== undefined) out[key] = value;
  }
  return out as SessionChoices;
}

/** An option given again for each value, collected in order (none: an empty list). */
export const repeatableOption = (flags: string, description: string): Option =>
  new Option(flags, description).argParser((v: string, acc: string[]) => [...acc, v]).default([] as string[]);

export const gamesOption = (description: string, o: OptionText & { max?: number } = {}): Option =>
  build('--games <n>', description, o, intOption('--games', 1, o.max));

export const seedOption = (description: string, o: OptionText = {}): Option =>
  build('--seed <n>', description, o, intOption('--seed', 0));

export const speechOption = (o: OptionText = {}): Option =>
  build('--speech <backend>', 'log, espeak-ng, say (festival) or publish (default: config/behaviours.yaml)', o);

export const noRecordOption = (): Option => new Option('--no-record', 'do not write the MCAP recording');

export const recordingsOption = (o: OptionText = {}): Option =>
  build('--recordings <dir>', 'where recordings go (default: config/node.yaml)', o);

export const botThinkOption = (description: string): Option =>
  build('--bot-think <ms>', description, { default: 1000 }, intOption('--bot-think', 0, 60_000));

/** The robot's time per decision of the arena's commands (match, tournament...), not a session's. */
export const budgetOption = (o: OptionText = {}): Option =>
  build('--budget <ms>', "the robot's time per decision", o, intOption('--budget', 1));

export const characterOption = (o: OptionText = {}): Option =>
  build('--character <name|file>', 'a character preset or file (default: config/appraisal/appraisal.yaml)', o);

export const resumeOption = (description: string): Option => new Option('--resume <id>', description);

export const acceptDamageOption = (): Option =>
  new Option(
    '--accept-damage',
    'with --resume: go on from what could be read of a damaged recording (refused otherwise; a part cut short by the crash is not damage)',
  ).default(false);

export const levelOfPlayOption = (): Option =>
  new Option(
    '--level <name>',
    "the robot's level of play: beginner, casual, club, expert or full (default: config/node.yaml, full); below full it forgets played cards as a person does (docs/levels.md)",
  ).argParser(levelOption);

/** The address to listen on; the node's commands keep to this machine unless told. */
export const hostOption = (o: OptionText = {}): Option =>
  build('--host <address>', 'the address to listen on (default 127.0.0.1: another machine is an explicit choice)', o);

export const portOption = (description: string, o: OptionText & { min?: number } = {}): Option =>
  build('--port <n>', description, o, intOption('--port', o.min ?? 0, 65_535));

export const tokenOption = (description: string): Option => new Option('--token <secret>', description);

export const dashboardPortOption = (description: string, defaultPort: number): Option =>
  build('--dashboard-port <n>', description, { default: defaultPort }, intOption('--dashboard-port', 0, 65_535));

export const dashboardTokenOption = (): Option =>
  new Option(
    '--dashboard-token <secret>',
    'the operator token, 16 characters or more (default: a new random one, printed)',
  );

export const seatOption = (description: string): Option =>
  build('--seat <n>', description, { default: 0 }, intOption('--seat', 0, 3));

export const jsonOption = (description = 'print the report as JSON'): Option =>
  new Option('--json', description).default(false);

export const levelsFileOption = (description: string): Option => new Option('--levels <file>', description);

export const tuioConfigOption = (description: string): Option => new Option('--tuio-config <file>', description);
