// A study participant's questionnaires, on their own device or on the table's screen: the page trades
// its link's one-time pass for a token of its participant (kept in this tab's session storage only,
// so a reload keeps it), asks the server what to answer now, renders each questionnaire's SurveyJS
// definition as it is, and sends every change at once, so a reload shows the answers already given.
// Between the questionnaires before and after the games it waits, asking again every few seconds.

// The fontless stylesheet: the other one fetches Open Sans from Google's servers, and the page needs no CDN.
import 'survey-core/survey-core.fontless.css';
import 'survey-core/i18n/portuguese';
import { Model } from 'survey-core';
import { renderSurvey } from 'survey-js-ui';
import { redeemPass } from './pass.js';

type Language = 'pt' | 'en';

interface Todo {
  id: string;
  phase: 'pre' | 'post';
  version: string;
  survey: Record<string, unknown>;
  variables: Record<string, string | Record<string, string>>;
  answers: Record<string, unknown>;
  complete: boolean;
}

interface PageState {
  code: string;
  seat: number;
  language: Language;
  stage: 'pre' | 'games' | 'post' | 'ended';
  questionnaires: Todo[];
}

const WORDS: Record<Language, Record<string, string>> = {
  pt: {
    who: 'Participante {code}',
    noPass: 'Esta ligação já foi usada ou é demasiado antiga: peça uma nova a quem conduz o estudo.',
    games: 'Obrigado! Vamos jogar. Depois dos jogos, este ecrã mostra as últimas perguntas.',
    preDone: 'Obrigado! Aguarde que todos terminem: os jogos começam em breve.',
    postDone: 'Obrigado pela sua participação!',
    ended: 'A sessão terminou. Obrigado!',
    unsaved: 'A última resposta não foi guardada ({reason}). Tente de novo.',
    offline: 'Sem ligação ao servidor; a tentar de novo…',
  },
  en: {
    who: 'Participant {code}',
    noPass: 'This link was used or is too old: ask the person running the study for a new one.',
    games: 'Thank you! Time to play. After the games, this screen shows the last questions.',
    preDone: 'Thank you! Please wait for everyone to finish: the games start soon.',
    postDone: 'Thank you for taking part!',
    ended: 'The session is over. Thank you!',
    unsaved: 'The last answer was not saved ({reason}). Please try again.',
    offline: 'No connection to the server; trying again…',
  },
};

const TOKEN_KEY = 'parceiro.questionnaire.token';
/** A seat at the virtual table (its one-time pass and seat), kept until the games start. */
const TABLE_KEY = 'parceiro.questionnaire.table';
const POLL_MS = 2500;

const $ = (id: string): HTMLElement => document.getElementById(id)!;
let language: Language = document.documentElement.lang === 'en' ? 'en' : 'pt';
let token: string | null = null;
let shown: { id: string; phase: string; model: Model; todo: Todo } | null = null;
let waitingFor: string | null = null;

const say = (key: string, slots: Record<string, string> = {}): string =>
  (WORDS[language][key] ?? key).replace(/\{(\w+)\}/g, (_, k: string) => slots[k] ?? '');

function showError(text: string | null): void {
  const e = $('error');
  e.hidden = text === null;
  e.textContent = text ?? '';
}

async function call(
  what: string,
  body: Record<string, unknown>,
): Promise<{ ok: boolean; data: Record<string, unknown> }> {
  const r = await fetch(`/questionnaire/api/${what}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token, ...body }),
  });
  return { ok: r.ok, data: (await r.json().catch(() => ({}))) as Record<string, unknown> };
}

/** A text in this page's language: SurveyJS's localizable strings keep English under "default". */
const localized = (v: string | Record<string, string>): string =>
  typeof v === 'string' ? v : ((language === 'en' ? (v['default'] ?? v['en']) : v[language]) ?? v['default'] ?? '');

function pressLanguage(): void {
  document.documentElement.lang = language;
  for (const b of document.querySelectorAll<HTMLButtonElement>('[data-language]'))
    b.setAttribute('aria-pressed', String(b.dataset['language'] === language));
}

/** The first page with a required question not answered yet: where a reloaded questionnaire goes on. */
function resumePage(model: Model): void {
  const page = model.visiblePages.find((p) => p.questions.some((q) => q.isRequired && q.isEmpty()));
  if (page) model.currentPage = page;
}

/** The survey's texts, and the words put in its {placeholders}, in this page's language. */
function setLanguage(model: Model, todo: Todo): void {
  model.locale = language === 'en' ? '' : language;
  for (const [name, v] of Object.entries(todo.variables)) model.setVariable(name, localized(v));
}

function render(todo: Todo): void {
  const model = new Model(todo.survey);
  model.showCompletedPage = false;
  setLanguage(model, todo);
  model.data = todo.answers;
  resumePage(model);
  // Each change is saved at once; the server checks it against the definition.
  model.onValueChanged.add((_, o) => {
    void call('answer', { questionnaire: todo.id, phase: todo.phase, name: o.name, value: o.value ?? null }).then(
      (r) => showError(r.ok ? null : say('unsaved', { reason: String(r.data['error'] ?? '?') })),
      () => showError(say('offline')),
    );
  });
  model.onComplete.add(async () => {
    // An "other" choice's words may come without a change event: everything is sent once more.
    for (const [name, value] of Object.entries(model.data as Record<string, unknown>))
      await call('answer', { questionnaire: todo.id, phase: todo.phase, name, value });
    const r = await call('complete', { questionnaire: todo.id, phase: todo.phase });
    showError(r.ok ? null : String(r.data['error'] ?? '?'));
    shown = null;
    await refresh();
  });
  // A new element for each questionnaire: the renderer keeps its own state on the one it was given.
  const host = $('survey');
  const box = document.createElement('div');
  host.replaceChildren(box);
  renderSurvey(model, box);
  host.dataset['questionnaire'] = todo.id;
  host.dataset['phase'] = todo.phase;
  shown = { id: todo.id, phase: todo.phase, model, todo };
}

async function refresh(): Promise<void> {
  let state: PageState;
  try {
    const r = await call('state', {});
    if (!r.ok) {
      $('message').textContent = say('noPass');
      $('survey').replaceChildren();
      return;
    }
    state = r.data as unknown as PageState;
    showError(null);
  } catch {
    showError(say('offline'));
    return;
  }
  if (!shown) language = state.language;
  pressLanguage();
  $('who').textContent = say('who', { code: state.code });
  document.body.dataset['stage'] = state.stage;
  const todo = state.questionnaires.find((q) => !q.complete);
  if (todo) {
    $('message').textContent = '';
    if (!shown || shown.id !== todo.id || shown.phase !== todo.phase) render(todo);
    waitingFor = null;
    return;
  }
  shown = null;
  waitingFor = null;
  // A participant playing at the virtual table goes to their seat when the games start (this tab
  // keeps their token: the table's page links back here for the questionnaires after the games).
  const table = sessionStorage.getItem(TABLE_KEY);
  if (table && state.stage === 'games') {
    sessionStorage.removeItem(TABLE_KEY);
    const { pass, seat } = JSON.parse(table) as { pass: string; seat: string };
    location.assign(`./table#${new URLSearchParams({ pass, seat }).toString()}`);
    return;
  }
  const host = $('survey');
  host.replaceChildren();
  delete host.dataset['questionnaire'];
  const key =
    state.stage === 'ended'
      ? 'ended'
      : state.stage === 'post'
        ? 'postDone'
        : state.stage === 'games'
          ? 'games'
          : 'preDone';
  $('message').textContent = say(key);
  $('message').dataset['key'] = key;
  waitingFor = key;
}

async function start(): Promise<void> {
  const given = new URLSearchParams(location.hash.slice(1));
  const pass = given.get('pass');
  // The passes leave the address at once: a browser's history keeps every address it opened.
  if (pass) history.replaceState(null, '', location.pathname);
  const table = given.get('table');
  const seat = given.get('seat');
  if (table && seat) sessionStorage.setItem(TABLE_KEY, JSON.stringify({ pass: table, seat }));
  if (pass) {
    const grant = await redeemPass(pass);
    const participant = grant?.['participant'] as { token?: string } | undefined;
    if (participant?.token) sessionStorage.setItem(TOKEN_KEY, participant.token);
  }
  token = sessionStorage.getItem(TOKEN_KEY);
  pressLanguage();
  if (!token) {
    $('message').textContent = say('noPass');
    return;
  }
  for (const b of document.querySelectorAll<HTMLButtonElement>('[data-language]'))
    b.addEventListener('click', () => {
      language = b.dataset['language'] === 'en' ? 'en' : 'pt';
      pressLanguage();
      void call('language', { language });
      if (shown) setLanguage(shown.model, shown.todo);
      if (waitingFor) $('message').textContent = say(waitingFor);
    });
  await refresh();
  // Ask again now and then: the session moves on (the games start, the post-questionnaires open)
  // whether or not this participant is done.
  setInterval(() => void refresh(), POLL_MS);
}

void start();
