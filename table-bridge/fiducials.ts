// Fiducial marker ids (printed on the physical cards, read by the table's recognizer) to cards. The
// mapping is data: config/table/fiducials.yaml, 40 entries, each card exactly once.

import * as z from 'zod';
import type { Card } from '../game/index.js';
import { DECK, DECK_SIZE, formatCard, parseCard } from '../game/index.js';
import { configPath, loadYamlConfig, parseYamlConfig } from '../config/index.js';
import { TABLE_CONFIG_OPTIONS, cardNameSchema } from './messages.js';

const isCardName = (name: string): boolean => cardNameSchema.safeParse(name).success;

export class FiducialMap {
  readonly #cardById: ReadonlyMap<number, Card>;
  readonly #idByCard: readonly number[];

  private constructor(cardById: Map<number, Card>) {
    this.#cardById = cardById;
    const ids: number[] = [];
    for (const [id, card] of cardById) ids[card] = id;
    this.#idByCard = ids;
  }

  /** From (fiducial id, card) pairs; throws unless every card appears exactly once. */
  static fromEntries(entries: Iterable<readonly [number, Card]>): FiducialMap {
    const map = new Map<number, Card>();
    const seen = new Set<Card>();
    for (const [id, card] of entries) {
      if (map.has(id)) throw new Error(`fiducial ${id} is mapped twice`);
      if (seen.has(card)) throw new Error(`card ${formatCard(card)} is mapped twice`);
      map.set(id, card);
      seen.add(card);
    }
    if (seen.size !== DECK_SIZE) throw new Error(`a fiducial mapping needs all ${DECK_SIZE} cards, got ${seen.size}`);
    return new FiducialMap(map);
  }

  /** The card with this fiducial, or undefined for an id the mapping does not know. */
  cardOf(id: number): Card | undefined {
    return this.#cardById.get(id);
  }
  idOf(card: Card): number {
    return this.#idByCard[card]!;
  }
  entries(): [number, Card][] {
    return [...this.#cardById.entries()].sort((a, b) => a[0] - b[0]);
  }
}

/** The mapping shipped in config/table/fiducials.yaml: fiducial n is card id n (2S..AS, 2H..AH, 2D.., 2C..). */
export const defaultFiducials = (): FiducialMap => FiducialMap.fromEntries(DECK.map((c) => [c as number, c] as const));

const idKey = /^(0|[1-9]\d{0,8})$/;

const fiducialsFileSchema = z.object({
  fiducials: z.record(z.string(), cardNameSchema).superRefine((entries, ctx) => {
    const firstId = new Map<Card, string>();
    for (const [id, name] of Object.entries(entries)) {
      if (!idKey.test(id)) {
        ctx.addIssue({
          code: 'custom',
          path: [id],
          message: `fiducial id ${JSON.stringify(id)} is not a whole number 0 or more`,
          input: id,
        });
        continue;
      }
      if (!isCardName(name)) continue; // reported by the value's own schema
      const card = parseCard(name);
      const other = firstId.get(card);
      if (other !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: [id],
          message: `card ${formatCard(card)} is mapped twice (also by fiducial ${other})`,
          input: name,
        });
      else firstId.set(card, id);
    }
    const missing = DECK.filter((c) => !firstId.has(c)).map(formatCard);
    if (missing.length)
      ctx.addIssue({
        code: 'custom',
        message: `expected all ${DECK_SIZE} cards, missing ${missing.join(' ')}`,
        input: entries,
      });
  }),
});

const toMap = (file: z.infer<typeof fiducialsFileSchema>): FiducialMap =>
  FiducialMap.fromEntries(Object.entries(file.fiducials).map(([id, name]) => [Number(id), parseCard(name)] as const));

export const DEFAULT_FIDUCIALS_FILE = (): string => configPath('table', 'fiducials.yaml');

/** Loads a fiducial mapping (default: the shipped config/table/fiducials.yaml); throws ConfigError with file and line. */
export function loadFiducials(file: string = DEFAULT_FIDUCIALS_FILE()): FiducialMap {
  return toMap(loadYamlConfig(file, fiducialsFileSchema, TABLE_CONFIG_OPTIONS));
}

/** Like loadFiducials, from text (tests, or a mapping that came from elsewhere). */
export function parseFiducials(file: string, text: string): FiducialMap {
  return toMap(parseYamlConfig(text, file, fiducialsFileSchema, TABLE_CONFIG_OPTIONS));
}
