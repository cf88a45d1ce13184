// The regression corpus test/solver/corpus.json.
//
// Regenerate it (a few minutes: the 6-trick positions are slow for the plain alpha-beta reference):
//   MAKE_CORPUS=1 npx vitest run test/solver/make-corpus.test.ts
// In a normal run nothing is written: the tests check that the file exists, holds at least 200 valid
// positions, that its positions are those of the seeded generator, and that the reference still gives
// its values (re-checked for every entry up to 5 tricks left; 6-trick entries only when regenerating).

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { CorpusFile } from './positions.js';
import { CORPUS_SEED, corpusJson, corpusPositions, makeCorpus } from './positions.js';
import { checkPosition, describePosition, referenceMoveValues, toStrPosition } from './reference.js';

const CORPUS_PATH = fileURLToPath(new URL('./corpus.json', import.meta.url));
const MAKE = Boolean(process.env['MAKE_CORPUS']);

const readCorpus = (): CorpusFile => JSON.parse(readFileSync(CORPUS_PATH, 'utf8')) as CorpusFile;

describe('regression corpus file', () => {
  it(
    MAKE ? 'regenerates corpus.json (MAKE_CORPUS is set)' : 'corpus.json exists with at least 200 valid entries',
    () => {
      if (MAKE) writeFileSync(CORPUS_PATH, corpusJson(makeCorpus()));
      expect(existsSync(CORPUS_PATH)).toBe(true);
      const corpus = readCorpus();
      expect(corpus.seed).toBe(CORPUS_SEED);
      expect(corpus.entries.length).toBeGreaterThanOrEqual(200);
      expect(new Set(corpus.entries.map((e) => e.name)).size).toBe(corpus.entries.length);
      const tricksLeft = new Set<number>();
      for (const e of corpus.entries) {
        checkPosition(e);
        tricksLeft.add(e.hands[e.leader]!.length + (e.trick.length ? 1 : 0));
        expect(e.value).toBe(Math.max(...Object.values(e.moves)));
      }
      expect([...tricksLeft].sort()).toEqual([1, 2, 3, 4, 5, 6]);
    },
    1_800_000,
  );

  it('holds the positions of the seeded generator', () => {
    const corpus = readCorpus();
    const expected = corpusPositions(corpus.seed);
    expect(corpus.entries.map((e) => e.name)).toEqual(expected.map((x) => x.name));
    corpus.entries.forEach((e, i) => {
      const { name: _name, toMove: _toMove, value: _value, moves: _moves, ...position } = e;
      expect(position).toEqual(toStrPosition(expected[i]!.position));
    });
  });

  it('agrees with the reference on every entry with up to 5 tricks left', () => {
    for (const e of readCorpus().entries) {
      const cards = e.hands.flat().length + e.trick.length;
      if (cards > 20) continue;
      const r = referenceMoveValues(e, cards <= 12 ? 'minimax' : 'alphabeta');
      expect({ toMove: r.toMove, value: r.value, moves: r.moves }, `${e.name}: ${describePosition(e)}`).toEqual({
        toMove: e.toMove,
        value: e.value,
        moves: e.moves,
      });
    }
  }, 60_000);
});
