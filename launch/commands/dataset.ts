// parceiro dataset: the decisions of played games as a training file for a policy network.
// One JSON header line (game/learned/dataset.ts: format, features version, rows, who played, the
// command), then every decision as float32 rows: the encoding (game/learned/encode.ts), the card
// played, the game, the seat, who.
//
// The games come from one of:
// - simulation (default): --games seeded games (deals and players from --seed; --first-game shifts the
//   range, so several processes can share one seed's games), the seats playing --players (one spec for
//   all four, or four separated by commas);
// - --records FILE: game records as JSON lines (`parceiro tournament --records`, whose `seats` name who
//   sat where; plain records count as --who);
// - --recording FILE.mcap (repeatable): the robot's recorded sessions, whole games only (a seat's hand
//   is the cards it played). A seat is a person's when a table of kind touch or virtual hosted it during
//   the game (the tables' hello events); by default only people's decisions are exported.
// --only NAME keeps the decisions of the seats of that name (records, simulation: a spec; recordings:
// person, robot, bot).

import { closeSync, openSync, writeSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { Card, DatasetHeader, DecisionRow, Player, Seat } from '../../game/index.js';
import {
  DATASET_FORMAT,
  FEATURES_VERSION,
  DECISION_FEATURES,
  Game,
  PlayerSpecError,
  SeatView,
  createRng,
  dealCards,
  decisionRows,
  deriveSeed,
  playerFactory,
} from '../../game/index.js';
import { RecordingError } from '../../robot/recording/index.js';
import { ModelFileError, installModelLoader } from '../../robot/learned/index.js';
import { UsageError } from '../errors.js';
import { readRecordLines } from '../io.js';
import { recordedGames } from '../recorded-games.js';

interface DatasetOptions {
  out: string;
  players?: string;
  games: number;
  firstGame: number;
  seed: number;
  budget: number;
  records?: string;
  recording: string[];
  who?: string;
  only?: string;
  allSeats?: boolean;
  /** The command line, written into the header. */
  command: string;
}

interface DatasetReport {
  out: string;
  rows: number;
  games: number;
  who: Record<string, number>;
  notes: string[];
  seconds: number;
}

/** A game whose every seat's hand at the deal is known, with who sat where. */
interface KnownGame {
  dealer: Seat;
  trumpCard: Card;
  hands: Card[][];
  plays: Card[];
  who: [string, string, string, string];
}

const ROW_FLOATS = DECISION_FEATURES + 4;

function factory(spec: string): ReturnType<typeof playerFactory> {
  try {
    return playerFactory(spec);
  } catch (e) {
    if (e instanceof PlayerSpecError) throw new UsageError(`--players: ${e.message}`);
    if (e instanceof ModelFileError) throw new UsageError(`--players: ${e.message}`);
    throw e;
  }
}

function* simulated(o: DatasetOptions): Generator<KnownGame> {
  const specs = (o.players ?? 'rule').split(',').map((s) => s.trim());
  if (specs.length !== 1 && specs.length !== 4)
    throw new UsageError(`--players expects one player spec or four separated by commas, got ${specs.length}`);
  const four = specs.length === 1 ? [specs[0]!, specs[0]!, specs[0]!, specs[0]!] : specs;
  const makers = four.map(factory);
  const clock = (): number => performance.now();
  for (let g = o.firstGame; g < o.firstGame + o.games; g++) {
    const deal = dealCards(createRng(o.seed, g), (g & 3) as Seat);
    const players: Player[] = makers.map((m, s) =>
      m({ seat: s as Seat, seed: deriveSeed(o.seed, g, s), clock, budgetMs: o.budget }),
    );
    const game = new Game(deal);
    while (!game.isOver) game.play(players[game.toMove]!.choose(new SeatView(game, game.toMove)));
    const plays: Card[] = [];
    for (let k = 0; k < game.plays; k++) plays.push(game.playAt(k));
    yield {
      dealer: deal.dealer,
      trumpCard: deal.trumpCard,
      hands: deal.hands.map((h) => [...h!]),
      plays,
      who: four as [string, string, string, string],
    };
  }
}

function* fromRecords(file: string, who: string): Generator<KnownGame> {
  for (const { record, who: names } of readRecordLines(file, who)) {
    yield {
      dealer: record.deal.dealer,
      trumpCard: record.deal.trumpCard,
      hands: record.deal.hands,
      plays: record.plays,
      who: names,
    };
  }
}

export function datasetCommand(o: DatasetOptions, progress?: (line: string) => void): DatasetReport {
  const t0 = performance.now();
  installModelLoader();
  if (o.recording.length && o.records) throw new UsageError('give --records or --recording, not both');
  if ((o.recording.length || o.records) && o.players !== undefined)
    throw new UsageError('--players simulates games: leave it out with --records or --recording');
  const notes: string[] = [];
  const counts = { cut: 0 };
  let source: string;
  let games: Iterable<KnownGame>;
  let only = o.only;
  if (o.recording.length) {
    source = `recordings: ${o.recording.join(', ')}`;
    const all: KnownGame[] = [];
    for (const path of o.recording) {
      try {
        all.push(...recordedGames(path, counts).games);
      } catch (e) {
        if (e instanceof RecordingError) throw new UsageError(e.message);
        throw e;
      }
    }
    games = all;
    if (only === undefined && !o.allSeats) only = 'person';
  } else if (o.records) {
    source = `records: ${o.records}`;
    games = fromRecords(o.records, o.who ?? 'recorded');
  } else {
    source = `simulated: games ${o.firstGame}..${o.firstGame + o.games - 1} of seed ${o.seed}, players ${o.players ?? 'rule'}, budget ${o.budget} ms`;
    games = simulated(o);
  }
  let fd: number;
  try {
    fd = openSync(o.out, 'w');
  } catch (e) {
    throw new UsageError(`--out: cannot write ${o.out} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  const who: string[] = [];
  const perWho: Record<string, number> = {};
  let rows = 0;
  let n = 0;
  // The header is written last, at the start of the file, padded to a fixed size so the rows need not move.
  const HEADER_BYTES = 4096;
  writeSync(fd, Buffer.alloc(HEADER_BYTES, 0x20), 0, HEADER_BYTES, 0);
  let at = HEADER_BYTES;
  const buf = new Float32Array(ROW_FLOATS);
  const bytes = new Uint8Array(buf.buffer);
  try {
    for (const g of games) {
      const seats = new Set<Seat>(([0, 1, 2, 3] as Seat[]).filter((s) => only === undefined || g.who[s] === only));
      if (seats.size) {
        for (const r of decisionRows(g, g.plays, seats) as Iterable<DecisionRow>) {
          const name = g.who[r.seat];
          let w = who.indexOf(name);
          if (w < 0) w = who.push(name) - 1;
          buf.set(r.features, 0);
          buf[DECISION_FEATURES] = r.label;
          buf[DECISION_FEATURES + 1] = n;
          buf[DECISION_FEATURES + 2] = r.seat;
          buf[DECISION_FEATURES + 3] = w;
          writeSync(fd, bytes, 0, bytes.length, at);
          at += bytes.length;
          rows++;
          perWho[name] = (perWho[name] ?? 0) + 1;
        }
      }
      if (++n % 20 === 0) progress?.(`${n} games, ${rows} decisions`);
    }
    const header: DatasetHeader = {
      format: DATASET_FORMAT,
      featuresVersion: FEATURES_VERSION,
      featureCount: DECISION_FEATURES,
      rowFloats: ROW_FLOATS,
      rows,
      games: n,
      who,
      source,
      command: o.command,
      seed: o.recording.length || o.records ? null : o.seed,
    };
    const line = Buffer.from(`${JSON.stringify({ ...header, headerBytes: HEADER_BYTES })}\n`);
    if (line.length > HEADER_BYTES)
      throw new UsageError(`the dataset header is longer than ${HEADER_BYTES} bytes (a very long command line?)`);
    writeSync(fd, line, 0, line.length, 0);
  } finally {
    closeSync(fd);
  }
  if (counts.cut)
    notes.push(
      `${counts.cut} recorded game(s) were not whole (fewer than 40 cards): the hands are not known, they were left out`,
    );
  if (!rows) notes.push('no decision was exported');
  return { out: o.out, rows, games: n, who: perWho, notes, seconds: Math.round((performance.now() - t0) / 100) / 10 };
}
