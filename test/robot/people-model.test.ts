// A lab's model of how its people play, in the live node: config/node.yaml's
// player.inferenceModelFile names a policy network, and the robot's search workers weigh their worlds
// by it instead of the rule-based odds. The recording names the network; a bad file stops the node at
// start in one line; a resumed session's search goes on with it. The shipped network stands in for a
// lab's (any network of this build's features will do). Nothing here measures time: the one budget that
// matters is far beyond what the work takes.

import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type * as Robot from '../../robot/index.js';
import type { DecisionMessage } from '../../robot/bus/index.js';
import type { Seat } from '../../game/index.js';
import { Game, RulePlayer, SeatView, createRng, dealCards } from '../../game/index.js';
import { SimulatedTable } from '../../table-bridge/index.js';
import { InProcessBus } from '../../robot/bus/index.js';

const robot = (await import(new URL('../../dist/robot/index.js', import.meta.url).href)) as typeof Robot;
const recording = (await import(
  new URL('../../dist/robot/recording/index.js', import.meta.url).href
)) as typeof import('../../robot/recording/index.js');
const replay = (await import(
  new URL('../../dist/robot/offline/replay/index.js', import.meta.url).href
)) as typeof import('../../robot/offline/replay/index.js');
const { loadNodeSettings } = (await import(
  new URL('../../dist/robot/live/node/node-settings.js', import.meta.url).href
)) as typeof import('../../robot/live/node/node-settings.js');
const { ConfigError } = (await import(
  new URL('../../dist/behaviours/index.js', import.meta.url).href
)) as typeof import('../../behaviours/index.js');

const MODEL_FILE = 'models/policy-timed-100ms-seed2311.onnx';
const MODEL = fileURLToPath(new URL(`../../${MODEL_FILE}`, import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'parceiro-people-'));
// A recording names networks only in the project's models/ folder: the copies a resume must find go there.
const models = fileURLToPath(new URL('../../models/', import.meta.url));
const copies: string[] = [];
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  for (const f of copies) rmSync(f, { force: true });
});
const TOKEN = 'people-model-token';
const quiet = () => robot.createLogger({ level: 'silent', pretty: false });
const base = loadNodeSettings();
const withPeopleModel = (file: string) => ({ ...base, player: { ...base.player, inferenceModelFile: file } });

// The cases are independent (each its own session id, ports and folder) and mostly wait for the
// robot's pace and last lines: they run at once. The timeout is only a backstop.
describe("the people's model in the live node", { concurrent: true, timeout: 300_000 }, () => {
  it("the search pool's workers weigh their worlds by the network's bytes they are given", async () => {
    const game = new Game(dealCards(createRng(8), 1));
    const rules = [0, 1, 2, 3].map((s) => new RulePlayer({ seat: s as Seat, seed: 80 + s }));
    // Past the third trick, at a seat with a choice.
    while (game.plays < 13 || new SeatView(game, game.toMove).legalCards().length < 2)
      game.play(rules[game.toMove]!.choose(new SeatView(game, game.toMove)));
    const view = new SeatView(game, game.toMove);
    // A budget far beyond what 20 worlds take: every candidate is drawn and weighed, so both runs weigh
    // the same 2,048 candidates from the same seeds, and only the model differs.
    const decide = async (inferenceModel?: { name: string; bytes: Uint8Array }) => {
      const pool = new robot.PoolSearchPlayer({
        seat: view.seat,
        seed: 4,
        budgetMs: 120_000,
        threads: 1,
        maxWorlds: 20,
        trust: 0.5,
        explain: false,
        ...(inferenceModel ? { inferenceModel } : {}),
      });
      try {
        return (await pool.decide(view)).beliefs!;
      } finally {
        await pool.close();
      }
    };
    const byNetwork = await decide({ name: MODEL, bytes: readFileSync(MODEL) });
    const byRule = await decide();
    expect(byNetwork.worlds).toBe(20);
    expect(byNetwork.inference?.trust).toBe(0.5);
    expect(byRule.inference!.candidates).toBe(2048);
    expect(byNetwork.inference!.effective).not.toBe(byRule.inference!.effective);
  });

  it("weighs the robot's worlds by player.inferenceModelFile, names it in the recording, and the replay matches", async () => {
    const node = await robot.ParceiroNode.start({
      seed: 31,
      games: 1,
      sessionId: 'people-model',
      language: 'pt',
      budgetMs: 300,
      recordingsDir: dir,
      table: { host: '127.0.0.1', port: 0, token: TOKEN },
      minThinkMs: 0,
      speech: 'publish',
      dashboard: null,
      logger: quiet(),
      settings: withPeopleModel(MODEL_FILE),
    });
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
    const node = await robot.ParceiroNode.start({
      seed: 32,
      games: 1,
      sessionId: 'people-none',
      language: 'en',
      budgetMs: 50,
      expectationBudgetMs: 0,
      recordingsDir: dir,
      table: { host: '127.0.0.1', port: 0, token: TOKEN },
      minThinkMs: 0,
      speech: 'publish',
      dashboard: null,
      prediction: null,
      logger: quiet(),
      settings: base,
    });
    await robot.playToTheEnd(node, new SimulatedTable({ url: node.url, token: TOKEN, seed: 10 }));
    await node.quiet();
    const path = (await node.close()).recording!;
    expect(recording.readRecording(path).session?.inferenceModel).toBe('rule');
  });

  it("a missing or wrong file stops the node at start, in one line naming node.yaml's key and the file", async () => {
    const notOnnx = join(dir, 'not-a-model.onnx');
    writeFileSync(notOnnx, 'not the weights of a network\n');
    const noSidecar = join(dir, 'no-sidecar.onnx');
    copyFileSync(MODEL, noSidecar);
    for (const [file, why] of [
      [join(dir, 'missing.onnx'), /no such file/],
      [notOnnx, /not a policy network/],
      [noSidecar, /sidecar .*no-sidecar\.json.* missing/],
    ] as const) {
      const e = await robot.ParceiroNode.start({
        seed: 33,
        games: 1,
        sessionId: 'people-bad',
        language: 'en',
        budgetMs: 50,
        recordingsDir: dir,
        table: { host: '127.0.0.1', port: 0, token: TOKEN },
        minThinkMs: 0,
        speech: 'publish',
        dashboard: null,
        logger: quiet(),
        settings: withPeopleModel(file),
      }).then(
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
  it('is not read, and not recorded, when nothing weighs worlds (inference 0)', async () => {
    const settings = {
      ...base,
      player: { ...base.player, inference: 0, inferenceModelFile: join(dir, 'never-read.onnx') },
    };
    const node = await robot.ParceiroNode.start({
      seed: 34,
      games: 1,
      sessionId: 'people-off',
      language: 'en',
      budgetMs: 50,
      expectationBudgetMs: 0,
      recordingsDir: dir,
      table: { host: '127.0.0.1', port: 0, token: TOKEN },
      minThinkMs: 0,
      speech: 'publish',
      dashboard: null,
      prediction: null,
      logger: quiet(),
      settings,
    });
    await robot.playToTheEnd(node, new SimulatedTable({ url: node.url, token: TOKEN, seed: 11 }));
    await node.quiet();
    const path = (await node.close()).recording!;
    expect(recording.readRecording(path).session?.inferenceModel).toBe('rule');
  });

  it('a resumed session weighs by the recorded network when it is here, and records the rule odds when it is gone', async () => {
    for (const gone of [false, true]) {
      const id = gone ? 'people-resume-gone' : 'people-resume';
      const model = join(models, `.test-${id}-${process.pid}.onnx`);
      copies.push(model, model.replace(/\.onnx$/, '.json'));
      copyFileSync(MODEL, model);
      copyFileSync(MODEL.replace(/\.onnx$/, '.json'), model.replace(/\.onnx$/, '.json'));
      const node = await robot.ParceiroNode.start({
        seed: 35,
        games: 1,
        sessionId: id,
        language: 'en',
        budgetMs: 100,
        expectationBudgetMs: 0,
        recordingsDir: dir,
        table: { host: '127.0.0.1', port: 0, token: TOKEN },
        minThinkMs: 0,
        speech: 'publish',
        dashboard: null,
        prediction: null,
        logger: quiet(),
        settings: withPeopleModel(model),
      });
      await robot.playToTheEnd(node, new SimulatedTable({ url: node.url, token: TOKEN, seed: 12 }));
      await node.quiet();
      const whole = recording.readRecording((await node.close()).recording!);
      const named = whole.session!.inferenceModel!;
      expect(JSON.parse(named)).toMatchObject({ modelFile: model });
      // The session as a crash left it: cut after its 15th play.
      const crashed = join(dir, `${id}-crashed`);
      mkdirSync(crashed, { recursive: true });
      const plays = whole.messages
        .map((m, i) => ({ m, i }))
        .filter(({ m }) => m.topic.name === '/parceiro/game/events' && (m.message as { type: string }).type === 'play');
      let now = 0;
      const r = await recording.Recorder.start({
        path: join(crashed, `${id}.mcap`),
        bus: new InProcessBus(),
        clock: () => now,
        session: whole.session!,
      });
      for (const m of whole.messages.slice(0, plays[14]!.i + 1)) {
        now = m.time;
        r.record(m.topic, m.message);
      }
      await r.close();
      if (gone) rmSync(model);
      const resumed = await replay.resumeSession({
        sessionId: id,
        recordingsDir: crashed,
        token: TOKEN,
        host: '127.0.0.1',
        port: 0,
        logger: quiet(),
        node: { dashboard: null },
      });
      await robot.playToTheEnd(resumed.node, new SimulatedTable({ url: resumed.node.url, token: TOKEN, seed: 12 }));
      await resumed.node.quiet();
      const part = recording.readRecording((await resumed.close()).recording!);
      expect(part.session?.inferenceModel).toBe(gone ? 'rule' : named);
    }
  });
});
