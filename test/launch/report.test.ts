// parceiro report, run as a user runs it: the built program in a child process, on recordings written
// here (a scripted one whose findings are known, one cut short) and on a session recorded by the node,
// where every game event must find its reaction and every line say what it reacts to.

import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../robot/offline/report/index.js';
import { SessionScript, seedWhere } from '../robot/report-script.js';
import { recordSession } from '../robot/replay-harness.js';
import { runCli } from './run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'parceiro-report-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const run = (args: string[]) => runCli(args, dir);

let scripted = '';
let live = '';
beforeAll(async () => {
  // A lost game with a happy face after it and a misaddressed line, then a won game.
  const s = new SessionScript({ id: 'cli', seed: '3', games: '2', robotSeat: '0', language: 'pt', character: 'warm' });
  s.playGame({
    game: 0,
    seed: seedWhere(0, 'B'),
    dealer: 0,
    afterEvent: (e, { script }) => {
      if (e.type === 'play' && e.seat === 2 && e.trick === 0)
        script.line({
          text: 'Boa jogada do meu parceiro!',
          id: 'play.partner#1',
          category: 'play.partner',
          event: 'play',
          about_seat: 2,
          addressee: 1,
          moment: 64 + 3,
        });
      if (e.type === 'end') script.tick(200).face('happy');
    },
  });
  s.playGame({ game: 1, seed: seedWhere(1, 'A'), dealer: 1 });
  s.sessionEnd(1);
  scripted = await s.write(join(dir, 'cli.mcap'));
});

describe('parceiro report', () => {
  it('prints a screen per session with its figures and findings (exit 0)', async () => {
    const { code, out, err } = await run(['report', scripted]);
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(out).toContain(`Session cli (${scripted})`);
    expect(out).toMatch(
      /^ {2}seed 3, 2 of 2 games, robot in seat 0 \(team A, partner seat 2\), character warm, language pt$/m,
    );
    expect(out).toMatch(/^ {2}game 1: lost /m);
    expect(out).toMatch(/^ {2}misaddressed lines +1 of 1 line about another seat's card or trick/m);
    expect(out).toContain(
      `"Boa jogada do meu parceiro!": about the partner (seat 2)'s card, said to an opponent (seat 1)`,
    );
    expect(out).toMatch(/^ {2}happy after a lost game +1 happy face after 1 lost game \(of 2 finished\)$/m);
    expect(out).toMatch(/^ {2}library pt: 1 of \d+ categories said/m);
  });

  it('prints one JSON document with --json, each session and all together', async () => {
    const { code, out } = await run(['report', scripted, scripted, '--json']);
    expect(code).toBe(0);
    const r = JSON.parse(out) as Report;
    expect(r).toMatchObject({ report: 'parceiro-session-report', version: 1 });
    expect(r.sessions).toHaveLength(2);
    expect(Object.keys(r.overall)).toEqual([
      'sessions',
      'games',
      'results',
      'mood',
      'emotions',
      'faces',
      'lines',
      'checks',
    ]);
    expect(Object.keys(r.overall.checks)).toEqual([
      'misaddressed',
      'lateLines',
      'forcedBlame',
      'gloatingPity',
      'happyAfterLoss',
      'facesAgainstWords',
      'facesAgainstTricks',
      'facesAgainstCards',
      'panelAgainstFace',
      'linesAgainstTheGame',
      'nudgesTooSoon',
      'looksAgainstLines',
      'reactionLatency',
    ]);
    expect(r.overall).toMatchObject({
      sessions: 2,
      games: 4,
      results: { won: 2, lost: 2 },
      checks: { misaddressed: { count: 2 }, happyAfterLoss: { count: 2 } },
    });
    expect(r.sessions[0]!.figures.checks.misaddressed.examples[0]).toEqual({
      session: 'cli',
      game: 1,
      trick: 1,
      text: 'Boa jogada do meu parceiro!',
      why: "about the partner (seat 2)'s card, said to an opponent (seat 1)",
    });
  });

  it('writes the chart with --chart', async () => {
    const chart = join(dir, 'chart.html');
    const { code, out } = await run(['report', scripted, '--chart', chart]);
    expect(code).toBe(0);
    expect(out.trimEnd().split('\n').at(-1)).toBe(`Chart: ${chart}`);
    const html = readFileSync(chart, 'utf8');
    expect(html.match(/<svg xmlns/g)).toHaveLength(4);
  });

  it('reports a recording cut short as far as it goes, with a note (exit 0)', async () => {
    const bytes = readFileSync(scripted);
    const cut = join(dir, 'cut.mcap');
    writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    const { code, out } = await run(['report', cut]);
    expect(code).toBe(0);
    expect(out).toContain('note: the recording is incomplete: reported as far as it goes');
    expect(out).toMatch(/problem: cut short after \d+ messages/);
  });

  it('refuses a missing file, a file that is not a recording, a bad flag and an unwritable chart with one line (exit 2)', async () => {
    const cases: [string[], RegExp][] = [
      [['report', 'nowhere.mcap'], /^parceiro: error: nowhere\.mcap: cannot read the file \(ENOENT\)\n$/],
      [['report', scripted, 'nowhere.mcap'], /^parceiro: error: nowhere\.mcap: cannot read the file \(ENOENT\)\n$/],
      [['report', join(dir, 'not.mcap')], /^parceiro: error: .*not\.mcap: not an MCAP recording \(no MCAP header\)\n$/],
      [
        ['report', scripted, '--chart', join(dir, 'no', 'such', 'dir.html')],
        /^parceiro: error: --chart: cannot write .*dir\.html \(ENOENT\)\n$/,
      ],
      [['report', scripted, '--colour'], /^error: unknown option '--colour'\n/],
      [['report'], /^error: missing required argument 'files'\n/],
    ];
    writeFileSync(join(dir, 'not.mcap'), 'hello');
    for (const [args, err] of cases) {
      const r = await run(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err).toMatch(err);
      expect(r.out).toBe('');
    }
    expect(existsSync(join(dir, 'no'))).toBe(false);
  });
});

describe('parceiro report on a session the node recorded', () => {
  beforeAll(async () => {
    live = await recordSession(dir, 'cli-live');
  }, 90_000);

  it('finds a reaction for every game event, and every line says what it reacts to', async () => {
    const { code, out } = await run(['report', live, '--json']);
    expect(code).toBe(0);
    const s = (JSON.parse(out) as Report).sessions[0]!;
    expect(s.complete).toBe(true);
    expect(s.notes).toEqual([]);
    const f = s.figures;
    // One game: its deal, 40 cards, 10 tricks and its end, each reacted to.
    expect(f.checks.reactionLatency).toMatchObject({ count: 52, unanswered: 0 });
    expect(
      f.emotions.towardSeats['play.self'].events +
        f.emotions.towardSeats['play.partner'].events +
        f.emotions.towardSeats['play.opponent'].events,
    ).toBe(40);
    expect(f.lines.spoken).toBeGreaterThan(0);
    expect(f.checks.misaddressed).toMatchObject({ unknown: 0, note: null });
    expect(f.checks.lateLines).toMatchObject({ unknown: 0, note: null });
    expect(f.checks.forcedBlame).toMatchObject({ examined: 40, unknown: 0 });
    expect(f.checks.forcedBlame.applicable).toBeGreaterThanOrEqual(4);
    expect(f.lines.coverage.pt?.lines.total).toBeGreaterThan(100);
  });
});
