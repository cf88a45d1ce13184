// The behaviour planner: one event, the emotions it raised, the player's beliefs, the toggles and the
// planner's state in; a timed list of posture, gaze and speech commands and the next state out.
// Pure apart from drawing from the rng it is given, so the same inputs and seed give the same plan.

import type { Beliefs, Card, Rng, Seat } from '../game/index.js';
import { RANKS, nextSeat, partnerOf, pointsOf, rankOf, suitOf, teamName, teamOf, winningIndex } from '../game/index.js';
import type { BehaviourSettings } from './behaviour-settings.js';
import { isAlwaysSpoken, speakProbability } from './behaviour-settings.js';
import type { BehaviourCommand, BehaviourPlan, PlannedUtterance } from './commands.js';
import type { EmotionInput, EmotionalStateInput } from './emotion-input.js';
import type { BehaviourEvent } from './events.js';
import type { Moment } from './moment.js';
import { momentAfter, usefulUntil } from './moment.js';
import { describeGazeTarget, gazeAt } from './gaze.js';
import type { GazeTarget } from './gaze.js';
import type { ExpressionName, HoldEvent, PostureLibrary } from './posture-config.js';
import { expressionValence, lineValence } from './line-valence.js';
import { emotionPosture, expressionPosture, restPosture } from './postures.js';
import type { BehaviourState, FaceHeld } from './state.js';
import type { TableGeometry } from './table-geometry.js';
import type { Toggles } from './toggles.js';
import type { LineFacts, SlotValues, UtteranceRequest } from './utterances.js';
import {
  NAME_SLOTS,
  cardPhrase,
  emotionOf,
  matchingLines,
  rankPhrase,
  rememberSaid,
  renderUtterance,
  selectUtterance,
  speechAt,
  suitPhrase,
} from './utterances.js';
import type {
  GazeMark,
  Utterance,
  UtteranceCategory,
  UtteranceEmotion,
  UtteranceLibrary,
  UtteranceTarget,
} from './utterance-config.js';

/** Everything loaded from config/ that the planner reads. */
export interface BehaviourSetup {
  settings: BehaviourSettings;
  postures: PostureLibrary;
  table: TableGeometry;
  utterances: UtteranceLibrary;
}

export interface PlanInput {
  event: BehaviourEvent;
  emotions: EmotionalStateInput;
  /**
   * The robot's beliefs about its own decision, when the event is its play. Today they only tell a
   * forced card (a single legal one, `playing.forced`); hope and fear come from the appraisal.
   */
  beliefs?: Beliefs | null;
  toggles: Toggles;
  state: BehaviourState;
  rng: Rng;
  /** The time of the event on the scheduler's clock. */
  nowMs: number;
}

interface PlanResult {
  plan: BehaviourPlan;
  state: BehaviourState;
}

type Relation = 'self' | 'partner' | 'opponent';

/** What an event gives the robot to talk about. */
interface Topic {
  /** The event the lines are about (for a reappraisal, the event reappraised). */
  event: BehaviourEvent['type'];
  /** The moment that event brought the session to. */
  moment: Moment;
  category: UtteranceCategory;
  /** The seat the event is about (who played, who must shuffle); null for the whole table. */
  actor: Seat | null;
  slots: SlotValues;
  /** Lines may only address the actor (you shuffle, your turn). */
  addressActor: boolean;
  /**
   * `actor`: about one seat's doing (its card, its trick, its renounce, the trump it turned), so said
   * to that seat or to everyone, or to anyone when it is the robot's; `table`: to anyone.
   */
  scope: 'actor' | 'table';
  /** The opponent a line to an opponent speaks to; null: none fits; undefined: either. */
  focus?: Seat | null;
  /** A line to both opponents fits (the moment is about both of them). */
  plural: boolean;
  /** What the lines' conditions are judged on. */
  facts: LineFacts;
  /** The robot's own play: its emotional lines (play.self) stand in for the plain ones when they fit. */
  selfPlay?: boolean;
  /** Said only if the player hesitates (`selection.nudgeAfterMs`). */
  nudge?: boolean;
}

export function planBehaviour(setup: BehaviourSetup, input: PlanInput): PlanResult {
  const { event, toggles, rng, nowMs } = input;
  const { settings, postures } = setup;
  const prev = input.state;
  const moment = momentAfter(prev.moment, prev.game, event);
  const advanced = advance(prev, event);
  // Lines the caller added after the last plan (the node naming the robot's card) were about its event.
  const added = prev.speech.said > (prev.saidAtPlan ?? prev.speech.said);
  let state: BehaviourState = {
    ...advanced,
    moment,
    lastPlay:
      event.type === 'play'
        ? {
            card: event.card,
            moment,
            trick: advanced.trick?.cards ?? [event.card],
            leader: advanced.trick?.leader ?? event.seat,
          }
        : (prev.lastPlay ?? null),
    spokenAbout: added ? prev.moment : (prev.spokenAbout ?? null),
  };
  const robot = state.robotSeat;
  const commands: BehaviourCommand[] = [];
  const expressiveness = clamp01(toggles.expressiveness);
  const dominant = strongest(input.emotions.emotions, expressiveness);
  // The input is what this event made the robot feel (robot/ passes the emotions it raised).
  const raised = input.emotions.emotions;

  const look = (atMs: number, target: GazeTarget): void => {
    // A turn comes with the card or trick before it, whose plan already looks at the seat to move
    // after a moment on the card: a look of its own would replace those (a plan replaces the looks
    // still waiting), and the robot would never look at the card just played.
    if (!toggles.gaze || event.type === 'turn') return;
    commands.push({
      kind: 'gaze',
      atMs,
      gaze: gazeAt(setup.table, postures.limits, robot, target),
      durationMs: settings.gaze.moveMs,
    });
  };

  // Gaze follows the game (looks during a line are decided below, and take precedence).
  let gameLooks = gazeFor(state, event).map(
    ([delay, target]) => [nowMs + (delay === 'dwell' ? settings.gaze.dwellMs : 0), target] as const,
  );

  // A card the robot did not expect: surprise first (the face and, below, maybe a word), before the
  // emotion the event raised, if any. Every face is held (postures' hold): while the face planned
  // last is within its hold, a new one replaces it only if clearly stronger or brought by an event
  // that matters more (a game's result); a face that changed with every card and estimate was never
  // seen, and a surprise that lasted half a second was not read as one.
  const surprise = clamp01(input.emotions.surprise ?? 0) * expressiveness;
  const hold = postures.hold;
  const holdFor = (durationMs: number): number => Math.max(hold.minMs, durationMs);
  /** The face planned last, while it is held at `atMs` (planned to start later counts: it would be cancelled). */
  const heldAt = (atMs: number): FaceHeld | null => (prev.face && atMs < prev.face.untilMs ? prev.face : null);
  const overrides = (strength: number, held: FaceHeld): boolean =>
    hold.events.includes(event.type as HoldEvent) || strength >= held.strength + hold.strongerBy;
  let faceUntil: number | null = null;
  /** Until when each line's own expression is held, so that one left out below no longer holds the rest back. */
  const animationUntil = new Map<BehaviourCommand, number>();
  let surpriseUntil = 0;
  let faceFrom = nowMs + settings.postures.reactionMs;
  let planned: FaceHeld | null = null;
  // A surprised face an earlier plan made and not yet over (the estimate after a card, or the trick
  // its card closed, often comes before it shows): kept, and this event's face comes after it.
  const before = heldAt(faceFrom);
  const held = before?.surprise !== undefined ? before : null;
  state = { ...state, face: prev.face ?? null };
  if (
    toggles.postures &&
    surprise > 0 &&
    surprise >= settings.postures.surpriseThreshold &&
    // A start at the unexpected, not a feeling to weigh against the one on show: only on a face at rest.
    (!before || hold.events.includes(event.type as HoldEvent))
  ) {
    const posture = expressionPosture(postures, 'surprised', surprise);
    commands.push({ kind: 'posture', atMs: faceFrom, posture, cause: 'surprise' });
    const untilMs = faceFrom + holdFor(posture.durationMs);
    planned = { atMs: faceFrom, untilMs, strength: surprise * 10, surprise };
    faceFrom = untilMs;
    faceUntil = faceFrom;
    surpriseUntil = untilMs;
  } else if (held && toggles.postures) {
    // Planned again if it has not shown yet (this plan replaces the postures still waiting).
    if (held.atMs > nowMs)
      commands.push({
        kind: 'posture',
        atMs: held.atMs,
        posture: expressionPosture(postures, 'surprised', held.surprise!),
        cause: 'surprise',
      });
    planned = held;
    faceFrom = Math.max(faceFrom, held.untilMs);
    faceUntil = faceFrom;
  }

  // The face shows the strongest emotion, if it is strong enough (a change of estimate, stronger
  // still), and unless it would contradict a line being said (decided once this plan's own line is
  // known, below) or a face still held.
  const minimum =
    event.type === 'reappraisal'
      ? Math.max(settings.postures.threshold, hold.reappraisalMin)
      : settings.postures.threshold;
  let face: { at: number; command: Extract<BehaviourCommand, { kind: 'posture' }> } | null = null;
  if (toggles.postures && dominant && dominant.scaled >= minimum) {
    const posture = emotionPosture(postures, dominant.emotion.type, dominant.emotion.intensity, expressiveness);
    face = { at: commands.length, command: { kind: 'posture', atMs: faceFrom, posture, cause: dominant.emotion.type } };
  }

  // What is still to be said: lines the game overtook before they started are not.
  let speech = speechAt(state.speech, nowMs, state.moment);
  state = { ...state, speech };

  // A line still to be said, or being said, that turns the head to whom it speaks to keeps it there:
  // this event's looks wait for its end ("Preparem-se para perder mais um!" was said looking at the
  // robot's own cards, as the deal that followed it looked there), and of those that would come
  // together only the last is kept. Its own looks still waiting are planned again below.
  const speaking = speech.planned.filter((l) => l.looks && l.endMs > nowMs);
  if (speaking.length > 0) {
    const moved = gameLooks.map(([at, target]) => {
      const line = speaking.find((l) => l.startMs <= at && at < l.endMs);
      return [line ? line.endMs : at, target] as const;
    });
    gameLooks = moved.filter(([at], i) => !moved.slice(i + 1).some(([later]) => later === at));
  }

  // Speech, if the event gives something to say and the moment allows it.
  // Another seat's card it did not expect, surprising enough to say so: its own lines, partner's or opponent's.
  const unexpected =
    event.type === 'play' && event.seat !== robot && surprise > 0 && surprise >= settings.selection.surpriseThreshold;
  const found = toggles.speech ? subjectOf(setup.utterances, state, event, input.beliefs ?? null) : null;
  const subject =
    found && unexpected
      ? {
          ...found,
          topic: {
            ...found.topic,
            category: (relationOf(robot, event.seat) === 'partner'
              ? 'play.surprise.partner'
              : 'play.surprise.opponent') as UtteranceCategory,
          },
        }
      : found;
  if (subject) {
    const { topic } = subject;
    const labels = labelsFor(settings, robot, topic, raised, expressiveness);
    // Another seat's card, before the robot knows what it thinks of it (its estimate comes after the
    // reaction): nothing yet, unless it was unexpected. The reappraisal that brings the feeling may speak of it.
    const waitForEstimate = event.type === 'play' && topic.actor !== robot && labels.length === 0 && !unexpected;
    const spoken = waitForEstimate
      ? null
      : speak(setup, state, topic, labels, input.emotions.emotions, toggles, rng, nowMs, subject.until, expressiveness);
    if (spoken) {
      const { utterance, line, addressee } = spoken;
      commands.push({ kind: 'speech', atMs: spoken.atMs, utterance });
      const end = spoken.atMs + utterance.estimatedMs;
      // A line to everyone about another seat's card looks at that card ("isso" is the card), not
      // around the table, where passing the partner would make it sound said of the partner.
      const aboutCard = topic.event === 'play' && topic.actor !== null && topic.actor !== robot ? topic.actor : null;
      const looks = toggles.gaze ? speechGaze(state, line.gaze, addressee, utterance.estimatedMs, aboutCard) : [];
      // A nudge keeps its own place: it is said only if its player is still thinking by then.
      speech = spoken.nudge
        ? {
            ...speech,
            said: speech.said + 1,
            lastSaid: { ...speech.lastSaid, [line.id]: speech.said + 1 },
            nudge: { startMs: spoken.atMs, endMs: end, until: subject.until },
          }
        : rememberSaid(speech, line, spoken.atMs, end, {
            comment: !spoken.always,
            until: utterance.until,
            valence: lineValence(postures, line),
            looks: looks.map(([offset, target]) => [spoken.atMs + offset, target] as const),
          });
      if (topic.event === 'play' || topic.event === 'trick') state = { ...state, spokenAbout: topic.moment };
      if (looks.length > 0) {
        const during = gameLooks.filter(([at]) => at >= spoken.atMs && at < end);
        gameLooks = gameLooks.filter(([at]) => at < spoken.atMs || at >= end);
        for (const [offset, target] of looks) look(spoken.atMs + offset, target);
        // Back to the game when the line ends, where the game's look had meanwhile moved.
        const last = during[during.length - 1] ?? gameLooks.filter(([at]) => at < spoken.atMs).pop();
        const final = looks[looks.length - 1]![1];
        if (last && describeGazeTarget(last[1]) !== describeGazeTarget(final)) look(end, last[1]);
      }
      // A line's own expression, unless a face is held then (the words say it as well).
      const marked = line.animation && toggles.postures ? line.animation : null;
      if (marked && !heldAt(spoken.atMs) && !(planned && spoken.atMs < planned.untilMs)) {
        const posture = expressionPosture(postures, marked.expression, marked.amount * expressiveness);
        const animation: BehaviourCommand = { kind: 'posture', atMs: spoken.atMs, posture, cause: 'animation' };
        commands.push(animation);
        const untilMs = spoken.atMs + holdFor(Math.max(posture.durationMs, utterance.estimatedMs));
        animationUntil.set(animation, untilMs);
        planned = { atMs: spoken.atMs, untilMs, strength: marked.amount * expressiveness * 10 };
        faceUntil = Math.max(faceUntil ?? 0, untilMs);
      }
    }
  }

  for (const [atMs, target] of gameLooks) look(atMs, target);
  // This plan's looks replace those still waiting: the looks of the lines planned before it, not yet
  // made, are planned again (a game's last line to the opponents was said looking at the partner, as
  // the session's end, planned before the line began, looked there).
  if (commands.some((c) => c.kind === 'gaze'))
    for (const l of speaking) for (const [atMs, target] of l.looks ?? []) if (atMs > nowMs) look(atMs, target);

  // A glad face while a sorry line is said, or the reverse, is not shown (line-valence.ts). A new
  // event's face waits for the end of the line (the robot finishes its opener, then frowns at its
  // hand); a reappraisal's is dropped: the words were chosen for the event, and a later estimate's
  // change of heart about the same event does not override them. Nor does a face contradict a trick
  // with points until the next card is down (the trick, its reappraisal, its last card's): no broad
  // smile just as the opponents take 20 points, though spending their seven of trumps on it raised
  // the estimate; no fright as the robot's team takes one.
  const valence = face ? expressionValence(postures, face.command.posture.expression) : 0;
  // The valence no face may have now, from the table (0: none).
  let forbidden: -1 | 0 | 1 = 0;
  // The trick just taken (the table is cleared), while no card has followed its last one.
  const last = state.lastPlay;
  if (
    last &&
    state.trick === null &&
    last.moment === state.moment &&
    last.trick.length === 4 &&
    last.trick.some((c) => pointsOf(c) > 0)
  ) {
    const ours = teamOf(((last.leader + winningIndex(last.trick, state.trump)) % 4) as Seat) === teamOf(robot);
    forbidden = ours ? -1 : 1;
  }
  // Nor does a face contradict who holds a rich trick, until the next card: no smile while an
  // opponent's card leads a trick of 10 points or more (its estimate may rise, the ace being out; the
  // partner's low card after it may raise hope, though the opponents are taking the points), no sorry
  // face while the partner's does. The appraisal does not raise those feelings at the card that takes
  // the lead (appraisal/appraise.ts); this holds whatever rule raises them, at any card of the trick.
  const rich = postures.display.richTrickPoints;
  if (!forbidden && last && rich > 0 && last.moment === state.moment && last.trick.length > 0) {
    const seat = ((last.leader + winningIndex(last.trick, state.trump)) % 4) as Seat;
    const points = last.trick.reduce((a, c) => a + pointsOf(c), 0);
    const relation = relationOf(robot, seat);
    if (points >= rich && relation !== 'self') forbidden = relation === 'partner' ? -1 : 1;
  }
  if (face && forbidden !== 0 && valence === forbidden) face = null;
  // A face an earlier plan put off (after a line, after a surprise) that would now contradict the
  // table: the calm face in its place (a posture in this plan replaces those still waiting).
  const waiting = prev.face && prev.face.atMs > nowMs && prev.face.expression ? prev.face : null;
  const waitingValence = waiting ? expressionValence(postures, waiting.expression as ExpressionName) : 0;
  // Or one that would now start under a line of the opposite feeling this plan added.
  const underLine =
    waitingValence !== 0 &&
    speech.planned.some(
      (l) =>
        l.valence === -waitingValence &&
        l.startMs < waiting!.atMs + postures.timing.moveMs + postures.timing.neutralDelayMs[0] &&
        l.endMs > waiting!.atMs,
    );
  const withdraw =
    toggles.postures && waiting !== null && ((forbidden !== 0 && waitingValence === forbidden) || underLine);
  // Or one on show now, in its hold, that the table now contradicts (a smile at the partner's card
  // still on as the opponents take the trick): the calm face at once, as for a game's result.
  const onShow =
    prev.face && prev.face.atMs <= nowMs && nowMs < prev.face.untilMs && prev.face.expression ? prev.face : null;
  const contradicted =
    toggles.postures &&
    onShow !== null &&
    forbidden !== 0 &&
    expressionValence(postures, onShow.expression as ExpressionName) === forbidden;
  if (face) {
    const { posture } = face.command;
    const against = (atMs: number) => {
      const shownUntil = atMs + posture.durationMs + postures.timing.neutralDelayMs[0];
      return valence === 0
        ? []
        : speech.planned.filter((l) => l.valence === -valence && l.startMs < shownUntil && l.endMs > atMs);
    };
    let atMs: number | null = face.command.atMs;
    const lines = against(atMs);
    if (lines.length > 0) {
      const after = Math.max(...lines.map((l) => l.endMs));
      atMs = event.type === 'reappraisal' || against(after).length > 0 ? null : after;
    }
    // A face held then stays, unless this one is clearly stronger or its event matters more; the
    // same face again is no change at all.
    const kept = atMs === null ? null : heldAt(atMs);
    if (kept && (kept.expression === posture.expression || !overrides(dominant!.scaled, kept))) atMs = null;
    if (atMs !== null && planned && atMs >= planned.atMs && atMs < planned.untilMs) atMs = null;
    if (atMs !== null) {
      const untilMs = atMs + holdFor(posture.durationMs);
      // A line's own expression that would replace this face within its hold is left out (its words say it).
      const start = atMs;
      const early = (c: BehaviourCommand): boolean =>
        c.kind === 'posture' && c.cause === 'animation' && c.atMs > start && c.atMs < untilMs;
      for (let i = commands.length - 1; i >= 0; i--) if (early(commands[i]!)) commands.splice(i, 1);
      // The rest follows the faces still planned, not the expression of a line just left out.
      const kept = [...animationUntil].filter(([c]) => commands.includes(c)).map(([, until]) => until);
      if (animationUntil.size > kept.length) faceUntil = Math.max(surpriseUntil, ...kept) || null;
      commands.splice(Math.min(face.at, commands.length), 0, { ...face.command, atMs });
      planned = { atMs, untilMs, strength: dominant!.scaled, expression: posture.expression };
      faceUntil = Math.max(faceUntil ?? 0, untilMs);
    }
  }
  /** The calm face (rest, tinted by the mood) at `atMs`. */
  const calmAt = (atMs: number): void => {
    commands.push({
      kind: 'posture',
      atMs,
      posture: restPosture(postures, input.emotions.mood, expressiveness),
      cause: 'rest',
    });
  };
  const noPosture = !commands.some((c) => c.kind === 'posture');
  if (planned) state = { ...state, face: planned };
  else if (contradicted && noPosture) {
    calmAt(nowMs);
    // The face is over: nothing is held now.
    state = { ...state, face: { ...onShow!, untilMs: nowMs } };
  } else if (withdraw && noPosture) {
    calmAt(waiting!.atMs);
    // The hold stays as planned: a surprise before the withdrawn face is still on until then.
  }
  // A face an earlier plan holds on show as a line not yet begun starts, which the line contradicts
  // (the opener of game 2 under the sad face of game 1's loss; a taunt at the deal under the fright the
  // hand just raised): the calm face as the line begins. The words lead, as above; the emotion is
  // still felt and tints the mood. Lines planned before count: this plan's postures replace the calm
  // face an earlier plan had put there.
  const shown = prev.face?.expression ? prev.face : null;
  const shownValence = shown ? expressionValence(postures, shown.expression as ExpressionName) : 0;
  const calmFor =
    shown && shownValence !== 0 && toggles.postures
      ? speech.planned
          .filter(
            (l) =>
              l.valence === -shownValence &&
              l.startMs >= nowMs &&
              // After its hold (within it, the face is to be seen; lines then are chosen against it).
              l.startMs >= shown.untilMs &&
              l.startMs < shown.untilMs + postures.timing.neutralDelayMs[1],
          )
          .sort((a, b) => a.startMs - b.startMs)[0]
      : undefined;
  if (calmFor && !commands.some((c) => c.kind === 'posture' && c.atMs <= calmFor.startMs)) {
    calmAt(calmFor.startMs);
    // The held face stays on record: a later plan whose postures replace this calm face puts it back.
  }

  // After an expression (held its time) the head goes back to rest after a short random wait.
  if (faceUntil !== null) {
    const [lo, hi] = postures.timing.neutralDelayMs;
    const wait = lo + rng.int(hi - lo + 1);
    calmAt(faceUntil + wait);
  }

  commands.sort((a, b) => a.atMs - b.atMs);
  return {
    plan: { event: event.type, atMs: nowMs, moment: state.moment, commands },
    state: { ...state, speech, saidAtPlan: speech.said },
  };
}

const clamp01 = (x: number): number => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0);
const intensityOf = (e: EmotionInput): number =>
  Math.min(10, Math.max(0, Number.isFinite(e.intensity) ? e.intensity : 0));

/** The strongest emotion after expressiveness; ties keep the first. */
function strongest(
  emotions: readonly EmotionInput[],
  expressiveness: number,
): { emotion: EmotionInput; scaled: number } | null {
  let best: { emotion: EmotionInput; scaled: number } | null = null;
  for (const emotion of emotions) {
    const scaled = intensityOf(emotion) * expressiveness;
    if (scaled > 0 && (!best || scaled > best.scaled)) best = { emotion, scaled };
  }
  return best;
}

/** Is an emotion about `seat`: the seat itself, or a team it belongs to? */
function concerns(target: EmotionInput['target'], seat: Seat, robot: Seat): boolean {
  if (target === undefined || target === null) return false;
  if (target === 'team') return teamOf(seat) === teamOf(robot);
  if (target === 'opponents') return teamOf(seat) !== teamOf(robot);
  return target === seat;
}

/** Whether a feeling toward someone, or a line's emotion said to them, is friendly or hostile to them. */
type Stance = 'friendly' | 'hostile' | null;
const FEELING_STANCE: Partial<Record<EmotionInput['type'], Stance>> = {
  'happy-for': 'friendly',
  pity: 'friendly',
  admiration: 'friendly',
  gratitude: 'friendly',
  love: 'friendly',
  gloating: 'hostile',
  resentment: 'hostile',
  reproach: 'hostile',
  anger: 'hostile',
  hate: 'hostile',
};
const LINE_STANCE: Record<UtteranceEmotion, Stance> = {
  happy: null,
  'self-pity': null,
  'happy-for': 'friendly',
  pity: 'friendly',
  gloating: 'hostile',
  resentment: 'hostile',
};

/**
 * The emotional subcategories of a line about `topic`, strongest first. For an event about another
 * seat (its card, its trick, its renounce, the trump card it turned): the strongest emotion the event
 * raised toward that seat, if strong enough, else the event's own well-being (joy, distress: emotions
 * without a target). For anything else, each emotion the event raised strongly enough, so a lost game
 * may bring a sad line or, felt for the partner, a consoling one.
 */
function labelsFor(
  settings: BehaviourSettings,
  robot: Seat,
  topic: Topic,
  raised: readonly EmotionInput[],
  expressiveness: number,
): UtteranceEmotion[] {
  const sel = settings.selection;
  const strong = (list: readonly EmotionInput[]): EmotionInput[] =>
    list
      .map((emotion) => ({ emotion, scaled: intensityOf(emotion) * expressiveness }))
      .filter((e) => e.scaled > 0 && e.scaled >= sel.emotionThreshold)
      .sort((a, b) => b.scaled - a.scaled)
      .map((e) => e.emotion);
  const labelsOf = (list: readonly EmotionInput[]): UtteranceEmotion[] => [
    ...new Set(list.flatMap((e) => sel.emotions[e.type] ?? [])),
  ];
  const actor = topic.actor;
  if (topic.scope === 'actor' && actor !== null && actor !== robot) {
    const toward = labelsOf(strong(raised.filter((e) => concerns(e.target, actor, robot))));
    if (toward.length > 0) return toward.slice(0, 1);
    return labelsOf(strong(raised.filter((e) => e.target === undefined || e.target === null))).slice(0, 1);
  }
  return labelsOf(strong(raised));
}

const relationOf = (robot: Seat, seat: Seat): Relation =>
  seat === robot ? 'self' : seat === partnerOf(robot) ? 'partner' : 'opponent';
const opponentsOf = (robot: Seat): [Seat, Seat] => [nextSeat(robot, 1), nextSeat(robot, 3)];

/** The game as far as behaviours need it, after the event. */
function advance(state: BehaviourState, event: BehaviourEvent): BehaviourState {
  switch (event.type) {
    case 'session-start': {
      const names = [0, 1, 2, 3].map((s) => event.names?.[s] ?? null);
      return {
        ...state,
        robotSeat: event.robotSeat,
        names,
        games: event.games,
        results: [],
        game: 0,
        dealer: null,
        trump: null,
        trick: null,
        points: [0, 0],
      };
    }
    case 'game-start':
      return { ...state, game: event.game, dealer: event.dealer, trump: null, trick: null, points: [0, 0] };
    case 'deal':
      return { ...state, dealer: event.dealer, trump: suitOf(event.trumpCard) };
    case 'play': {
      const fresh = !state.trick || state.trick.cards.length >= 4;
      return {
        ...state,
        trick: fresh
          ? { leader: event.seat, cards: [event.card] }
          : { leader: state.trick!.leader, cards: [...state.trick!.cards, event.card] },
      };
    }
    case 'trick': {
      const ours = teamOf(event.winner) === teamOf(state.robotSeat);
      const [us, them] = state.points;
      return { ...state, trick: null, points: ours ? [us + event.points, them] : [us, them + event.points] };
    }
    case 'end': {
      const winner = event.outcome.winner;
      const result = winner === 'draw' ? 'draw' : winner === teamName(teamOf(state.robotSeat)) ? 'won' : 'lost';
      const results = [...(state.results ?? [])];
      results[Math.max(0, state.game - 1)] = result;
      return { ...state, trick: null, results };
    }
    default:
      return state;
  }
}

const RANK_WORD: Partial<Record<string, 'ace' | 'seven' | 'two'>> = { A: 'ace', '7': 'seven', '2': 'two' };

/** What an event (or the reappraisal of one) gives the robot to talk about, and until when. */
function subjectOf(
  library: UtteranceLibrary,
  state: BehaviourState,
  event: BehaviourEvent,
  beliefs: Beliefs | null,
): { topic: Topic; until: Moment | null } | null {
  if (event.type !== 'reappraisal') {
    const topic = topicOf(library, state, event, beliefs, state.moment);
    return topic && { topic, until: usefulUntil(event, state.moment, state.game) };
  }
  // A reappraisal speaks of another seat's card or trick with the feelings its estimate brought: only
  // while the table is still on it, and only if nothing was said or planned about it yet.
  const about = event.event;
  const last = state.lastPlay;
  const at =
    about.type === 'play'
      ? last?.card === about.card
        ? last.moment
        : null
      : about.type === 'trick'
        ? last && about.cards.includes(last.card)
          ? last.moment
          : null
        : null;
  if (at === null || state.spokenAbout === at) return null;
  const until = usefulUntil(about, at, state.game);
  if (until !== null && state.moment >= until) return null;
  const topic = topicOf(library, state, about, null, at, last?.trick);
  return topic && { topic, until };
}

/** `trick`: the cards of the trick up to a play of the robot's (default: the trick on the table). */
function topicOf(
  library: UtteranceLibrary,
  state: BehaviourState,
  event: BehaviourEvent,
  beliefs: Beliefs | null,
  moment: Moment,
  trick?: readonly Card[],
): Topic | null {
  const robot = state.robotSeat;
  const ourTeam = teamOf(robot);
  const name = (seat: Seat): string => nameOf(state, seat);
  const game: LineFacts['game'] = state.game <= 1 ? 'first' : 'later';
  // The game before this one, as the robot's team fared in it (a draw, or none yet: unknown).
  const before = state.results?.[state.game - 2];
  const previous: LineFacts = before === 'won' || before === 'lost' ? { previous: before } : {};
  const cardSlots = (card: Card, actor: Seat): SlotValues => ({
    card: cardPhrase(library, card),
    rank: rankPhrase(library, card),
    suit: suitPhrase(library, suitOf(card)),
    player: name(actor),
    trump: state.trump === null ? '' : suitPhrase(library, state.trump),
    points: pointsOf(card),
  });
  // Where the game stands for a card or a trick: its stage, and the score after it.
  const [us, them] = state.points;
  const standing = (trick: number): LineFacts => ({
    game,
    stage: trick < 5 ? 'early' : 'late',
    ...(us > them ? { score: 'ahead' } : us < them ? { score: 'behind' } : {}),
  });
  const cardFacts = (card: Card, trick: number): LineFacts => ({
    ...standing(trick),
    ...(pointsOf(card) >= 10 ? { card: 'rich' } : pointsOf(card) === 0 ? { card: 'poor' } : {}),
  });
  const topic = (
    category: UtteranceCategory,
    actor: Seat | null,
    slots: SlotValues,
    more: Partial<Topic> = {},
  ): Topic => ({
    event: event.type,
    moment,
    category,
    actor,
    slots,
    addressActor: false,
    scope: 'table',
    plural: true,
    facts: { game },
    ...more,
  });
  // About one seat: said to that seat or to everyone, or, when it is the robot, to anyone.
  const about = (seat: Seat): Partial<Topic> =>
    relationOf(robot, seat) === 'self'
      ? { scope: 'actor' }
      : { scope: 'actor', focus: relationOf(robot, seat) === 'opponent' ? seat : null, plural: false };

  switch (event.type) {
    case 'session-start':
      return topic('session.start', null, { games: event.games }, { facts: {} });
    case 'session-end': {
      const ours = event.victories[ourTeam];
      const theirs = event.victories[ourTeam === 0 ? 1 : 0];
      const category = ours > theirs ? 'session.end.win' : ours < theirs ? 'session.end.loss' : 'session.end.draw';
      return topic(category, null, { victories: ours, their_victories: theirs }, { facts: {} });
    }
    case 'game-start':
      return topic(
        'game.start',
        event.dealer,
        { game: event.game, games: state.games },
        { facts: { game, ...previous } },
      );
    case 'shuffling':
    case 'cutting':
    case 'dealing': {
      if (event.seat === robot) return null;
      const category = event.type === 'shuffling' ? 'shuffle' : event.type === 'cutting' ? 'cut' : 'deal';
      return topic(category, event.seat, { player: name(event.seat) }, { addressActor: true, ...about(event.seat) });
    }
    case 'reappraisal':
      return null;
    case 'turn': {
      const relation = relationOf(robot, event.seat);
      if (relation === 'self') return null;
      // Whoever just took the trick leads the next: they have just played, and are not hesitating.
      const last = state.lastPlay;
      if (state.trick === null && last && last.moment === moment && last.trick.length === 4) {
        const winner = (last.leader + winningIndex(last.trick, state.trump)) % 4;
        if (winner === event.seat) return null;
      }
      return topic(
        relation === 'partner' ? 'next-player.partner' : 'next-player.opponent',
        event.seat,
        { player: name(event.seat) },
        { addressActor: true, nudge: true, ...about(event.seat) },
      );
    }
    case 'deal': {
      const word = RANK_WORD[RANKS[rankOf(event.trumpCard)]!];
      if (word)
        return topic(
          `trump.${word}.${relationOf(robot, event.dealer)}`,
          event.dealer,
          cardSlots(event.trumpCard, event.dealer),
          about(event.dealer),
        );
      return topic('cards.received', event.dealer, { trump: suitPhrase(library, suitOf(event.trumpCard)) });
    }
    case 'play': {
      const relation = relationOf(robot, event.seat);
      const slots = cardSlots(event.card, event.seat);
      const facts = cardFacts(event.card, event.trick);
      const cards = trick ?? state.trick?.cards ?? [event.card];
      // Who holds the trick as the table now shows it (a late reappraisal sees the cards after this one too).
      const leader = trick ? state.lastPlay?.leader : state.trick?.leader;
      const winner = leader !== undefined && cards.includes(event.card) ? winningIndex(cards, state.trump) : -1;
      const taken: LineFacts =
        winner < 0
          ? {}
          : {
              taken: teamOf(((leader! + winner) % 4) as Seat) === ourTeam ? 'ours' : 'theirs',
              trick: cards[winner] === event.card ? 'winning' : 'beaten',
            };
      if (relation !== 'self') {
        return topic(relation === 'partner' ? 'play.partner' : 'play.opponent', event.seat, slots, {
          ...about(event.seat),
          facts: { ...facts, ...taken },
        });
      }
      const led = suitOf(cards[0]!);
      // The robot's lines speak of the suit led ("No spades... I'll throw the jack of hearts"), which
      // is its card's suit only when it leads or follows.
      slots.suit = suitPhrase(library, led);
      // "Só tinha esta" tells the table the robot held no other card of the suit: said only of the
      // last trick's card, which everyone knows was forced.
      const category: UtteranceCategory =
        beliefs?.fallback === 'forced' && event.trick === 9
          ? 'playing.forced'
          : cards.length === 1
            ? 'playing.new-trick'
            : suitOf(event.card) === led
              ? 'playing.following'
              : suitOf(event.card) === state.trump
                ? 'playing.cut'
                : 'playing.not-following';
      // play.self is the emotional variant; the planner prefers it when the emotion has lines there.
      return topic(category, event.seat, slots, {
        ...about(event.seat),
        facts: { ...facts, ...taken },
        selfPlay: true,
      });
    }
    case 'trick': {
      const ours = teamOf(event.winner) === ourTeam;
      const category = event.points === 0 ? 'trick.end.zero' : ours ? 'trick.end.ours' : 'trick.end.theirs';
      const facts: LineFacts = { ...standing(event.trick), taken: ours ? 'ours' : 'theirs' };
      const slots: SlotValues = { points: event.points, player: name(event.winner) };
      if (event.winner !== robot)
        return topic(category, event.winner, slots, { ...about(event.winner), facts, plural: !ours });
      // The robot's own trick: an opponent is spoken to only about the points they lost in it, and
      // both of them only when both lost some.
      const lost = opponentsOf(robot).map((seat) => ({
        seat,
        points: pointsOf(event.cards[(seat - event.leader + 4) % 4]!),
      }));
      const most = lost.reduce((a, b) => (b.points > a.points ? b : a));
      return topic(category, robot, slots, {
        scope: 'actor',
        facts,
        focus: most.points > 0 ? most.seat : null,
        plural: lost.every((l) => l.points > 0),
      });
    }
    case 'end': {
      const [a, b] = event.points;
      const [ours, theirs] = ourTeam === 0 ? [a, b] : [b, a];
      const slots: SlotValues = { points: ours, their_points: theirs, victories: event.outcome.victories };
      // Whether another game of the session follows ("O próximo é nosso" only then).
      const next: LineFacts = state.games > 0 ? { next: state.game < state.games ? 'game' : 'none' } : {};
      if (event.renounce) {
        const seat = event.renounce.seat;
        const mine = teamOf(seat) === ourTeam;
        return topic(
          mine ? 'game.end.renounce.ours' : 'game.end.renounce.theirs',
          seat,
          { ...slots, player: name(seat) },
          { ...about(seat), facts: { game, ...next, ...previous } },
        );
      }
      if (event.outcome.winner === 'draw')
        return topic('game.end.draw', null, slots, { facts: { game, ...next, ...previous } });
      const won = event.outcome.winner === teamName(ourTeam);
      const size = event.outcome.victories >= 4 ? 'quadruple' : event.outcome.victories >= 2 ? 'double' : 'single';
      const gap = Math.abs(ours - theirs);
      const margin: LineFacts['margin'] = gap <= 20 ? 'close' : gap >= 40 ? 'clear' : undefined;
      return topic(`game.end.${won ? 'win' : 'loss'}.${size}`, null, slots, {
        facts: { game, ...next, ...previous, ...(margin ? { margin } : {}) },
      });
    }
  }
}

/** A player's name, or '' when nobody gave it: a line then leaves the call out, and needs no name. */
const nameOf = (state: BehaviourState, seat: Seat): string =>
  seat === state.robotSeat ? '' : (state.names[seat] ?? '');

interface Spoken {
  atMs: number;
  utterance: PlannedUtterance;
  line: Utterance;
  addressee: Seat | null;
  /** Always said (not a comment: the cooldown does not start from it). */
  always: boolean;
  /** A nudge for a hesitating player (said only if they are still thinking). */
  nudge: boolean;
}

function speak(
  setup: BehaviourSetup,
  state: BehaviourState,
  topic: Topic,
  labels: readonly UtteranceEmotion[],
  feelings: readonly EmotionInput[],
  toggles: Toggles,
  rng: Rng,
  nowMs: number,
  until: Moment | null,
  expressiveness: number,
): Spoken | null {
  const { settings, utterances: library } = setup;
  const sel = settings.selection;
  const robot = state.robotSeat;
  const memory = state.speech;

  const actorRelation = topic.actor === null ? null : relationOf(robot, topic.actor);
  // Lines of a category said to the actor ("your turn") are directed at them whatever their target,
  // so the actor's toggle governs all of them.
  if (
    topic.addressActor &&
    ((actorRelation === 'partner' && !toggles.partnerSpeech) ||
      (actorRelation === 'opponent' && !toggles.opponentSpeech))
  )
    return null;
  // Who may be spoken to: about another seat, that seat or everyone (never the partner about an
  // opponent, an opponent about the partner, nor the other opponent); otherwise anyone.
  const aboutOther = topic.scope === 'actor' && actorRelation !== null && actorRelation !== 'self';
  const mayAddress = (t: 'partner' | 'opponent'): boolean =>
    (!topic.addressActor && !aboutOther) || actorRelation === t;
  const allowed: UtteranceTarget[] = ['all'];
  if (toggles.partnerSpeech && mayAddress('partner')) allowed.push('partner');
  if (toggles.opponentSpeech && mayAddress('opponent') && topic.focus !== null) allowed.push('opponent');

  // The opponent spoken to or about: the topic's, else either.
  const opponents = opponentsOf(robot);
  const focus: Seat = topic.focus ?? opponents[rng.int(2)]!;
  const addresseeOf = (to: UtteranceTarget): Seat | null =>
    topic.addressActor ? topic.actor : to === 'partner' ? partnerOf(robot) : to === 'opponent' ? focus : null;

  // The robot's feeling toward whom a line speaks to must not contradict the line's emotion: no
  // consoling a partner it reproaches, no teasing an opponent it pities.
  const threshold = sel.emotionThreshold;
  const feelingToward = (seat: Seat): Stance => {
    const s = strongest(
      feelings.filter((e) => concerns(e.target, seat, robot)),
      expressiveness,
    );
    return s && s.scaled >= threshold ? (FEELING_STANCE[s.emotion.type] ?? null) : null;
  };
  const contradicts = (line: Utterance): boolean => {
    const label = emotionOf(line, { emotion: labels });
    if (label === null) return false;
    const addressee = addresseeOf(line.to);
    const mine = LINE_STANCE[label];
    if (addressee === null || addressee === robot || mine === null) return false;
    const theirs = feelingToward(addressee);
    return theirs !== null && theirs !== mine;
  };
  // A glad or sorry line about another seat's card says what the card did to the robot's team, so it
  // must agree with who holds the trick after it: no "Essa não estava nos meus planos" of an
  // opponent's jack that fell under the partner's king, though the estimate dropped at what the jack
  // told of the hands; no "Que grande jogada!" of a partner's card the opponents' card beats.
  const againstTrick = (line: Utterance): boolean => {
    if (topic.event !== 'play' || !aboutOther || topic.facts.taken === undefined) return false;
    const v = lineValence(setup.postures, line);
    return topic.facts.taken === 'ours' ? v < 0 : v > 0;
  };
  const known = NAME_SLOTS.filter(
    (slot) =>
      (slot === 'partner'
        ? nameOf(state, partnerOf(robot))
        : slot === 'opponent'
          ? nameOf(state, focus)
          : topic.actor === null
            ? ''
            : nameOf(state, topic.actor)) !== '',
  );
  const always = isAlwaysSpoken(settings, topic.category);
  const request = (category: UtteranceCategory): UtteranceRequest => ({
    category,
    emotion: labels,
    orNeutral: always,
    targets: allowed,
    facts: topic.facts,
    names: known,
    // Both opponents (a line said to one, looking at both) only when the moment is about both.
    exclude: (l: Utterance) =>
      (l.to === 'opponent' && l.gaze === 'opponents' && !topic.plural) || contradicts(l) || againstTrick(l),
  });

  // A play of the robot's own speaks from play.self when its emotion has lines there it may say.
  let category = topic.category;
  if (
    topic.selfPlay &&
    matchingLines(library, request('play.self')).some((l) => emotionOf(l, { emotion: labels }) !== null)
  )
    category = 'play.self';

  const nudge = topic.nudge === true;
  const roll = rng.next();
  if (!always && roll >= speakProbability(settings, category)) return null;
  // The cooldown holds back optional comments only, from the last comment's start.
  const earliest = nowMs + (nudge ? sel.nudgeAfterMs : sel.reactionMs);
  const from = nudge ? earliest : nowMs;
  if (!always && memory.lastCommentMs !== null && from - memory.lastCommentMs < sel.cooldownMs) return null;

  const line = selectUtterance(library, request(category), memory, sel.repeatWindow, rng);
  if (!line) return null;

  const addressee = addresseeOf(line.to);
  const slots: SlotValues = {
    partner: nameOf(state, partnerOf(robot)),
    opponent: nameOf(state, focus),
    ...topic.slots,
  };
  const text = renderUtterance(library, line, slots);
  const estimatedMs = Math.round(sel.estimate.baseMs + sel.estimate.msPerChar * [...text].length);
  let atMs = memory.busyUntilMs === null ? earliest : Math.max(earliest, memory.busyUntilMs + sel.gapMs);
  // A glad or sorry line waits for the end of the hold of a face it contradicts (a game's opener
  // said just after the sad face of the game lost): the face is seen its time, then goes calm as the
  // line begins (planBehaviour). A result's line needs no wait: its own face replaces any face.
  const held = state.face?.expression ? state.face : null;
  if (held && atMs < held.untilMs && !setup.postures.hold.events.includes(topic.event as HoldEvent)) {
    const v = expressionValence(setup.postures, held.expression as ExpressionName);
    if (v !== 0 && lineValence(setup.postures, line) === -v) atMs = held.untilMs;
  }
  // A nudge still waiting for its player: a line goes before it if it fits, else after it.
  const n = memory.nudge;
  if (!nudge && n && atMs < n.endMs + sel.gapMs && atMs + estimatedMs + sel.gapMs > n.startMs)
    atMs = n.endMs + sel.gapMs;
  if (!always && atMs - earliest > sel.maxDelayMs) return null;
  return {
    atMs,
    line,
    addressee,
    always,
    nudge,
    utterance: {
      id: line.id,
      category,
      text,
      language: library.language,
      to: line.to,
      addressee,
      // Said to both opponents when the line looks at both (the addressee is the one it is about).
      ...(line.to === 'opponent' ? { audience: line.gaze === 'opponents' ? ('both' as const) : ('one' as const) } : {}),
      estimatedMs,
      until,
      about: {
        event: topic.event,
        seat: topic.actor,
        moment: topic.moment,
        emotion: emotionOf(line, { emotion: labels }),
      },
    },
  };
}

type GazeStep = readonly [0 | 'dwell', GazeTarget];

/** Where to look when the event happens: the player to move, the card played, the winner... */
function gazeFor(state: BehaviourState, event: BehaviourEvent): GazeStep[] {
  const robot = state.robotSeat;
  const seat = (s: Seat): GazeTarget => (s === robot ? { kind: 'own-cards' } : { kind: 'seat', seat: s });
  switch (event.type) {
    case 'session-start':
    case 'session-end':
    case 'end':
      return [[0, seat(partnerOf(robot))]];
    case 'game-start':
      return [[0, seat(event.dealer)]];
    case 'shuffling':
    case 'cutting':
    case 'dealing':
    case 'turn':
      return [];
    case 'deal':
      return [
        [0, { kind: 'card', seat: event.dealer }],
        ['dwell', { kind: 'own-cards' }],
      ];
    case 'play': {
      const complete = (state.trick?.cards.length ?? 0) >= 4;
      return [
        [0, { kind: 'card', seat: event.seat }],
        ['dwell', complete ? { kind: 'play-area' } : seat(nextSeat(event.seat))],
      ];
    }
    case 'trick':
      return [[0, event.winner === robot ? { kind: 'play-area' } : seat(event.winner)]];
    case 'reappraisal':
      return [];
  }
}

/** Where to look while speaking, from the line's gaze mark; a sweep spreads over the line. */
function speechGaze(
  state: BehaviourState,
  mark: GazeMark,
  addressee: Seat | null,
  durationMs: number,
  aboutCard: Seat | null,
): (readonly [number, GazeTarget])[] {
  const robot = state.robotSeat;
  const sweep = (seats: Seat[]): (readonly [number, GazeTarget])[] =>
    seats.map((s, i) => [Math.round((durationMs * i) / seats.length), { kind: 'seat', seat: s }] as const);
  const everyone = [nextSeat(robot, 1), nextSeat(robot, 2), nextSeat(robot, 3)];
  switch (mark) {
    case 'none':
      return [];
    case 'addressee':
      if (addressee !== null) return [[0, { kind: 'seat', seat: addressee }]];
      return aboutCard === null ? sweep(everyone) : [[0, { kind: 'card', seat: aboutCard }]];
    case 'partner':
      return [[0, { kind: 'seat', seat: partnerOf(robot) }]];
    case 'opponents':
      return sweep(opponentsOf(robot));
    case 'everyone':
      return sweep(everyone);
    case 'play-area':
      return [[0, { kind: 'play-area' }]];
    case 'own-cards':
      return [[0, { kind: 'own-cards' }]];
  }
}
