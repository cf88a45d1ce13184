// Lines that did not fit their moment, counted in session recordings (the robot in seat 0, as
// `parceiro simulate` seats it): what a person at the table would notice, from the utterances, the
// robot's looks and the cards.
//
//   node dist/test/bench/line-misfits.js recordings/*.mcap [--examples]
//
// - a taunt or "mais um jogo para nós" after a game the robot's team did not win;
// - a glad line about another seat's card while the opponents hold the trick, a sorry one while the
//   robot's team does;
// - "Tenho de assistir" / "I have to follow" of a card that takes the trick;
// - a nudge within 10 s of the turn, or to whoever just took the trick;
// - a line to everyone about an opponent's card said looking at the partner; a "we" line looking at
//   an opponent; a line to the partner looking at an opponent, or to an opponent looking at the partner.
// The head while a line is said: the look it starts with (one within 400 ms of its start, the head's
// move, is the line's own), then every look until 50 ms before its end (the look back to the game at
// its end is not during it).

import { parseArgs } from 'node:util';
import { loadBehaviourSetup, pointOf } from '../../behaviours/index.js';
import type { GazeTarget } from '../../behaviours/index.js';
import type { Card, Seat, Suit } from '../../game/index.js';
import { parseCard, suitOf, winningIndex } from '../../game/index.js';
import { readRecording } from '../../robot/recording/index.js';

const TAUNTS = [
  'Preparem-se para perder mais um!',
  'Ready to lose another one?',
  'Mais um jogo para nós. Assim é que é!',
  "Another game for us. That's how it's done!",
];
const FOLLOW = ['Tenho de assistir.', 'I have to follow.'];
const WE = [
  'Temos de ter mais atenção.',
  'We need to be sharper.',
  'Calma, que ainda lhes damos a volta.',
  'Stay calm, we can still turn this around.',
  'Não faz mal, ainda há muito jogo.',
  'Never mind, plenty of game left.',
];
const GLAD = new Set(['happy', 'happy-for', 'gloating']);
const SORRY = new Set(['self-pity', 'resentment', 'pity']);

interface Utterance {
  phase: string;
  id: string;
  category: string;
  text: string;
  target: string;
  addressee: number;
  event: string;
  about_seat: number;
  moment: number;
  emotion: string;
}
interface Context {
  holder: 'ours' | 'theirs' | null;
  cardWins: boolean;
  last: { t: number; type: string; winner: number } | null;
  game: number;
}

const { values, positionals } = parseArgs({ allowPositionals: true, options: { examples: { type: 'boolean' } } });
const table = loadBehaviourSetup({ language: 'pt' }).table;
const key = (p: { x: number; y: number; z: number }): string => `${p.x.toFixed(2)},${p.y.toFixed(2)},${p.z.toFixed(2)}`;
const named = new Map<string, string>();
const name = (target: GazeTarget, as: string): void => void named.set(key(pointOf(table, 0, target)), as);
for (const seat of [1, 2, 3] as Seat[]) name({ kind: 'seat', seat }, `seat:${seat}`);
for (const seat of [0, 1, 2, 3] as Seat[]) name({ kind: 'card', seat }, `card:${seat}`);
name({ kind: 'play-area' }, 'play-area');
name({ kind: 'own-cards' }, 'own-cards');

const counts = new Map<string, number>();
const examples = new Map<string, string[]>();
const count = (k: string): void => void counts.set(k, (counts.get(k) ?? 0) + 1);
const misfit = (k: string, example: string): void => {
  count(k);
  examples.set(k, [...(examples.get(k) ?? []), example]);
};

for (const file of positionals) {
  let trump: Suit | null = null;
  let trick: { seat: number; card: Card }[] = [];
  let last: { seat: number; card: Card }[] = [];
  const results: string[] = [];
  let lastEvent: Context['last'] = null;
  let game = 0;
  const looks: { t: number; at: string }[] = [];
  const queued = new Map<string, Context>();
  const said: { t: number; end: number | null; u: Utterance; ctx: Context }[] = [];
  for (const m of readRecording(file).messages) {
    const topic = m.topic.name;
    const t = m.time;
    if (topic === '/look_at') {
      const p = (m.message as { point: { x: number; y: number; z: number } }).point;
      looks.push({ t, at: named.get(key(p)) ?? key(p) });
    } else if (topic === '/parceiro/game/events') {
      const e = m.message as {
        type: string;
        game: number;
        seat: number;
        card: string;
        winner: number;
        winner_team: string;
      };
      if (e.type === 'deal') {
        trump = suitOf(parseCard(e.card));
        trick = [];
        game = e.game;
      }
      if (e.type === 'play') {
        trick.push({ seat: e.seat, card: parseCard(e.card) });
        if (trick.length === 4) [last, trick] = [trick, []];
      }
      if (e.type === 'end') results[e.game] = e.winner_team === 'a' ? 'won' : e.winner_team === 'b' ? 'lost' : 'draw';
      if (e.type === 'deal' || e.type === 'play' || e.type === 'trick')
        lastEvent = { t, type: e.type, winner: e.winner };
    } else if (topic === '/parceiro/behaviours/utterance') {
      const u = m.message as Utterance;
      if (u.phase === 'dropped' && u.category.startsWith('next-player')) count('nudges dropped');
      if (u.phase === 'queued') {
        // Who holds the trick after the card the line is about, as the table is when the line is planned.
        let holder: Context['holder'] = null;
        let cardWins = false;
        if (u.event === 'play' && u.about_seat >= 0 && trump !== null) {
          const cards = trick.some((c) => c.seat === u.about_seat) ? trick : last;
          const i = cards.findIndex((c) => c.seat === u.about_seat);
          if (i >= 0) {
            const upto = cards.slice(0, i + 1);
            const w = winningIndex(
              upto.map((c) => c.card),
              trump,
            );
            holder = upto[w]!.seat % 2 === 0 ? 'ours' : 'theirs';
            cardWins = w === i;
          }
        }
        queued.set(`${u.id}@${u.moment}`, { holder, cardWins, last: lastEvent, game });
      }
      if (u.phase === 'start')
        said.push({
          t,
          end: null,
          u,
          ctx: queued.get(`${u.id}@${u.moment}`) ?? { holder: null, cardWins: false, last: null, game },
        });
      if (u.phase === 'end') {
        const l = said.findLast((x) => x.u.id === u.id && x.end === null);
        if (l) l.end = t;
      }
    }
  }
  for (const { t, end, u, ctx } of said) {
    const e = end ?? t + 2000;
    const early = looks.filter((l) => l.t >= t && l.t < t + 400);
    const first = early.length ? early[0]!.at : looks.filter((l) => l.t < t).pop()?.at;
    const from = early.length ? early[0]!.t : t;
    const during = [first, ...looks.filter((l) => l.t > from && l.t < e - 50).map((l) => l.at)].filter(
      (x): x is string => x !== undefined,
    );
    const example = `${file.split('/').pop()} game ${ctx.game + 1}: "${u.text}" looking at ${during.join(', ')}`;
    count('lines said');
    if (TAUNTS.includes(u.text)) {
      count('taunts said');
      if (results[ctx.game - 1] !== 'won') misfit('a taunt after a game not won', example);
    }
    if ((u.category === 'play.partner' || u.category === 'play.opponent') && ctx.holder) {
      if (GLAD.has(u.emotion) && ctx.holder === 'theirs')
        misfit("a glad line about another seat's card while the opponents hold the trick", example);
      if (SORRY.has(u.emotion) && ctx.holder === 'ours')
        misfit("a sorry line about another seat's card while the robot's team holds the trick", example);
    }
    if (FOLLOW.includes(u.text)) {
      count('"I have to follow" said');
      if (ctx.cardWins) misfit('"I have to follow" of a card that takes the trick', example);
    }
    if (u.category.startsWith('next-player')) {
      count('nudges said');
      if (ctx.last && t - ctx.last.t < 10_000) misfit('a nudge within 10 s of the turn', example);
      if (ctx.last?.type === 'trick' && ctx.last.winner === u.addressee)
        misfit('a nudge to whoever just took the trick', example);
    }
    if (u.target === 'all' && u.category.startsWith('play.') && (u.about_seat === 1 || u.about_seat === 3))
      if (during.includes('seat:2'))
        misfit("a line to everyone about an opponent's card, looking at the partner", example);
    if (WE.includes(u.text)) {
      count('"we" lines said');
      if (during.some((d) => d === 'seat:1' || d === 'seat:3')) misfit('a "we" line looking at an opponent', example);
    }
    if (u.addressee === 2 && during.some((d) => d === 'seat:1' || d === 'seat:3'))
      misfit('a line to the partner looking at an opponent', example);
    if ((u.addressee === 1 || u.addressee === 3) && during.includes('seat:2'))
      misfit('a line to an opponent looking at the partner', example);
  }
}

for (const [k, n] of counts) console.log(`${String(n).padStart(5)}  ${k}`);
if (values.examples)
  for (const [k, list] of examples) {
    console.log(`\n${k}:`);
    for (const x of list) console.log(`  ${x}`);
  }
