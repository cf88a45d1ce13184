// A lab's model of how its people play, in the live node (issue 23, deliverable 3): config/node.yaml's
// player.inferenceModelFile names a policy network, and the robot's search workers weigh their worlds
// by it instead of the rule-based odds. The recording names the network; a bad file stops the node at
// start in one line; a resumed session's search goes on with it. The shipped network stands in for a
// lab's (any network of this build's features will do). Nothing here measures time.

import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type * as Robot from '../../robot/index.js';
import type { DecisionMessage } from '../../robot/bus/index.js';
import type { Seat } from '../../game/index.js';
import { Game, RulePlayer, SeatView, createRng, dealCards } from '../../game/index.js';
import { SimulatedTable } from '../../table-bridge/index.js';

const robot = (await import(new URL('../../dist/robot/index.js', import.meta.url).href)) as typeof Robot;
const recording = (await import(new URL('../../dist/robot/recording/index.js', import.meta.url).href)) as typeof import('../../robot/recording/index.js');
const replay = (await import(new URL('../../dist/robot/replay/index.js', import.meta.url).href)) as typeof import('../../robot/replay/index.js');
const { loadNodeSettings } = (await import(new URL('../../dist/robot/node/node-settings.js', import.meta.url).href)) as typeof import('../../robot/node/node-settings.js');
const { ConfigError } = (await import(new URL('../../dist/behaviours/index.js', import.meta.url).href)) as typeof import('../../behaviours/index.js');
const search = ((await import(new URL('../../dist/robot/search/worker.js', import.meta.url).href)) as typeof import('../../robot/search/worker.js')).default;

const MODEL_FILE = 'models/policy-timed-100ms-seed2311.onnx';
const MODEL = fileURLToPath(new URL(`../../${MODEL_FILE}`, import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'parceiro-people-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const TOKEN = 'people-model-token';
const quiet = () => robot.createLogger({ level: 'silent', pretty: false });
const base = loadNodeSettings();
const withPeopleModel = (file: string) => ({ ...base, player: { ...base.player, inferenceModelFile: file } });

describe("the people's model in the live node", () => {
  it('a search worker weighs its worlds by the network it is given, and refuses a file it cannot read', () => {
    const game = new Game(dealCards(createRng(8), 1));
    const rules = [0, 1, 2, 3].map((s) => new RulePlayer({ seat: s as Seat, seed: 80 + s }));
    while (game.plays < 13) game.play(rules[game.toMove]!.choose(new SeatView(game, game.toMove)));
    const view = new SeatView(game, game.toMove);
    const task = { info: view.snapshot(), legal: view.legalCards(), worlds: 20, deadline: performance.timeOrigin + performance.now() + 60_000, seed: 3, trust: 0.5, objective: 'victories' as const, playout: 'expert' as const };
    const weighed = search({ ...task, inferenceModel: MODEL });
    expect(weighed.tally.worlds).toBe(20);
    expect(weighed.inference?.trust).toBe(0.5);
    // The network and the rule odds weigh the same candidates differently.
    const byRule = search(task);
    expect(weighed.inference!.candidates).toBe(byRule.inference!.candidates);
    expect(weighed.inference!.effective).not.toBe(byRule.inference!.effective);
    expect(() => search({ ...task, inferenceModel: join(dir, 'gone.onnx') })).toThrow(/gone\.onnx: no such file/);
  });

  it('weighs the robot\'s worlds by player.inferenceModelFile, names it in the recording, and the replay matches', async () => {
    const node = await robot.ParceiroNode.start({ seed: 31, games: 1, sessionId: 'people-model', language: 'pt', budgetMs: 300, recordingsDir: dir, token: TOKEN, port: 0, host: '127.0.0.1', minThinkMs: 0, speech: 'publish', dashboard: null, logger: quiet(), settings: withPeopleModel(MODEL_FILE) });
    const decisions: DecisionMessage[] = [];
    node.bus.subscribe('decision', (m) => void decisions.push(m));
    await robot.playToTheEnd(node, new SimulatedTable({ url: node.url, token: TOKEN, seed: 9 }));
    await node.quiet();
    const path = (await node.close()).recording!;
    // Every decision with a choice after another seat has played weighed its worlds, and searched some.
    const weighed = decisions.filter((d) => d.inference_trust >= 0);
    expect(weighed.length).toBeGreaterThan(3);
    for (const d of weighed) {
      expect(d.inference_trust).toBeCloseTo(0.5, 5);
      expect(d.inference_candidates).toBeGreaterThan(0);
    }
    const rec = recording.readRecording(path);
    const named = JSON.parse(rec.session!.inferenceModel!) as Record<string, unknown>;
    expect(named).toMatchObject({ modelFile: MODEL_FILE, featuresVersion: 1 });
    expect(named.sha256).toMatch(/^[0-9a-f]{16}$/);
    const r = await replay.replayRecording(rec);
    expect(r.firstDifference).toBeNull();
    expect(r.matches).toBe(true);
  });

  it('says rule in the recording when no network is named', async () => {
    const node = await robot.ParceiroNode.start({ seed: 32, games: 1, sessionId: 'people-none', language: 'en', budgetMs: 50, expectationBudgetMs: 0, recordingsDir: dir, token: TOKEN, port: 0, host: '127.0.0.1', minThinkMs: 0, speech: 'publish', dashboard: null, prediction: null, logger: quiet(), settings: base });
    await robot.playToTheEnd(node, new SimulatedTable({ url: node.url, token: TOKEN, seed: 10 }));
    await node.quiet();
    const path = (await node.close()).recording!;
    expect(recording.readRecording(path).session?.inferenceModel).toBe('rule');
  });

  it('a missing or wrong file stops the node at start, in one line naming node.yaml\'s key and the file', async () => {
    const notOnnx = join(dir, 'not-a-model.onnx');
    writeFileSync(notOnnx, 'not the weights of a network\n');
    const noSidecar = join(dir, 'no-sidecar.onnx');
    copyFileSync(MODEL, noSidecar);
    for (const [file, why] of [
      [join(dir, 'missing.onnx'), /no such file/],
      [notOnnx, /not a policy network/],
      [noSidecar, /sidecar .*no-sidecar\.json.* missing/],
    ] as const) {
      const e = await robot.ParceiroNode.start({ seed: 33, games: 1, sessionId: 'people-bad', language: 'en', budgetMs: 50, recordingsDir: dir, token: TOKEN, port: 0, host: '127.0.0.1', minThinkMs: 0, speech: 'publish', dashboard: null, logger: quiet(), settings: withPeopleModel(file) }).then(
        () => null,
        (err: unknown) => err,
      );
      expect(e).toBeInstanceOf(ConfigError);
      const message = (e as Error).message;
      expect(message.split('\n')).toHaveLength(1);
      expect(message).toMatch(/^config\/node\.yaml: player\.inferenceModelFile: model /);
      expect(message).toContain(file);
      expect(message).toMatch(why);
    }
    expect(existsSync(join(dir, 'people-bad.mcap'))).toBe(false);
  });
});
