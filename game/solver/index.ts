// The exact solver for perfect-information positions.
export * from './position.js';
export { SearchAborted, Solver } from './solver.js';
export type { MoveValue, SolverOptions } from './solver.js';
