// The trust questionnaire speaks of each participant's actual partner, as the Sueca study's modified
// version did for those with a human partner: `parceiro study run` seats three people (the draw puts
// one opposite the robot), prints their links, and each page (its pass traded at POST /pass, its
// state from the questionnaires' API, as the browser's page gets them) asks about "this robot" /
// "este robô" or "your partner" / "o seu parceiro" by the session's seats, with the same 14 items.

import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, LAB_STUDY, WAIT, makeStudy } from './study-browser.js';
import { TRUST_ITEMS } from './study-fixture.js';

const tmp = mkdtempSync(join(tmpdir(), 'parceiro-study-partner-'));
let study = '';
let run: ChildProcess | null = null;

beforeAll(async () => {
  study = await makeStudy(tmp, 'lab', LAB_STUDY.replace('pre: [demographics, trust14]', 'pre: [trust14]'), 3);
}, 60_000);
afterAll(() => {
  run?.kill('SIGKILL');
  rmSync(tmp, { recursive: true, force: true });
});

interface Localized {
  default: string;
  pt: string;
}
interface PageState {
  code: string;
  questionnaires: {
    id: string;
    variables: Record<string, Localized>;
    survey: { pages: { description: Localized; elements: { name: string }[] }[] };
  }[];
}

/** What a participant's page gets from their printed link: the pass traded, then the page's state. */
async function pageOf(link: string): Promise<PageState> {
  const url = new URL(link);
  const pass = new URLSearchParams(url.hash.slice(1)).get('pass')!;
  const granted = (await (
    await fetch(`${url.origin}/pass`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pass }),
    })
  ).json()) as { participant: { token: string } };
  const r = await fetch(`${url.origin}/questionnaire/api/state`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: granted.participant.token }),
  });
  expect(r.status).toBe(200);
  return (await r.json()) as PageState;
}

describe("the trust questionnaire's partner", () => {
  it("is the robot for the robot's partner and a person for the others, in pt and en, from the seats", async () => {
    run = spawn('node', [CLI, 'study', 'run', study, '--simulated', '--answers', 'people'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    run.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    await expect.poll(() => out.includes('Waiting for the pre-questionnaires'), { timeout: WAIT }).toBe(true);
    const links = [...out.matchAll(/^ {2}(\S+) in seat (\d) \(partner: (\w+)\): (\S+)$/gm)].map((m) => ({
      code: m[1]!,
      partner: m[3]!,
      link: m[4]!,
    }));
    expect(links).toHaveLength(3);

    // The seats decide: the person opposite the robot (seat 0) partners it, the two others each other.
    const seats = (
      JSON.parse(readFileSync(join(study, 'sessions', 'S01.json'), 'utf8')) as { seats: Record<string, string> }
    ).seats;
    expect(seats['0']).toBe('robot');
    for (const l of links) expect(l.partner).toBe(seats['2'] === l.code ? 'robot' : 'human');

    for (const l of links) {
      const page = await pageOf(l.link);
      expect(page.code).toBe(l.code);
      const trust = page.questionnaires.find((q) => q.id === 'trust14')!;
      // The questions ask about {partner} in both languages...
      expect(trust.survey.pages[0]!.description.default).toContain('{partner}');
      expect(trust.survey.pages[0]!.description.pt).toContain('{partner}');
      // ...who is this participant's partner, in each language the page may switch to.
      expect(trust.variables['partner']).toEqual(
        l.partner === 'robot'
          ? { default: 'this robot', pt: 'este robô' }
          : { default: 'your partner', pt: 'o seu parceiro' },
      );
      // The same 14 items for everyone: the scores compare across partners.
      expect(trust.survey.pages.flatMap((p) => p.elements.map((e) => e.name))).toEqual(TRUST_ITEMS);
    }
    run.kill('SIGKILL');
    run = null;
  }, 120_000);
});
