// The robot's public surface: the live runtime and the arena. The other rooms have their own front
// doors: offline/ (replay, restart, report), web/ (the dashboard and the virtual table), bus/,
// recording/ and learned/ (robot/README.md).
export * from './live/index.js';
export * from './arena/index.js';
