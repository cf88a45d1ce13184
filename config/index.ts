// The front door of config/: the YAML files beside this one, and the one way to read them (YAML with
// line numbers, checked by a zod schema, mistakes as ConfigError naming file, line, key and what was
// expected) and to find them (packageRoot). It lives here, at the bottom with game/, because every
// reader of configuration (appraisal, behaviours, table-bridge, robot, launch) must reach it and
// appraisal and table-bridge may import nothing of ours but game/: configuration is data checked by
// a schema, and config/ is where that data lives. It imports nothing of ours.

export { builtModule, configPath, packageRoot, shownPath } from './package-root.js';
export { BoundedReadError, notAFile, readBounded, readBoundedLines, sizeInWords } from './read-file.js';
export type { ReadBound } from './read-file.js';
export { ConfigError, loadYamlConfig, parseConfigFile, parseYamlConfig, readConfigText } from './yaml-config.js';
export type { ConfigFile, ConfigProblem, YamlConfigOptions } from './yaml-config.js';
