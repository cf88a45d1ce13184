// The appraisal's report as the latched `emotions` message: every emotion felt with its intensity and
// whom it is about (a seat, or a team), the mood and the strongest emotion's name.

import type { EmotionReport, FeltEmotion } from '../../../appraisal/index.js';
import type { EmotionalStateMessage } from '../../bus/index.js';

const round = (x: number): number => Math.round(x * 1000) / 1000;

export function emotionOf(e: FeltEmotion): EmotionalStateMessage['emotions'][number] {
  const seat = typeof e.target === 'number' ? e.target : -1;
  const team = e.target === 'team' || e.target === 'opponents' ? e.target : '';
  return { type: e.type, intensity: round(e.intensity), target: seat, target_team: team };
}

export function emotionalStateMessage(report: EmotionReport): EmotionalStateMessage {
  return {
    emotions: report.emotions.map(emotionOf),
    mood: round(report.mood),
    strongest: report.strongest?.type ?? '',
    at_ms: report.at,
  };
}
