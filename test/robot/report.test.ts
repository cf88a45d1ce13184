// The session report (robot/offline/report/): each figure and each check on small recordings written through
// the Recorder, where what happened is known, and each check shown failing on a recording made to
// fail it. Nothing here depends on the machine's speed: times are the script's.

import { readFileSync, rmSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseCard, pointsOf, suitOf, winningIndex } from '../../game/index.js';
import type { Seat } from '../../game/index.js';
import type { GameEventMessage } from '../../robot/bus/messages.js';
import { ExpectationMsg, FIELDS_ADDED_LATER } from '../../robot/bus/messages.js';
import type { TopicMessage } from '../../robot/bus/topics.js';
import { readRecording } from '../../robot/recording/index.js';
import type { Recording } from '../../robot/recording/index.js';
import type { LibraryLines, Report, SessionReport } from '../../robot/offline/report/index.js';
import {
  buildReport,
  chartHtml,
  forcedPlays,
  formatReport,
  formatSession,
  sessionReport,
  timelineOf,
} from '../../robot/offline/report/index.js';
import type { Emotion } from './report-script.js';
import { SessionScript, seedWhere } from './report-script.js';

const dir = mkdtempSync(join(tmpdir(), 'parceiro-report-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

async function recorded(script: SessionScript, o: { keep?: number; abandon?: boolean } = {}): Promise<Recording> {
  return readRecording(await script.write(join(dir, `r${++files}.mcap`), o));
}

/** A small library (its ids and categories: what the report reads) for pt and en: 4 lines in 3 categories. */
const LIBRARY = (language: string): LibraryLines | null =>
  language === 'pt' || language === 'en'
    ? {
        lines: ['play.partner#1', 'play.partner#2', 'trick.end.ours#1', 'play.self#1'].map((id) => ({
          id,
          category: id.split('#')[0]!,
        })),
      }
    : null;

async function reportOf(script: SessionScript): Promise<SessionReport> {
  return sessionReport(await recorded(script), LIBRARY).report;
}

const points = (card: string): number => pointsOf(parseCard(card));
const cardOf = (e: GameEventMessage, seat: number): string => e.cards[(seat - e.leader + 4) % 4]!;

describe('mood and emotions', () => {
  it('takes the distribution of the mood over every emotions message, and which emotion was strongest how often', async () => {
    const s = new SessionScript();
    const moods = [-10, -9, -3, -0.5, 0, 1.9, 2, 9, 10];
    s.react([{ type: 'joy', intensity: 5 }], moods[0]).tick();
    s.react([{ type: 'distress', intensity: 7 }], moods[1]).tick();
    for (const m of moods.slice(2)) s.react([], m).tick();
    const f = (await reportOf(s)).figures;
    expect(f.mood.messages).toBe(9);
    expect(f.mood.histogram.map((b) => b.count)).toEqual([2, 0, 0, 1, 1, 2, 1, 0, 0, 2]);
    expect(f.mood.histogram[0]).toEqual({ from: -10, to: -8, count: 2 });
    expect(f.mood.median).toBe(0);
    expect(f.mood.extremeShare).toBe(0.444);
    // joy: 5, then decayed 4.75, 4.513...; strongest once, then distress.
    expect(f.emotions.types.distress).toMatchObject({ strongest: 8, present: 8, median: 5.7, p90: 7 });
    expect(f.emotions.types.joy).toMatchObject({ strongest: 1, present: 9, median: 4.07, p90: 5 });
    expect(Object.keys(f.emotions.types)).toEqual(['distress', 'joy']);
  });

  it("gives each game's mood at its end, from the robot's reaction to the end", async () => {
    const s = new SessionScript();
    s.playGame({ game: 0, seed: 3, dealer: 0, reactor: (e) => (e.type === 'end' ? { mood: -4.5 } : { mood: 2 }) });
    const r = await reportOf(s);
    expect(r.games[0]).toMatchObject({ game: 1, moodAtEnd: -4.5 });
    expect(r.figures.mood.atGameEnd).toEqual({ count: 1, median: -4.5, min: -4.5, max: -4.5 });
  });

  it('counts the emotions felt toward each seat after each kind of event, and not the ones carried over from before', async () => {
    const s = new SessionScript();
    let partnerPlays = 0;
    const played = s.playGame({
      game: 0,
      seed: 5,
      dealer: 1,
      reactor: (e) => {
        if (e.type === 'play' && e.seat === 2)
          return { felt: [{ type: 'happy-for', intensity: 1 + 0.5 * partnerPlays++, target: 2 }] };
        if (e.type === 'trick' && e.winner % 2 === 1)
          return { felt: [{ type: 'resentment', intensity: 2 + e.trick * 0.5, team: 'opponents' }] };
        if (e.type === 'end') return { felt: [{ type: 'pride', intensity: 4, team: 'team' }] };
        return {};
      },
    });
    const toward = (await reportOf(s)).figures.emotions.towardSeats;
    const theirTricks = played.events.filter((e) => e.type === 'trick' && e.winner % 2 === 1).length;
    expect(toward['play.partner'].events).toBe(10);
    expect(toward['play.partner'].partner).toEqual({ 'happy-for': { count: 10, median: 3 } });
    // The happy-for is still active (decaying) after the opponents' cards: not felt about them.
    expect(toward['play.opponent']).toEqual({ events: 20, partner: {}, opponent: {}, self: {}, team: {} });
    expect(toward['trick.opponent'].events).toBe(theirTricks);
    expect(toward['trick.opponent'].opponent.resentment?.count).toBe(theirTricks);
    expect(toward.end.team).toEqual({ pride: { count: 1, median: 4 } });
    expect(toward.deal.events).toBe(1);
  });
});

describe('reactions', () => {
  it('pairs each event with its own reaction when events come before the reactions to earlier ones, and measures the latency', async () => {
    const s = new SessionScript();
    let gloated = false;
    s.playGame({
      game: 0,
      seed: 7,
      dealer: 0,
      bunched: true,
      afterEvent: (e, ctx) => {
        // A reappraisal of seat 1's first card, once its estimate came back: its own emotions message, not a reaction.
        if (!gloated && e.type === 'play' && e.seat === 1) {
          gloated = true;
          const later = FIELDS_ADDED_LATER[ExpectationMsg.type];
          ctx.script.emit('expectation', {
            ...later,
            status: 'ok',
            expected_points: 70,
            win_probability: 0.7,
            detail: '',
            event_index: ctx.index,
            at_event: ctx.index,
            applied: true,
          } as TopicMessage<'expectation'>);
          ctx.script.react([{ type: 'gloating', intensity: 3, target: 1 }]);
        }
      },
    });
    const r = await reportOf(s);
    const l = r.figures.checks.reactionLatency;
    expect(l.count).toBe(1 + 40 + 10 + 1);
    expect(l.unanswered).toBe(0);
    // Each reaction 2 ms after the one before: a card alone 2 ms after it; a trick 4 ms after its last card; the game's end 6 ms.
    expect(l.p50).toBe(2);
    expect(l.max).toBe(6);
    expect(l.byKind.end).toMatchObject({ count: 1, max: 6 });
    expect(l.byKind['trick.self'].count + l.byKind['trick.partner'].count + l.byKind['trick.opponent'].count).toBe(10);
    expect(r.figures.emotions.towardSeats['play.opponent'].opponent).toEqual({ gloating: { count: 1, median: 3 } });
  });

  it('counts events the recording has no reaction to', async () => {
    const s = new SessionScript();
    s.playGame({ game: 0, seed: 2, dealer: 0 });
    // The recording ends with the game's end event, before the reaction to it.
    const end = s.messages.findLastIndex((m) => m.key === 'gameEvents');
    s.messages.splice(end + 1);
    const r = await reportOf(s);
    expect(r.figures.checks.reactionLatency).toMatchObject({ count: 51, unanswered: 1 });
    expect(r.notes.some((n) => /game events have no reaction/.test(n))).toBe(true);
  });
});

describe('faces by game result', () => {
  it('counts faces per game and after its end, by result, and reports a happy face after a lost game', async () => {
    const lost = seedWhere(0, 'B');
    const won = seedWhere(1, 'A');
    const s = new SessionScript({ id: 'faces', games: '2', robotSeat: '0', language: 'pt' });
    s.playGame({
      game: 0,
      seed: lost,
      dealer: 0,
      afterEvent: (e, { script }) => {
        if (e.type === 'trick') script.face('neutral');
        if (e.type === 'end') script.tick(300).face('happy').tick(300).face('sad');
      },
    });
    s.playGame({
      game: 1,
      seed: won,
      dealer: 1,
      afterEvent: (e, { script }) => {
        // At the second game's deal the face is about the new hand, no longer about the lost game.
        if (e.type === 'deal') script.face('happy');
        if (e.type === 'end') script.face('happy');
      },
    });
    s.sessionEnd(1);
    const r = await reportOf(s);
    expect(r.games.map((g) => g.result)).toEqual(['lost', 'won']);
    expect(r.games[0]!.faces.during.neutral).toBe(10);
    expect(r.games[0]!.faces.after).toMatchObject({ happy: 1, sad: 1, neutral: 0 });
    expect(r.figures.faces.byResult.lost).toMatchObject({ games: 1, after: { happy: 1, sad: 1 } });
    expect(r.figures.faces.byResult.won).toMatchObject({ games: 1, after: { happy: 1 } });
    const c = r.figures.checks.happyAfterLoss;
    expect(c).toMatchObject({ examined: 2, applicable: 1, count: 1 });
    expect(c.examples[0]).toMatchObject({
      game: 1,
      trick: null,
      text: "happy face (valence 0.3), 0.3 s after the game's end",
    });
    expect(c.examples[0]!.why).toMatch(/^game 1 was lost \d+-\d+$/);
  });

  it("a happy face after the session's last game, lost, is no finding when the session was won", async () => {
    const run = async (results: ('A' | 'B')[]) => {
      const s = new SessionScript({ id: 'last', games: String(results.length), robotSeat: '0', language: 'pt' });
      results.forEach((winner, i) =>
        s.playGame({
          game: i,
          seed: seedWhere(i as Seat, winner),
          dealer: i as Seat,
          afterEvent: (e, { script }) =>
            void (e.type === 'end' && i === results.length - 1 && script.tick(200).face('happy')),
        }),
      );
      s.sessionEnd(results.length - 1);
      return { check: (await reportOf(s)).figures.checks.happyAfterLoss, victories: s.victories };
    };
    // Two games won, the last lost: the session is won, and the robot is happy about that.
    const won = await run(['A', 'A', 'A', 'B']);
    expect(won.victories[0]).toBeGreaterThan(won.victories[1]);
    expect(won.check).toMatchObject({ applicable: 1, count: 0 });
    // The only game lost: so is the session, and a happy face is a finding.
    expect((await run(['B'])).check).toMatchObject({ applicable: 1, count: 1 });
  });

  it('finds nothing when the robot looks sad after a loss', async () => {
    const s = new SessionScript();
    s.playGame({
      game: 0,
      seed: seedWhere(0, 'B'),
      dealer: 0,
      afterEvent: (e, { script }) => void (e.type === 'end' && script.face('sad')),
    });
    expect((await reportOf(s)).figures.checks.happyAfterLoss).toMatchObject({ applicable: 1, count: 0 });
  });
});

describe('lines', () => {
  it('counts lines by category, addressee, spoken or dropped, the own-card share and what of the library was said, in the language in force', async () => {
    const s = new SessionScript({ id: 'lines', language: 'pt' });
    s.line({ text: 'a', id: 'play.partner#1', category: 'play.partner', addressee: 2 });
    s.line({ text: 'b', id: 'play.partner#1', category: 'play.partner', addressee: -1 });
    s.line({
      text: 'c',
      id: 'play.partner#2',
      category: 'play.partner',
      addressee: 1,
      phase: 'dropped',
      reason: 'stale',
    });
    s.line({ text: 'd', id: 'trick.end.ours#1', category: 'trick.end.ours', phase: 'dropped', reason: 'delay' });
    s.line({ text: 'e', id: 'card#robot', category: 'playing.forced' });
    s.line({ text: 'f', id: 'play.self#1', category: 'play.self' });
    s.emit('language', { language: 'en', by: 'operator' });
    s.line({ text: 'g', id: 'play.partner#1', category: 'play.partner', addressee: 3, language: '' });
    s.line({ text: 'h', id: 'play.partner#1', category: 'play.partner', language: 'xx' });
    const r = await reportOf(s);
    const l = r.figures.lines;
    expect(l).toMatchObject({ spoken: 6, dropped: 2, droppedByReason: { stale: 1, delay: 1 } });
    expect(l.byCategory['play.partner']).toEqual({ spoken: 4, dropped: 1 });
    expect(l.byAddressee).toEqual({
      partner: { spoken: 1, dropped: 0 },
      opponent: { spoken: 1, dropped: 1 },
      all: { spoken: 4, dropped: 1 },
    });
    expect(l.ownCard).toEqual({ spoken: 2, share: 0.333 });
    expect(l.coverage.pt).toEqual({
      categories: { said: 2, total: 3, share: 0.667 },
      lines: { said: 2, total: 4, share: 0.5 },
    });
    expect(l.coverage.en).toEqual({
      categories: { said: 1, total: 3, share: 0.333 },
      lines: { said: 1, total: 4, share: 0.25 },
    });
    expect(l.coverage.xx).toBeNull();
    expect(r.notes).toContain('no utterance library for language "xx": its coverage is not known');
  });
});

describe('misaddressed lines', () => {
  it('finds lines about the partner said to an opponent, and about an opponent said to the partner or the other opponent', async () => {
    const s = new SessionScript();
    const about = (event: string, seat: number, addressee: number, text: string) =>
      s.line({ text, event, about_seat: seat, addressee, moment: 64 + 6, id: 'x#1', category: 'play.partner' });
    about('play', 2, 1, 'partner card to opponent');
    about('play', 2, 2, 'partner card to partner');
    about('trick', 1, 1, 'opponent trick to that opponent');
    about('trick', 1, 3, 'opponent trick to the other opponent');
    about('play', 3, 2, 'opponent card to partner');
    about('play', 0, 1, 'own card to an opponent');
    about('play', 1, -1, 'opponent card to everyone');
    about('end', -1, 1, 'result to an opponent');
    const c = (await reportOf(s)).figures.checks.misaddressed;
    expect(c).toMatchObject({ examined: 8, applicable: 5, unknown: 0, count: 3, note: null });
    expect(c.examples.map((x) => x.text)).toEqual([
      'partner card to opponent',
      'opponent trick to the other opponent',
      'opponent card to partner',
    ]);
    expect(c.examples[0]).toMatchObject({
      game: 1,
      trick: 2,
      why: "about the partner (seat 2)'s card, said to an opponent (seat 1)",
    });
  });

  it('says it could not check lines recorded before they carried their event', async () => {
    const s = new SessionScript();
    s.line({ text: 'old', event: '', about_seat: -1, addressee: 1 });
    s.line({ text: 'old too', event: '', about_seat: -1, addressee: 2 });
    const r = await reportOf(s);
    expect(r.figures.checks.misaddressed).toMatchObject({ examined: 0, unknown: 2, count: 0 });
    expect(r.figures.checks.misaddressed.note).toMatch(
      /^could not be checked: the 2 spoken lines were recorded before lines said what they react to$/,
    );
    expect(r.figures.checks.lateLines.note).toMatch(/^could not be checked/);
    expect(formatSession(r)).toMatch(/misaddressed lines +- could not be checked/);
  });
});

describe('late lines', () => {
  it('finds a card line started after the next card, a game line after its end and a result after the next game began', async () => {
    const s = new SessionScript();
    let plays = 0;
    s.playGame({
      game: 0,
      seed: 4,
      dealer: 0,
      afterEvent: (e, { script }) => {
        if (e.type === 'play') plays++;
        // In time: the third card's line before the fourth card.
        if (e.type === 'play' && plays === 3)
          script.line({ text: 'third card, in time', event: 'play', about_seat: e.seat, moment: 64 + 3 });
        // Late: the fourth card's line once the fifth is down.
        if (e.type === 'play' && plays === 5)
          script.line({ text: 'fourth card, late', event: 'play', about_seat: e.seat, moment: 64 + 4 });
        if (e.type === 'end') {
          script.line({ text: 'last trick, after the end', event: 'trick', about_seat: 0, moment: 64 + 40 });
          script.line({ text: 'the result, in time', event: 'end', moment: 64 + 41, category: 'game.end.win.single' });
        }
      },
    });
    let second = 0;
    s.playGame({
      game: 1,
      seed: 6,
      dealer: 1,
      afterEvent: (e, { script }) => {
        if (e.type === 'play' && ++second === 1)
          script.line({
            text: 'the first result, late',
            event: 'end',
            moment: 64 + 41,
            category: 'game.end.win.single',
          });
      },
    });
    s.sessionEnd(1);
    s.line({ text: 'farewell', event: 'session-end', moment: 128 + 42, category: 'session.end.win' });
    const c = (await reportOf(s)).figures.checks.lateLines;
    expect(c).toMatchObject({ examined: 6, applicable: 5, count: 3 });
    expect(c.examples.map((x) => [x.text, x.game, x.trick])).toEqual([
      ['fourth card, late', 1, 1],
      ['last trick, after the end', 1, 10],
      ['the first result, late', 1, null],
    ]);
    expect(c.examples[0]!.why).toMatch(/^started after the next card \(\w\w by .* \(seat \d\)\) was down$/);
    expect(c.examples[1]!.why).toBe('started after game 1 ended');
    expect(c.examples[2]!.why).toBe("the result of game 1, started after game 2's first card");
  });
});

describe('faces against the words', () => {
  it('finds a glad face under a sorry line and a sorry face under a glad one; not a face after the line, nor under a line of neither feeling', async () => {
    const library = (language: string): LibraryLines | null =>
      language === 'pt'
        ? {
            lines: [
              { id: 'trick.end.theirs#1', category: 'trick.end.theirs', valence: -1 },
              { id: 'trick.end.ours#1', category: 'trick.end.ours', valence: 1 },
              { id: 'playing.following#1', category: 'playing.following', valence: 0 },
            ],
          }
        : null;
    const s = new SessionScript();
    let tricks = 0;
    s.playGame({
      game: 0,
      seed: 4,
      dealer: 0,
      afterEvent: (e, { script }) => {
        if (e.type !== 'trick') return;
        const moment = 64 + 4 * ++tricks;
        const sorry = { id: 'trick.end.theirs#1', category: 'trick.end.theirs' as const, event: 'trick', moment };
        const glad = { id: 'trick.end.ours#1', category: 'trick.end.ours' as const, event: 'trick', moment };
        if (tricks === 1) script.line({ ...sorry, text: 'Essa doeu...' }, { during: (x) => x.face('happy') });
        if (tricks === 2)
          script.line({ ...glad, text: 'Boa! Mais 13 pontos para nós.' }, { during: (x) => x.face('sad', -0.2) });
        if (tricks === 3)
          script.line({ ...sorry, text: 'Lá se foram 7 pontos.' }, { during: (x) => x.face('sad', -0.2) });
        if (tricks === 4)
          script.line(
            { id: 'playing.following#1', category: 'playing.following', text: 'Também tenho copas.', moment },
            { during: (x) => x.face('happy') },
          );
        if (tricks === 5)
          script
            .line({ ...sorry, text: 'Pronto, esta já foi.' })
            .tick(100)
            .face('happy');
        if (tricks === 6) script.line({ ...sorry, text: 'Essa doeu...' }, { during: (x) => x.face('surprised') });
        if (tricks === 7)
          script.line(
            {
              id: 'trick.end.theirs#9',
              category: 'trick.end.theirs',
              event: 'trick',
              moment,
              text: 'Uma linha que a biblioteca já não tem.',
            },
            { during: (x) => x.face('happy') },
          );
      },
    });
    const c = (await sessionReport(await recorded(s), library)).report.figures.checks.facesAgainstWords;
    // Six faces glad or sorry (the five under lines and the one after; surprise is neither), and four
    // lines that began with a glad or sorry face on show (the fifth line's face gives way 100 ms in).
    expect(c).toMatchObject({ examined: 10, applicable: 6, unknown: 1, count: 3 });
    expect(c.examples.map((x) => [x.text, x.game, x.trick])).toEqual([
      ['Essa doeu...', 1, 1],
      ['Boa! Mais 13 pontos para nós.', 1, 2],
      // Said with the smile from the trick before still on.
      ['Essa doeu...', 1, 6],
    ]);
    expect(c.examples[2]!.why).toBe('a happy face on show as it began: the line sounds sorry, the face glad');
    expect(c.examples[0]!.why).toBe('a happy face 0.5 s into it: the line sounds sorry, the face glad');
    expect(c.note).toMatch(/^1 faces shown under lines of unknown feeling/);
  });
});

describe('lines against the game, nudges and looks', () => {
  /** A library whose lines carry what the planner chose them by: their conditions, how they sound. */
  const library = (language: string): LibraryLines | null =>
    language === 'pt'
      ? {
          lines: [
            { id: 'game.start#taunt', category: 'game.start', valence: 1, when: { previous: 'won' } },
            { id: 'playing.following#1', category: 'playing.following', valence: 0, when: { trick: 'beaten' } },
            { id: 'play.opponent#glad', category: 'play.opponent', valence: 1 },
            { id: 'next-player.partner#1', category: 'next-player.partner', valence: 0 },
            { id: 'trick.end.ours#1', category: 'trick.end.ours', valence: 1 },
          ],
        }
      : null;
  const PARTNER = { x: 1.2, y: 0, z: 0.3 };
  const OPPONENT = { x: 0.6, y: -0.6, z: 0.3 };
  const lookedAt = (p: { x: number; y: number; z: number }): 'partner' | 'opponent' | null =>
    p.x === PARTNER.x && p.y === PARTNER.y ? 'partner' : p.x === OPPONENT.x && p.y === OPPONENT.y ? 'opponent' : null;
  const look = (s: SessionScript, p: { x: number; y: number; z: number }): SessionScript =>
    s.emit('lookAt', { header: { stamp: { sec: 0, nanosec: 0 }, frame_id: 'base_link' }, point: p });

  it('finds a taunt after a lost game, "I have to follow" of a winning card, a glad line as the opponents lead, a nudge too soon and a head turned away', async () => {
    const s = new SessionScript();
    let plays = 0;
    let trump: ReturnType<typeof suitOf> | null = null;
    let trick: ReturnType<typeof parseCard>[] = [];
    let followed = false;
    let glad = false;
    const lost = s.playGame({
      game: 0,
      seed: seedWhere(0, 'B'),
      dealer: 0,
      afterEvent: (e, { script }) => {
        if (e.type === 'deal') trump = suitOf(parseCard(e.card));
        if (e.type !== 'play') return;
        plays++;
        trick = trick.length === 4 ? [parseCard(e.card)] : [...trick, parseCard(e.card)];
        const leads = winningIndex(trick, trump!) === trick.length - 1 && trick.length > 1;
        const moment = 64 + plays;
        // The robot's own card that takes the lead: "Tenho de assistir." is for a card that is beaten.
        if (e.seat === 0 && leads && !followed) {
          followed = true;
          script.line({
            id: 'playing.following#1',
            category: 'playing.following',
            text: 'Tenho de assistir.',
            event: 'play',
            about_seat: 0,
            moment,
          });
        }
        // An opponent's card that takes the lead: a glad line about it, to everyone, looking at the partner.
        if (e.seat === 1 && leads && !glad) {
          glad = true;
          look(script, PARTNER);
          script.line({
            id: 'play.opponent#glad',
            category: 'play.opponent',
            text: 'Que bela carta!',
            target: 'all',
            event: 'play',
            about_seat: 1,
            moment,
          });
        }
        // A nudge to the partner a second after the turn began, looking at an opponent.
        if (plays === 6) {
          script.tick(1000);
          look(script, OPPONENT);
          script.line({
            id: 'next-player.partner#1',
            category: 'next-player.partner',
            text: 'Então, parceiro?',
            target: 'partner',
            addressee: 2,
            event: 'turn',
            moment,
          });
        }
      },
    });
    expect(lost.winnerTeam).toBe('b');
    expect([followed, glad]).toEqual([true, true]);
    // Game 2 begins: the taunt that presumes game 1 won, said to an opponent looking at the opponents.
    look(s.tick(500), OPPONENT).line({
      id: 'game.start#taunt',
      category: 'game.start',
      text: 'Preparem-se para perder mais um!',
      target: 'opponent',
      addressee: 1,
      event: 'game-start',
      moment: 128,
    });
    const r = sessionReport(await recorded(s), library, { lookedAt }).report.figures.checks;
    const why = (c: (typeof r)['linesAgainstTheGame']) => c.examples.map((x) => [x.text, x.why]);
    expect(r.linesAgainstTheGame.count).toBe(3);
    expect(why(r.linesAgainstTheGame)).toEqual(
      expect.arrayContaining([
        ['Tenho de assistir.', 'it is said of a card that wins'],
        ['Que bela carta!', "a glad line about another seat's card while the opponents hold the trick"],
        ['Preparem-se para perder mais um!', 'it presumes game 1 won, and it was lost'],
      ]),
    );
    expect(why(r.nudgesTooSoon)).toEqual([['Então, parceiro?', '1.0 s into the turn']]);
    expect(why(r.looksAgainstLines)).toEqual(
      expect.arrayContaining([
        ['Então, parceiro?', 'said to the partner, looking at an opponent'],
        ['Que bela carta!', "said to everyone about an opponent's card, looking at the partner"],
      ]),
    );
    expect(r.looksAgainstLines.count).toBe(2);
    // Without the table's geometry the looks are not judged, and the report says so.
    const blind = sessionReport(await recorded(s), library).report.figures.checks.looksAgainstLines;
    expect(blind).toMatchObject({ count: 0 });
    expect(blind.note).toMatch(/no table geometry/);
  });
});

describe('faces against the trick', () => {
  it('finds a glad face as the opponents take points and a sorry one as the robot takes them, until the next card', async () => {
    const s = new SessionScript();
    const tricks: GameEventMessage[] = [];
    s.playGame({
      game: 0,
      seed: 4,
      dealer: 0,
      afterEvent: (e, { script }) => {
        if (e.type !== 'trick') return;
        tricks.push(e);
        // A smile after every trick with points; surprise after the others (neither glad nor sorry).
        script.tick(200).face(e.points > 0 ? 'happy' : 'surprised');
      },
    });
    const c = (await reportOf(s)).figures.checks.facesAgainstTricks;
    const scoring = tricks.filter((e) => e.points > 0);
    const lost = scoring.filter((e) => e.winner % 2 === 1);
    expect(lost.length).toBeGreaterThan(0);
    expect(lost.length).toBeLessThan(scoring.length);
    expect(c).toMatchObject({ examined: scoring.length, applicable: scoring.length, count: lost.length });
    expect(c.examples[0]).toMatchObject({
      game: 1,
      trick: lost[0]!.trick + 1,
      text: 'happy face (valence 0.3), 0.2 s after the trick',
    });
    expect(c.examples[0]!.why).toMatch(/^an opponent \(seat [13]\) took \d+ points for the opponents$/);
  });
});

describe('the face as people meet it', () => {
  it('counts face changes per trick and the faces replaced within the hold time', async () => {
    const s = new SessionScript();
    s.playGame({
      game: 0,
      seed: 4,
      dealer: 0,
      gapMs: 1000,
      // A smile at each trick's first card, gone at its third (two changes a trick, the smile ~2 s on).
      afterEvent: (e, { script }) => {
        if (e.type !== 'play') return;
        const nth = s.messages.filter(
          (m) => m.key === 'gameEvents' && (m.message as GameEventMessage).type === 'play',
        ).length;
        if (nth % 4 === 1) script.face('happy');
        if (nth % 4 === 3) script.face('neutral');
      },
    });
    const recording = await recorded(s);
    const held = sessionReport(recording, LIBRARY, { holdMs: 3000 }).report.figures.faces.changes;
    expect(held).toMatchObject({ total: 20, tricks: 10, perTrick: { median: 2, p90: 2, mean: 2 }, holdMs: 3000 });
    expect(held.replacedWithinHold).toEqual({ count: 10, share: 0.5 });
    // The same faces judged against a hold of one second: none was replaced sooner.
    const short = sessionReport(recording, LIBRARY, { holdMs: 1000 }).report.figures.faces.changes;
    expect(short.replacedWithinHold).toEqual({ count: 0, share: 0 });
  });

  it("finds a glad face at an opponent's card that takes the lead of a rich trick, a sorry one at the partner's", async () => {
    const s = new SessionScript();
    const rich: { seat: number; card: string }[] = [];
    let table: string[] = [];
    let trump = '';
    s.playGame({
      game: 0,
      seed: 6,
      dealer: 0,
      afterEvent: (e, { script }) => {
        if (e.type === 'deal') trump = e.card.slice(-1);
        if (e.type === 'trick') table = [];
        if (e.type !== 'play') return;
        table.push(e.card);
        const leads = winningIndex(table.map(parseCard), suitOf(parseCard(`2${trump}`))) === table.length - 1;
        const worth = table.reduce((a, c) => a + points(c), 0);
        if (e.seat !== 0 && leads && worth >= 10) rich.push({ seat: e.seat, card: e.card });
        // Glad at every other seat's card: against the card only where an opponent's takes a rich lead.
        if (e.seat !== 0) script.tick(300).face(e.seat === 2 ? 'sad' : 'happy');
      },
    });
    const c = (await reportOf(s)).figures.checks.facesAgainstCards;
    expect(rich.length).toBeGreaterThan(2);
    expect(c.applicable).toBe(rich.length);
    expect(c.count).toBe(rich.length);
    expect(c.examples[0]!.text).toBe(`${rich[0]!.seat === 2 ? 'sad' : 'happy'} face 0.3 s after ${rich[0]!.card}`);
    expect(c.examples[0]!.why).toMatch(/took the lead of a trick holding \d+ points$/);
  });

  it('counts the strongest feeling against the face, which the panels no longer show as felt', async () => {
    const s = new SessionScript();
    s.playGame({
      game: 0,
      seed: 4,
      dealer: 0,
      reactor: (e) => (e.type === 'play' && e.trick === 2 ? { felt: [{ type: 'distress', intensity: 6 }] } : undefined),
      afterEvent: (e, { script }) => {
        if (e.type === 'play' && e.trick === 2) script.face('happy');
      },
    });
    const r = await reportOf(s);
    expect(r.figures.faces.changes.strongestAgainstFace.count).toBeGreaterThan(0);
    expect(r.figures.checks.panelAgainstFace.count).toBe(0);
  });
});

describe('forced plays', () => {
  it("gives back which plays were forced from the game's cards, as the engine saw them", async () => {
    const s = new SessionScript();
    const games = [0, 1, 2, 3, 4].map((g) => s.playGame({ game: g, seed: 10 + g, dealer: (g % 4) as 0 | 1 | 2 | 3 }));
    const t = timelineOf(await recorded(s));
    for (const [i, g] of games.entries()) expect(forcedPlays(t.games[i]!)).toEqual(g.forced);
    // Not only the last cards: the engine found forced plays before the last trick too.
    expect(games.flatMap((g) => g.forced.slice(0, 36)).some(Boolean)).toBe(true);
  });

  it('judges only what a recording cut mid-game tells, and never contradicts the engine', async () => {
    const s = new SessionScript();
    const g = s.playGame({ game: 0, seed: 12, dealer: 2 });
    const cut = s.messages.findIndex(
      (m, i) =>
        m.key === 'gameEvents' && s.messages.slice(0, i + 1).filter((x) => x.key === 'gameEvents').length === 25,
    );
    const rec = await recorded(s, { keep: cut + 1, abandon: true });
    const forced = forcedPlays(timelineOf(rec).games[0]!);
    expect(forced.length).toBeGreaterThan(15);
    expect(forced.some((f) => f === null)).toBe(true);
    forced.forEach((f, k) => {
      if (f !== null) expect(f).toBe(g.forced[k]);
    });
  });

  it('finds reproach or anger toward a seat right after its forced play, and not after a free one', async () => {
    const s = new SessionScript();
    let n = 0;
    const played = s.playGame({
      game: 0,
      seed: 9,
      dealer: 3,
      reactor: (e, { forced }) => {
        if (e.type !== 'play' || e.seat === 0) return {};
        n++;
        const felt: Emotion[] = forced
          ? [
              e.seat === 2
                ? { type: 'anger', intensity: 1 + n * 0.1, team: 'team' }
                : { type: 'reproach', intensity: 1 + n * 0.1, target: e.seat },
            ]
          : [{ type: 'reproach', intensity: 1 + n * 0.1, target: e.seat === 2 ? 1 : 2 }];
        return { felt };
      },
    });
    const plays = played.events.filter((e) => e.type === 'play');
    const forcedOthers = plays.filter((e, k) => played.forced[k] && e.seat !== 0);
    const c = (await reportOf(s)).figures.checks.forcedBlame;
    expect(c).toMatchObject({
      examined: 40,
      applicable: played.forced.filter(Boolean).length,
      unknown: 0,
      count: forcedOthers.length,
    });
    expect(c.count).toBeGreaterThanOrEqual(3);
    expect(c.examples[0]!.why).toMatch(/^(an opponent|the partner) \(seat \d\) played \w\w, its only legal card$/);
    expect(
      c.examples.every((x) =>
        /^(reproach [\d.]+ toward an opponent \(seat [13]\)|anger [\d.]+ toward the robot's team)$/.test(x.text),
      ),
    ).toBe(true);
  });
});

describe('gloating and pity', () => {
  it('finds gloating toward opponents who lost nothing in the trick, and pity toward a partner who lost nothing', async () => {
    const s = new SessionScript();
    const expected: string[] = [];
    let applicable = 0;
    s.playGame({
      game: 0,
      seed: 8,
      dealer: 0,
      reactor: (e) => {
        if (e.type !== 'trick') return {};
        const k = 1 + e.trick * 0.4;
        if (e.winner % 2 === 0) {
          applicable += 3;
          if (points(cardOf(e, 1)) === 0 && points(cardOf(e, 3)) === 0)
            expected.push(`gloating toward the opponents at ${e.trick + 1}`);
          expected.push(`pity toward the partner at ${e.trick + 1}`);
          return {
            felt: [
              { type: 'gloating', intensity: k, team: 'opponents' },
              { type: 'pity', intensity: k, target: 2 },
              { type: 'pity', intensity: k, target: 1 },
            ],
          };
        }
        applicable += 1;
        if (points(cardOf(e, 1)) === 0 && e.winner !== 1) expected.push(`gloating toward seat 1 at ${e.trick + 1}`);
        return { felt: [{ type: 'gloating', intensity: k, target: 1 }] };
      },
    });
    const c = (await reportOf(s)).figures.checks.gloatingPity;
    expect(c).toMatchObject({ examined: 10, applicable, count: expected.length });
    expect(expected.length).toBeGreaterThan(0);
    const said = c.examples.map(
      (x) =>
        `${x.text.split(' ')[0]} toward ${/toward (the opponents|the partner|an opponent \(seat 1\))/.exec(x.text)![1]!.replace('an opponent (seat 1)', 'seat 1')} at ${x.trick}`,
    );
    expect(said).toEqual(expected.slice(0, 20));
  });
});

describe('damaged recordings', () => {
  it('reports a recording cut short as far as it goes, with a note', async () => {
    const s = new SessionScript({ id: 'cut', games: '2', robotSeat: '0', language: 'pt' });
    s.playGame({ game: 0, seed: 3, dealer: 0 });
    s.playGame({ game: 1, seed: 4, dealer: 1 });
    const path = await s.write(join(dir, 'whole.mcap'));
    const bytes = readFileSync(path);
    // Cut inside the second game, as the reader sees it (its deal there, not its end): the file's
    // layout (headers, chunks) moves with the topics, so no fixed fraction stays inside it.
    const cutPath = join(dir, 'cut.mcap');
    const inSecondGame = (n: number): boolean => {
      writeFileSync(cutPath, bytes.subarray(0, n));
      const events = readRecording(cutPath)
        .messages.filter((m) => m.topic.name === '/parceiro/game/events')
        .map((m) => m.message as GameEventMessage);
      return (
        events.some((e) => e.type === 'deal' && e.game === 1) && !events.some((e) => e.type === 'end' && e.game === 1)
      );
    };
    let cut = bytes.length;
    while (cut > 0 && !inSecondGame(cut)) cut -= Math.ceil(bytes.length / 100);
    expect(cut).toBeGreaterThan(0);
    const r = sessionReport(readRecording(cutPath), LIBRARY).report;
    expect(r.complete).toBe(false);
    expect(r.problems.length).toBeGreaterThan(0);
    expect(r.notes).toContain('the recording is incomplete: reported as far as it goes');
    expect(r.notes).toContain('game 2 did not end in the recording');
    expect(r.games).toHaveLength(2);
    expect(r.games[1]!.result).toBe('unfinished');
    expect(r.figures.faces.byResult.unfinished.games).toBe(1);
    expect(r.figures.checks.reactionLatency.count).toBeGreaterThan(52);
    expect(formatSession(r)).toContain('note: the recording is incomplete: reported as far as it goes');
  });
});

describe('several sessions', () => {
  it('gives the overall figures from all sessions together, not averages of their figures', async () => {
    const a = new SessionScript({ id: 'a', robotSeat: '0', language: 'pt' });
    a.react([], 1).tick().react([], 2).tick().react([], 3);
    a.line({ text: 'to the partner', event: 'play', about_seat: 2, addressee: 1, moment: 65 });
    const b = new SessionScript({ id: 'b', robotSeat: '0', language: 'pt' });
    b.react([], 10).tick().react([], 10);
    b.line({ text: 'fine', event: 'play', about_seat: 2, addressee: 2, moment: 65 });
    b.line({ text: 'also misaddressed', event: 'play', about_seat: 1, addressee: 2, moment: 66 });
    const { report } = buildReport([await recorded(a), await recorded(b)], LIBRARY);
    expect(report.sessions.map((x) => x.figures.mood.median)).toEqual([2, 10]);
    // Moods 1 2 3 10 10: the median of all, not of the two medians.
    expect(report.overall.mood.median).toBe(3);
    expect(report.overall).toMatchObject({ sessions: 2, lines: { spoken: 3 }, checks: { misaddressed: { count: 2 } } });
    expect(report.overall.checks.misaddressed.examples.map((x) => x.session)).toEqual(['a', 'b']);
    expect(formatReport(report)).toMatch(/^Overall: 2 sessions, 0 games$/m);
  });
});

describe('output', () => {
  let report: Report;
  let chart: string;
  it('writes a self-contained chart page: a timeline and a score per game, marks that say what they were', async () => {
    const s = new SessionScript({ id: 'chart <&>', games: '2', robotSeat: '0', language: 'pt' });
    s.playGame({
      game: 0,
      seed: seedWhere(0, 'B'),
      dealer: 0,
      reactor: (e) => (e.type === 'play' ? { felt: [{ type: 'joy', intensity: 2 + (e.trick % 3) }], mood: 3 } : {}),
      afterEvent: (e, { script }) =>
        void (
          e.type === 'end' &&
          script
            .tick(100)
            .face('happy')
            .line({ text: 'Bom jogo <todos>', event: 'end', moment: 64 + 41 })
        ),
    });
    s.playGame({ game: 1, seed: 4, dealer: 1 });
    const built = buildReport([await recorded(s)], LIBRARY);
    report = built.report;
    chart = chartHtml(report, built.timelines);
    expect(chart.match(/<svg xmlns/g)).toHaveLength(4);
    expect(chart).toContain('Session chart &lt;&amp;&gt;');
    expect(chart).toContain('said to everyone, playing.following: &quot;Bom jogo &lt;todos&gt;&quot;');
    expect(chart).toMatch(/<h3>Game 1: lost \d+-\d+, mood at its end \+3\.0<\/h3>/);
    // Nothing fetched: the only address is SVG's namespace.
    expect(chart.replace(/xmlns="http:\/\/www\.w3\.org\/2000\/svg"/g, '')).not.toMatch(/https?:|src=|<script|<link/);
    // The happy face after the lost game is ringed, and listed under the game.
    expect(chart).toContain('stroke="#c92a2a" stroke-width="2.5"><title>happy face');
    expect(chart).toMatch(/<li><q>happy face \(valence 0\.3\), 0\.1 s after the game's end<\/q>/);
  });

  it('prints one screen per session with each check', () => {
    const text = formatReport(report);
    const lines = text.split('\n');
    expect(lines.length).toBeLessThan(60);
    expect(text).toMatch(/^Session chart <&> \(.*\.mcap\)$/m);
    expect(text).toMatch(/^ {2}game 1: lost +\d+-\d+ +victories 0-\d +mood at its end \+3\.0$/m);
    for (const title of [
      'misaddressed lines',
      'late lines',
      'blame for forced plays',
      'gloating/pity targets',
      'happy after a lost game',
      'reaction latency',
    ])
      expect(text).toMatch(new RegExp(`^  ${title.replace('/', '\\/')} `, 'm'));
    expect(text).toMatch(/^ {2}happy after a lost game +1 happy face after 2 lost games \(of 2 finished\)$/m);
  });
});
