// Choosing among cards held as four suit masks, without building arrays.

import type { Card } from '../cards.js';
import { MASK_COUNT } from '../cards.js';

/** The k-th card (0-based, suits in order, ranks low to high) of the cards in `masks`. */
export function pickFromMasks(masks: Int32Array, k: number): Card {
  for (let s = 0; s < 4; s++) {
    let m = masks[s]!;
    const n = MASK_COUNT[m]!;
    if (k >= n) {
      k -= n;
      continue;
    }
    for (; k > 0; k--) m &= m - 1;
    return (s * 10 + (31 - Math.clz32(m & -m))) as Card;
  }
  throw new RangeError('pickFromMasks: index beyond the cards given');
}
