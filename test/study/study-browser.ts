// What the study's browser tests share: chromium (Debian's, through playwright-core), a study made
// with the commands as a lab makes one, `parceiro study run` started from the built program with its
// output followed, and a participant answering the trust questionnaire as a person does (a tap on
// each rating). Nothing here measures time: every wait is for something to happen, with a bound.

import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { launchChromium } from '../robot/screenshots.js';
import type { AnswerFile } from '../../robot/study/questionnaires/index.js';
import { runCli } from '../launch/run-cli.js';
import { requirePrograms } from '../system-programs.js';
import { TRUST_ITEMS } from './study-fixture.js';

export const { chromium: CHROMIUM } = requirePrograms('chromium');
export const CLI = join(import.meta.dirname, '../../dist/launch/cli.js');
/** The bound of every wait for a page or the run (generous: CI runs at load 10). */
export const WAIT = 30_000;

/**
 * For a file of browser tests: a folder of its own (`prefix`) holding LAB_STUDY made for three
 * participants, and chromium, both ready before the file's tests and gone after them, with the study
 * run `running()` gives killed if a test left it running. `study` and `browser` are set once the
 * file's tests start.
 */
export function labStudyInBrowser(
  prefix: string,
  running: () => StudyRun | null,
): { tmp: string; study: string; browser: Browser } {
  const lab = { tmp: mkdtempSync(join(tmpdir(), prefix)), study: '', browser: undefined as unknown as Browser };
  beforeAll(async () => {
    if (!CHROMIUM) return;
    lab.study = await makeStudy(lab.tmp, 'lab', LAB_STUDY, 3);
    lab.browser = await launchChromium(CHROMIUM);
  }, 120_000);
  afterAll(async () => {
    running()?.kill();
    await (lab.browser as Browser | undefined)?.close();
    rmSync(lab.tmp, { recursive: true, force: true });
  });
  return lab;
}

/** The shipped study's shape, small: one condition, the robot in seat 0, in Portuguese, one fast game. */
export const LAB_STUDY = `id: lab
title: The study as a lab runs it
sessions: 1
participantsPerSession: 3
games: 1
assignment: { scheme: draw, seed: 36 }
conditions:
  - id: robot
    settings: { robotSeat: 0, language: pt, minThinkMs: 0, budgetMs: 50, speech: log }
questionnaires:
  pre: [demographics, trust14]
  post: [trust14]
consent: { version: v1 }
`;

/**
 * `parceiro ...args` from the built program, its exit status and output. Asynchronous on purpose
 * (test/launch/run-cli.ts): a spawnSync would block vitest's worker for as long as the program runs.
 */
export async function cli(...args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  const r = await runCli(args, process.cwd());
  return { status: r.code, stdout: r.out, stderr: r.err };
}

/** Creates the study `yaml` (named `name`) in `tmp`, with `people` participants with consent; its folder. */
export async function makeStudy(tmp: string, name: string, yaml: string, people: number): Promise<string> {
  expect(existsSync(CLI)).toBe(true);
  const dir = join(tmp, name);
  writeFileSync(join(tmp, `${name}.yaml`), yaml);
  writeFileSync(join(tmp, 'consent.txt'), 'Aceito participar.\n');
  expect((await cli('study', 'create', join(tmp, `${name}.yaml`), '--dir', dir)).status).toBe(0);
  for (let i = 0; i < people; i++)
    expect((await cli('study', 'add-participant', dir, '--consent-text', join(tmp, 'consent.txt'))).status).toBe(0);
  return dir;
}

/** A participant's file of answers, or null before their first answer. */
export function answerFile(dir: string, code: string, q: string, phase: string): AnswerFile | null {
  const f = join(dir, 'answers', code, `${q}.${phase}.json`);
  return existsSync(f) ? (JSON.parse(readFileSync(f, 'utf8')) as AnswerFile) : null;
}

/** A participant's line in the run's output: code, seat, partner, link. */
export interface PrintedLink {
  code: string;
  seat: number;
  partner: string;
  link: string;
}

/** `parceiro study run ...args` from the built program, its output followed. */
export class StudyRun {
  out = '';
  readonly exited: Promise<number | null>;
  #child: ChildProcess | null;

  constructor(args: readonly string[]) {
    const child = spawn('node', [CLI, 'study', 'run', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    this.#child = child;
    child.stdout!.on('data', (d: Buffer) => (this.out += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (this.out += d.toString()));
    this.exited = new Promise((resolve) =>
      child.once('exit', (code) => {
        this.#child = null;
        resolve(code);
      }),
    );
  }

  /** Resolves when the run has printed `text`. */
  async printed(text: string | RegExp): Promise<void> {
    await expect
      .poll(() => (typeof text === 'string' ? this.out.includes(text) : text.test(this.out)), { timeout: WAIT })
      .toBe(true);
  }

  /** The participants' links, as printed. */
  links(): PrintedLink[] {
    return [...this.out.matchAll(/^ {2}(\S+) in seat (\d) \(partner: (\w+)\): (\S+)$/gm)].map((m) => ({
      code: m[1]!,
      seat: Number(m[2]),
      partner: m[3]!,
      link: m[4]!,
    }));
  }

  /** The operator's dashboard link, as printed. */
  dashboardLink(): string {
    return /^Operator dashboard: (\S+)$/m.exec(this.out)![1]!;
  }

  /** Stops a run still going (a failed test's leftovers). */
  kill(): void {
    this.#child?.kill('SIGKILL');
  }
}

/** Answers every trust item with `value` as a person does (a tap on each rating), then completes it. */
export async function answerTrust(page: Page, value: number): Promise<void> {
  await page.waitForSelector('[data-name="reliable"]', { timeout: WAIT });
  for (const name of TRUST_ITEMS)
    await page.locator(`[data-name="${name}"] label:has(input[value="${value}"])`).click();
  await page.locator('.sd-navigation__complete-btn').click();
}
