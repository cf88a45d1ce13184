// Shared-token comparison in constant time. Hashing first gives equal-length buffers, so neither the
// token's content nor its length leaks through timing.

import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();

export function tokensEqual(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}
