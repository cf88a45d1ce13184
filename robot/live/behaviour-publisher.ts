// Behaviours publish in their own terms (behaviours/topics.ts); this adapter puts each message on the
// bus as the ROS 2 message its topic carries: stamped headers, ROS field names, durations as
// builtin_interfaces/Duration. The topic names are the same on both sides.

import type { GazeTarget, Publisher, Topic, TopicMessages } from '../../behaviours/index.js';
import { TOPICS, gazeTargetNamed } from '../../behaviours/index.js';
import type { Bus, HeaderMessage, PointStampedMessage } from '../bus/index.js';
import { headerAt } from '../bus/index.js';

type LookPoint = PointStampedMessage['point'];

const lookKey = (h: HeaderMessage, p: LookPoint): string =>
  `${h.stamp.sec}.${h.stamp.nanosec} ${h.frame_id} ${p.x} ${p.y} ${p.z}`;

/**
 * What each look the node published was aimed at. The look-at topic carries a geometry_msgs point
 * only, and recordings and replays hold that message as it is, so the target stays in the process:
 * the publisher notes it here and the tables' forwarding reads it back when the look comes off the
 * bus (at once in-process, later over ROS 2), matched by stamp, frame and point.
 */
export class PublishedLooks {
  // A few, for looks still on their way over ROS 2; older ones are dropped.
  static readonly KEPT = 32;
  readonly #targets = new Map<string, GazeTarget>();

  noted(header: HeaderMessage, point: LookPoint, target: GazeTarget): void {
    this.#targets.set(lookKey(header, point), target);
    if (this.#targets.size > PublishedLooks.KEPT) this.#targets.delete(this.#targets.keys().next().value!);
  }

  /** The target of a look this node published, or undefined for a look from elsewhere. */
  targetOf(header: HeaderMessage, point: LookPoint): GazeTarget | undefined {
    return this.#targets.get(lookKey(header, point));
  }
}

const snake = (name: string): string => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

export class BusBehaviourPublisher implements Publisher {
  constructor(
    private readonly bus: Bus,
    /** Milliseconds since the epoch, for the headers' stamps (the session's injected clock). */
    private readonly clock: () => number,
    /** Where the targets of the looks are noted for the tables (the look-at message has none). */
    private readonly looks?: PublishedLooks,
  ) {}

  publish<T extends Topic>(topic: T, message: TopicMessages[T]): void {
    const now = this.clock();
    switch (topic) {
      case TOPICS.expression: {
        const m = message as TopicMessages[typeof TOPICS.expression];
        this.bus.publish('expression', {
          header: headerAt(now),
          expression: m.expression,
          valence: m.valence,
          arousal: m.arousal,
          confidence: m.confidence,
        });
        return;
      }
      case TOPICS.jointTrajectory: {
        const m = message as TopicMessages[typeof TOPICS.jointTrajectory];
        this.bus.publish('posture', {
          header: headerAt(now),
          joint_names: m.jointNames,
          points: m.points.map((p) => ({
            positions: p.positions,
            velocities: [],
            accelerations: [],
            effort: [],
            time_from_start: {
              sec: Math.floor(p.timeFromStartMs / 1000),
              nanosec: Math.round((p.timeFromStartMs % 1000) * 1e6),
            },
          })),
        });
        return;
      }
      case TOPICS.lookAt: {
        const m = message as TopicMessages[typeof TOPICS.lookAt];
        const header = headerAt(now, m.frameId);
        const target = gazeTargetNamed(m.target);
        if (target && this.looks) this.looks.noted(header, m.point, target);
        this.bus.publish('lookAt', { header, point: m.point });
        return;
      }
      case TOPICS.say: {
        const m = message as TopicMessages[typeof TOPICS.say];
        this.bus.publish('say', { text: m.text, language: m.language, id: m.id });
        return;
      }
      case TOPICS.utterance: {
        const m = message as TopicMessages[typeof TOPICS.utterance];
        this.bus.publish('utterance', {
          phase: m.phase,
          id: m.id,
          category: m.category,
          text: m.text,
          language: m.language,
          target: m.to,
          addressee: m.addressee ?? -1,
          audience: m.audience ?? '',
          backend: m.backend,
          reason: m.reason ?? '',
          event: m.about.event,
          about_seat: m.about.seat ?? -1,
          moment: m.about.moment ?? -1,
          emotion: m.about.emotion ?? '',
          due_in_ms: m.dueInMs === undefined ? -1 : Math.round(m.dueInMs),
        });
        return;
      }
      case TOPICS.toggles: {
        const m = message as TopicMessages[typeof TOPICS.toggles];
        const t = m.toggles;
        this.bus.publish('toggles', {
          speech: t.speech,
          postures: t.postures,
          gaze: t.gaze,
          partner_speech: t.partnerSpeech,
          opponent_speech: t.opponentSpeech,
          expressiveness: t.expressiveness,
          changed: m.changed.map(snake),
          by: m.by,
        });
        return;
      }
      default: {
        const never: never = topic;
        throw new Error(`no bus topic for behaviour topic ${String(never)}`);
      }
    }
  }
}
