// Config files live under the package root. This module runs from the sources (table-bridge/) and from
// the build (dist/table-bridge/), so it looks upward for the nearest package.json instead of assuming
// a depth.

import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | null = null;

/** The directory holding the project's package.json. */
export function packageRoot(): string {
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return (cached = dir);
    const up = dirname(dir);
    if (up === dir) throw new Error(`no package.json above ${fileURLToPath(import.meta.url)}`);
    dir = up;
  }
}

/** A path under the package root, e.g. `configPath('table', 'fiducials.yaml')`. */
export const configPath = (...parts: string[]): string => join(packageRoot(), 'config', ...parts);
