// parceiro study export on a simulated study (study-fixture.ts): each CSV checked against the
// recordings the sessions wrote (read with readRecording) and the answers given, the codebook against
// the files, and a deletion that rewrites the export without the participant.

import { readFileSync, readdirSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRecording } from '../../robot/recording/index.js';
import { runCli } from '../launch/run-cli.js';
import type { SimulatedStudy } from './study-fixture.js';
import { CODES, REVERSED, TRUST_ITEMS, readCsv, simulatedStudy } from './study-fixture.js';

const root = mkdtempSync(join(tmpdir(), 'parceiro-study-export-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const out = join(root, 'export');
let study: SimulatedStudy;
let printed = '';
const csv = (name: string) => readCsv(readFileSync(join(out, name), 'utf8'));

beforeAll(async () => {
  study = await simulatedStudy(root);
  const r = await runCli(['study', 'export', study.dir, '--out', out], root);
  expect(r.err).toBe('');
  printed = r.out;
}, 180_000);

/** What a session's recording holds, read as any reader of recordings would. */
function recorded(id: string) {
  const r = readRecording(join(study.dir, 'sessions', `${id}.mcap`));
  const of = (topic: string) =>
    r.messages.filter((m) => m.topic.name === topic).map((m) => m.message as Record<string, unknown>);
  const ends = of('/parceiro/game/events').filter((e) => e.type === 'end');
  return {
    session: r.session!,
    ends,
    decisions: of('/parceiro/decision'),
    faces: of('/robot_face/expression'),
    lines: of('/parceiro/behaviours/utterance').filter((l) => l.phase === 'start' || l.phase === 'dropped'),
  };
}

describe('the export', () => {
  it('says what it wrote', () => {
    expect(printed).toMatch(
      /exported .*studies\/lab to .*export: questionnaires\.csv \(12 rows\), sessions\.csv \(2 rows\), games\.csv \(2 rows\), decisions\.csv \(\d+ rows\), codebook\.json/,
    );
    expect(printed).not.toMatch(/note:/);
  });

  it('is RFC 4180 CSV with a header, CRLF, NA for missing values and no index column', () => {
    for (const f of ['questionnaires.csv', 'sessions.csv', 'games.csv', 'decisions.csv']) {
      const text = readFileSync(join(out, f), 'utf8');
      expect(text.charCodeAt(0)).not.toBe(0xfeff);
      expect(text.endsWith('\r\n')).toBe(true);
      expect(text.replace(/\r\n/g, '')).not.toMatch(/(^|[^"])\n/);
      expect(text.split('\r\n')[0]).toMatch(/^study,/);
      expect(text).not.toMatch(/,,|,\r\n|undefined|null/);
    }
  });

  it('sessions.csv: condition, seats by code, victories and points as the recording has them', () => {
    const rows = csv('sessions.csv');
    expect(rows.map((r) => r.session)).toEqual(['S01', 'S02']);
    for (const [i, row] of rows.entries()) {
      const s = study.sessions[i]!;
      const rec = recorded(s.id);
      expect(row.condition).toBe(s.condition);
      expect(rec.session.character).toBe(s.condition);
      expect([row.seat0, row.seat1, row.seat2, row.seat3]).toEqual([
        s.seats['0'],
        s.seats['1'],
        s.seats['2'],
        s.seats['3'],
      ]);
      // The recording carries the same codes by seat.
      for (const pair of rec.session.participants!.split(',')) {
        const [seat, code] = pair.split('=');
        expect(row[`seat${seat}`]).toBe(code);
      }
      const last = rec.ends.at(-1)!;
      const victories = last.victories as number[];
      expect(Number(row.victories_robot_team)).toBe(victories[0]);
      expect(Number(row.victories_other_team)).toBe(victories[1]);
      expect(Number(row.victory_margin)).toBe(victories[0]! - victories[1]!);
      expect(Number(row.points_robot_team)).toBe((last.final_points as number[])[0]);
      expect(row.games_played).toBe(String(rec.ends.length));
      expect(row.robot_partner).toBe(s.seats['2']);
      expect(row.state).toBe('ended');
      expect(row.recording).toBe(`${s.id}.mcap`);
      expect(row.recording_complete).toBe('TRUE');
      expect(Number(row.duration_s)).toBeGreaterThan(0);
    }
  });

  it("games.csv: one row per game with the recording's points and victories", () => {
    const rows = csv('games.csv');
    for (const s of study.sessions) {
      const rec = recorded(s.id);
      const mine = rows.filter((r) => r.session === s.id);
      expect(mine).toHaveLength(rec.ends.length);
      mine.forEach((row, g) => {
        const end = rec.ends[g]!;
        expect(row.game).toBe(String(g + 1));
        expect([Number(row.points_robot_team), Number(row.points_other_team)]).toEqual(end.final_points);
        expect([Number(row.total_victories_robot_team), Number(row.total_victories_other_team)]).toEqual(end.victories);
        expect(row.result).toBe(end.winner_team === 'a' ? 'won' : end.winner_team === 'b' ? 'lost' : 'drawn');
        expect(row.robot_partner).toBe(s.seats['2']);
      });
    }
  });

  it("decisions.csv: every decision, face and line of the recording, with the seats' codes", () => {
    const rows = csv('decisions.csv');
    for (const s of study.sessions) {
      const rec = recorded(s.id);
      const mine = rows.filter((r) => r.session === s.id);
      const decisions = mine.filter((r) => r.kind === 'decision');
      expect(rec.decisions.length).toBeGreaterThan(3);
      expect(rec.faces.length).toBeGreaterThan(0);
      expect(rec.lines.length).toBeGreaterThan(0);
      expect(decisions.map((r) => r.card)).toEqual(rec.decisions.map((d) => d.card));
      expect(mine.filter((r) => r.kind === 'face').map((r) => r.face)).toEqual(rec.faces.map((f) => f.expression));
      expect(mine.filter((r) => r.kind === 'line').map((r) => r.line_id)).toEqual(rec.lines.map((l) => l.id));
      expect(mine.filter((r) => r.kind === 'emotion').length).toBeGreaterThan(0);
      for (const r of decisions) {
        expect(r.about_code).toBe('robot');
        expect(r.fallback).toMatch(/^(search|forced|rule)$/);
      }
      // Codes only: every seat named is the robot, a participant of the session, or none.
      const people = new Set(Object.values(s.seats));
      for (const r of mine) {
        if (r.about_code !== 'NA') expect(people.has(r.about_code!)).toBe(true);
        if (r.addressee_code !== 'NA') expect(people.has(r.addressee_code!)).toBe(true);
      }
      for (const r of mine.filter((x) => x.kind === 'emotion' && x.about_relation === 'partner'))
        expect(r.about_code).toBe(s.seats['2']);
    }
  });

  it('questionnaires.csv: the answers as given and the trust score as the definition scores it', () => {
    const rows = csv('questionnaires.csv');
    expect(rows).toHaveLength(12);
    for (const code of CODES) {
      const session = study.sessions.find((s) => Object.values(s.seats).includes(code))!;
      for (const phase of ['pre', 'post'] as const) {
        const row = rows.find((r) => r.code === code && r.phase === phase)!;
        const v = study.answers[code]![phase];
        expect(row.session).toBe(session.id);
        expect(row.condition).toBe(session.condition);
        expect(row.partner).toBe(session.seats['2'] === code ? 'robot' : 'human');
        expect(row.item_reliable).toBe(String(v));
        const abandoned = code === CODES.at(-1) && phase === 'post';
        expect(row.complete).toBe(abandoned ? 'FALSE' : 'TRUE');
        if (abandoned) {
          expect(row.score_trust).toBe('NA');
          expect(row.item_provide_feedback).toBe('NA');
        } else {
          const expected = TRUST_ITEMS.reduce((a, i) => a + (REVERSED.includes(i) ? 100 - v : v), 0) / 14;
          expect(Number(row.score_trust)).toBeCloseTo(expected, 4);
        }
      }
    }
  });

  it('codebook.json describes every column of every file', () => {
    const book = JSON.parse(readFileSync(join(out, 'codebook.json'), 'utf8'));
    for (const f of ['questionnaires.csv', 'sessions.csv', 'games.csv', 'decisions.csv']) {
      const header = readFileSync(join(out, f), 'utf8').split('\r\n')[0]!.split(',');
      expect(book.files[f].columns.map((c: { name: string }) => c.name)).toEqual(header);
      for (const c of book.files[f].columns) expect(c.description.length).toBeGreaterThan(10);
    }
  });

  it('a deletion removes the participant from the study and rewrites the export without them', async () => {
    const code = CODES[1]!;
    const r = await runCli(['study', 'delete-participant', study.dir, code], root);
    expect(r.code).toBe(0);
    expect(r.out).toContain(`removed studies/lab/participants/${code}.json`);
    expect(r.out).toContain(`removed studies/lab/answers/${code}/trust14.pre.json`);
    expect(r.out).toContain('seat set to "deleted" in session(s) S01');
    expect(r.out).toMatch(/export .*export written again without the code/);
    expect(r.out).toContain('studies/lab/sessions/S01.mcap');
    for (const f of readdirSync(out)) expect(readFileSync(join(out, f), 'utf8'), f).not.toContain(code);
    const sessions = csv('sessions.csv');
    expect(Object.values(sessions[0]!)).toContain('deleted');
    expect(csv('questionnaires.csv')).toHaveLength(10);
    // The recording still names the code (it is not rewritten): the session file's seat wins.
    expect(readRecording(join(study.dir, 'sessions', 'S01.mcap')).session!.participants).toContain(code);
  });
});
