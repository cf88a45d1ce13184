// Behaviours publish in their own terms (behaviours/topics.ts); this adapter puts each message on the
// bus as the ROS 2 message its topic carries: stamped headers, ROS field names, durations as
// builtin_interfaces/Duration. The topic names are the same on both sides.

import type { Publisher, Topic, TopicMessages } from '../../behaviours/index.js';
import { TOPICS } from '../../behaviours/index.js';
import type { Bus } from '../bus/index.js';
import { headerAt } from '../bus/index.js';

const snake = (name: string): string => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

export class BusBehaviourPublisher implements Publisher {
  constructor(
    private readonly bus: Bus,
    /** Milliseconds since the epoch, for the headers' stamps (the session's injected clock). */
    private readonly clock: () => number,
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
        this.bus.publish('lookAt', { header: headerAt(now, m.frameId), point: m.point });
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
