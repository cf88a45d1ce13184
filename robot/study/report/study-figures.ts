// The paper's figures from a study's tables (export/): each questionnaire scale before and after by
// partner kind (robot or human) and by condition, with the change of those who answered both; the
// robot team's share of sessions won and its victory margin per session. Pure: tables in, figures out.

import type { Row } from '../export/export.js';
import { meanFigure, shareFigure } from './stats.js';
import type { MeanFigure, ShareFigure } from './stats.js';

export interface GroupFigure {
  group: string;
  pre: MeanFigure;
  post: MeanFigure;
  /** post - pre, of the participants with both. */
  change: MeanFigure;
}

export interface ScaleFigures {
  /** The score column's scale (e.g. trust) and its questionnaire(s). */
  scale: string;
  questionnaires: string[];
  byPartner: GroupFigure[];
  byCondition: GroupFigure[];
}

export interface SessionResult {
  session: string;
  condition: string;
  result: string | null;
  margin: number | null;
}

export interface StudyFigures {
  scales: ScaleFigures[];
  sessions: SessionResult[];
  /** Sessions the robot's team won (by victories), of those with a finished game. */
  winRate: ShareFigure;
  /** Victories of the robot's team minus the other team's, per session. */
  margin: MeanFigure;
  /** Per condition: win rate and margin. */
  byCondition: { condition: string; winRate: ShareFigure; margin: MeanFigure }[];
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

function groups(
  rows: readonly Row[],
  scale: string,
  key: 'partner' | 'condition',
  order: readonly string[],
): GroupFigure[] {
  const scores = (g: string, phase: string): Map<string, number> =>
    new Map(
      rows
        .filter((r) => r[key] === g && r.phase === phase && num(r[scale]) !== null)
        .map((r) => [String(r.code), num(r[scale])!]),
    );
  const present = new Set(rows.filter((r) => num(r[scale]) !== null).map((r) => String(r[key] ?? '')));
  return order
    .filter((g) => present.has(g))
    .map((g) => {
      const pre = scores(g, 'pre');
      const post = scores(g, 'post');
      const change = [...post].filter(([c]) => pre.has(c)).map(([c, v]) => v - pre.get(c)!);
      return {
        group: g,
        pre: meanFigure([...pre.values()]),
        post: meanFigure([...post.values()]),
        change: meanFigure(change),
      };
    });
}

export function studyFigures(
  questionnaires: readonly Row[],
  sessions: readonly Row[],
  conditions: readonly string[],
): StudyFigures {
  const scaleColumns = [
    ...new Set(questionnaires.flatMap((r) => Object.keys(r).filter((k) => k.startsWith('score_')))),
  ];
  const scales = scaleColumns.map((col): ScaleFigures => ({
    scale: col.slice('score_'.length),
    questionnaires: [
      ...new Set(questionnaires.filter((r) => num(r[col]) !== null).map((r) => String(r.questionnaire))),
    ],
    byPartner: groups(questionnaires, col, 'partner', ['robot', 'human', 'bot']),
    byCondition: groups(questionnaires, col, 'condition', conditions),
  }));
  const results: SessionResult[] = sessions.map((s) => ({
    session: String(s.session),
    condition: String(s.condition),
    result: typeof s.robot_team_result === 'string' ? s.robot_team_result : null,
    margin: num(s.victory_margin),
  }));
  const summary = (rs: readonly SessionResult[]) => {
    const played = rs.filter((r) => r.result !== null);
    return {
      winRate: shareFigure(played.filter((r) => r.result === 'won').length, played.length),
      margin: meanFigure(played.map((r) => r.margin).filter((m): m is number => m !== null)),
    };
  };
  return {
    scales,
    sessions: results,
    ...summary(results),
    byCondition: conditions.map((c) => ({ condition: c, ...summary(results.filter((r) => r.condition === c)) })),
  };
}
