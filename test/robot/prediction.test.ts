// Predictions live: before each card of another seat the node predicts it from the robot's
// information set and publishes the prediction; when the card is down, the card, its probability and
// the surprise. On the record, and a replay predicts exactly the same. Nothing here measures time.

import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type * as Robot from '../../robot/index.js';
import type { GameEventMessage, PredictionMessage } from '../../robot/bus/index.js';
import type { Card } from '../../game/index.js';
import { parseCard } from '../../game/index.js';
import { SimulatedTable } from '../../table-bridge/index.js';
import { defaultConfigDir } from '../../behaviours/index.js';

const robot = (await import(new URL('../../dist/robot/index.js', import.meta.url).href)) as typeof Robot;
const recording = (await import(
  new URL('../../dist/robot/recording/index.js', import.meta.url).href
)) as typeof import('../../robot/recording/index.js');
const replay = (await import(
  new URL('../../dist/robot/offline/replay/index.js', import.meta.url).href
)) as typeof import('../../robot/offline/replay/index.js');
const { surpriseOf } = (await import(
  new URL('../../dist/robot/live/node/prediction.js', import.meta.url).href
)) as typeof import('../../robot/live/node/prediction.js');

const dir = mkdtempSync(join(tmpdir(), 'parceiro-prediction-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const TOKEN = 'prediction-token-1';
const quiet = () => robot.createLogger({ level: 'silent', pretty: false });

describe('predictions on the bus', () => {
  // The three sessions (each its own node on free ports and its own session id) mostly wait on the
  // table and the robot's lines: they run at once. The cases after them run one at a time.
  it.concurrent(
    "predict each card of the other seats from the robot's seat, say the surprise once it is down, and replay exactly",
    async () => {
      const node = await robot.ParceiroNode.start({
        seed: 23,
        games: 2,
        sessionId: 'prediction-1',
        language: 'pt',
        budgetMs: 100,
        recordingsDir: dir,
        table: { host: '127.0.0.1', port: 0, token: TOKEN },
        minThinkMs: 0,
        speech: 'publish',
        dashboard: null,
        prediction: { model: 'expert', top: 5 },
        logger: quiet(),
      });
      const predictions: PredictionMessage[] = [];
      const plays: GameEventMessage[] = [];
      node.bus.subscribe('prediction', (m) => void predictions.push(m));
      node.bus.subscribe('gameEvents', (m) => void (m.type === 'play' && plays.push(m)));
      await robot.playToTheEnd(node, new SimulatedTable({ url: node.url, token: TOKEN, seed: 5 }));
      await node.quiet();
      const stats = node.reactions.predictions!.stats;
      const path = (await node.close()).recording!;

      // Every card of another seat: predicted before it, judged after it, in that order.
      const others = plays.filter((p) => p.seat !== 0);
      expect(others).toHaveLength(60);
      expect(stats.predictions).toBe(60);
      const predicted = predictions.filter((m) => m.phase === 'predicted');
      const played = predictions.filter((m) => m.phase === 'played');
      expect(predicted).toHaveLength(60);
      expect(played).toHaveLength(60);
      predictions.forEach((m, i) => expect(m.phase).toBe(i % 2 === 0 ? 'predicted' : 'played'));
      played.forEach((m, i) => {
        const p = others[i]!;
        expect(m).toMatchObject({ seat: p.seat, played: p.card, trick: p.trick, game: p.game + 1, model: 'expert' });
        expect(m.cards.length).toBeLessThanOrEqual(5);
        expect(m.cards.length).toBe(Math.min(5, m.possible));
        // Most likely first, each a probability; the card played had one, and its surprise follows from it.
        for (let k = 1; k < m.probabilities.length; k++)
          expect(m.probabilities[k]!).toBeLessThanOrEqual(m.probabilities[k - 1]!);
        expect(m.probability).toBeGreaterThan(0);
        expect(m.probability).toBeLessThanOrEqual(m.probabilities[0]! + 1e-9);
        expect(m.surprise).toBeCloseTo(1 - m.probability / m.probabilities[0]!, 4);
        if (m.rank === 1) expect(m.surprise).toBe(0);
        if (m.cards.includes(m.played)) expect(m.cards.indexOf(m.played) + 1).toBe(m.rank);
        // What the prediction saw: never the card itself as certain unless it was the seat's only possible one.
        if (m.possible > 1) expect(m.probability).toBeLessThan(1);
      });
      // Not every card surprises, and some do.
      expect(played.filter((m) => m.surprise === 0).length).toBeGreaterThan(0);
      expect(played.filter((m) => m.surprise >= 0.5).length).toBeGreaterThan(0);

      // Recorded, and a replay predicts exactly the same (and so reacts the same).
      const rec = recording.readRecording(path);
      expect(rec.session?.prediction).toBe(JSON.stringify({ model: 'expert', top: 5 }));
      const r = await replay.replayRecording(rec);
      expect(r.firstDifference).toBeNull();
      expect(r.matches).toBe(true);
      expect(r.compared['/parceiro/prediction']).toBe(120);
      expect(r.groups.emotions.matches).toBe(true);
    },
  );

  it.concurrent('off: no predictions, and a replay of that recording makes none', async () => {
    const node = await robot.ParceiroNode.start({
      seed: 24,
      games: 1,
      sessionId: 'prediction-off',
      language: 'en',
      budgetMs: 100,
      recordingsDir: dir,
      table: { host: '127.0.0.1', port: 0, token: TOKEN },
      minThinkMs: 0,
      expectationBudgetMs: 0,
      speech: 'publish',
      dashboard: null,
      prediction: null,
      logger: quiet(),
    });
    let seen = 0;
    node.bus.subscribe('prediction', () => void seen++);
    await robot.playToTheEnd(node, new SimulatedTable({ url: node.url, token: TOKEN, seed: 6 }));
    await node.quiet();
    expect(node.reactions.predictions).toBeNull();
    const path = (await node.close()).recording!;
    expect(seen).toBe(0);
    const rec = recording.readRecording(path);
    expect(rec.session?.prediction).toBe('off');
    const r = await replay.replayRecording(rec);
    expect(r.matches).toBe(true);
    expect(r.compared['/parceiro/prediction'] ?? 0).toBe(0);
  });

  it.concurrent(
    'learned: the shipped network runs in onnxruntime-node live, and a replay of the recording predicts the same with it',
    async () => {
      const modelFile = 'models/policy-timed-100ms-seed2311.onnx';
      const before = fileURLToPath(new URL('../../models/policy-timed-100ms-seed2311.onnx', import.meta.url));
      expect(existsSync(before)).toBe(true);
      const node = await robot.ParceiroNode.start({
        seed: 25,
        games: 1,
        sessionId: 'prediction-learned',
        language: 'pt',
        budgetMs: 100,
        recordingsDir: dir,
        table: { host: '127.0.0.1', port: 0, token: TOKEN },
        minThinkMs: 0,
        speech: 'publish',
        dashboard: null,
        prediction: { model: 'learned', top: 5, modelFile },
        logger: quiet(),
      });
      const predictions: PredictionMessage[] = [];
      const plays: GameEventMessage[] = [];
      node.bus.subscribe('prediction', (m) => void predictions.push(m));
      node.bus.subscribe('gameEvents', (m) => void (m.type === 'play' && plays.push(m)));
      // Each prediction is a batch of the seat's possible hands through onnxruntime, not the TypeScript pass.
      const { runsStarted } = (await import(
        new URL('../../dist/robot/learned/inflight.js', import.meta.url).href
      )) as typeof import('../../robot/learned/inflight.js');
      const runs0 = runsStarted();
      await robot.playToTheEnd(node, new SimulatedTable({ url: node.url, token: TOKEN, seed: 7 }));
      await node.quiet();
      const stats = node.reactions.predictions!.stats;
      const path = (await node.close()).recording!;

      const others = plays.filter((p) => p.seat !== 0);
      expect(others).toHaveLength(30);
      expect(stats.predictions).toBe(30);
      expect(stats.failures).toBe(0);
      predictions.forEach((m, i) => expect(m.phase).toBe(i % 2 === 0 ? 'predicted' : 'played'));
      const played = predictions.filter((m) => m.phase === 'played');
      played.forEach((m, i) => {
        expect(m).toMatchObject({ seat: others[i]!.seat, played: others[i]!.card, model: 'learned' });
        expect(m.probability).toBeGreaterThan(0);
        expect(m.surprise).toBeCloseTo(1 - m.probability / m.probabilities[0]!, 4);
      });
      // One onnxruntime run (a batch of the seat's possible hands) for each card with a choice; none for a seat's only possible card.
      expect(runsStarted() - runs0).toBe(played.filter((m) => m.possible > 1).length);
      expect(runsStarted() - runs0).toBeGreaterThan(15);
      // The network is not the expert: some prediction gives its favourite a share the expert softmax would not.
      expect(new Set(played.map((m) => m.probabilities[0])).size).toBeGreaterThan(5);

      // The recording names the file, its sidecar's features version and its digest; a replay predicts the same.
      const rec = recording.readRecording(path);
      const info = JSON.parse(rec.session!.prediction!) as Record<string, unknown>;
      expect(info).toMatchObject({ model: 'learned', top: 5, modelFile, featuresVersion: 1 });
      expect(info.sha256).toMatch(/^[0-9a-f]{16}$/);
      const r = await replay.replayRecording(rec);
      expect(r.notes.filter((n) => /prediction/.test(n))).toEqual([]);
      expect(r.firstDifference).toBeNull();
      expect(r.matches).toBe(true);
      expect(r.compared['/parceiro/prediction']).toBe(60);
      expect(r.groups.emotions.matches).toBe(true);
    },
  );

  it('learned: a missing, unreadable or wrong model file stops the node at start, in one line naming node.yaml and the file', async () => {
    const { loadNodeSettings } = (await import(
      new URL('../../dist/robot/live/node/node-settings.js', import.meta.url).href
    )) as typeof import('../../robot/live/node/node-settings.js');
    const { ConfigError } = (await import(
      new URL('../../dist/behaviours/index.js', import.meta.url).href
    )) as typeof import('../../behaviours/index.js');
    const base = loadNodeSettings();
    const start = (modelFile: string) =>
      robot.ParceiroNode.start({
        seed: 26,
        games: 1,
        sessionId: 'prediction-bad-model',
        language: 'en',
        budgetMs: 100,
        recordingsDir: dir,
        table: { host: '127.0.0.1', port: 0, token: TOKEN },
        minThinkMs: 0,
        speech: 'publish',
        dashboard: null,
        logger: quiet(),
        settings: { ...base, prediction: { enabled: true, model: 'learned', top: 5, modelFile } },
      });
    const missing = join(dir, 'missing.onnx');
    const notOnnx = join(dir, 'not-a-model.onnx');
    writeFileSync(notOnnx, 'these are not the weights of a network\n');
    // The shipped network with a sidecar that says another features version.
    const otherVersion = join(dir, 'other-version.onnx');
    copyFileSync(
      fileURLToPath(new URL('../../models/policy-timed-100ms-seed2311.onnx', import.meta.url)),
      otherVersion,
    );
    writeFileSync(join(dir, 'other-version.json'), JSON.stringify({ featuresVersion: 99, featureCount: 500 }));
    const noSidecar = join(dir, 'no-sidecar.onnx');
    copyFileSync(fileURLToPath(new URL('../../models/policy-timed-100ms-seed2311.onnx', import.meta.url)), noSidecar);
    for (const [file, why] of [
      [missing, /no such file/],
      [dir, /is a folder/],
      [notOnnx, /not a policy network/],
      [otherVersion, /sidecar says features version 99 \(500 features\), this build encodes version 1/],
      [noSidecar, /sidecar .*no-sidecar\.json.* missing/],
    ] as const) {
      const e = await start(file).then(
        () => null,
        (err: unknown) => err,
      );
      expect(e).toBeInstanceOf(ConfigError);
      const message = (e as Error).message;
      expect(message.split('\n')).toHaveLength(1);
      expect(message).toMatch(/^config\/node\.yaml: prediction\.modelFile: model /);
      expect(message).toContain(file);
      expect(message).toMatch(why);
    }
    // No recording was left behind by the node that did not start.
    expect(existsSync(join(dir, 'prediction-bad-model.mcap'))).toBe(false);
    // And node.yaml itself: learned without a file is a mistake at its line.
    const yaml = join(dir, 'node.yaml');
    writeFileSync(
      yaml,
      readFileSync(join(defaultConfigDir(), 'node.yaml'), 'utf8').replace(/^( {2}model:) expert$/m, '$1 learned'),
    );
    expect(() => loadNodeSettings(yaml)).toThrow(
      /node\.yaml:\d+:\d+: prediction\.modelFile: model learned needs modelFile/,
    );
  });

  it('a replay predicts with the recorded network only: a missing file or sidecar, or another network under its name, is said, and it replays without predictions', () => {
    const session = (prediction: Record<string, unknown>) => ({
      path: 'x.mcap',
      session: { seed: '1', prediction: JSON.stringify(prediction) },
    });
    const facts = { spoken: undefined, estimates: 0 };
    const shipped = {
      model: 'learned',
      top: 5,
      modelFile: 'models/policy-timed-100ms-seed2311.onnx',
      featuresVersion: 1,
    };
    let notes: string[] = [];
    expect(replay.replaySettings(session(shipped), notes, facts).prediction).toEqual({
      model: 'learned',
      top: 5,
      modelFile: shipped.modelFile,
    });
    expect(notes.filter((n) => /prediction/.test(n))).toEqual([]);
    notes = [];
    expect(
      replay.replaySettings(session({ ...shipped, modelFile: 'models/gone.onnx' }), notes, facts).prediction,
    ).toBeNull();
    expect(notes.join('\n')).toMatch(/prediction model models\/gone\.onnx is not here/);
    notes = [];
    expect(
      replay.replaySettings(session({ ...shipped, sha256: '0123456789abcdef' }), notes, facts).prediction,
    ).toBeNull();
    expect(notes.join('\n')).toMatch(/not the network the session used/);
    notes = [];
    expect(replay.replaySettings(session({ ...shipped, featuresVersion: 2 }), notes, facts).prediction).toBeNull();
    expect(notes.join('\n')).toMatch(/features version 2/);
    // The same network without its sidecar (the node would not open it): said, and no predictions.
    notes = [];
    const bare = fileURLToPath(new URL(`../../models/.test-replay-bare-${process.pid}.onnx`, import.meta.url));
    copyFileSync(fileURLToPath(new URL('../../models/policy-timed-100ms-seed2311.onnx', import.meta.url)), bare);
    try {
      expect(replay.replaySettings(session({ ...shipped, modelFile: bare }), notes, facts).prediction).toBeNull();
      expect(notes.join('\n')).toMatch(/has no sidecar of this build's features here/);
    } finally {
      rmSync(bare, { force: true });
    }
    // A network the recording names outside models/ is not read, whatever it is (its digest is not told).
    for (const outside of [join(dir, 'replay-outside.onnx'), '/etc/passwd', '/dev/zero', 'models/../package.json']) {
      if (outside.startsWith(dir))
        copyFileSync(fileURLToPath(new URL('../../models/policy-timed-100ms-seed2311.onnx', import.meta.url)), outside);
      notes = [];
      expect(replay.replaySettings(session({ ...shipped, modelFile: outside }), notes, facts).prediction).toBeNull();
      expect(notes.join('\n')).toMatch(/is not a file of the project's models\/ folder/);
      expect(notes.join('\n')).not.toMatch(/digest/);
    }
  });

  it('surprise is 1 - p(card) / max p: 0 for the favourite and for cards alike, near 1 for a card far below it', () => {
    const [a, b, c, d] = ['AS', '7S', 'KS', '2H'].map(parseCard) as [Card, Card, Card, Card];
    const prediction = {
      seat: 1 as const,
      cards: [a, b, c],
      probabilities: [0.8, 0.15, 0.05],
      hands: 1,
      inconsistent: false,
    };
    expect(surpriseOf(prediction, a)).toBe(0);
    expect(surpriseOf(prediction, b)).toBeCloseTo(1 - 0.15 / 0.8, 12);
    expect(surpriseOf(prediction, c)).toBeCloseTo(0.9375, 12);
    expect(surpriseOf({ ...prediction, probabilities: [1 / 3, 1 / 3, 1 / 3] }, c)).toBe(0);
    // A card the prediction did not list (the view was inconsistent): no surprise claimed.
    expect(surpriseOf(prediction, d)).toBe(0);
  });
});
