// The whole games of a robot's recorded session (MCAP), for the commands that learn from or score
// what was played: each game's deal, every seat's ten cards, and who sat where. A seat is the robot's,
// a person's when a table of kind touch or virtual hosted it at any time during the game (its hello
// on the table events, until it disconnected), else a bot's.

import type { Card, Seat } from '../game/index.js';
import { isSeat, parseCard } from '../game/index.js';
import type { GameEventMessage } from '../robot/bus/index.js';
import { TOPICS } from '../robot/bus/index.js';
import { readRecording } from '../robot/recording/index.js';
import { UsageError } from './errors.js';

interface RecordedGame {
  dealer: Seat;
  trumpCard: Card;
  /** Each seat's cards, in the order it played them. */
  hands: Card[][];
  plays: Card[];
  /** 'robot', 'person' or 'bot' for each seat. */
  who: [string, string, string, string];
}

/** The whole games of the recording at `path`; `counts.cut` counts the games that were not whole (fewer than 40 cards). */
export function recordedGames(path: string, counts: { cut: number }): { robot: Seat; games: RecordedGame[] } {
  const rec = readRecording(path);
  const robot = Number(rec.session?.robotSeat);
  if (!isSeat(robot))
    throw new UsageError(`${path}: the recording does not say the robot's seat (session metadata robotSeat)`);
  const tables = new Map<string, { kind: string; seats: number[] }>();
  const people = (): number[] =>
    [...tables.values()].filter((t) => t.kind === 'touch' || t.kind === 'virtual').flatMap((t) => t.seats);
  const byGame = new Map<number, { events: GameEventMessage[]; people: Set<number> }>();
  let current: { events: GameEventMessage[]; people: Set<number> } | null = null;
  for (const m of rec.messages) {
    if (m.topic.name === TOPICS.tableEvents.name) {
      const e = m.message as { table_id: string; kind: string; seats: number[]; table_kind: string };
      if (e.kind === 'hello') tables.set(e.table_id, { kind: e.table_kind, seats: [...e.seats] });
      else if (e.kind === 'disconnect') tables.delete(e.table_id);
      if (current) for (const s of people()) current.people.add(s);
    } else if (m.topic.name === TOPICS.gameEvents.name) {
      const e = m.message as GameEventMessage;
      let g = byGame.get(e.game);
      if (!g) byGame.set(e.game, (g = { events: [], people: new Set() }));
      current = g;
      g.events.push(e);
      for (const s of people()) g.people.add(s);
    }
  }
  const games: RecordedGame[] = [];
  for (const { events, people: ps } of byGame.values()) {
    const deal = events.find((e) => e.type === 'deal');
    const plays = events.filter((e) => e.type === 'play');
    if (!deal || plays.length !== 40 || !isSeat(deal.seat)) {
      counts.cut++;
      continue;
    }
    try {
      const cards = plays.map((e) => parseCard(e.card));
      const hands: Card[][] = [[], [], [], []];
      for (let k = 0; k < 40; k++) hands[plays[k]!.seat]!.push(cards[k]!);
      if (hands.some((h) => h.length !== 10)) throw new Error('a seat played other than ten cards');
      const who = [0, 1, 2, 3].map((s) => (s === robot ? 'robot' : ps.has(s) ? 'person' : 'bot')) as [
        string,
        string,
        string,
        string,
      ];
      games.push({ dealer: deal.seat, trumpCard: parseCard(deal.card), hands, plays: cards, who });
    } catch {
      counts.cut++;
    }
  }
  return { robot, games };
}
