// parceiro train: trains a policy network on `parceiro dataset` files with learn/train_policy.py (torch,
// Debian's python3-torch) and writes MODEL.onnx with its sidecar MODEL.json (docs/learned-models.md).
// The python3 used is $PARCEIRO_PYTHON when set, else the first of /usr/bin/python3 and python3 on the
// PATH that imports torch; with none, one line and exit 2.

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { notAFile, packageRoot } from '../../config/index.js';
import { UsageError } from '../errors.js';

interface TrainOptions {
  data: string[];
  out: string;
  seed: number;
  hidden: string;
  epochs: number;
  batch: number;
  lr?: string;
  holdout?: string;
  only?: string;
  name?: string;
  command: string;
}

/** The training script, under the package root. */
function trainScript(): string {
  const p = join(packageRoot(), 'learn', 'train_policy.py');
  if (existsSync(p)) return p;
  throw new UsageError('learn/train_policy.py is missing from this installation');
}

/** A python3 that imports torch, or null. $PARCEIRO_PYTHON, when set, is the only one tried. */
export function findTorchPython(env: NodeJS.ProcessEnv = process.env): string | null {
  const candidates = env.PARCEIRO_PYTHON ? [env.PARCEIRO_PYTHON] : ['/usr/bin/python3', 'python3'];
  for (const py of candidates) {
    const r = spawnSync(py, ['-c', 'import torch'], { stdio: 'ignore', timeout: 120_000 });
    if (r.status === 0) return py;
  }
  return null;
}

export function trainCommand(o: TrainOptions): number {
  if (!o.data.length) throw new UsageError('--data: name at least one dataset file (parceiro dataset --out FILE)');
  for (const d of o.data) {
    if (!existsSync(d)) throw new UsageError(`--data: ${d}: no such file`);
    // The trainer reads each file whole: a device or a pipe (/dev/zero) would fill its memory.
    const wrong = notAFile(d, 'a dataset file (parceiro dataset --out FILE)');
    if (wrong) throw new UsageError(`--data: ${d}: ${wrong}`);
  }
  if (!o.out.endsWith('.onnx')) throw new UsageError(`--out expects a file name ending in .onnx, got "${o.out}"`);
  const py = findTorchPython();
  if (!py)
    throw new UsageError(
      'training needs python3 with torch, which was not found: apt-get install python3-torch (or set PARCEIRO_PYTHON)',
    );
  const args = [
    trainScript(),
    ...o.data.flatMap((d) => ['--data', d]),
    '--out',
    o.out,
    '--seed',
    String(o.seed),
    '--hidden',
    o.hidden,
    '--epochs',
    String(o.epochs),
    '--batch',
    String(o.batch),
    '--command',
    o.command,
  ];
  if (o.lr !== undefined) args.push('--lr', o.lr);
  if (o.holdout !== undefined) args.push('--holdout', o.holdout);
  if (o.only !== undefined) args.push('--only', o.only);
  if (o.name !== undefined) args.push('--name', o.name);
  const r = spawnSync(py, args, { stdio: 'inherit', env: { ...process.env, OMP_NUM_THREADS: '1' } });
  if (r.error) throw new UsageError(`${py}: ${r.error.message}`);
  return r.status ?? 1;
}
