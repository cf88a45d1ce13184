// The node's settings on a real ROS 2 graph, as a lab sets them: `ros2 launch` with arguments, and
// `parceiro live --bus ros2 --ros-args -p ... --params-file ...`; read back with `ros2 param get`, changed
// at run time with `ros2 param set`; each run stopped with a signal (SIGINT through ros2 launch,
// SIGTERM straight), leaving no ROS 2 participant behind. One run after the other: both are /parceiro.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TOPICS } from '../../robot/bus/index.js';
import { CLI } from '../launch/run-cli.js';
import { LabNode, ROOT, Started, nodeList, requireRos2, run, until } from './ros2-graph.js';

const { env } = requireRos2(63);
const dir = mkdtempSync(join(tmpdir(), 'parceiro-ros2-launch-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const param = async (name: string): Promise<string> =>
  (await run('ros2', ['param', 'get', '--no-daemon', '/parceiro', name], env)).out.trim();
const set = async (name: string, value: string): Promise<string> => {
  const r = await run('ros2', ['param', 'set', '--no-daemon', '/parceiro', name, value], env);
  return `${r.out}${r.err}`.trim();
};

describe('the node on ROS 2: launch file, parameters, signals', () => {
  it('takes the launch arguments as parameters, follows `ros2 param set` on a toggle, and leaves the graph on SIGINT', async () => {
    const lab = new LabNode(env);
    const launch = new Started(
      'ros2',
      [
        ...['launch', join(ROOT, 'launch/ros2/parceiro.launch.py'), 'seat:=2', 'language:=en', 'budget_ms:=1500'],
        ...['character:=competitive', 'speech:=false', 'port:=0', 'dashboard_port:=0', `recordings:=${dir}`],
      ],
      env,
      dir,
    );
    try {
      await launch.printed(/waiting for a table at /, 'the node listened');
      expect(await param('seat')).toBe('Integer value is: 2');
      expect(await param('language')).toBe('String value is: en');
      expect(await param('budget_ms')).toBe('Integer value is: 1500');
      expect(await param('character')).toBe('String value is: competitive');
      expect(await param('speech')).toBe('Boolean value is: False');

      // The toggles in force, as a late subscriber sees them: the launch's speech:=false.
      await lab.ready();
      await lab.subscribe(TOPICS.toggles);
      await until(() => lab.on(TOPICS.toggles.name).length > 0, 'the latched toggles arrived');
      expect(lab.on(TOPICS.toggles.name).at(-1)).toMatchObject({ speech: false, gaze: true });
      // At run time: a toggle takes effect, announced by the node as from the parameters.
      expect(await set('gaze', 'false')).toBe('Set parameter successful');
      await until(
        () => lab.on(TOPICS.toggles.name).some((m) => m.gaze === false),
        'the gaze toggle changed',
        60_000,
        () => JSON.stringify(lab.on(TOPICS.toggles.name)),
      );
      expect(lab.on(TOPICS.toggles.name).at(-1)).toMatchObject({
        speech: false,
        gaze: false,
        changed: ['gaze'],
        by: 'ros-parameters',
      });
      expect(await param('gaze')).toBe('Boolean value is: False');
      // A setting read only at the start is refused, with the reason.
      expect(await set('seat', '1')).toBe(
        'Setting parameter failed: seat is read when the node starts; launch it again with seat:=1',
      );
      expect(await set('expressiveness', '1.5')).toMatch(/^Setting parameter failed: expressiveness: expected/);
      expect(await param('seat')).toBe('Integer value is: 2');

      launch.child.kill('SIGINT');
      expect(await launch.done).toBe(0);
      expect(launch.out).toMatch(/Stopped \(interrupted\)/);
      await lab.close();
      expect(await nodeList(env)).toEqual([]);
    } finally {
      launch.kill();
      await lab.close();
    }
  }, 240_000);

  it('takes --ros-args -p and a parameters file, and leaves the graph on SIGTERM', async () => {
    const params = join(dir, 'parceiro.yaml');
    writeFileSync(
      params,
      'parceiro:\n  ros__parameters:\n    language: en\n    expressiveness: 0.25\n    postures: false\n',
    );
    const node = new Started(
      process.execPath,
      [
        ...[CLI, 'live', '--bus', 'ros2', '--port', '0', '--dashboard-port', '0', '--no-record'],
        ...['--ros-args', '-p', 'seat:=3', '-p', 'budget_ms:=900', '--params-file', params],
      ],
      env,
      dir,
    );
    try {
      await node.printed(/waiting for a table at /, 'the node listened');
      expect(await param('seat')).toBe('Integer value is: 3');
      expect(await param('budget_ms')).toBe('Integer value is: 900');
      expect(await param('language')).toBe('String value is: en');
      expect(await param('expressiveness')).toBe('Double value is: 0.25');
      expect(await param('postures')).toBe('Boolean value is: False');
      node.child.kill('SIGTERM');
      expect(await node.done).toBe(0);
      expect(node.out).toMatch(/Stopped \(/);
      expect(await nodeList(env)).toEqual([]);
    } finally {
      node.kill();
    }
  }, 240_000);
});
