// The exact solver for perfect-information positions.
export * from './position.js';
export { CLASS_THRESHOLDS, SearchAborted, Solver } from './solver.js';
export type { MoveClass, MoveValue, SolverOptions } from './solver.js';
