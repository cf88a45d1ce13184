// The house's import rules (docs/development.md, "Import rules"), checked by `npm run check:imports`
// and in CI (.ci/run). Three kinds of rule:
//   - no cycles of imports that exist at run time;
//   - the layering of the top-level folders;
//   - no deep imports across rooms: from outside a room, only its front door.
// Production code only for the last two: test/ may import anything. How to add an exception: below,
// DEEP_EXCEPTIONS, one entry per file with the reason in a comment above it.

// Who may import whom, per top-level folder (docs/development.md). test/ is free.
// config/ is the settings' data with its one loader: at the bottom beside game/, which stays pure.
const LAYERS = {
  game: [],
  config: [],
  appraisal: ['game', 'config'],
  behaviours: ['game', 'appraisal', 'config'],
  'table-bridge': ['game', 'config'],
  robot: ['game', 'config', 'appraisal', 'behaviours', 'table-bridge'],
  launch: ['game', 'config', 'appraisal', 'behaviours', 'table-bridge', 'robot'],
};
const FOLDERS = [...Object.keys(LAYERS), 'test'];

// Rooms: inside a room anything goes; from outside, only through its front doors.
const ROOMS = {
  game: ['index.ts'],
  config: ['index.ts'],
  appraisal: ['index.ts'],
  behaviours: ['index.ts'],
  // tuio/index.ts: the camera table's adapter (UDP, osc-min), loaded only by the commands that use a
  // camera table (table-bridge/README.md).
  'table-bridge': ['index.ts', 'tuio/index.ts'],
  'robot/live': ['index.ts'],
  'robot/offline': ['index.ts'],
  'robot/web': ['index.ts'],
  'robot/arena': ['index.ts'],
  'robot/bus': ['index.ts'],
  'robot/recording': ['index.ts'],
  // questionnaires/index.ts: the questionnaires (definitions, scores, answers as given, the desk),
  // a room of its own inside the study's, for the study run and the questionnaire page's server.
  'robot/study': ['index.ts', 'questionnaires/index.ts'],
  'robot/study/questionnaires': ['index.ts'],
  // onnx.ts: inference in onnxruntime-node, kept out of index.ts so the native library loads only
  // where a network runs.
  'robot/learned': ['index.ts', 'onnx.ts'],
};

// The modules bundled into the dashboard's browser page: the page itself and what it imports from
// robot/web/ (shared with the server).
const BROWSER = '^robot/web/(pages/[^/]+|state|protocol|explain|log-words|wizard-lines|review-words|feels)\\.ts$';

// Deep imports across rooms that have to stay deep, each with its reason. `from` and `to` are
// regular expressions over paths from the repository's root; `to` names one file, and one entry per
// file (its importers all in `from`).
const DEEP_EXCEPTIONS = [
  // The dashboard's page is bundled for the browser by vite and type-checked without Node's types
  // (robot/web/pages/tsconfig.json), with the modules it shares with the server: the bus's front door
  // brings in the ROS 2 bus (process, NodeJS), so they take the messages' types from messages.ts alone.
  { from: BROWSER, to: '^robot/bus/messages\\.ts$' },
  // The same browser modules use a few pure functions of game/ and behaviours/: their front doors would
  // put Node-only modules (files, processes) into the page's bundle.
  { from: '^(robot/web/wizard-lines|behaviours/utterance-text)\\.ts$', to: '^game/cards\\.ts$' },
  { from: '^robot/web/review-words\\.ts$', to: '^game/scoring\\.ts$' },
  // The decision's sentence words an outcome by the rule the reason is found by (edge.ts imports nothing).
  { from: '^robot/web/explain\\.ts$', to: '^game/explain/edge\\.ts$' },
  { from: '^robot/web/wizard-lines\\.ts$', to: '^behaviours/utterance-text\\.ts$' },
  // The virtual table's page speaks the table protocol with the clients' core that the simulated and
  // camera tables use (hello, sequence numbers, the newer state): the bridge's front door would put
  // its server, zod and game/ into the page's bundle; table-client.ts imports nothing.
  { from: '^robot/web/pages/virtual-table\\.ts$', to: '^table-bridge/table-client\\.ts$' },
  // live/ imports the dashboard (web/) at run time (node/parceiro-node.ts), so the dashboard server
  // reading a review back from its bus message through live/index.ts would be a cycle; bus-messages.ts
  // is pure translations between bus messages and game/ values.
  { from: '^robot/web/dashboard-server\\.ts$', to: '^robot/live/session/bus-messages\\.ts$' },
  // The queue worker waits for its pool's threads with live's small piscina helper (no imports of
  // ours): through live/index.ts it would load the whole live runtime and close cycles live <-> arena.
  { from: '^robot/arena/tournament/queue-worker\\.ts$', to: '^robot/live/search/workers-loaded\\.ts$' },
  // A tournament's worker thread (loaded by URL, one per core) installs the model loader alone:
  // learned/index.ts also loads model-path.ts, which brings in all of behaviours/ for packageRoot
  // (about 90 ms more for each thread).
  { from: '^robot/arena/tournament/worker\\.ts$', to: '^robot/learned/load\\.ts$' },
];

const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const PRODUCTION = `^(${Object.keys(LAYERS).map(esc).join('|')})/`;

const layering = Object.entries(LAYERS).map(([folder, allowed]) => ({
  name: `layering-${folder}`,
  comment: `${folder}/ may import ${allowed.length ? allowed.join(', ') : 'nothing of ours'} (docs/development.md)`,
  severity: 'error',
  from: { path: `^${esc(folder)}/` },
  to: {
    path: `^(${FOLDERS.filter((f) => f !== folder && !allowed.includes(f))
      .map(esc)
      .join('|')})/`,
  },
}));

const roomOf = (path) =>
  Object.keys(ROOMS).find((room) => new RegExp(`^${esc(room)}/`).test(path.replace(/^\^/, '').replace(/\\/g, '')));

// One rule per room: from outside it, only its front doors (and the listed exceptions' targets, which
// have rules of their own below).
const frontDoors = Object.entries(ROOMS).map(([room, doors]) => ({
  name: `front-door-${room.replace('/', '-')}`,
  comment: `from outside ${room}/, import it only through ${doors.map((d) => `${room}/${d}`).join(' or ')} (or list an exception in .dependency-cruiser.cjs)`,
  severity: 'error',
  from: { path: PRODUCTION, pathNot: `^${esc(room)}/` },
  to: {
    path: `^${esc(room)}/`,
    pathNot: [
      `^${esc(room)}/(${doors.map(esc).join('|')})$`,
      ...DEEP_EXCEPTIONS.filter((e) => roomOf(e.to) === room).map((e) => e.to),
    ],
  },
}));

const targets = DEEP_EXCEPTIONS.map((e) => e.to);
if (new Set(targets).size !== targets.length)
  throw new Error('.dependency-cruiser.cjs: one exception per file: put all its importers in its `from`');

// An exception's target stays closed to every other importer outside its room.
const exceptionTargets = DEEP_EXCEPTIONS.map(({ to, from }) => {
  const room = roomOf(to);
  if (!room) throw new Error(`.dependency-cruiser.cjs: the exception's target ${to} is in no room`);
  return {
    name: `front-door-${room.replace('/', '-')}`,
    comment: `from outside ${room}/, import it only through its front door; this file is a listed exception for some importers only`,
    severity: 'error',
    from: {
      path: PRODUCTION,
      pathNot: [`^${esc(room)}/`, from],
    },
    to: { path: to },
  };
});

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-runtime-cycle',
      comment: 'a cycle of imports that exists at run time (type-only imports are erased and do not count)',
      severity: 'error',
      from: {},
      to: {
        circular: true,
        viaOnly: { dependencyTypesNot: ['type-only'] },
      },
    },
    ...layering,
    ...frontDoors,
    ...exceptionTargets,
    {
      name: 'not-to-unresolvable',
      comment: 'an import that resolves to no file or package',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.d.ts'],
    },
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
