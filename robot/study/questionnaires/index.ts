// Questionnaires as data: definitions (SurveyJS JSON with their scales, config/questionnaires/ or a
// study's own), their scores, the answers as given (one file per participant, questionnaire and
// phase), and the desk that serves them to the participants' pages during a study session.
export { QUESTIONNAIRE_LANGUAGES, loadQuestionnaire, questionnaireDirs, readQuestionnaireFile } from './definition.js';
export type { Questionnaire, QuestionnaireLanguage, QuestionnaireLookup, ScaleDefinition } from './definition.js';
export { scoreAnswers, scoreQuestionnaire } from './scoring.js';
export { AnswerStore, PHASES, answerPath, answerRefusal, isParticipantCode } from './answers.js';
export type { AnswerFile, Phase } from './answers.js';
export { QUESTIONNAIRE_API, QuestionnaireDesk } from './desk.js';
export type { DeskParticipant, DeskProgress, DeskStage, DeskView, QuestionnaireDeskOptions } from './desk.js';
