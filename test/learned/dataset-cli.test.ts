// parceiro dataset and parceiro train at the command line: the export is a function of its seed, and
// mistakes end in one line and exit code 2.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../launch/run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'parceiro-dataset-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const oneLine = (err: string): void => {
  expect(err.trimEnd().split('\n')).toHaveLength(1);
  expect(err).toMatch(/^parceiro: error: /);
};

/** The header line and the rows of a dataset file. */
function readDataset(path: string): { header: Record<string, unknown>; rows: Float32Array } {
  const bytes = readFileSync(path);
  const header = JSON.parse(bytes.subarray(0, bytes.indexOf(10)).toString('utf8')) as Record<string, unknown>;
  const body = bytes.subarray(header.headerBytes as number);
  return { header, rows: new Float32Array(body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength)) };
}

describe('parceiro dataset', () => {
  it('exports the same decisions from the same seed, and others from another seed', async () => {
    // timed with a world cap far below its budget: it stops on worlds, not on the clock, so it is deterministic.
    const players = 'rule,timed:n=6:budget=600000,random,expert';
    const a = join(dir, 'a.bin');
    const b = join(dir, 'b.bin');
    const c = join(dir, 'c.bin');
    for (const [out, seed] of [
      [a, '9'],
      [b, '9'],
      [c, '10'],
    ] as const) {
      const r = await runCli(
        ['dataset', '--players', players, '--games', '3', '--seed', seed, '--out', out, '--json'],
        dir,
      );
      expect(r.code, r.err).toBe(0);
    }
    const da = readDataset(a);
    readDataset(b); // b reads as well; its rows are compared byte for byte below
    expect(da.header).toMatchObject({
      format: 'parceiro-decisions-1',
      featuresVersion: 1,
      featureCount: 436,
      rowFloats: 440,
      rows: 120,
      games: 3,
      seed: 9,
    });
    expect([...(da.header.who as string[])].sort()).toEqual(['expert', 'random', 'rule', 'timed:n=6:budget=600000']);
    expect(Buffer.compare(readFileSync(a).subarray(4096), readFileSync(b).subarray(4096))).toBe(0);
    expect(Buffer.compare(readFileSync(a).subarray(4096), readFileSync(c).subarray(4096))).not.toBe(0);
    // Each row: the label is a legal card of the encoding.
    for (let r = 0; r < 120; r++) {
      const label = da.rows[r * 440 + 436]!;
      expect(da.rows[r * 440 + 40 + label]).toBe(1);
    }
  });

  it('exports game records with the seats they name, --only keeping one of them', async () => {
    const records = join(dir, 'records.jsonl');
    const t = await runCli(
      [
        'tournament',
        '--team-a',
        'rule,expert',
        '--team-b',
        'random,random',
        '--games',
        '4',
        '--workers',
        '1',
        '--records',
        records,
      ],
      dir,
    );
    expect(t.code, t.err).toBe(0);
    const r = await runCli(
      ['dataset', '--records', records, '--only', 'expert', '--out', join(dir, 'r.bin'), '--json'],
      dir,
    );
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ games: 4, rows: 40, who: { expert: 40 } });
  });

  it('refuses mistakes in one line, exit code 2', async () => {
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, '{"dealer": 0, "trump": "7H"\n');
    const cases: [string[], RegExp][] = [
      [['dataset', '--out', join(dir, 'x.bin'), '--players', 'nobody'], /--players: unknown player 'nobody'/],
      [['dataset', '--out', join(dir, 'x.bin'), '--players', 'rule,rule'], /one player spec or four/],
      [['dataset', '--out', join(dir, 'x.bin'), '--records', join(dir, 'none.jsonl')], /none.jsonl: no such file/],
      [['dataset', '--out', join(dir, 'x.bin'), '--records', bad], /bad.jsonl: line 1: not valid JSON/],
      [['dataset', '--out', join(dir, 'x.bin'), '--recording', bad], /bad.jsonl/],
      [['dataset', '--out', join(dir, 'no', 'such', 'x.bin')], /--out: cannot write/],
      [
        ['dataset', '--out', join(dir, 'x.bin'), '--players', 'imitation:model=' + join(dir, 'none.onnx')],
        /model .*none.onnx: no such file/,
      ],
      [
        ['dataset', '--out', join(dir, 'x.bin'), '--players', 'imitation:model=' + bad],
        /bad.jsonl: not (an ONNX model|a policy MLP)/,
      ],
      [['train', '--data', join(dir, 'none.bin'), '--out', join(dir, 'm.onnx')], /--data: .*none.bin: no such file/],
      [['train', '--data', bad, '--out', join(dir, 'm.txt')], /--out expects a file name ending in .onnx/],
      [['predict-eval', '--models', 'learned', '--games', '1'], /--models learned needs --model/],
    ];
    // All at once: each is a program start of its own, and nothing they write is shared.
    const results = await Promise.all(cases.map(([args]) => runCli(args, dir)));
    for (const [i, [args, message]] of cases.entries()) {
      const r = results[i]!;
      expect(r.code, args.join(' ')).toBe(2);
      oneLine(r.err);
      expect(r.err).toMatch(message);
    }
  });

  it('train without python3 and torch says how to install them, in one line, exit code 2', async () => {
    const before = process.env.PARCEIRO_PYTHON;
    process.env.PARCEIRO_PYTHON = join(dir, 'no-python');
    try {
      const data = join(dir, 'd.bin');
      await runCli(['dataset', '--games', '1', '--out', data], dir);
      const r = await runCli(['train', '--data', data, '--out', join(dir, 'm.onnx')], dir);
      expect(r.code).toBe(2);
      oneLine(r.err);
      expect(r.err).toMatch(/apt-get install python3-torch/);
    } finally {
      if (before === undefined) delete process.env.PARCEIRO_PYTHON;
      else process.env.PARCEIRO_PYTHON = before;
    }
  });
});
