// parceiro predict-eval: how well each model predicts the other seats' cards (theory of mind).
// For every card played by a seat other than the observer (the robot's seat), each model is asked,
// from the observer's information set just before the card, how likely it was: top-1 accuracy and
// mean natural log-likelihood per decision, with 95% intervals between games (game/predict/evaluate.ts).
//
// The games come from one of:
// - simulation (default): for each player kind in --players, --games seeded games in which the three
//   other seats are of that kind and the observer's seat plays --observer-player;
// - --records FILE: game records as JSON lines (`parceiro tournament --records`, whose `seats` name
//   who sat where; or plain records {"dealer","trump","hands","plays"}, whose seats count as --who);
// - --recording FILE.mcap (repeatable): the robot's recorded sessions. The observer is the robot's seat
//   (the session's metadata), its hand is the cards it played (whole games only: a game cut short
//   does not tell the robot's hand); the seats a touch or virtual table hosted count as --who
//   (default "person"), the others as "bot" (launch/recorded-games.ts).

import { performance } from 'node:perf_hooks';
import type {
  Card,
  ObservedGame,
  Player,
  PolicyNet,
  Predictor,
  PredictorKind,
  Seat,
  WhoSummary,
} from '../../game/index.js';
import {
  Game,
  PREDICTOR_KINDS,
  PlayerSpecError,
  PredictionScorer,
  SeatView,
  createPredictor,
  createRng,
  dealCards,
  deriveSeed,
  isSeat,
  playerFactory,
  policyNet,
} from '../../game/index.js';
import { RecordingError } from '../../robot/recording/index.js';
import { UsageError } from '../errors.js';
import { readRecordLines } from '../io.js';
import { recordedGames } from '../recorded-games.js';

export interface PredictEvalOptions {
  players: string;
  games: number;
  seed: number;
  budget: number;
  observer: number;
  observerPlayer: string;
  models: string;
  /** The model the others' gains are measured against (default uniform). */
  baseline?: string;
  records?: string;
  recording: string[];
  who?: string;
  /** Predictor worlds for tom1 (outer hands) and its own worlds; defaults otherwise. */
  tom1Hands?: number;
  tom1Worlds?: number;
  /** The policy network of the `learned` model (an ONNX file from parceiro train). */
  model?: string;
}

interface PredictEvalReport {
  source: string;
  seed: number;
  observer: number | 'robot';
  models: PredictorKind[];
  rows: WhoSummary[];
  skipped: { outside: number; inconsistent: number; games: number };
  notes: string[];
  seconds: number;
}

const clock = (): number => performance.now();

function parseModels(spec: string, baseline: string): PredictorKind[] {
  const kinds = spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const k of [...kinds, baseline])
    if (!PREDICTOR_KINDS.includes(k as PredictorKind))
      throw new UsageError(`--models, --baseline: unknown model '${k}' (known: ${PREDICTOR_KINDS.join(', ')})`);
  // The baseline comes first: the gains are measured against it, decision by decision.
  return [...new Set([baseline, ...kinds])] as PredictorKind[];
}

function factory(spec: string, option: string): ReturnType<typeof playerFactory> {
  try {
    return playerFactory(spec);
  } catch (e) {
    if (e instanceof PlayerSpecError) throw new UsageError(`${option}: ${e.message}`);
    throw e;
  }
}

/** Seeded games: the observer's seat plays `observerPlayer`, the three others `kind`. */
function* simulated(o: PredictEvalOptions, observer: Seat): Generator<ObservedGame> {
  const kinds = o.players
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (!kinds.length) throw new UsageError('--players: name at least one player kind');
  const makers = kinds.map((k) => factory(k, '--players'));
  const observerMaker = factory(o.observerPlayer, '--observer-player');
  for (const [i, kind] of kinds.entries()) {
    for (let g = 0; g < o.games; g++) {
      // The same deals for every row: rows differ by who plays them, not by the cards.
      const deal = dealCards(createRng(o.seed, g), (g & 3) as Seat);
      const players: Player[] = [0, 1, 2, 3].map((s) =>
        (s === observer ? observerMaker : makers[i]!)({
          seat: s as Seat,
          seed: deriveSeed(o.seed, g, s, i),
          clock,
          budgetMs: o.budget,
        }),
      );
      const game = new Game(deal);
      while (!game.isOver) game.play(players[game.toMove]!.choose(new SeatView(game, game.toMove)));
      const plays: Card[] = [];
      for (let k = 0; k < game.plays; k++) plays.push(game.playAt(k));
      const who = [0, 1, 2, 3].map((s) => (s === observer ? o.observerPlayer : kind)) as [
        string,
        string,
        string,
        string,
      ];
      yield {
        dealer: deal.dealer,
        trumpCard: deal.trumpCard,
        observer,
        observerHand: deal.hands[observer]!,
        plays,
        who,
      };
    }
  }
}

/** Game records, one JSON object a line (tournament records name their seats). */
function* fromRecords(file: string, observer: Seat, who: string): Generator<ObservedGame> {
  for (const { record, who: names } of readRecordLines(file, who)) {
    yield {
      dealer: record.deal.dealer,
      trumpCard: record.deal.trumpCard,
      observer,
      observerHand: record.deal.hands[observer]!,
      plays: record.plays,
      who: names,
    };
  }
}

export function predictEvalCommand(o: PredictEvalOptions, progress?: (line: string) => void): PredictEvalReport {
  const t0 = clock();
  if (!isSeat(o.observer)) throw new UsageError(`--observer expects a seat 0-3, got ${o.observer}`);
  const models = parseModels(o.models, o.baseline ?? 'uniform');
  const tom1 = { ...(o.tom1Worlds ? { worlds: o.tom1Worlds } : {}) };
  if (models.includes('learned') && !o.model)
    throw new UsageError('--models learned needs --model FILE.onnx (a policy network from parceiro train)');
  if (o.model && !models.includes('learned'))
    throw new UsageError("--model is the learned model's network: add learned to --models");
  let net: PolicyNet | undefined;
  if (o.model) {
    try {
      net = policyNet(o.model);
    } catch (e) {
      throw new UsageError(`--model: ${(e as Error).message}`);
    }
  }
  const predictors: Predictor[] = models.map((kind) =>
    createPredictor({
      kind,
      seed: deriveSeed(o.seed, 0x70d1),
      ...(kind === 'tom1' ? { tom1, ...(o.tom1Hands ? { worlds: o.tom1Hands } : {}) } : {}),
      ...(kind === 'learned' && net ? { net } : {}),
    }),
  );
  const scorer = new PredictionScorer(predictors, clock);
  const notes: string[] = [];
  const counts = { cut: 0 };
  let source: string;
  let observer: number | 'robot' = o.observer;
  let n = 0;
  const add = (g: ObservedGame): void => {
    scorer.add(g);
    if (++n % 10 === 0) progress?.(`${n} games scored`);
  };
  if (o.recording.length && o.records) throw new UsageError('give --records or --recording, not both');
  if (o.recording.length) {
    source = `recordings: ${o.recording.join(', ')}`;
    observer = 'robot';
    for (const path of o.recording) {
      try {
        const { robot, games } = recordedGames(path, counts);
        // The people's seats count as --who; a seat no person's table hosted is a bot's.
        for (const g of games)
          add({
            dealer: g.dealer,
            trumpCard: g.trumpCard,
            observer: robot,
            observerHand: g.hands[robot]!,
            plays: g.plays,
            who: g.who.map((w) => (w === 'person' ? (o.who ?? 'person') : w)) as [string, string, string, string],
          });
      } catch (e) {
        if (e instanceof RecordingError) throw new UsageError(e.message);
        throw e;
      }
    }
    if (counts.cut)
      notes.push(
        `${counts.cut} recorded game(s) were not whole (fewer than 40 cards): the robot's hand is not known, they were left out`,
      );
  } else if (o.records) {
    source = `records: ${o.records}`;
    for (const g of fromRecords(o.records, o.observer as Seat, o.who ?? 'recorded')) add(g);
  } else {
    source = `simulated: ${o.games} games per row, the observer (seat ${o.observer}) playing ${o.observerPlayer}, timed players at ${o.budget} ms`;
    for (const g of simulated(o, o.observer as Seat)) add(g);
  }
  if (!n) notes.push('no game to score');
  const rows = scorer.summary();
  const thin = rows.filter((w) => w.games < 2).map((w) => w.who);
  if (thin.length) notes.push(`${thin.join(', ')}: one game only, so no interval (they are taken between games)`);
  if (scorer.outside)
    notes.push(
      `${scorer.outside} card(s) were outside what the observer thought the seat could play (a renounce): left out`,
    );
  if (scorer.inconsistent)
    notes.push(
      `${scorer.inconsistent} decision(s) had no deal consistent with the observer's view (an unseen renounce): left out`,
    );
  return {
    source,
    seed: o.seed,
    observer,
    models,
    rows,
    skipped: { outside: scorer.outside, inconsistent: scorer.inconsistent, games: counts.cut },
    notes,
    seconds: Math.round((clock() - t0) / 100) / 10,
  };
}

const pct = (x: number): string => `${(100 * x).toFixed(1)}`;

/** The report as a table: rows = who played, columns = models (top-1 %, mean ln p, the gain in ln p over the first model, with intervals). */
export function formatPredictEval(r: PredictEvalReport): string {
  const lines = [`Prediction of the other seats' cards (${r.source}; seed ${r.seed}; ${r.seconds} s)`, ''];
  const head = ['who played', 'games', 'cards', ...r.models];
  const rows: string[][] = [head];
  for (const w of r.rows) {
    rows.push([
      w.who,
      String(w.games),
      String(w.decisions),
      ...w.models.map((m) => `${pct(m.top1)}% (${pct(m.top1Ci95[0])}-${pct(m.top1Ci95[1])})`),
    ]);
    rows.push([
      '',
      '',
      'ln p',
      ...w.models.map(
        (m) =>
          `${m.meanLogLikelihood.toFixed(3)} (${m.meanLogLikelihoodCi95[0].toFixed(3)}..${m.meanLogLikelihoodCi95[1].toFixed(3)})`,
      ),
    ]);
    rows.push([
      '',
      '',
      `vs ${r.models[0]}`,
      ...w.models.map((m, k) =>
        k
          ? `${m.gainOverBaseline >= 0 ? '+' : ''}${m.gainOverBaseline.toFixed(3)} (${m.gainCi95[0].toFixed(3)}..${m.gainCi95[1].toFixed(3)})`
          : '',
      ),
    ]);
  }
  const widths = head.map((_, i) => Math.max(...rows.map((row) => (row[i] ?? '').length)));
  for (const row of rows)
    lines.push(
      row
        .map((c, i) => c.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    );
  const times = r.rows[0]?.models.map((m) => `${m.model} ${m.msPerPrediction ?? '?'} ms`).join(', ');
  if (times) lines.push('', `time per prediction: ${times}`);
  for (const note of r.notes) lines.push(`note: ${note}`);
  return lines.join('\n');
}
