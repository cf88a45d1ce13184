// The bus contract (test/robot/bus-contract.ts) on the real ROS 2 bus: rclnodejs on ROS 2, each case
// a fresh node. The same cases run against the in-process bus in test/robot/bus.test.ts.

import { describe } from 'vitest';
import { createRos2Bus } from '../../robot/bus/index.js';
import { busContract } from '../robot/bus-contract.js';
import { requireRos2 } from './ros2-graph.js';

describe('the ROS 2 bus, on ROS 2', () => {
  requireRos2(61);
  busContract((onError) => createRos2Bus({ nodeName: 'parceiro_bus_contract', ...(onError ? { onError } : {}) }));
});
