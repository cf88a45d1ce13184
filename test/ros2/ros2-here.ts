// Whether the tests of this folder can run on a real ROS 2 here: ROS 2 sourced, with parceiro_msgs
// built and sourced, and rclnodejs able to load it. Without, they are skipped with one line saying how
// to enable them; under CI (CI=true) they must run, and fail instead. Each file takes its own
// ROS_DOMAIN_ID and keeps discovery on this machine, so files running side by side cannot hear each
// other.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeEach } from 'vitest';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export const ENABLE =
  'export PATH=/usr/bin:$PATH RMW_IMPLEMENTATION=rmw_cyclonedds_cpp; source /opt/ros/jazzy/setup.bash; ' +
  'colcon build --base-paths robot/parceiro_msgs --build-base /tmp/pm/build --install-base /tmp/pm/install; ' +
  'source /tmp/pm/install/setup.bash (README, "Running on the robot")';

/** Why ROS 2 cannot be used here, or null. */
export function ros2Missing(env: NodeJS.ProcessEnv = process.env): string | null {
  if (!env.ROS_DISTRO) return 'ROS 2 is not sourced (ROS_DISTRO is not set)';
  const prefixes = (env.AMENT_PREFIX_PATH ?? '').split(':').filter(Boolean);
  if (!prefixes.some((p) => existsSync(join(p, 'share/parceiro_msgs/package.xml'))))
    return 'ROS 2 is sourced without parceiro_msgs (not built and sourced)';
  if (!existsSync(join(ROOT, 'node_modules/rclnodejs/generated/parceiro_msgs')))
    return 'ROS 2 is sourced but rclnodejs is missing or has no parceiro_msgs';
  return null;
}

/** This file's tests need ROS 2 on `domain`: skipped with one line when missing, failing under CI. */
export function requireRos2(file: string, domain: number): { env: NodeJS.ProcessEnv; ready: boolean } {
  const reason = ros2Missing();
  if (reason && (process.env.CI === 'true' || process.env.CI === '1'))
    throw new Error(`${reason}: under CI the tests on ROS 2 must run; ${ENABLE}`);
  if (reason) {
    console.warn(`${file}: skipped: ${reason}; enable with: ${ENABLE}`);
    beforeEach((ctx) => ctx.skip(reason));
    return { env: process.env, ready: false };
  }
  process.env.ROS_DOMAIN_ID = String(domain);
  process.env.ROS_AUTOMATIC_DISCOVERY_RANGE = 'LOCALHOST';
  return { env: { ...process.env }, ready: true };
}
