// The study's store through the room's front door, in process: sessions from planned to ended (a
// crash resumed keeps the condition and the seats, its restart's recording added as a part), notes,
// consent recorded later, and the statistics of the report (t and Wilson intervals).

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  StudyError,
  addParticipant,
  appendNote,
  createStudy,
  getSession,
  listNotes,
  markSession,
  pausedSeconds,
  meanFigure,
  planNextSession,
  recordConsent,
  shareFigure,
  t975,
  waitingParticipants,
} from '../../robot/study/index.js';

const root = mkdtempSync(join(tmpdir(), 'parceiro-study-store-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A clock that says what it is told. */
const at = (iso: string) => () => new Date(iso);

function study(): string {
  const file = join(root, 'tiny.yaml');
  writeFileSync(
    file,
    'id: tiny\ntitle: Tiny\nsessions: 2\nparticipantsPerSession: 2\ngames: 3\nassignment: { scheme: draw, seed: 9 }\nconditions:\n  - id: only\n',
  );
  writeFileSync(join(root, 'consent.txt'), 'yes\n');
  return createStudy(file, join(root, 'tiny')).dir;
}

describe('the study store', () => {
  const dir = study();
  let seeded = 0;
  const random = (n: number) => (seeded++ * 7) % n;

  it('seats only people with consent, and takes consent recorded later', () => {
    const a = addParticipant(dir, {
      consentVersion: 'v1',
      consentText: join(root, 'consent.txt'),
      random,
      now: at('2026-01-02T08:00:00Z'),
    });
    const b = addParticipant(dir, { random, now: at('2026-01-02T09:00:00Z') });
    expect(b.consent).toBeNull();
    expect(waitingParticipants(dir)).toEqual([a.code]);
    expect(() => planNextSession(dir)).toThrow(/1 participant\(s\) with consent are waiting/);
    expect(() => planNextSession(dir, { participants: [a.code, b.code] })).toThrow(`${b.code} has not consented`);
    recordConsent(dir, b.code, { consentVersion: 'v1', now: at('2026-01-02T09:05:00Z') });
    expect(waitingParticipants(dir)).toEqual([a.code, b.code]);
  });

  it('moves a session from planned to ended; a crash resumed keeps its condition and seats', () => {
    const s = planNextSession(dir);
    expect(s).toMatchObject({ id: 'S01', index: 1, condition: 'only', games: 3, state: 'planned' });
    expect(Object.values(s.seats).filter((h) => h === 'bot')).toHaveLength(1);
    expect(() => markSession(dir, 'S01', 'ended')).toThrow(StudyError);
    markSession(dir, 'S01', 'running', { recording: 'S01.mcap', now: at('2026-01-02T10:00:00Z') });
    // The operator's pause, kept with its times; a pause still open counts to now.
    const paused = markSession(dir, 'S01', 'paused', { now: at('2026-01-02T10:10:00Z') });
    expect(paused.pauses).toEqual([{ at: '2026-01-02T10:10:00.000Z' }]);
    expect(pausedSeconds(paused, new Date('2026-01-02T10:10:30Z'))).toBe(30);
    const going = markSession(dir, 'S01', 'running', { now: at('2026-01-02T10:11:15Z') });
    expect(going.pauses).toEqual([{ at: '2026-01-02T10:10:00.000Z', until: '2026-01-02T10:11:15.000Z' }]);
    expect(pausedSeconds(going)).toBe(75);
    markSession(dir, 'S01', 'crashed');
    // The restart writes a second part; the session is the same one.
    const resumed = markSession(dir, 'S01', 'running', { recording: 'S01-part2.mcap' });
    expect(resumed).toMatchObject({
      condition: s.condition,
      seats: s.seats,
      recording: 'S01.mcap',
      parts: ['S01-part2.mcap'],
    });
    expect(resumed.startedAt).toBe('2026-01-02T10:00:00.000Z');
    const ended = markSession(dir, 'S01', 'ended', { now: at('2026-01-02T11:00:00Z') });
    expect(ended.endedAt).toBe('2026-01-02T11:00:00.000Z');
    expect(() => markSession(dir, 'S01', 'running')).toThrow('session S01 is ended: it cannot become running');
    expect(getSession(dir, 'S01')).toEqual(ended);
    expect(() => markSession(dir, 'S01', 'ended', { recording: '../x.mcap' })).toThrow(
      /relative to the sessions folder/,
    );
  });

  it('keeps notes with their time and session', () => {
    appendNote(dir, { text: 'camera moved', session: 'S01', now: at('2026-01-02T10:30:00Z') });
    appendNote(dir, { text: 'coffee break', now: at('2026-01-02T10:40:00Z') });
    expect(listNotes(dir)).toEqual([
      { at: '2026-01-02T10:30:00.000Z', session: 'S01', text: 'camera moved' },
      { at: '2026-01-02T10:40:00.000Z', text: 'coffee break' },
    ]);
    expect(() => appendNote(dir, { text: '  ' })).toThrow('a note needs some text');
    expect(readFileSync(join(dir, 'notes.jsonl'), 'utf8').trim().split('\n')).toHaveLength(2);
  });

  it('refuses more sessions than the study plans', () => {
    const c = addParticipant(dir, { consentVersion: 'v1', random });
    planNextSession(dir, { participants: [c.code] });
    const d = addParticipant(dir, { consentVersion: 'v1', random });
    expect(() => planNextSession(dir, { participants: [d.code] })).toThrow(/all 2 sessions of the study are planned/);
  });
});

describe('the report statistics', () => {
  it("Student's t and its interval", () => {
    expect(t975(1)).toBe(12.706);
    expect(t975(30)).toBe(2.042);
    expect(t975(60)).toBeCloseTo(2.0003, 3);
    expect(t975(1000)).toBeCloseTo(1.9623, 3);
    const m = meanFigure([2, 4, 4, 4, 5, 5, 7, 9]);
    expect(m.mean).toBe(5);
    expect(m.sd).toBeCloseTo(2.13809, 4);
    // 5 +- 2.365 * 2.13809 / sqrt(8)
    expect(m.ci![0]).toBeCloseTo(3.2122, 3);
    expect(meanFigure([3]).ci).toBeNull();
  });

  it("Wilson's interval of a share", () => {
    // 12 of 20 sessions won (the paper's 60%): 38.7% to 78.1%.
    const s = shareFigure(12, 20);
    expect(s.share).toBe(0.6);
    expect(s.ci![0]).toBeCloseTo(0.3866, 3);
    expect(s.ci![1]).toBeCloseTo(0.7812, 3);
    expect(shareFigure(0, 2).ci![0]).toBe(0);
  });
});
