// parceiro predict-eval (launch/commands/predict-eval.ts): scoring the models from seeded games and
// from game records, and bad input told as a UsageError (one line, exit code 2 at the command line).

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRng, dealCards, formatCard, formatCards, playGame, RulePlayer } from '../../game/index.js';
import type { Seat } from '../../game/index.js';
import { UsageError } from '../../launch/errors.js';
import { predictEvalCommand } from '../../launch/commands/predict-eval.js';
import type { PredictEvalOptions } from '../../launch/commands/predict-eval.js';
import { recordScripted } from '../learned/scripted.js';

const base: PredictEvalOptions = {
  players: 'rule',
  games: 2,
  seed: 5,
  budget: 20,
  observer: 0,
  observerPlayer: 'rule',
  models: 'rule',
  recording: [],
};

describe('parceiro predict-eval', () => {
  it("scores seeded games: a row per player kind, uniform first, every other seat's card counted", () => {
    const r = predictEvalCommand({ ...base, players: 'rule,random' });
    expect(r.models).toEqual(['uniform', 'rule']);
    expect(r.rows.map((w) => w.who)).toEqual(['rule', 'random']);
    for (const w of r.rows) expect(w.decisions).toBe(60);
    const rule = r.rows[0]!.models[1]!;
    expect(rule.meanLogLikelihood).toBeGreaterThan(r.rows[0]!.models[0]!.meanLogLikelihood);
    // The same seed, the same figures (the time per prediction aside).
    const untimed = (rows: typeof r.rows): unknown =>
      rows.map((w) => ({ ...w, models: w.models.map(({ msPerPrediction: _, ...m }) => m) }));
    expect(untimed(predictEvalCommand({ ...base, players: 'rule,random' }).rows)).toEqual(untimed(r.rows));
  });

  it("reads game records, a tournament's naming who sat where", () => {
    const dir = mkdtempSync(join(tmpdir(), 'predict-eval-'));
    const file = join(dir, 'games.jsonl');
    const lines = [0, 1].map((g) => {
      const deal = dealCards(createRng(9, g), g as Seat);
      const game = playGame(
        deal,
        [0, 1, 2, 3].map((s) => new RulePlayer({ seat: s as Seat, seed: s })),
      );
      const plays = Array.from({ length: game.plays }, (_, i) => formatCard(game.playAt(i)));
      return JSON.stringify({
        type: 'game',
        seats: ['rule', 'rule', 'rule', 'rule'],
        dealer: deal.dealer,
        trump: formatCard(deal.trumpCard),
        hands: deal.hands.map((h) => formatCards(h)),
        plays,
      });
    });
    writeFileSync(file, `${lines.join('\n')}\n{"type":"summary"}\n`);
    const r = predictEvalCommand({ ...base, records: file, observer: 1 });
    expect(r.rows).toHaveLength(1);
    expect(r.rows[0]!.who).toBe('rule');
    expect(r.rows[0]!.games).toBe(2);
    expect(r.rows[0]!.decisions).toBe(60);
  });

  it("scores a recording's people apart from its bots: the seats a virtual or touch table hosted", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'predict-eval-'));
    const path = join(dir, 'people.mcap');
    await recordScripted(path, 7, 0, 3); // people at seats 1 and 3 (a virtual table), a bot at 2
    const r = predictEvalCommand({ ...base, recording: [path], who: 'lab people' });
    expect(r.rows.map((w) => [w.who, w.games, w.decisions])).toEqual([
      ['lab people', 3, 60],
      ['bot', 3, 30],
    ]);
  });

  it('tells bad input in one line', () => {
    expect(() => predictEvalCommand({ ...base, models: 'rule,psychic' })).toThrow(UsageError);
    expect(() => predictEvalCommand({ ...base, players: 'wizard' })).toThrow(/--players/);
    const dir = mkdtempSync(join(tmpdir(), 'predict-eval-'));
    const file = join(dir, 'bad.jsonl');
    writeFileSync(file, '{"dealer": 0, "trump": "XX", "hands": [], "plays": []}\n');
    expect(() => predictEvalCommand({ ...base, records: file })).toThrow(/line 1: trump/);
    expect(() => predictEvalCommand({ ...base, records: join(dir, 'missing.jsonl') })).toThrow(UsageError);
    expect(() => predictEvalCommand({ ...base, recording: [join(dir, 'missing.mcap')] })).toThrow(UsageError);
  });
});
