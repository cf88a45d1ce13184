// The questionnaires' desk of one study session: who is at the table, which questionnaires each one
// answers before and after the games, and the participants' pages' door. A participant's page gets
// a token for its code (trading a link's one-time pass, robot/web/passes.ts) and then, over HTTP on
// the dashboard's server:
//   POST /questionnaire/api/state    {token}                                  what to answer now
//   POST /questionnaire/api/answer   {token, questionnaire, phase, name, value} one answer, saved at once
//   POST /questionnaire/api/complete {token, questionnaire, phase}           finished (every required item in)
// Every answer goes to the participant's file at once (answers.ts), so a page reloaded mid-way shows
// what was given. The desk knows codes only, never names.

import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { answerJson, readPagePost } from '../../../table-bridge/index.js';
import type { AnswerFile, Phase } from './answers.js';
import { AnswerStore, answerRefusal, isParticipantCode } from './answers.js';
import type { Questionnaire, QuestionnaireLanguage, QuestionnaireLookup } from './definition.js';
import { QUESTIONNAIRE_LANGUAGES, loadQuestionnaire } from './definition.js';
import { scoreQuestionnaire } from './scoring.js';

export const QUESTIONNAIRE_API = '/questionnaire/api/';

export interface DeskParticipant {
  code: string;
  /** Their seat at the table (0-3). */
  seat: number;
  /** Who their partner at the table is: the robot or a person (the trust questionnaire's {partner}). */
  partner: 'robot' | 'human';
}

/** Which questionnaires are open: before the games, after them, or none (games on, or the session over). */
export type DeskStage = 'pre' | 'games' | 'post' | 'ended';

/** One participant's progress on one questionnaire. */
export interface DeskProgress {
  questionnaire: string;
  phase: Phase;
  answered: number;
  items: number;
  complete: boolean;
}

export interface DeskView {
  stage: DeskStage;
  participants: (DeskParticipant & { progress: DeskProgress[] })[];
  /** Every pre (or post) questionnaire complete, for every participant. */
  preDone: boolean;
  postDone: boolean;
}

export interface QuestionnaireDeskOptions {
  studyDir: string;
  participants: DeskParticipant[];
  /** Questionnaire ids before and after the games. */
  pre: readonly string[];
  post: readonly string[];
  /** The pages' language until a participant picks one. */
  language: QuestionnaireLanguage;
  lookup?: QuestionnaireLookup;
  now?: () => number;
  /** Called after every change (an answer, a completion, a stage), for the dashboard. */
  onChange?: (view: DeskView) => void;
}

/** The largest body a page sends: one answer. */
const MAX_BODY = 16 * 1024;

export class QuestionnaireDesk {
  readonly store: AnswerStore;
  readonly #o: QuestionnaireDeskOptions;
  readonly #questionnaires = new Map<string, Questionnaire>();
  readonly #tokens = new Map<string, string>();
  readonly #languages = new Map<string, QuestionnaireLanguage>();
  #stage: DeskStage = 'pre';

  /** Loads every questionnaire first: a bad definition stops the session before anyone answers (ConfigError). */
  constructor(o: QuestionnaireDeskOptions) {
    this.#o = o;
    this.store = new AnswerStore(o.studyDir, o.now);
    for (const p of o.participants)
      if (!isParticipantCode(p.code)) throw new Error(`"${p.code}" is not a participant code`);
    for (const id of [...o.pre, ...o.post])
      if (!this.#questionnaires.has(id))
        this.#questionnaires.set(id, loadQuestionnaire(id, { studyDir: o.studyDir, ...o.lookup }));
  }

  get stage(): DeskStage {
    return this.#stage;
  }

  /** Moves on: the games (pre closed), the post questionnaires, the end. */
  setStage(stage: DeskStage): void {
    if (stage === this.#stage) return;
    this.#stage = stage;
    this.#changed();
  }

  /** A page's token for participant `code` (null: not at this session). */
  join(code: string): { token: string; code: string } | null {
    if (!this.#o.participants.some((p) => p.code === code)) return null;
    const token = randomBytes(18).toString('base64url');
    this.#tokens.set(token, code);
    return { token, code };
  }

  questionnaire(id: string): Questionnaire {
    const q = this.#questionnaires.get(id);
    if (!q) throw new Error(`questionnaire ${id} is not given at this session`);
    return q;
  }

  /** The questionnaires of `phase`, in order. */
  #ids = (phase: Phase): readonly string[] => (phase === 'pre' ? this.#o.pre : this.#o.post);

  #progress(code: string): DeskProgress[] {
    return (['pre', 'post'] as const).flatMap((phase) =>
      this.#ids(phase).map((id) => {
        const q = this.questionnaire(id);
        const f = this.store.read(code, id, phase);
        return {
          questionnaire: id,
          phase,
          answered: f ? q.items.filter((i) => f.answers[i.name] !== undefined).length : 0,
          items: q.items.length,
          complete: f?.complete ?? false,
        };
      }),
    );
  }

  view(): DeskView {
    const participants = this.#o.participants.map((p) => ({ ...p, progress: this.#progress(p.code) }));
    const done = (phase: Phase): boolean =>
      participants.every((p) => p.progress.filter((g) => g.phase === phase).every((g) => g.complete));
    return { stage: this.#stage, participants, preDone: done('pre'), postDone: done('post') };
  }

  #changed(): void {
    this.#o.onChange?.(this.view());
  }

  /** The phase whose questionnaires are open now, if any. */
  #open(): Phase | null {
    return this.#stage === 'pre' ? 'pre' : this.#stage === 'post' ? 'post' : null;
  }

  /** What participant `code`'s page shows now. */
  pageState(code: string): object {
    const participant = this.#o.participants.find((p) => p.code === code)!;
    const language = this.#languages.get(code) ?? this.#o.language;
    const phase = this.#open();
    const todo = phase
      ? this.#ids(phase).map((id) => {
          const q = this.questionnaire(id);
          const f = this.store.read(code, id, phase);
          return {
            id,
            phase,
            version: q.version,
            survey: q.survey,
            // The {placeholders}' words for this participant (e.g. the trust questionnaire's partner).
            variables: Object.fromEntries(
              Object.entries(q.variables).flatMap(([name, cases]) => {
                const v = cases[participant.partner];
                return v === undefined ? [] : [[name, v]];
              }),
            ),
            answers: f?.answers ?? {},
            complete: f?.complete ?? false,
          };
        })
      : [];
    return {
      code,
      seat: participant.seat,
      language,
      languages: QUESTIONNAIRE_LANGUAGES,
      stage: this.#stage,
      questionnaires: todo,
    };
  }

  /** One answer (null clears it). Refused outside its phase, or a value its question does not take. */
  answer(
    code: string,
    id: string,
    phase: Phase,
    name: string,
    value: unknown,
  ): { ok: true; file: AnswerFile } | { ok: false; reason: string } {
    const q = this.#questionnaires.get(id);
    if (!q || !this.#ids(phase).includes(id))
      return { ok: false, reason: `${id} is not a ${phase} questionnaire of this session` };
    if (this.#open() !== phase) return { ok: false, reason: `the ${phase} questionnaires are not open now` };
    if (value !== null) {
      const refused = answerRefusal(q, name, value);
      if (refused) return { ok: false, reason: refused };
    } else if (!q.items.some((i) => i.name === name || `${i.name}-Comment` === name))
      return { ok: false, reason: `${id} has no question "${name}"` };
    const file = this.store.answer(code, q, phase, this.#language(code), name, value as string | number | null);
    this.#changed();
    return { ok: true, file };
  }

  /** Finished: refused while a required question has no answer. */
  complete(
    code: string,
    id: string,
    phase: Phase,
  ): { ok: true; scores: Record<string, number> } | { ok: false; reason: string } {
    const q = this.#questionnaires.get(id);
    if (!q || !this.#ids(phase).includes(id))
      return { ok: false, reason: `${id} is not a ${phase} questionnaire of this session` };
    if (this.#open() !== phase) return { ok: false, reason: `the ${phase} questionnaires are not open now` };
    const f = this.store.open(code, q, phase, this.#language(code));
    const missing = q.items.filter((i) => i.required && f.answers[i.name] === undefined).map((i) => i.name);
    if (missing.length > 0) return { ok: false, reason: `not answered yet: ${missing.join(', ')}` };
    this.store.complete(code, q, phase, this.#language(code));
    this.#changed();
    return { ok: true, scores: scoreQuestionnaire(q, f.answers) };
  }

  setLanguage(code: string, language: QuestionnaireLanguage): void {
    this.#languages.set(code, language);
  }

  #language(code: string): QuestionnaireLanguage {
    return this.#languages.get(code) ?? this.#o.language;
  }

  /**
   * The pages' API (QUESTIONNAIRE_API); false for any other path, left to the next handler. Only
   * from the pages' own origin (or a program, which sends none).
   */
  handle(req: IncomingMessage, res: ServerResponse): boolean {
    let path = '';
    try {
      path = new URL(req.url ?? '/', 'http://x').pathname;
    } catch {
      return false;
    }
    if (!path.startsWith(QUESTIONNAIRE_API)) return false;
    const what = path.slice(QUESTIONNAIRE_API.length);
    const answer = (status: number, body: object): void => answerJson(res, status, body);
    readPagePost(req, res, MAX_BODY, (json) => {
      const asked = (json !== null && typeof json === 'object' ? json : {}) as Record<string, unknown>;
      const code = typeof asked['token'] === 'string' ? this.#tokens.get(asked['token']) : undefined;
      if (code === undefined) return answer(403, { error: 'this page has no valid pass: ask for a new link' });
      const id = String(asked['questionnaire'] ?? '');
      const phase = asked['phase'] === 'pre' || asked['phase'] === 'post' ? asked['phase'] : null;
      switch (what) {
        case 'state':
          return answer(200, this.pageState(code));
        case 'language': {
          const l = asked['language'];
          if (l !== 'pt' && l !== 'en') return answer(400, { error: 'expected pt or en' });
          this.setLanguage(code, l);
          return answer(200, { ok: true });
        }
        case 'answer': {
          if (!phase) return answer(400, { error: 'expected phase pre or post' });
          const name = typeof asked['name'] === 'string' ? asked['name'] : '';
          const r = this.answer(code, id, phase, name, asked['value'] ?? null);
          return r.ok ? answer(200, { ok: true }) : answer(400, { error: r.reason });
        }
        case 'complete': {
          if (!phase) return answer(400, { error: 'expected phase pre or post' });
          const r = this.complete(code, id, phase);
          return r.ok ? answer(200, { ok: true }) : answer(400, { error: r.reason });
        }
        default:
          return answer(404, { error: 'no such call' });
      }
    });
    return true;
  }
}
