// The dashboard's study panel (parceiro study run): the study's session, its condition and seats, who
// has answered which questionnaire, the stage (pre-questionnaires, games, post-questionnaires), and
// the operator's notes. Codes only: the dashboard never shows a participant's name.

import type { StudyPanel } from '../state.js';
import { byId, clock, h } from './dom.js';

const STAGE_WORDS: Readonly<Record<StudyPanel['stage'], string>> = {
  pre: 'questionnaires before the games',
  games: 'the games',
  post: 'questionnaires after the games',
  ended: 'over',
};

/** "trust14 (pre): 9 of 14" or "trust14 (pre): done". */
const progressWords = (g: StudyPanel['participants'][number]['progress'][number]): string =>
  `${g.questionnaire} (${g.phase}): ${g.complete ? 'done' : `${g.answered} of ${g.items}`}`;

/** The links asked for, by code: kept across renders (each opens once). */
const links = new Map<string, string>();

/** Shows a participant's new link (the page's answer to its Link button). */
export function showStudyLink(code: string, url: string): void {
  links.set(code, url);
  const cell = document.querySelector<HTMLElement>(`#study-people tr[data-code="${CSS.escape(code)}"] .path`);
  if (cell) cell.replaceChildren(linkTo(url));
}

function linkTo(url: string): HTMLAnchorElement {
  const a = h('a', { text: url });
  a.href = url;
  a.target = '_blank';
  a.rel = 'noopener';
  return a;
}

export function renderStudy(study: StudyPanel | null, askLink: (code: string) => void): void {
  const panel = byId('study-panel');
  panel.hidden = study === null;
  if (!study) return;
  panel.dataset.stage = study.stage;
  panel.dataset.paused = String(Boolean(study.pausedSince));
  const facts: [string, string][] = [
    ['Study', study.study],
    ['Session', study.session],
    ['Condition', `${study.condition}${study.settings.length ? ` (${study.settings.join(', ')})` : ''}`],
    [
      'Now',
      study.pausedSince
        ? `${STAGE_WORDS[study.stage]}, paused since ${clock(Date.parse(study.pausedSince))}`
        : STAGE_WORDS[study.stage],
    ],
    ...(study.pauses && study.pauses.count > 0
      ? [
          [
            'Pauses',
            study.pausedSince
              ? `${study.pauses.count} (this one open; ${Math.round(study.pauses.seconds)} s before it)`
              : `${study.pauses.count} (${Math.round(study.pauses.seconds)} s)`,
          ] as [string, string],
        ]
      : []),
    [
      'Answers',
      study.stage === 'pre'
        ? study.preDone
          ? 'every pre-questionnaire is in'
          : 'waiting for pre-questionnaires'
        : study.postDone
          ? 'every questionnaire is in'
          : study.stage === 'post'
            ? 'waiting for post-questionnaires'
            : 'pre-questionnaires closed',
    ],
  ];
  byId('study').replaceChildren(...facts.flatMap(([k, v]) => [h('dt', { text: k }), h('dd', { text: v })]));
  const head = h('tr', {}, ...['code', 'seat', 'partner', 'questionnaires', 'link'].map((t) => h('th', { text: t })));
  const rows = study.participants.map((p) => {
    const url = links.get(p.code);
    const link = h('span', { class: 'path' }, ...(url ? [linkTo(url)] : []));
    const button = h('button', { text: 'Link' });
    button.type = 'button';
    button.addEventListener('click', () => askLink(p.code));
    return h(
      'tr',
      { data: { code: p.code } },
      h('td', { text: p.code }),
      h('td', { text: String(p.seat) }),
      h('td', { text: p.partner === 'robot' ? 'the robot' : 'a person' }),
      h(
        'td',
        {},
        ...p.progress.map((g) =>
          h('div', {
            class: g.complete ? 'status-finished' : '',
            text: progressWords(g),
            data: { questionnaire: g.questionnaire, phase: g.phase, complete: String(g.complete) },
          }),
        ),
      ),
      h('td', {}, button, link),
    );
  });
  byId('study-people').replaceChildren(head, ...rows);
  byId<HTMLButtonElement>('study-start').disabled = study.stage !== 'pre';
  byId<HTMLButtonElement>('study-pause').disabled = study.stage !== 'games' || Boolean(study.pausedSince);
  byId<HTMLButtonElement>('study-resume').disabled = study.stage !== 'games' || !study.pausedSince;
  const end = byId<HTMLButtonElement>('study-end');
  end.disabled = study.stage === 'pre' || study.stage === 'ended';
  end.textContent = study.stage === 'post' ? 'End the session' : 'End the games';
  byId('study-notes').replaceChildren(
    ...study.notes.map((n) => h('li', { text: `${clock(Date.parse(n.at))} ${n.text}`, title: n.at })),
  );
}
