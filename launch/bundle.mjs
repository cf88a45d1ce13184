// The command line as one file. Node 20 loads the ~800 modules behind dist/launch/cli.js one by one
// (resolve, read, parse each): 0.8 s of CPU before a command does anything, half of it saved by
// loading one file. Every command starts quicker, the ones that stop at once on a mistake most (the
// test suite starts the program some hundreds of times). tsc's dist/launch/cli.js is replaced by
// the bundle; the rest of dist/ stays as tsc built it (worker threads load their own modules from
// there: config/package-root.ts builtModule).
//
// Left outside the bundle, loaded from node_modules as before: packages that find their own files
// from __dirname (piscina's worker, socket.io's client files, pino's and bullmq's helpers), native
// ones (rclnodejs, onnxruntime-node) and the browser driver.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const EXTERNAL = [
  'piscina',
  'socket.io',
  'bullmq',
  'ioredis',
  'pino',
  'pino-pretty',
  'rclnodejs',
  'onnxruntime-node',
  'playwright-core',
];

const cli = fileURLToPath(new URL('../dist/launch/cli.js', import.meta.url));
const MARK = '// parceiro: the command line, bundled (launch/bundle.mjs)';

// Bundled already (this step run again without tsc): once is enough.
if (!readFileSync(cli, 'utf8').includes(MARK))
  await build({
    entryPoints: [cli],
    outfile: cli,
    allowOverwrite: true,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: EXTERNAL,
    // Bundled CommonJS packages call require() for Node's own modules.
    banner: {
      js: `${MARK}\nimport { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);`,
    },
    logLevel: 'warning',
  });
