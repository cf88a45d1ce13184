// parceiro solve FILE|-: the exact value of every legal move in a perfect-information position.

import { PositionError, Solver, formatCard, parsePosition } from '../../game/index.js';
import type { Seat } from '../../game/index.js';
import { UsageError } from '../errors.js';
import { parseJson, readInput } from '../io.js';

interface SolveReport {
  toMove: Seat;
  /** Card -> final game points of the mover's team under best play after it. */
  moves: Record<string, number>;
}

export function solveCommand(file: string): SolveReport {
  const source = file === '-' ? 'standard input' : file;
  const value = parseJson(readInput(file), source);
  try {
    const position = parsePosition(value);
    const { toMove, moves } = new Solver().moveValues(position);
    return { toMove, moves: Object.fromEntries(moves.map((m) => [formatCard(m.card), m.value])) };
  } catch (e) {
    if (e instanceof PositionError) throw new UsageError(`${source}: ${e.message}`);
    throw e;
  }
}
