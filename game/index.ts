// The front door of the game engine: what the robot, the table bridge, the launcher and the tests may
// use. Pure and synchronous: no I/O, no clocks but injected ones. A name used only inside game/ is not
// listed here; the folders' modules import one another directly.

// Cards, seats and the rules: cards as integers 0..39, seats and teams, a game's state and its
// transitions, seeded deals, victories and sessions.
export {
  CardParseError,
  DECK,
  DECK_SIZE,
  RANKS,
  SUITS,
  formatCard,
  formatCards,
  parseCard,
  pointsOf,
  rankOf,
  suitOf,
} from './cards.js';
export type { Card, Suit, SuitLetter } from './cards.js';
export { SEATS, isSeat, nextSeat, partnerOf, teamName, teamOf } from './seats.js';
export type { Seat, Team } from './seats.js';
export { createRng, deriveSeed, shuffleInPlace } from './rng.js';
export type { Rng } from './rng.js';
export { dealCards } from './deal.js';
export type { Deal } from './deal.js';
export { Game, PlayError, PlayResult, winningIndex } from './game.js';
export type { DealSpec } from './game.js';
export {
  addGame,
  emptySessionScore,
  outcomeFromPoints,
  sessionWinner,
  turnsTheResult,
  victoriesFor,
} from './scoring.js';
export type { Renounce, SessionScore } from './scoring.js';

// The vocabulary players and the robot share: the injected clock, what a seat sees and is told, and
// a decision with the beliefs and the reason behind it.
export type { Clock, TimerId } from './clock.js';
export { SeatView, consistencyProblems, infoSetOf } from './view.js';
export type { InfoSet } from './view.js';
export { dealEvent, eventsOfPlay, leaderOf } from './events.js';
export type { GameEvent } from './events.js';
export { REASON_KINDS, decisionOf, forcedDecision, isReasonKind } from './decision.js';
export type { Beliefs, Decision, ReasonKind, ReasonSummary, SearchObjective } from './decision.js';

// Games and records: the loop that drives four players, sessions, game records and their scores.
export { PlayerContractError, playGame } from './match.js';
export { playSession } from './session.js';
export { RecordError, parseRecord, recordOf, scoreGame, scoreRecord } from './record.js';
export type { GameRecord, ParsedRecord, ScoreReport } from './record.js';

// Players: the interface, the built-in players and their registry (`rule`, `expert`, `timed:infer=50`...).
export type { Player, PlayerFactory, PlayerOptions } from './players/player.js';
export { RandomPlayer } from './players/random.js';
export { RulePlayer } from './players/rule.js';
export { ruleProbability } from './players/rule-odds.js';
export { ExpertPlayer } from './players/expert.js';
export { AdvisedPlayer, DEFAULT_ADVICE_MARGIN, adviceFor } from './players/advised.js';
export type { AdviceMargin } from './players/advised.js';
export { SEARCH_DEFAULTS, SearchPlayer } from './players/search-player.js';
export {
  BUILTIN_PLAYERS,
  PlayerSpecError,
  builtinPlayerKinds,
  onnxImitationModel,
  playerFactory,
} from './players/registry.js';

// Information sets and sampling; the search over worlds: deals consistent with what a seat knows, the
// worlds weighed by the other seats' plays, the per-card tallies that merge across workers.
export { NoConsistentDealError, countConsistentDeals, createDealSampler, sampleDeal } from './sampler.js';
export { WorldBuilder, positionOf } from './search/world.js';
export { ROLLOUT_DEFAULTS, RolloutPlayer } from './players/rollout.js';
export type { RolloutOptions } from './players/rollout.js';
export { ISMCTS_DEFAULTS, IsmctsPlayer } from './players/ismcts.js';
export type { IsmctsOptions } from './players/ismcts.js';
export { DEFAULT_CANDIDATES, PlayLikelihood, WeightedWorlds, checkTrust, weighedWorlds } from './search/inference.js';
export type { PlayModel } from './search/inference.js';
export { searchWorlds } from './search/search.js';
export type { PlayoutPolicy, SearchResult } from './search/search.js';
export { beliefsOf, emptyTally, mergeTally } from './search/tally.js';

// The exact double-dummy solver for perfect-information positions.
export { PositionError, parsePosition } from './solver/position.js';
export type { Position } from './solver/position.js';
export { CLASS_THRESHOLDS, SearchAborted, Solver } from './solver/solver.js';

// Tournaments: boards with duplicate deals, mergeable statistics, the summary.
export {
  BoardTally,
  boardCount,
  boardDeals,
  boardPasses,
  decisionRecorder,
  emptyStats,
  gamesPerBoard,
  mergeStats,
  playerOptions,
  recordFault,
  runBoards,
  summarize,
} from './tournament.js';
export type { FaultKind, PairedMargin, TournamentSpec, TournamentStats, TournamentSummary } from './tournament.js';

// Theory of mind: another seat's next card predicted from the observer's information set, and the
// models the search's inference can weigh worlds by.
export { ExpertSoftmaxPolicy, Tom1Policy } from './predict/policy.js';
export { possiblePlays, seatToMove } from './predict/possible.js';
export { DEFAULT_TOM1, PREDICTOR_KINDS, createPredictor, probabilityOf } from './predict/predictor.js';
export type { PendingPrediction, Prediction, Predictor, PredictorKind } from './predict/predictor.js';
export { GameSeatWorld, PolicyPlayLikelihood } from './predict/likelihood.js';
export { PredictionScorer } from './predict/evaluate.js';
export type { ObservedGame, WhoSummary } from './predict/evaluate.js';

// Hand assessment at the deal: the features a player reads, the fitted model, fuzzy strength.
export { FEATURE_COUNT, HAND_FEATURES, handFeatures } from './assessment/features.js';
export type { HandFeature, HandModel } from './assessment/features.js';
export { HandAssessor, STRENGTH_CLASSES, combineEstimates, strengthOf } from './assessment/hand-assessment.js';
export type { HandAssessment, StrengthClass } from './assessment/hand-assessment.js';
export { FITTED_MODEL } from './assessment/fitted-model.js';

// Explanations: why one card rather than another, the end-of-game review, warnings for a partner.
export { reasonFor, summarizeReason, winGainSupport, withReason } from './explain/reasons.js';
export { WIN_EDGE, chanceOf, decidingEdge, winsAsOften } from './explain/edge.js';
export type { DecidingEdge, SearchValue } from './explain/edge.js';
export type { CardOutcome, Reason } from './explain/reasons.js';
export { reviewGame } from './explain/review.js';
export type { GameReview, PlayedGame, ReviewMoment } from './explain/review.js';
export { situationWarnings } from './explain/warnings.js';

// Levels of play with a person's memory of the played cards (ACT-R activation, decay, noise).
export { baseLevel, logisticNoise, retrievalProbability } from './memory/activation.js';
export { CardMemory } from './memory/card-memory.js';
export type { MemoryParameters, Recollection } from './memory/card-memory.js';
export { believedWorlds } from './memory/believed-worlds.js';
export { DEFAULT_LEVELS, LEVEL_NAMES, isLevelName, memoryOf } from './memory/levels.js';
export type { LevelName, LevelSettings, LevelTable } from './memory/levels.js';
export { LevelPlayer } from './memory/level-player.js';

// Learned play models: a decision's encoding, the policy network's forward pass from an ONNX file's
// weights (files are read at the edge, through setModelLoader), datasets, the learned inference.
export {
  DECISION_FEATURES,
  DECISION_LAYOUT,
  FEATURES_VERSION,
  encodeInfoSet,
  legalCardsOf,
  playSeats,
} from './learned/encode.js';
export { ModelFormatError } from './learned/onnx-weights.js';
export { MlpPolicyNet } from './learned/mlp.js';
export type { PolicyNet } from './learned/mlp.js';
export { policyNet, registerPolicyNet, setModelLoader } from './learned/models.js';
export { DATASET_FORMAT, decisionRows } from './learned/dataset.js';
export type { DatasetHeader, DecisionRow } from './learned/dataset.js';
export { LearnedPlayLikelihood, learnedInferenceModel } from './learned/likelihood.js';
