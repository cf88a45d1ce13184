// The robot at the virtual table: EMYS's face moving with the postures it sends, its eyes on what it
// looks at, a speech bubble with what it says as it says it (and its voice, when the person wants
// it), its card announced in words, and what it feels as a word and a colour.
//
// Every behaviour message the page shows is stamped (the page's clock, ms since the epoch) in
// `window.__vtReactions`, so a test can tell how soon after an event the person saw the robot react.

import { byId, h } from './dom.js';
import { EmysFace } from './face.js';
import type { View } from './table-words.js';
import { aboutWords, gazeWords, robotPlays, toWords, w } from './table-words.js';
import { RobotVoice } from './table-voice.js';
import { PANEL_MIN, panelFeeling } from '../feels.js';
import { panelWords } from './feel-words.js';
import type { Language } from './words.js';
import { emotionColour } from './words.js';

/** The parts of `robot:behaviour` (table-bridge/messages.ts) this page reads. */
export type Behaviour =
  | { kind: 'posture'; atMs: number; joints: Record<string, number>; durationMs: number }
  | { kind: 'expression'; atMs: number; expression: string; valence: number; arousal: number }
  | { kind: 'gaze'; atMs: number; target: string; seat: number | null }
  | {
      kind: 'utterance';
      atMs: number;
      phase: 'start' | 'end';
      id: string;
      text: string;
      language: string;
      to: string;
      addressee: number | null;
      audience?: 'one' | 'both';
    }
  | {
      kind: 'feeling';
      atMs: number;
      strongest: string;
      mood: number;
      emotions: { type: string; intensity: number; seat: number | null }[];
    };

export type Place = 'bottom' | 'right' | 'top' | 'left';

interface Reaction {
  kind: string;
  /** When the runtime made it (its clock). */
  atMs: number;
  /** When this page had it on screen (this page's clock, ms since the epoch). */
  shownAt: number;
}
declare global {
  interface Window {
    __vtReactions?: Reaction[];
  }
}

const now = (): number => performance.timeOrigin + performance.now();
/** Where the eyes turn for a place on the page (the face looks out at the person at the bottom). */
const LOOK: Record<Place, [number, number]> = { bottom: [0, 0.1], top: [0, -0.9], left: [-1, -0.1], right: [1, -0.1] };

export class RobotPanel {
  readonly face: EmysFace;
  readonly voice = new RobotVoice();
  #lang: Language = 'en';
  #view: View = { mySeat: null, robotSeat: 0 };
  #place: (seat: number) => Place = () => 'top';
  #gaze: { target: string; seat: number | null } | null = null;
  #feeling: Extract<Behaviour, { kind: 'feeling' }> | null = null;
  /** The expression on show (the face leads what the panel says). */
  #expression: string | null = null;
  #announced: string | null = null;

  constructor() {
    this.face = new EmysFace(byId('robot-face'));
    window.__vtReactions = [];
    byId('voice').addEventListener('click', () => {
      this.voice.set(!this.voice.on);
      this.render();
    });
  }

  /** The language and the seats as the page sees them now; words are written again in them. */
  setContext(lang: Language, view: View, place: (seat: number) => Place): void {
    this.#lang = lang;
    this.#view = view;
    this.#place = place;
    this.render();
  }

  /** One behaviour message, shown at once, and stamped. */
  apply(m: Behaviour): void {
    switch (m.kind) {
      case 'posture':
        this.face.show(m.joints, m.durationMs);
        break;
      case 'expression':
        byId('robot').dataset.expression = m.expression;
        this.#expression = m.expression;
        this.face.express(m.expression, m.valence);
        break;
      case 'gaze': {
        this.#gaze = { target: m.target, seat: m.seat };
        const [dx, dy] = this.#lookOf(m.target, m.seat);
        this.face.look(dx, dy, 300);
        break;
      }
      case 'utterance': {
        const bubble = byId('bubble');
        if (m.phase === 'start') {
          const to = byId('bubble-to');
          to.textContent = toWords(m.to, m.addressee, this.#view, this.#lang, m.audience);
          to.hidden = to.textContent === '';
          bubble.textContent = m.text;
          bubble.hidden = false;
          bubble.dataset.id = m.id;
          bubble.lang = m.language;
          bubble.classList.add('speaking');
          this.voice.say(m.text, m.language);
        } else if (bubble.dataset.id === m.id) bubble.classList.remove('speaking');
        break;
      }
      case 'feeling':
        this.#feeling = m;
        break;
    }
    this.render();
    const list = window.__vtReactions!;
    list.push({ kind: m.kind, atMs: m.atMs, shownAt: now() });
    if (list.length > 5000) list.splice(0, list.length - 5000);
    byId('robot').dataset.reactedAt = String(list.at(-1)!.shownAt);
  }

  /** The robot's card, in words ("O robô joga o ás de copas."), shown and, with the voice on, said. */
  announce(card: string): void {
    this.#announced = card;
    this.render();
    this.voice.say(robotPlays(card, this.#lang), this.#lang);
  }

  /** A new game: the last announcement is over. */
  clearAnnouncement(): void {
    this.#announced = null;
    this.render();
  }

  #lookOf(target: string, seat: number | null): [number, number] {
    if (target === 'play-area') return [0, 0.8];
    if (target === 'own-cards' || (target === 'card' && seat === this.#view.robotSeat)) return [0, 1];
    if (seat === null) return [0, 0];
    const [x, y] = LOOK[this.#place(seat)];
    // A card lies between the middle of the table and its player: half the way there, and down.
    return target === 'card' ? [x * 0.6, 0.7 + y * 0.2] : [x, y];
  }

  /** Writes the panel's words in the language in force. */
  render(): void {
    const lang = this.#lang;
    const voice = byId<HTMLButtonElement>('voice');
    voice.disabled = !this.voice.available;
    voice.textContent = this.voice.available ? w(this.voice.on ? 'voiceOn' : 'voiceOff', lang) : w('voiceNone', lang);
    voice.setAttribute('aria-pressed', String(this.voice.on));
    byId('gaze').textContent = this.#gaze ? gazeWords(this.#gaze.target, this.#gaze.seat, this.#view, lang) : '';
    byId('announce').textContent = this.#announced ? robotPlays(this.#announced, lang) : '';
    const box = byId('feeling');
    const f = this.#feeling;
    if (!f) return void box.replaceChildren();
    // One rule with the dashboard (robot/web/feels.ts): the feeling felt most is named, the face as the face.
    const p = panelFeeling(f.emotions, this.#expression, PANEL_MIN);
    const felt = 'emotion' in p ? p.emotion : null;
    const type = felt?.type ?? '';
    box.dataset.emotion = type;
    box.dataset.panel = p.kind;
    const mood = f.mood > 0.15 ? w('moodGood', lang) : f.mood < -0.15 ? w('moodBad', lang) : '';
    const words = panelWords(p, lang);
    const colour = type ? emotionColour(type) : '#8a8f98';
    const about = felt ? aboutWords(felt.seat ?? null, this.#view, lang) : '';
    const dot = h('span', { class: 'vt-feel-dot' });
    dot.style.background = colour;
    const strength = h('span', { class: 'vt-feel-bar' });
    strength.style.width = `${Math.round(Math.min(1, felt?.intensity ?? 0) * 100)}%`;
    strength.style.background = colour;
    box.style.borderColor = colour;
    // The sentence is one inline run, so that it wraps as text ("sente alegria, mas mantém um ar
    // calmo"), never before its comma, and the flex box's gap falls only around it.
    box.replaceChildren(
      dot,
      h(
        'span',
        { class: 'vt-feel-text' },
        ...(words.lead ? [h('span', { class: 'muted', text: words.lead })] : []),
        h('span', { class: 'muted', text: `${words.verb} ` }),
        h('strong', { class: 'vt-feel-word', text: words.word }),
        ...(about ? [h('span', { text: ` ${about}` })] : []),
        ...(words.rest ? [h('span', { class: 'vt-feel-keeps', text: words.rest })] : []),
        ...(mood ? [h('span', { class: 'muted', text: ` · ${mood}` })] : []),
      ),
      h('span', { class: 'vt-feel-track' }, strength),
    );
  }
}
