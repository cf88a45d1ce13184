// A study session that crashes mid-session and is resumed, as a lab would: the session killed after its
// first game (marked crashed with its recording), resumed by `parceiro simulate --resume` (the restart's
// part names the same participants by seat: the setting is restored from the recording), the part
// attached, and the export joining both parts' games to the same session, condition and seats. The kill
// waits on the recording's contents, never on a timer.

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readRecording } from '../../robot/recording/index.js';
import { CLI, runCli } from '../launch/run-cli.js';
import { readCsv } from './study-fixture.js';

const root = mkdtempSync(join(tmpdir(), 'parceiro-study-resume-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const FAST = ['--budget', '50', '--min-think', '0', '--bot-think', '0'];

const ended = (file: string): number =>
  existsSync(file)
    ? readRecording(file).messages.filter(
        (m) => m.topic.name === '/parceiro/game/events' && (m.message as { type: string }).type === 'end',
      ).length
    : 0;

async function ok(...args: string[]): Promise<string> {
  const r = await runCli(args, root);
  if (r.code !== 0) throw new Error(`parceiro ${args.join(' ')}: ${r.err}`);
  return r.out;
}

describe('a session that crashes', () => {
  it('is resumed with its participants and condition, and exported whole', async () => {
    writeFileSync(
      join(root, 'crash.yaml'),
      'id: crash\ntitle: Crash\nsessions: 1\nparticipantsPerSession: 2\ngames: 2\nassignment: { scheme: draw, seed: 3 }\nconditions:\n  - id: calm\n    settings: { character: neutral }\n',
    );
    writeFileSync(join(root, 'consent.txt'), 'yes\n');
    await ok('study', 'create', 'crash.yaml');
    const dir = join(root, 'studies', 'crash');
    await ok(
      'study',
      'add-participant',
      dir,
      '--code',
      'P-AAA2',
      '--consent-version',
      'v1',
      '--consent-text',
      'consent.txt',
    );
    await ok('study', 'add-participant', dir, '--code', 'P-BBB3', '--consent-version', 'v1');
    await ok('study', 'next', dir);
    const session = JSON.parse(readFileSync(join(dir, 'sessions', 'S01.json'), 'utf8'));
    const codes = Object.entries(session.seats as Record<string, string>)
      .filter(([, h]) => h.startsWith('P-'))
      .map(([seat, h]) => `${seat}=${h}`)
      .join(',');
    const folder = join(dir, 'sessions');
    const file = join(folder, 'S01.mcap');
    const child = spawn(
      process.execPath,
      [
        CLI,
        'simulate',
        '--games',
        '2',
        '--seed',
        String(session.seed),
        '--character',
        'neutral',
        '--participants',
        codes,
        '--session',
        'S01',
        '--recordings',
        folder,
        ...FAST,
      ],
      { cwd: root },
    );
    const closed = new Promise<string | null>((resolve) => child.on('close', (_c, signal) => resolve(signal)));
    while (!ended(file)) {
      if (child.exitCode !== null) throw new Error('the session ended before it could be killed');
      await new Promise((r) => child.stdout.once('data', r));
    }
    child.kill('SIGKILL');
    expect(await closed).toBe('SIGKILL');
    expect((await ok('study', 'attach', dir, 'S01', file, '--crashed')).trim()).toMatch(/^S01 crashed, recording /);

    await ok('simulate', '--resume', 'S01', '--recordings', folder, '--bot-think', '0', '--json');
    const parts = readdirSync(folder).filter((f) => f.endsWith('.mcap') && f !== 'S01.mcap');
    expect(parts).toHaveLength(1);
    const part = readRecording(join(folder, parts[0]!));
    // The restart's recording names the same people in the same seats, and the same character.
    expect(part.session!.participants).toBe(codes);
    expect(part.session!.character).toBe('neutral');
    expect(await ok('study', 'attach', dir, 'S01', join(folder, parts[0]!))).toMatch(/^S01 ended/);
    const s = JSON.parse(readFileSync(join(dir, 'sessions', 'S01.json'), 'utf8'));
    expect(s).toMatchObject({ condition: 'calm', seats: session.seats, recording: 'S01.mcap', parts, state: 'ended' });

    await ok('study', 'export', dir, '--out', 'export');
    const games = readCsv(readFileSync(join(root, 'export', 'games.csv'), 'utf8'));
    expect(games.map((g) => [g.session, g.game, g.condition])).toEqual([
      ['S01', '1', 'calm'],
      ['S01', '2', 'calm'],
    ]);
    for (const g of games) {
      expect(g.result).not.toBe('unfinished');
      for (const [seat, holder] of Object.entries(session.seats as Record<string, string>))
        expect(g[`seat${seat}`]).toBe(holder);
    }
    const sessions = readCsv(readFileSync(join(root, 'export', 'sessions.csv'), 'utf8'));
    expect(sessions[0]).toMatchObject({ games_played: '2', recording: `S01.mcap;${parts[0]}`, state: 'ended' });
  }, 180_000);
});
