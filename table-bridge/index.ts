// The public surface of the table bridge: the protocol's messages and validation, the fiducial
// mapping, the server and its handler seam, the simulated table and the local referee.

export * from './messages.js';
export type { ClientToServerEvents, ServerToClientEvents } from './socket-events.js';
export { FiducialMap, DEFAULT_FIDUCIALS_FILE, defaultFiducials, loadFiducials, parseFiducials } from './fiducials.js';
// config/'s, re-exported for existing importers (the same class as behaviours' and appraisal's).
export { ConfigError, configPath, packageRoot } from '../config/index.js';
export type { TableLogger } from './logger.js';
export { silentLogger } from './logger.js';
export { accept, eventFingerprint, isTableQuestion, refuse } from './table-handler.js';
export type {
  CardEvent,
  ControlEvent,
  Delivery,
  Prompt,
  RefusedAgain,
  Rejection,
  SessionSnapshot,
  TableEventName,
  TableHandler,
  TableInfo,
  TableOutbox,
  Verdict,
} from './table-handler.js';
export { seatingOf, tableState } from './table-state.js';
export { SeqLedger } from './seq-ledger.js';
export type { LedgerSnapshot } from './seq-ledger.js';
export { handNow, tableDeal } from './table-deal.js';
export { tokensEqual } from './token.js';
export { DEFAULT_CONNECTION_CAPS, guardConnections } from './connection-guard.js';
export type { ConnectionCaps } from './connection-guard.js';
export { pageOriginAllowed, sameOriginPage } from './page-origin.js';
export { answerJson, readPagePost } from './page-post.js';
export { MESSAGE_LIMIT, TableServer } from './table-server.js';
export type { TableServerOptions } from './table-server.js';
export { HelloRefusedError, SimulatedTable } from './simulated-table.js';
export type { BotKind, Fault, FaultReport, SimulatedTableOptions } from './simulated-table.js';
