// Assembles a character from the settings and a preset's files (included files first): merges
// dispositions, goals and rules, and compiles every rule against the words its events know.

import type { Character, Disposition, Goal, Rule } from './character.js';
import type { Located, Path, PresetFile, RuleEntry, SettingsFile } from './config-files.js';
import type { EmotionType } from './emotions.js';
import { EMOTION_TYPES } from './emotions.js';
import type { AppraisalEventType } from './events.js';
import { APPRAISAL_EVENT_TYPES } from './events.js';
import type { Env } from './expression.js';
import { ExpressionError, compileExpression } from './expression.js';
import type { TargetWord } from './event-scope.js';
import { TARGET_WORDS, sharedScope, targetWords } from './event-scope.js';

/**
 * Builds the character. `files` are the preset's files in order (what it includes first); a rule
 * with the name of an earlier rule replaces it, dispositions and goals override earlier ones.
 */
export function buildCharacter(
  name: string,
  settings: Located<SettingsFile>,
  files: readonly Located<PresetFile>[],
): Character {
  const s = settings.value;
  // Settings first, then each file in order; per type after the defaults.
  const over = (
    d: Disposition,
    o: { threshold?: number | undefined; decay?: number | undefined } | undefined,
  ): Disposition => ({
    threshold: o?.threshold ?? d.threshold,
    decay: o?.decay ?? d.decay,
  });
  let base: Disposition = { threshold: s.dispositions.default!.threshold!, decay: s.dispositions.default!.decay! };
  for (const f of files) base = over(base, f.value.dispositions?.default);
  const dispositions = Object.fromEntries(
    EMOTION_TYPES.map((t) => {
      let d = over(base, s.dispositions[t]);
      for (const f of files) d = over(d, f.value.dispositions?.[t]);
      return [t, d];
    }),
  ) as Record<EmotionType, Disposition>;

  const goals: Record<string, Goal> = {};
  for (const f of files) {
    for (const [g, spec] of Object.entries(f.value.goals ?? {})) {
      goals[g] = {
        name: g,
        significance: spec.significance,
        likelihood: spec.likelihood ?? 0.5,
        minChange: spec.minChange ?? 0,
        resetOn: (spec.resetOn ?? []) as AppraisalEventType[],
      };
    }
  }

  // Later files replace earlier rules of the same name; within a file, names must be unique.
  const entries: { rule: RuleEntry; index: number; file: Located<PresetFile> }[] = [];
  for (const f of files) {
    const seen = new Set<string>();
    (f.value.rules ?? []).forEach((rule, index) => {
      if (seen.has(rule.name))
        throw f.error(['rules', index, 'name'], `a rule named "${rule.name}" is already in this file`);
      seen.add(rule.name);
      const earlier = entries.findIndex((e) => e.rule.name === rule.name);
      if (earlier >= 0) entries.splice(earlier, 1);
      entries.push({ rule, index, file: f });
    });
  }
  const rules = entries.map(({ rule, index, file }) => compileRule(rule, file, ['rules', index], goals));
  const rulesFor = Object.fromEntries(
    APPRAISAL_EVENT_TYPES.map((t) => [t, rules.filter((r) => r.on.includes(t))]),
  ) as Record<AppraisalEventType, Rule[]>;
  const description = [...files].reverse().find((f) => f.value.description)?.value.description ?? '';
  // The last file that sets it; 1 (the event's surprise as it is) when none does.
  const surpriseGain = [...files].reverse().find((f) => f.value.surpriseGain !== undefined)?.value.surpriseGain ?? 1;
  // Likewise; 2 standard errors when none does.
  const noiseBand = [...files].reverse().find((f) => f.value.noiseBand !== undefined)?.value.noiseBand ?? 2;
  // Likewise; off when none sets it.
  const leadTrickPoints =
    [...files].reverse().find((f) => f.value.leadTrickPoints !== undefined)?.value.leadTrickPoints ?? 0;
  return {
    name,
    description,
    model: s.model,
    dispositions,
    surpriseGain,
    noiseBand,
    leadTrickPoints,
    goals,
    rules,
    rulesFor,
  };
}

function compileRule(
  entry: RuleEntry,
  file: Located<PresetFile>,
  at: Path,
  goals: Readonly<Record<string, Goal>>,
): Rule {
  const on = [...new Set(Array.isArray(entry.on) ? entry.on : [entry.on])] as AppraisalEventType[];
  const scope = sharedScope(on);
  const events = on.length === 1 ? `${on[0]} events` : `all of ${on.join(', ')}`;

  const expr = (path: Path, source: string, kind: 'number' | 'boolean') => {
    try {
      return compileExpression(source, scope, kind);
    } catch (e) {
      if (e instanceof ExpressionError) throw file.error([...at, ...path], e.message);
      throw e;
    }
  };
  const numberOf = (path: Path, v: number | string, lo: number, hi: number): ((env: Env) => number) => {
    if (typeof v === 'number') {
      if (!(v >= lo && v <= hi)) throw file.error([...at, ...path], `${v} is outside ${lo}..${hi}`);
      return () => v;
    }
    const c = expr(path, v, 'number');
    if (typeof c.constant === 'number' && !Number.isFinite(c.constant))
      throw file.error([...at, ...path], `${JSON.stringify(v)} is not a number`);
    if (typeof c.constant === 'number' && !(c.constant >= lo && c.constant <= hi))
      throw file.error([...at, ...path], `${JSON.stringify(v)} is ${c.constant}, outside ${lo}..${hi}`);
    return c.evaluate as (env: Env) => number;
  };

  const conditions = entry.when === undefined ? [] : Array.isArray(entry.when) ? entry.when : [entry.when];
  const tests = conditions.map((c, i) => {
    const path: Path = Array.isArray(entry.when) ? ['when', i] : ['when'];
    if (typeof c === 'boolean') return () => c;
    return expr(path, c, 'boolean').evaluate as (env: Env) => boolean;
  });
  const when = tests.length === 0 ? null : tests.length === 1 ? tests[0]! : (env: Env) => tests.every((t) => t(env));

  const words = new Set<string>(on.map((t) => targetWords(t)).reduce((a, b) => a.filter((w) => b.includes(w))));
  const byTarget = (key: string, m: Record<string, number | string> | undefined) =>
    Object.entries(m ?? {}).map(([word, v]) => {
      if (!words.has(word)) {
        const what = (TARGET_WORDS as readonly string[]).includes(word)
          ? `"${word}" is not a target of ${events}`
          : `unknown target "${word}"`;
        throw file.error([...at, 'appraise', key, word], `${what} (use ${[...words].join(', ')})`);
      }
      return [word as TargetWord, numberOf(['appraise', key, word], v, -10, 10)] as const;
    });

  const a = entry.appraise ?? {};
  const declared = (key: string, goal: string): void => {
    if (goals[goal]) return;
    const known = Object.keys(goals);
    throw file.error(
      [...at, 'appraise', key, goal],
      `unknown goal "${goal}" (${known.length ? `goals: ${known.join(', ')}` : 'declare it under goals:'})`,
    );
  };
  const goalSuccessProbability = Object.entries(a['goal-success-probability'] ?? {}).map(([goal, v]) => {
    declared('goal-success-probability', goal);
    // A success probability is an estimate: hope and fear. A certain outcome is said as one.
    if (v === 0 || v === 1)
      throw file.error(
        [...at, 'appraise', 'goal-success-probability', goal],
        `a probability of ${v} is an estimate, not an outcome; to achieve or fail the goal, write goal-achieved: { ${goal}: ${v === 1} }`,
      );
    return [goal, numberOf(['appraise', 'goal-success-probability', goal], v, 0, 1)] as const;
  });
  const goalAchieved = Object.entries(a['goal-achieved'] ?? {}).map(([goal, v]) => {
    declared('goal-achieved', goal);
    if (typeof v === 'boolean') return [goal, () => v] as const;
    return [goal, expr(['appraise', 'goal-achieved', goal], v, 'boolean').evaluate as (env: Env) => boolean] as const;
  });

  return {
    name: entry.name,
    on,
    source: `${file.file}:${file.lineOf(at) ?? '?'}`,
    when,
    desirability: a.desirability === undefined ? null : numberOf(['appraise', 'desirability'], a.desirability, -10, 10),
    desirabilityForOther: byTarget('desirability-for-other', a['desirability-for-other']),
    praiseworthiness: byTarget('praiseworthiness', a.praiseworthiness),
    like: byTarget('like', a.like),
    goalSuccessProbability,
    goalAchieved,
  };
}
