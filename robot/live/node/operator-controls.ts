// The operator's requests on the bus, carried out: pause and resume go to the session as a control
// event (as a table's would), a language change swaps the behaviours' library and is reported on the
// latched `language` topic, and wizard-of-oz lines and expressions are handed to the scheduler now.
// Requests arrive over the bus (from the dashboard, or `ros2 topic pub`), so the recording has them.

import type {
  BehaviourSetup,
  BehaviourScheduler,
  Clock,
  ExpressionName,
  PlannedUtterance,
  UtteranceLibrary,
  UtteranceTarget,
} from '../../../behaviours/index.js';
import { EXPRESSIONS, expressionPosture } from '../../../behaviours/index.js';
import type { Seat } from '../../../game/index.js';
import type { TableInfo } from '../../../table-bridge/index.js';
import type { Bus, GameEventMessage, GameStateMessage, Unsubscribe } from '../../bus/index.js';
import { fillWizardLine, findLine, wizardLibraryOf } from '../../web/index.js';
import type { WizardLibrary } from '../../web/index.js';
import type { SessionRuntime } from '../session/index.js';
import type { NodeLogger } from './logger.js';
import type { RobotReactions } from './reactions.js';

/** The operator, seen by the session as a table that hosts no seat. */
const OPERATOR: TableInfo = { id: 'operator', name: 'operator', kind: 'virtual', seats: [] };

interface OperatorControlsOptions {
  bus: Bus;
  runtime: SessionRuntime;
  reactions: RobotReactions;
  scheduler: BehaviourScheduler;
  /** The behaviour setup of each language the robot can speak, by language tag. */
  setups: ReadonlyMap<string, BehaviourSetup>;
  /** The whole utterance library of each language: a wizard line may name any of its lines by id. */
  libraries?: ReadonlyMap<string, UtteranceLibrary>;
  language: string;
  robotSeat: Seat;
  clock: Clock;
  log: NodeLogger;
}

const isExpression = (name: string): name is ExpressionName => (EXPRESSIONS as readonly string[]).includes(name);
const TARGETS = new Set(['partner', 'opponent', 'all']);

/** Game events kept for filling a line's slots (this game's are what matter). */
const KEPT_EVENTS = 60;

export function listenForOperator(o: OperatorControlsOptions): Unsubscribe {
  let seq = 0;
  let language = o.language;
  let wizardLines = 0;
  const libraries = new Map<string, WizardLibrary>(
    [...(o.libraries ?? new Map([...o.setups].map(([l, s]) => [l, s.utterances])))].map(([l, lib]) => [
      l,
      wizardLibraryOf(lib),
    ]),
  );
  // The session as the wizard's slots see it: a line asked for by id alone (e.g. from `ros2 topic pub`) is filled here.
  const view: { game: GameStateMessage | null; events: GameEventMessage[] } = { game: null, events: [] };
  o.bus.publish('language', { language, by: 'config' });
  const offs = [
    o.bus.subscribe('gameState', (m) => void (view.game = m)),
    o.bus.subscribe('gameEvents', (m) => {
      view.events.push(m);
      if (view.events.length > KEPT_EVENTS) view.events.splice(0, view.events.length - KEPT_EVENTS);
    }),
    o.bus.subscribe('sessionControl', (m) => {
      // Starting the next session is the node's business, not this session's (parceiro-node.ts).
      if (m.action === 'next_session') return;
      if (m.action !== 'pause' && m.action !== 'resume') {
        o.log.warn({ request: m }, 'a session control was refused: the action must be pause or resume');
        return;
      }
      void Promise.resolve(o.runtime.onControl({ table: OPERATOR, seq: ++seq, action: m.action })).then((v) => {
        if (!v.ok) o.log.warn({ request: m, reason: v.reason }, 'the session refused the operator control');
      });
    }),
    o.bus.subscribe('setLanguage', (m) => {
      const setup = o.setups.get(m.language);
      if (!setup) {
        o.log.warn(
          { request: m, languages: [...o.setups.keys()] },
          'a language change was refused: no utterances in that language',
        );
        return;
      }
      language = m.language;
      o.reactions.useSetup(setup);
      o.bus.publish('language', { language, by: m.by || 'operator' });
    }),
    o.bus.subscribe('wizardSay', (m) => {
      let text = m.text.trim();
      let target = m.target;
      if (!text && m.utterance_id) {
        const library = libraries.get(m.language || language);
        const line = findLine(library, m.utterance_id);
        if (!library || !line) {
          o.log.warn(
            { request: m },
            `a wizard line was refused: no utterance ${JSON.stringify(m.utterance_id)} in the ${m.language || language} library (ids are category#n)`,
          );
          return;
        }
        text = fillWizardLine(library, line, view);
        target ||= line.to;
      }
      if (!text || !TARGETS.has(target)) {
        o.log.warn(
          { request: m },
          'a wizard line was refused: it needs a text (or a library line id) and a target (partner, opponent or all)',
        );
        return;
      }
      const setup = o.setups.get(language)!;
      const now = o.clock.now();
      const to = target as UtteranceTarget;
      const utterance: PlannedUtterance = {
        id: m.utterance_id || `wizard#${++wizardLines}`,
        category: 'operator',
        text,
        language: m.language || language,
        to,
        addressee: to === 'partner' ? (((o.robotSeat + 2) & 3) as Seat) : null,
        estimatedMs: Math.round(
          setup.settings.selection.estimate.baseMs + setup.settings.selection.estimate.msPerChar * [...text].length,
        ),
        // The operator asked for it now: it waits its turn however the game goes.
        until: null,
        about: { event: 'operator', seat: null, moment: null, emotion: null },
      };
      o.scheduler.run({
        event: 'operator',
        atMs: now,
        moment: null,
        commands: [{ kind: 'speech', atMs: now, utterance }],
      });
    }),
    o.bus.subscribe('wizardExpression', (m) => {
      if (!isExpression(m.expression) || !(m.intensity >= 0 && m.intensity <= 1)) {
        o.log.warn(
          { request: m },
          `a wizard expression was refused: expected one of ${EXPRESSIONS.join(', ')} with an intensity 0..1`,
        );
        return;
      }
      const setup = o.setups.get(language)!;
      const now = o.clock.now();
      o.scheduler.run({
        event: 'operator',
        atMs: now,
        moment: null,
        commands: [
          {
            kind: 'posture',
            atMs: now,
            posture: expressionPosture(setup.postures, m.expression, m.intensity),
            cause: 'operator',
          },
        ],
      });
    }),
  ];
  return () => offs.forEach((off) => off());
}
