// Every column of the export, described once: the codebook.json written beside the CSV files, and the
// column order of each file.

export interface ColumnDoc {
  name: string;
  type: 'text' | 'integer' | 'number' | 'logical' | 'datetime';
  description: string;
  /** The values a categorical column takes. */
  values?: readonly string[];
}

const c = (name: string, type: ColumnDoc['type'], description: string, values?: readonly string[]): ColumnDoc =>
  values ? { name, type, description, values } : { name, type, description };

const SEATS = [0, 1, 2, 3].map((s) =>
  c(
    `seat${s}`,
    'text',
    `who sat in seat ${s}: robot, a participant's code, bot (a simulated player in an empty seat) or deleted (a participant whose data was deleted)`,
  ),
);
const STUDY = c('study', 'text', "the study's id (its study file's `id`)");
const SESSION = c('session', 'text', "the session's id (S01, S02... in the order planned)");
const CONDITION = c('condition', 'text', "the session's condition (a condition id of the study file)");
const ROBOT_SEAT = c(
  'robot_seat',
  'integer',
  "the robot's seat (0 to 3); its partner sits opposite, seat (robot_seat + 2) mod 4",
);
const ROBOT_PARTNER = c('robot_partner', 'text', "who partnered the robot: a participant's code, bot or deleted");

export const SESSION_COLUMNS: readonly ColumnDoc[] = [
  STUDY,
  SESSION,
  c('session_index', 'integer', "the session's number, from 1, in the order planned"),
  CONDITION,
  c('state', 'text', "the session's state when exported", ['planned', 'running', 'paused', 'ended', 'crashed']),
  ...SEATS,
  ROBOT_SEAT,
  ROBOT_PARTNER,
  c('games_planned', 'integer', 'games the session was planned for'),
  c('games_played', 'integer', 'games that ended in the recording'),
  c(
    'victories_robot_team',
    'integer',
    "victories of the robot's team over the session (61-90 points: 1, 91-119: 2, 120: 4)",
  ),
  c('victories_other_team', 'integer', 'victories of the other team over the session'),
  c('victory_margin', 'integer', "victories_robot_team - victories_other_team (the paper's victory margin)"),
  c('robot_team_result', 'text', "the session's result for the robot's team, by victories", ['won', 'lost', 'drawn']),
  c('points_robot_team', 'integer', "card points of the robot's team, summed over the session's games"),
  c('points_other_team', 'integer', "card points of the other team, summed over the session's games"),
  c(
    'duration_s',
    'number',
    "the games' time, seconds: from the first deal to the session's end, pauses included; a session recorded in parts (a crash, then a restart) sums each part's time from its first game event to its end, not the gap between the parts (NA when no game was dealt)",
  ),
  c(
    'paused_s',
    'number',
    'of duration_s, the seconds the games were paused (the operator pausing from the dashboard, the study holding the games); duration_s - paused_s is the time played',
  ),
  c('parts', 'integer', 'the recording parts holding game time: 1, or more for a session restarted after a crash'),
  c('started_at', 'datetime', 'when the session started (ISO 8601, UTC)'),
  c('ended_at', 'datetime', 'when the session ended (ISO 8601, UTC)'),
  c(
    'recording',
    'text',
    "the recording's file, relative to the study's sessions/ folder; parts after a restart follow, separated by ;",
  ),
  c('recording_complete', 'logical', 'every part of the recording was read to its end without damage'),
];

export const GAME_COLUMNS: readonly ColumnDoc[] = [
  STUDY,
  SESSION,
  CONDITION,
  c('game', 'integer', 'the game in the session, from 1'),
  ...SEATS,
  ROBOT_SEAT,
  ROBOT_PARTNER,
  c('result', 'text', "the game's result for the robot's team", ['won', 'lost', 'drawn', 'unfinished']),
  c('points_robot_team', 'integer', "the robot's team's card points in the game (of 120)"),
  c('points_other_team', 'integer', "the other team's card points in the game"),
  c('victories_robot_team', 'integer', "victories the robot's team won in this game (0, 1, 2 or 4)"),
  c('victories_other_team', 'integer', 'victories the other team won in this game'),
  c('total_victories_robot_team', 'integer', "the robot's team's victories in the session after this game"),
  c('total_victories_other_team', 'integer', "the other team's victories in the session after this game"),
  c('renounce', 'logical', 'the game ended by a renounce (a player did not follow suit while able)'),
  c(
    'duration_s',
    'number',
    "from the deal to the game's end, seconds, pauses included; a game cut by a crash and finished after the restart sums its time in each part, not the gap between them (NA for a game that did not end)",
  ),
  c('paused_s', 'number', 'of duration_s, the seconds the game was paused'),
];

const RELATIONS = ['self', 'partner', 'opponent'] as const;

export const DECISION_COLUMNS: readonly ColumnDoc[] = [
  STUDY,
  SESSION,
  CONDITION,
  c('time_s', 'number', "seconds from the start of the session's recording (of its part, after a restart)"),
  c('game', 'integer', 'the game, from 1; NA before the first deal'),
  c('trick', 'integer', 'the trick in play, from 1 to 10; NA between games'),
  c(
    'kind',
    'text',
    "what the robot did: decision (chose a card), emotion (its appraisal's reaction to a game event), face (showed an expression), line (began to say a line, or dropped it)",
    ['decision', 'emotion', 'face', 'line'],
  ),
  c(
    'about_seat',
    'integer',
    'the seat the event is about: who played or took the trick (emotion), of whom a line speaks; the robot for a decision',
  ),
  c('about_code', 'text', "who sat there: robot, a participant's code, bot or deleted"),
  c('about_relation', 'text', 'that seat seen from the robot', RELATIONS),
  c(
    'event',
    'text',
    "emotion and line: the game event reacted to (deal, play, trick, end; operator for the operator's lines)",
  ),
  c('card', 'text', 'decision: the card played (rank then suit, e.g. 7H)'),
  c(
    'win_probability',
    'number',
    "decision: the robot's estimate that its team wins the game (0..1); NA when it did not search (a forced card)",
  ),
  c('think_ms', 'number', 'decision: the search time, ms'),
  c(
    'fallback',
    'text',
    'decision: how the card was chosen: search, forced (one legal card) or rule (the rule-based player, when the search had no time)',
    ['search', 'forced', 'rule'],
  ),
  c('reason', 'text', 'decision: why the card rather than the next best (game/explain); NA when none was found'),
  c('emotion', 'text', 'emotion: the strongest emotion of the reaction (OCC type)'),
  c(
    'intensity',
    'number',
    "emotion: its intensity, on the appraisal's scale (config/appraisal/, FAtiMA style: 0 to 10)",
  ),
  c(
    'mood',
    'number',
    "emotion: the mood after the reaction, on the appraisal's scale (negative: low, positive: high; -10 to 10)",
  ),
  c('face', 'text', 'face: the expression shown (ROS4HRI name)'),
  c('line_category', 'text', 'line: the utterance category (config/utterances/)'),
  c('line_id', 'text', "line: the line's id in the utterance library"),
  c('line_text', 'text', 'line: the words (participants are spoken of by their seat, never by name)'),
  c('line_outcome', 'text', 'line: spoken, or dropped: and the reason'),
  c('addressee_seat', 'integer', 'line: the seat addressed; NA for the whole table'),
  c('addressee_code', 'text', 'line: who sat there'),
  c('addressee_relation', 'text', 'line: that seat seen from the robot', RELATIONS),
];

export const QUESTIONNAIRE_COLUMNS: readonly ColumnDoc[] = [
  STUDY,
  c('code', 'text', "the participant's pseudonymous code"),
  SESSION,
  CONDITION,
  c('seat', 'integer', "the participant's seat"),
  c('partner', 'text', 'who partnered the participant: robot, human (another participant) or bot', [
    'robot',
    'human',
    'bot',
  ]),
  c('questionnaire', 'text', "the questionnaire's id (trust14, godspeed, demographics, or the study's own)"),
  c('phase', 'text', 'before (pre) or after (post) the games', ['pre', 'post']),
  c('version', 'text', "the questionnaire definition's version"),
  c('language', 'text', 'the language it was answered in'),
  c('complete', 'logical', 'the participant finished it (FALSE: abandoned or still open; the items answered are kept)'),
  c('started_at', 'datetime', 'the first answer (ISO 8601, UTC)'),
  c('updated_at', 'datetime', 'the last change (ISO 8601, UTC)'),
];

/** The codebook's entry for an item or score column, added per study. */
export const itemColumn = (name: string, questionnaires: readonly string[]): ColumnDoc =>
  c(
    name,
    'text',
    `the answer to item "${name.replace(/^item_/, '')}" of ${questionnaires.join(', ')} as given (NA: not asked or not answered)`,
  );
export const scoreColumn = (name: string, questionnaires: readonly string[]): ColumnDoc =>
  c(
    name,
    'number',
    `the score of scale "${name.replace(/^score_/, '')}" of ${questionnaires.join(', ')}, as the questionnaire's definition scores it (trust14's trust: 0-100 %; Godspeed's scales: 1-5); NA when an item is missing`,
  );
