// The assignment schemes through the study room's front door: the draw reproduces from its seed and
// seats each person once; the counterbalanced schedule balances conditions against the partner's slot.

import { describe, expect, it } from 'vitest';
import { assign, conditionOf, parseStudy, partnerKind } from '../../robot/study/index.js';

const study = (scheme: string, conditions: string[], perSession = 3) =>
  parseStudy(
    `id: t\ntitle: T\nsessions: 60\nparticipantsPerSession: ${perSession}\ngames: 5\nassignment: { scheme: ${scheme}, seed: 11 }\nconditions:\n${conditions.map((c) => `  - id: ${c}\n`).join('')}`,
    't.yaml',
  );

describe('draw', () => {
  it('seats every person once, the robot in its seat, the same again from the seed', () => {
    const s = study('draw', ['a']);
    const partners = new Map<string, number>();
    for (let i = 1; i <= 30; i++) {
      const a = assign(s, i, ['X1', 'X2', 'X3']);
      expect(a).toEqual(assign(s, i, ['X1', 'X2', 'X3']));
      expect(a.seats['0']).toBe('robot');
      expect(Object.values(a.seats).sort()).toEqual(['X1', 'X2', 'X3', 'robot']);
      const p = ['X1', 'X2', 'X3'].find((c) => partnerKind(a.seats, c) === 'robot')!;
      partners.set(p, (partners.get(p) ?? 0) + 1);
    }
    // Each slot partners the robot sometimes: the draw does not favour one.
    expect([...partners.keys()].sort()).toEqual(['X1', 'X2', 'X3']);
  });

  it('gives each condition once in every block of C sessions', () => {
    const s = study('draw', ['a', 'b', 'c']);
    for (let block = 0; block < 5; block++) {
      const ids = [1, 2, 3].map((j) => conditionOf(s, block * 3 + j).condition.id).sort();
      expect(ids).toEqual(['a', 'b', 'c']);
    }
  });
});

describe('counterbalanced', () => {
  it('each condition meets each partner slot once per block of C x P, the order rotating', () => {
    const s = study('counterbalanced', ['a', 'b'], 3);
    for (let block = 0; block < 3; block++) {
      const cells = new Set<string>();
      for (let j = 1; j <= 6; j++) {
        const i = block * 6 + j;
        const a = assign(s, i, ['S0', 'S1', 'S2']);
        const slot = ['S0', 'S1', 'S2'].findIndex((c) => partnerKind(a.seats, c) === 'robot');
        cells.add(`${a.condition.id}/${slot}`);
      }
      expect(cells.size).toBe(6);
    }
    expect(conditionOf(s, 1).condition.id).not.toBe(conditionOf(s, 7).condition.id);
  });

  it('with an empty seat, a simulated player takes it', () => {
    const s = study('counterbalanced', ['a'], 2);
    const a = assign(s, 1, ['S0', 'S1']);
    expect(Object.values(a.seats).filter((h) => h === 'bot')).toHaveLength(1);
    expect(partnerKind(a.seats, 'S0')).toBe('robot');
  });
});
