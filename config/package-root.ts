// Where the package is: the folder with package.json and config/, found from this module's own
// location, so that the program finds its files from any working directory, run from the sources
// (config/) or from the build (dist/config/).

import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

let cached: string | undefined;

/** The package root: the first folder up from here with package.json and config/. */
export function packageRoot(): string {
  if (cached !== undefined) return cached;
  const here = fileURLToPath(import.meta.url);
  for (let dir = dirname(here); ;) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'config'))) return (cached = dir);
    const up = dirname(dir);
    if (up === dir) throw new Error(`cannot find the package root (package.json and config/) above ${here}`);
    dir = up;
  }
}

/**
 * A module of the build, e.g. `builtModule('robot', 'live', 'search', 'worker.js')`: what a worker
 * thread runs. Found from the package root, not from the caller's own location: the command line is
 * one bundled file (dist/launch/cli.js, for a quicker start), where every module's location is the
 * bundle's.
 */
export const builtModule = (...parts: string[]): URL => pathToFileURL(join(packageRoot(), 'dist', ...parts));

/** A path under the package's config/, e.g. `configPath('table', 'fiducials.yaml')`; the folder itself without parts. */
export const configPath = (...parts: string[]): string => join(packageRoot(), 'config', ...parts);

/** A file as shown to people: relative to the package root, else to the working directory, when inside it; else as given. */
export function shownPath(file: string): string {
  if (!isAbsolute(file)) return file;
  const inside = (dir: () => string): string | undefined => {
    try {
      const rel = relative(dir(), resolve(file));
      return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : undefined;
    } catch {
      return undefined;
    }
  };
  return inside(packageRoot) ?? inside(() => process.cwd()) ?? file;
}
