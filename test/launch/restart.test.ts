// A runtime killed mid-game and started again with the same session id: `parceiro simulate` in a
// child process, killed with SIGKILL once its narration shows tricks being played and its recording
// holds some, then `parceiro simulate --resume ID`, which rebuilds the state from the recording and
// finishes the session. Nothing waits on time: the test waits for output, for the recording's
// contents, and for the programs' ends.

import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { GameEventMessage, GameStateMessage } from '../../robot/bus/index.js';
import { SimulatedTable } from '../../table-bridge/index.js';
import { recording } from '../robot/replay-harness.js';
import type { RunningCli } from './run-cli.js';
import { startCli } from './run-cli.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const cli = `${root}dist/launch/cli.js`;
const dir = mkdtempSync(join(tmpdir(), 'parceiro-restart-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const start = (args: string[]): RunningCli => startCli(args, dir, cli);

/** Resolves when `test` holds, checked whenever the child writes (and on the recording's flushes). */
const until = async (test: () => boolean, child: ChildProcessWithoutNullStreams): Promise<void> => {
  while (!test()) {
    if (child.exitCode !== null) throw new Error('the program ended before the condition held');
    await new Promise((r) => child.stdout.once('data', r));
  }
};

const events = (file: string): GameEventMessage[] =>
  recording
    .readRecording(file)
    .messages.filter((m) => m.topic.name === '/parceiro/game/events')
    .map((m) => m.message as GameEventMessage);
const states = (file: string): GameStateMessage[] =>
  recording
    .readRecording(file)
    .messages.filter((m) => m.topic.name === '/parceiro/game/state')
    .map((m) => m.message as GameStateMessage);

/** The part written after a restart replays to exactly itself (its state restored from the parts before it). */
async function expectReplayMatches(part: string): Promise<void> {
  const replayed = start(['replay', part]);
  const r = await replayed.done;
  expect(replayed.out()).toMatch(/The replay matches the recording: \d+ messages/);
  expect(r.code).toBe(0);
}

// The cases are independent (each its own session id, ports and table) and mostly wait on their
// programs: they run at once. The timeout is only a backstop.
describe.concurrent('crash and restart', { timeout: 300_000 }, () => {
  it('a session killed mid-game resumes from its recording: same deal, tricks kept, and it finishes', async () => {
    const id = 'crash-test';
    const first = join(dir, 'recordings', `${id}.mcap`);
    const killed = start([
      'simulate',
      '--games',
      '2',
      '--seed',
      '7',
      '--budget',
      '50',
      '--min-think',
      '300',
      '--bot-think',
      '0',
      '--session',
      id,
    ]);
    // Some tricks narrated, and some in the recording (flushed every second), then the kill.
    await until(() => (killed.out().match(/^ {2}trick +\d+:/gm) ?? []).length >= 4, killed.child);
    await until(() => existsSync(first) && events(first).filter((e) => e.type === 'trick').length >= 2, killed.child);
    killed.child.kill('SIGKILL');
    const end = await killed.done;
    expect(end.signal).toBe('SIGKILL');

    const before = recording.readRecording(first);
    expect(before.complete).toBe(false);
    const lastState = states(first).at(-1)!;
    expect(lastState.status).toBe('playing');
    const playedBefore = events(first).filter((e) => e.type === 'play' && e.game === lastState.game - 1);

    // The resumed table plays at a pace that leaves the robot time to speak (and the game to overtake it).
    const resumed = start(['simulate', '--resume', id, '--bot-think', '300']);
    const r = await resumed.done;
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const out = resumed.out();
    expect(out).toMatch(new RegExp(`^Parceiro: resuming session ${id} \\(seed 7, 2 games\\) from 1 recording:$`, 'm'));
    expect(out).toMatch(
      /rebuilt from \d+ table events, \d+ decisions and \d+ estimates: 0 games over, game 1 at trick \d+\./,
    );
    expect(out).toMatch(/Session over after 2 games: victories A \d+ - B \d+/);

    // The new part continues the first: named in its metadata, starting from the state the first reached.
    const second = join(dir, 'recordings', `${id}.2.mcap`);
    const after = recording.readRecording(second);
    expect(after.complete).toBe(true);
    expect(after.session).toMatchObject({ id, seed: '7', games: '2', part: '2', previous: `${id}.mcap` });
    const resumedState = states(second)[0]!;
    expect(resumedState).toMatchObject({
      session_id: id,
      game: lastState.game,
      dealer: lastState.dealer,
      trump_card: lastState.trump_card,
      status: 'playing',
    });
    // The tricks already played are kept: the state resumes after them, with the same trick on the table.
    expect(resumedState.trick).toBe(Math.floor(playedBefore.length / 4));
    expect(resumedState.table).toEqual(
      playedBefore.slice(playedBefore.length - (playedBefore.length % 4)).map((p) => p.card),
    );
    // And the game is finished from there: the plays of both parts make one whole game of 40 cards.
    const playedAfter = events(second).filter((e) => e.type === 'play' && e.game === lastState.game - 1);
    const cards = [...playedBefore, ...playedAfter].map((p) => p.card);
    expect(cards).toHaveLength(40);
    expect(new Set(cards).size).toBe(40);
    const ends = events(second).filter((e) => e.type === 'end');
    expect(ends).toHaveLength(2);
    expect(events(second).at(-1)!.type).toBe('session_end');
    // The table came back with a hello, after the runtime told the operator the old one was gone.
    const tableEvents = after.messages
      .filter((m) => m.topic.name === '/parceiro/table/events')
      .map((m) => m.message as { kind: string; reason: string });
    expect(tableEvents[0]).toMatchObject({ kind: 'disconnect', reason: 'the runtime restarted' });
    expect(tableEvents[1]).toMatchObject({ kind: 'hello' });

    // The second part replays: its state restored from the first part, as the restart did, then matched.
    const replayed = start(['replay', second]);
    const rr = await replayed.done;
    expect(replayed.out()).toMatch(/restored from crash-test\.mcap first, as the restart did/);
    expect(replayed.out()).toMatch(/The replay matches the recording: \d+ messages/);
    expect(rr.code).toBe(0);
  });

  it('a physical-deal session resumes dealt the same way, without repeating --physical-deal', async () => {
    const id = 'crash-physical';
    const first = join(dir, 'recordings', `${id}.mcap`);
    const killed = start([
      'simulate',
      '--games',
      '1',
      '--seed',
      '8',
      '--budget',
      '50',
      '--min-think',
      '300',
      '--bot-think',
      '0',
      '--session',
      id,
      '--physical-deal',
    ]);
    await until(() => existsSync(first) && events(first).filter((e) => e.type === 'trick').length >= 2, killed.child);
    killed.child.kill('SIGKILL');
    await killed.done;
    const resumed = start(['simulate', '--resume', id, '--bot-think', '0']);
    const r = await resumed.done;
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(resumed.out()).toMatch(/note: the recording's games were dealt by people; the table goes on that way\./);
    expect(resumed.out()).toMatch(/Session over after 1 game: /);
    const cards = [...events(first), ...events(join(dir, 'recordings', `${id}.2.mcap`))]
      .filter((e) => e.type === 'play')
      .map((e) => e.card);
    expect(new Set(cards).size).toBe(40);
    await expectReplayMatches(join(dir, 'recordings', `${id}.2.mcap`));
  });

  it('parceiro live killed mid-game: live --resume ID with the same token continues it, and the touch table reconnects', async () => {
    const token = 'live-restart-token';
    const args = [
      '--port',
      '0',
      '--dashboard-port',
      '0',
      '--token',
      token,
      '--budget',
      '50',
      '--min-think',
      '300',
      '--speech',
      'log',
    ];
    const killed = start(['live', '--games', '1', '--seed', '11', ...args]);
    await until(
      () => /--resume (\S+)/.test(killed.out()) && /waiting for a table at (\S+) /.test(killed.out()),
      killed.child,
    );
    const id = /--resume (\S+)/.exec(killed.out())![1]!;
    const url = /waiting for a table at (\S+) /.exec(killed.out())![1]!;
    const first = join(dir, 'recordings', `${id}.mcap`);
    // The touch table (here, code) plays until the recording holds some tricks, then the runtime dies.
    const table = new SimulatedTable({ url, token, seed: 3, id: 'touch' });
    await table.start();
    await table.waitFor((s) => (s.game?.trick ?? 0) >= 3);
    await until(() => existsSync(first) && events(first).filter((e) => e.type === 'trick').length >= 2, killed.child);
    killed.child.kill('SIGKILL');
    await killed.done;
    table.close();
    const before = states(first).at(-1)!;

    const resumed = start(['live', '--resume', id, '--sessions', '1', '--answer-for', '0', ...args]);
    await until(() => /waiting for a table at (\S+) /.test(resumed.out()), resumed.child);
    expect(resumed.out()).toMatch(
      new RegExp(`^Resuming session ${id} from 1 recording: 0 games over, game 1 at trick \\d+\\.$`, 'm'),
    );
    const again = new SimulatedTable({
      url: /waiting for a table at (\S+) /.exec(resumed.out())![1]!,
      token,
      seed: 3,
      id: 'touch',
    });
    await again.start();
    const r = await resumed.done;
    again.close();
    // live logs to stderr (pino); no error there.
    expect(r.err).not.toMatch(/"level":50|Error|\n\s+at /);
    expect(r.code).toBe(0);
    expect(resumed.out()).toMatch(/Stopped \(the session is over\): victories A \d+ - B \d+; recording .*\.2\.mcap\./);
    // One game of 40 cards over the two parts, the second starting where the first stopped.
    const second = join(dir, 'recordings', `${id}.2.mcap`);
    expect(states(second)[0]).toMatchObject({
      session_id: id,
      game: before.game,
      trump_card: before.trump_card,
      status: 'playing',
    });
    const cards = [...events(first), ...events(second)].filter((e) => e.type === 'play').map((e) => e.card);
    expect(new Set(cards).size).toBe(40);
    expect(events(second).at(-1)!.type).toBe('session_end');
    // The part after the restart, with the table's reconnection, replays to itself.
    await expectReplayMatches(second);
  });

  it("a touch table that saw more than the first second of the recording: after live --resume its seqs, its state and the robot's card carry on, nothing goes back", async () => {
    const token = 'live-restart-seq';
    const args = [
      '--port',
      '0',
      '--dashboard-port',
      '0',
      '--token',
      token,
      '--budget',
      '50',
      '--min-think',
      '300',
      '--speech',
      'log',
    ];
    const killed = start(['live', '--games', '1', '--seed', '12', ...args]);
    await until(
      () => /--resume (\S+)/.test(killed.out()) && /waiting for a table at (\S+) /.test(killed.out()),
      killed.child,
    );
    const id = /--resume (\S+)/.exec(killed.out())![1]!;
    const table = new SimulatedTable({
      url: /waiting for a table at (\S+) /.exec(killed.out())![1]!,
      token,
      seed: 5,
      id: 'touch',
      physicalDeal: true,
    });
    await table.start();
    // Killed the moment the table has seen plays, without waiting for the recording's timed flush.
    const seen = await table.waitFor((s) => (s.game?.plays.length ?? 0) >= 14);
    killed.child.kill('SIGKILL');
    await killed.done;
    table.close();
    const last = table.state!;
    const answered = table.lastAnswered;

    const resumed = start(['live', '--resume', id, '--sessions', '1', '--answer-for', '0', ...args]);
    await until(() => /waiting for a table at (\S+) /.test(resumed.out()), resumed.child);
    const again = new SimulatedTable({
      url: /waiting for a table at (\S+) /.exec(resumed.out())![1]!,
      token,
      seed: 5,
      id: 'touch',
      physicalDeal: true,
    });
    const hello = await again.start();
    // Every event the table had an answer for is known: a resend is a duplicate, new ones go above.
    expect(hello.lastSeq).toBeGreaterThanOrEqual(answered);
    const g = hello.state.game!;
    expect(g.plays.slice(0, last.game!.plays.length)).toEqual(last.game!.plays);
    expect(hello.state.version!).toBeGreaterThanOrEqual(last.version!);
    expect(seen.game!.plays.length).toBeLessThanOrEqual(g.plays.length);
    // The robot's announced card, if the table had been asked to place one, is still the one asked for.
    if (last.game!.awaiting)
      expect(g.awaiting ?? g.plays.find((p) => p.card === last.game!.awaiting!.card)).toMatchObject({
        card: last.game!.awaiting.card,
      });
    const r = await resumed.done;
    again.close();
    expect(r.code).toBe(0);
    const cards = [...events(join(dir, 'recordings', `${id}.mcap`)), ...events(join(dir, 'recordings', `${id}.2.mcap`))]
      .filter((e) => e.type === 'play')
      .map((e) => e.card);
    expect(new Set(cards).size).toBe(40);
    expect(cards).toHaveLength(40);
  });

  it('refuses to resume a session that has no recording, with one line and exit code 2', async () => {
    const p = start(['simulate', '--resume', 'nothing-here']);
    const r = await p.done;
    expect(r.code).toBe(2);
    expect(r.err).toMatch(
      /^parceiro: error: .*nothing-here\.mcap: no recording of session nothing-here to resume from\n$/,
    );
  });
});
