#!/usr/bin/env node
// parceiro: the command line. Each command lives in commands/; this file only wires options.

import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { Command, CommanderError, Option } from 'commander';
import { ConfigError } from '../config/index.js';
import { RecordingError } from '../robot/recording/index.js';
import { UsageError, intOption } from './errors.js';
import { StopSignals, StoppedError, signalExitCode } from './signals.js';
import { appraiseCommand, formatAppraisal } from './commands/appraise.js';
import { liveCommand } from './commands/live.js';
import { calibrateCommand } from './commands/calibrate-table.js';
import { shareOption, tuioSimCommand } from './commands/tuio-sim.js';
import { matchCommand } from './commands/match.js';
import { playCommand } from './commands/play.js';
import { scoreCommand } from './commands/score.js';
import { formatReplay, replayCommand } from './commands/replay.js';
import { reportCommand } from './commands/report.js';
import { simulateCommand } from './commands/simulate.js';
import { solveCommand } from './commands/solve.js';
import { formatSummary, tournamentCommand } from './commands/tournament.js';
import { formatPredictEval, predictEvalCommand } from './commands/predict-eval.js';
import { workerCommand } from './commands/worker.js';
import { datasetCommand } from './commands/dataset.js';
import { trainCommand } from './commands/train.js';
import { addStudyCommand } from './commands/study.js';
import { StudyError } from '../robot/study/index.js';
import { ModelFileError, installModelLoader } from '../robot/learned/index.js';
import { TournamentSetupError } from '../robot/arena/index.js';
import {
  acceptDamageOption,
  botThinkOption,
  budgetOption,
  characterOption,
  dashboardPortOption,
  dashboardTokenOption,
  gamesOption,
  hostOption,
  jsonOption,
  levelOfPlayOption,
  levelsFileOption,
  noRecordOption,
  portOption,
  recordingsOption,
  repeatableOption,
  resumeOption,
  seatOption,
  seedOption,
  sessionOption,
  speechOption,
  tokenOption,
  tuioConfigOption,
} from './options.js';

// Player specs and predictors may name model files (imitation:model=FILE.onnx): read at this edge.
installModelLoader();

/** A mistake the person running the program can fix: told in one line (its message, which names the file, line and key or the option), exit code 2. */
const isUserMistake = (e: unknown): e is Error =>
  e instanceof UsageError ||
  e instanceof ConfigError ||
  e instanceof RecordingError ||
  e instanceof ModelFileError ||
  e instanceof TournamentSetupError ||
  e instanceof StudyError;

/** The commands that record (simulate, live, play) listen for SIGINT and SIGTERM from their start (signals.ts). */
let signals: StopSignals | null = null;
const stopSignals = (): StopSignals => (signals ??= new StopSignals());

/**
 * The package's version, from its package.json: one folder up from launch/cli.ts when run from
 * source (the tests' vite-node), two from the built dist/launch/cli.js.
 */
const version = ((): string => {
  for (const up of ['../package.json', '../../package.json']) {
    const file = new URL(up, import.meta.url);
    if (existsSync(file)) return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
  }
  return 'unknown';
})();

const program = new Command('parceiro')
  .description('Parceiro: a social robot that plays Sueca at a touch table.')
  .version(version, '-V, --version', 'the version of Parceiro')
  .showHelpAfterError('(run with --help for usage)')
  .exitOverride();

program
  .command('simulate', { isDefault: true })
  .description(
    'a whole simulated session through the robot node: the real table server, three rule-based bots, the robot in seat 0 (npm start)',
  )
  .addOption(sessionOption('games', { description: 'games in the session', max: 100, default: 5 }))
  .addOption(seedOption('seed for the deals, the bots and the robot', { default: 1 }))
  .addOption(
    sessionOption('budgetMs', {
      description:
        "the robot's time per decision (under config/session.yaml's 1500 ms think time, so the pace is a person's)",
      default: 1000,
    }),
  )
  .addOption(speechOption({ description: 'log, espeak-ng, say (festival) or publish (to /tts/say)', default: 'log' }))
  .addOption(noRecordOption())
  .addOption(
    recordingsOption({
      description: 'where recordings go (default: config/node.yaml, recordings/ under the working directory)',
    }),
  )
  .addOption(sessionOption('recordingFormat'))
  .addOption(sessionOption('minThinkMs'))
  .addOption(sessionOption('liftGraceMs'))
  .addOption(sessionOption('inference'))
  .addOption(
    botThinkOption(
      "a pause before each simulated player's card, as a person takes (one card in ten three to five times as long; under about 600 ms, the robot's reaction time, it has no time to speak of a card before the next is down)",
    ),
  )
  .addOption(sessionOption('character'))
  .addOption(sessionOption('language'))
  .addOption(sessionOption('participants'))
  .option('--session <id>', 'the session id, which names the recording (default sim-<seed>-<time>)')
  .addOption(
    resumeOption("continue session ID after a crash, from its recording (seeds and settings are the recording's)"),
  )
  .addOption(acceptDamageOption())
  .addOption(levelOfPlayOption())
  .option(
    '--physical-deal',
    'the table deals real cards (new-game with dealer and trump card): the robot reads its hand from its hand area and its cards are put on its spot',
    false,
  )
  .addOption(jsonOption('print only a JSON summary'))
  .action(async (o) => {
    const summary = await simulateCommand(o, (line) => console.log(line), undefined, stopSignals());
    // Stopped by a signal before the session's end: the recording is closed and the summary printed; the exit code says why.
    if (summary.stopped) process.exitCode = signalExitCode(summary.stopped);
  });

program
  .command('live')
  .description(
    'start the robot node and wait for a touch table (prints its address and token); serves session after session, each recorded, until stopped',
  )
  .addOption(portOption('the table server port (default: config/node.yaml, 7410)'))
  .addOption(hostOption())
  .addOption(
    tokenOption('the token tables must present, 16 characters or more (default, or empty: a new random one, printed)'),
  )
  .option('--bus <kind>', 'in-process or ros2', 'in-process')
  .addOption(seatOption("the robot's seat"))
  .addOption(sessionOption('language'))
  .addOption(sessionOption('participants'))
  .addOption(sessionOption('character'))
  .addOption(sessionOption('budgetMs'))
  .addOption(sessionOption('inference'))
  .addOption(sessionOption('games', { description: 'games in each session (default: config/node.yaml games)' }))
  .addOption(sessionOption('liftGraceMs'))
  .addOption(
    sessionOption('minThinkMs', {
      description:
        "the robot's minimum time for an unforced play, a person's pace (default: config/session.yaml, 1500)",
    }),
  )
  .addOption(
    seedOption(
      "seed for the deals and the robot; the day's next sessions take seed+1, seed+2... (default: from the clock)",
    ),
  )
  .addOption(speechOption())
  .addOption(noRecordOption())
  .addOption(recordingsOption())
  .addOption(sessionOption('recordingFormat'))
  .addOption(dashboardPortOption('the operator dashboard port (0: a free one)', 7420))
  .addOption(dashboardTokenOption())
  .addOption(
    resumeOption(
      "continue session ID after a crash, from its recording (seeds, seat and settings are the recording's); the day then goes on with new sessions",
    ),
  )
  .addOption(acceptDamageOption())
  .addOption(levelOfPlayOption())
  .option(
    '--sessions <n>',
    'stop after this many sessions (default: serve one after another until stopped)',
    intOption('--sessions', 1, 10_000),
  )
  .option(
    '--answer-for <s>',
    'how long a session over still answers "why?" and "how did the game go?" before its recording closes, unless the next session starts sooner (default: 120)',
    intOption('--answer-for', 0, 3_600),
  )
  .option(
    '--tuio [port]',
    'also read a camera table (reacTIVision, TUIO over UDP; default port: config/table/tuio.yaml, 3333) as the touch table of the people (docs/touch-table.md)',
    intOption('--tuio', 0, 65_535),
  )
  .addOption(
    tuioConfigOption(
      "the TUIO adapter's settings and zones (default config/table/tuio.yaml; `parceiro calibrate-table` writes one)",
    ),
  )
  .action(async (o) => {
    await liveCommand(o, (line) => console.log(line), stopSignals());
  });

program
  .command('calibrate-table')
  .description(
    "measure a camera table's zones: put a marker on each corner of each zone when asked (no keyboard needed); writes the TUIO adapter's settings",
  )
  .addOption(hostOption({ description: "the address to listen on for TUIO (default: the base file's, 127.0.0.1)" }))
  .addOption(portOption("the UDP port (default: the base file's, 3333; 0: a free one)"))
  .option('--config <file>', 'the settings to start from (default config/table/tuio.yaml)')
  .option('--out <file>', 'where to write the measured settings', 'tuio.yaml')
  .option(
    '--still-frames <n>',
    'frames a marker must stay still to be taken',
    intOption('--still-frames', 2, 10_000),
    15,
  )
  .action(async (o) => {
    await calibrateCommand(o, (line) => console.log(line));
  });

program
  .command('tuio-sim')
  .description(
    'check a TUIO setup without cards: play the people at a camera table against `parceiro live --tuio`, sending TUIO as reacTIVision does',
  )
  .addOption(tokenOption('the token `parceiro live` printed').makeOptionMandatory())
  .addOption(hostOption({ description: 'the runtime (default: config/node.yaml, 127.0.0.1)' }))
  .addOption(portOption("the runtime's table port (default: config/node.yaml, 7410)", { min: 1 }))
  .option('--tuio-host <address>', 'where the adapter listens for TUIO', '127.0.0.1')
  .option(
    '--tuio-port <n>',
    'its UDP port (default: config/table/tuio.yaml, 3333)',
    intOption('--tuio-port', 1, 65_535),
  )
  .addOption(tuioConfigOption("the adapter's settings, for its zones (default config/table/tuio.yaml)"))
  .option('--tuio-version <v>', 'TUIO 1 (1.1, /tuio/2Dobj) or 2 (2.0, /tuio2/tok)', '1')
  .addOption(gamesOption('games to play (default: until the session is over)', { max: 1000 }))
  .addOption(seedOption('seed for the deals, the players and the camera', { default: 1 }))
  .option('--think <ms>', "a person's pause before each card", intOption('--think', 0, 60_000), 1000)
  .option('--fps <n>', 'camera frames a second', intOption('--fps', 1, 1000), 30)
  .option('--wait <s>', 'how long to wait for the runtime to answer before giving up', intOption('--wait', 1, 3600), 15)
  .option(
    '--flicker <share>',
    'the chance per marker and frame that the camera loses it for a frame or two',
    shareOption('--flicker'),
    0.01,
  )
  .option(
    '--jitter <d>',
    'how far a marker wanders from frame to frame (share of the image)',
    shareOption('--jitter'),
    0.002,
  )
  .action(async (o) => {
    await tuioSimCommand(o, (line) => console.log(line));
  });

program
  .command('play')
  .description(
    'play with the robot in a browser: the node, a virtual table for you and simulated players in the two other seats (prints the link)',
  )
  .option(
    '--seat <seat>',
    "your seat: 2 (or partner) as the robot's partner, 1 or 3 (or opponent) against it; the robot is in seat 0",
    '2',
  )
  .option('--bots <kind>', 'the simulated players: rule or random', 'rule')
  .addOption(botThinkOption("a pause before each simulated player's card"))
  .addOption(sessionOption('games'))
  .addOption(seedOption('seed for the deals, the players and the robot (default: from the clock)'))
  .addOption(sessionOption('budgetMs'))
  .addOption(sessionOption('minThinkMs'))
  .addOption(sessionOption('liftGraceMs'))
  .addOption(sessionOption('inference'))
  .addOption(sessionOption('language'))
  .addOption(sessionOption('character'))
  .addOption(speechOption())
  .addOption(levelOfPlayOption())
  .addOption(
    sessionOption('advice', {
      description:
        'the training mode: the robot suggests a card to you, its partner, when the choice matters (table talk: not for a real game)',
    }),
  )
  .addOption(noRecordOption())
  .addOption(recordingsOption())
  .addOption(sessionOption('recordingFormat'))
  .addOption(hostOption())
  .addOption(portOption('the table server port (0: a free one)', { default: 0 }))
  .addOption(dashboardPortOption('the dashboard and virtual table port (0: a free one)', 0))
  .addOption(dashboardTokenOption())
  .action(async (o) => {
    await playCommand(o, (line) => console.log(line), stopSignals());
  });

program
  .command('replay')
  .description(
    "feed a recording's table events back through the robot node and say whether its plays, emotions and behaviours match (exit 0), or where they first differ, or that the recording is damaged past what was matched (exit 1)",
  )
  .argument('<file>', 'the recording (recordings/<session id>.mcap)')
  .addOption(new Option('--fast', 'as fast as possible (the default)').conflicts('realtime'))
  .addOption(new Option('--realtime', 'at the recorded speed'))
  .addOption(
    new Option(
      '--character <file>',
      'the character file of a session that ran with one (a recording names files, it does not open them)',
    ),
  )
  .addOption(jsonOption())
  .action(async (file: string, o: { fast?: boolean; realtime?: boolean; json: boolean; character?: string }) => {
    const report = await replayCommand(file, o);
    console.log(o.json ? JSON.stringify(report, null, 2) : formatReplay(report));
    // A damaged recording matched as far as it could be read is not a match of the session.
    process.exitCode = report.matches && !report.damaged ? 0 : 1;
  });

program
  .command('report')
  .description(
    "what people at the table met over whole sessions, from recordings: the robot's mood, its emotions toward each seat, its faces by game result, its lines, and checks (misaddressed and late lines, blame for forced plays, gloating and pity, happy faces after a lost game, reaction latency)",
  )
  .argument('<files...>', 'recordings (recordings/<session id>.mcap)')
  .addOption(jsonOption('print one JSON document with the same figures'))
  .option(
    '--chart <file>',
    "also write an HTML page: each game's emotion timeline, faces and lines beside the running score",
  )
  .action((files: string[], o: { json: boolean; chart?: string }) => {
    console.log(reportCommand(files, o).output);
  });

program
  .command('match')
  .description('play and narrate a short simulated match between built-in players')
  .option('--team-a <players>', 'team A (seats 0 and 2)', 'rule,rule')
  .option('--team-b <players>', 'team B (seats 1 and 3)', 'rule,random')
  .addOption(gamesOption('games in the session', { max: 1000, default: 2 }))
  .addOption(seedOption('seed for the deals and the players', { default: 1 }))
  .option('-q, --quiet', 'only the result of each game', false)
  .addOption(budgetOption({ description: 'time per decision of timed players', default: 2000 }))
  .addOption(levelsFileOption('the levels of play for level:name=LEVEL players (default: config/levels.yaml)'))
  .action((o) => {
    matchCommand(o, (line) => console.log(line));
  });

program
  .command('score')
  .description('score a game record (JSON); FILE may be - for standard input')
  .argument('<file>', 'the record: {"dealer","trump","hands","plays"}')
  .action((file: string) => {
    const { unscoredPlays, ...report } = scoreCommand(file);
    if (unscoredPlays) process.stderr.write(`note: ${unscoredPlays} play(s) after the renounce were not scored\n`);
    console.log(JSON.stringify(unscoredPlays ? { ...report, unscoredPlays } : report));
  });

program
  .command('solve')
  .description('the exact value of every legal move of a position (JSON); FILE may be - for standard input')
  .argument('<file>', 'the position: {"trump","hands","leader","trick","points"}')
  .action((file: string) => {
    console.log(JSON.stringify(solveCommand(file)));
  });

program
  .command('tournament')
  .description("play team A's players against team B's over many games and summarize")
  .option('--team-a <players>', 'team A, two players separated by a comma', 'rule,rule')
  .option('--team-b <players>', 'team B, two players separated by a comma', 'random,random')
  .addOption(gamesOption('total games (a multiple of the games per deal set)', { default: 2000 }))
  .addOption(seedOption('seed: same seed, same results', { default: 1 }))
  .option(
    '--session <n>',
    'games per session (victories accumulate; the dealer rotates)',
    intOption('--session', 1, 100),
    1,
  )
  .option('--no-duplicate', 'play each deal once instead of twice with the seats swapped')
  .option(
    '--workers <n>',
    'games at once: worker threads, or with --external one copy of each program per game (default: one per core)',
    intOption('--workers', 1, 256),
  )
  .addOption(
    repeatableOption(
      '--external <name=command>',
      'an external program that plays as NAME (JSON lines over stdio); repeatable',
    ),
  )
  .option('--move-timeout <ms>', 'time an external player has for each move', intOption('--move-timeout', 1), 2000)
  .option(
    '--hello-timeout <ms>',
    'time an external player has to answer hello with ready',
    intOption('--hello-timeout', 1),
    5000,
  )
  .addOption(
    budgetOption({ description: 'time per decision of timed players (timed:budget=MS overrides)', default: 2000 }),
  )
  .option(
    '--cpu-clock',
    'count budgets and decision times in CPU time of the playing process, not wall time: equal thinking on a machine shared with other work (use with --workers 1; built-in players only)',
  )
  .addOption(
    levelsFileOption(
      'the levels of play for level:name=LEVEL players, e.g. level:name=beginner (default: config/levels.yaml)',
    ),
  )
  .addOption(jsonOption('print the summary as JSON (on SIGINT/SIGTERM, of what was played, with "stopped")'))
  .option(
    '--records <file>',
    'write each game to FILE as a JSON line as it finishes, then the summary (kept when stopped)',
  )
  .option(
    '--queue <redis-url>',
    "put the boards on the BullMQ queue of this Redis (redis://HOST:PORT) for `parceiro worker`s on any machines to play, instead of this machine's cores",
  )
  .addOption(new Option('--progress', 'show a progress bar (default: when stderr is a terminal)'))
  .addOption(new Option('--no-progress', 'never show a progress bar'))
  .action(async (o) => {
    const summary = await tournamentCommand(o);
    console.log(o.json ? JSON.stringify(summary, null, 2) : formatSummary(summary));
  });

program
  .command('worker')
  .description(
    'play the boards of the tournaments queued on a Redis (tournament --queue), until Ctrl-C; start one on each machine',
  )
  .argument('<redis-url>', 'the Redis the tournaments use, e.g. redis://192.168.1.10:6379')
  .option(
    '--concurrency <n>',
    'ranges of boards played at once, each on its own thread (default: one per core)',
    intOption('--concurrency', 1, 256),
    availableParallelism(),
  )
  .action(async (url: string, o: { concurrency: number }) => {
    await workerCommand(url, o, (line) => console.log(line));
  });

program
  .command('appraise')
  .description(
    'what the robot feels after each event of a scenario (JSON lines of events with beliefs and times); FILE may be -',
  )
  .argument(
    '<file>',
    'the scenario: one event per line, e.g. {"type":"play","seat":2,"card":"AS","trick":0,"atMs":3000,"after":{"expectedPoints":70,"winProbability":0.6}}',
  )
  .addOption(
    characterOption({
      description:
        'a preset (neutral, competitive, warm) or a preset .yaml file (default: the one config/appraisal/appraisal.yaml names)',
    }),
  )
  .addOption(seatOption("the robot's seat until a deal line says otherwise"))
  .addOption(new Option('--json', 'JSON lines (default when the output is not a terminal)').conflicts('table'))
  .addOption(new Option('--table', 'a readable table (default on a terminal)'))
  .action((file: string, o: { character?: string; seat: number; json?: boolean; table?: boolean }) => {
    const run = appraiseCommand(file, o);
    const table = o.table ?? (o.json ? false : Boolean(process.stdout.isTTY));
    if (table) console.log(formatAppraisal(run));
    else for (const line of run.lines) console.log(JSON.stringify(line));
  });

program
  .command('predict-eval')
  .description(
    "how well each model predicts the other seats' cards from the robot's view (theory of mind): top-1 and log-likelihood per player, from seeded games, game records or recordings",
  )
  .option(
    '--players <kinds>',
    'simulate: a row per player kind, its three seats against the observer',
    'rule,random,expert,hybrid,timed',
  )
  .addOption(gamesOption('simulate: games per row', { default: 20 }))
  .addOption(seedOption('seed of the deals, players and predictors', { default: 2301 }))
  .addOption(budgetOption({ description: 'simulate: time per decision of timed players', default: 100 }))
  .option(
    '--observer <seat>',
    "the observer's seat (simulated games and records; a recording's is the robot's)",
    intOption('--observer', 0, 3),
    0,
  )
  .option('--observer-player <kind>', "simulate: the observer's own player", 'expert')
  .option(
    '--models <list>',
    'models to score: uniform, legal, rule, expert, tom1, learned (with --model)',
    'uniform,legal,rule,expert,tom1',
  )
  .option('--model <file.onnx>', "the learned model's policy network (parceiro train)")
  .option(
    '--baseline <model>',
    "the model the others' gains in log-likelihood are measured against, card by card (scored first)",
    'uniform',
  )
  .option('--records <file>', 'score game records instead, one JSON object a line (parceiro tournament --records)')
  .addOption(
    repeatableOption(
      '--recording <file.mcap>',
      "score the robot's recorded sessions instead (whole games); repeatable",
    ),
  )
  .option(
    '--who <name>',
    'the row for seats a record or recording does not name (default: person for recordings, recorded for records)',
  )
  .option(
    '--tom1-hands <n>',
    "tom1: the seat's hands the model is asked about per prediction",
    intOption('--tom1-hands', 1, 10_000),
  )
  .option('--tom1-worlds <n>', "tom1: the seat's own worlds per hand", intOption('--tom1-worlds', 1, 10_000))
  .addOption(jsonOption())
  .action((o) => {
    const report = predictEvalCommand(o, (line) => process.stderr.write(`${line}\n`));
    console.log(o.json ? JSON.stringify(report, null, 2) : formatPredictEval(report));
  });

program
  .command('dataset')
  .description(
    "decisions of played games as a training file for a policy network (docs/learned-models.md): seeded games, game records or recordings (people's seats)",
  )
  .requiredOption('--out <file>', 'the dataset file to write')
  .option(
    '--players <specs>',
    'simulate: one player spec for the four seats, or four separated by commas (default rule)',
  )
  .addOption(gamesOption('simulate: games', { default: 100 }))
  .option(
    '--first-game <n>',
    'simulate: the first game number (several processes can share a seed)',
    intOption('--first-game', 0),
    0,
  )
  .addOption(seedOption('simulate: seed of the deals and players', { default: 2311 }))
  .addOption(budgetOption({ description: 'simulate: time per decision of timed players', default: 100 }))
  .option('--records <file>', 'export game records instead, one JSON object a line (parceiro tournament --records)')
  .addOption(
    repeatableOption(
      '--recording <file.mcap>',
      "export recorded sessions' whole games instead (people's seats: tables of kind touch or virtual); repeatable",
    ),
  )
  .option('--who <name>', 'records: the name of seats a record does not name', 'recorded')
  .option(
    '--only <name>',
    'only the decisions of seats of this name (a player spec; recordings: person, robot, bot; default person for recordings)',
  )
  .option('--all-seats', "recordings: every seat, not only people's", false)
  .addOption(jsonOption())
  .action((o) => {
    const report = datasetCommand({ ...o, command: `parceiro ${process.argv.slice(2).join(' ')}` }, (line) =>
      process.stderr.write(`${line}\n`),
    );
    if (o.json) console.log(JSON.stringify(report));
    else {
      console.log(
        `${report.out}: ${report.rows} decisions of ${report.games} games (${
          Object.entries(report.who)
            .map(([w, n]) => `${w} ${n}`)
            .join(', ') || 'none'
        }) in ${report.seconds} s`,
      );
      for (const note of report.notes) console.log(`note: ${note}`);
    }
  });

program
  .command('train')
  .description(
    'train a policy network on dataset files with learn/train_policy.py (python3-torch) and write MODEL.onnx and MODEL.json',
  )
  .addOption(repeatableOption('--data <file>', 'a dataset file (parceiro dataset); repeatable').makeOptionMandatory())
  .requiredOption('--out <file.onnx>', 'the model file to write; its sidecar is the same name with .json')
  .addOption(
    seedOption('seed of the initial weights, the order of the batches and the held-out games', { default: 2311 }),
  )
  .option('--hidden <sizes>', 'hidden layer sizes, comma separated', '128,64')
  .option('--epochs <n>', 'passes over the training decisions', intOption('--epochs', 1, 10_000), 6)
  .option('--batch <n>', 'decisions per step', intOption('--batch', 1, 1_000_000), 256)
  .option('--lr <rate>', 'Adam learning rate (default 0.001)')
  .option('--holdout <share>', 'share of games held out for the accuracy (default 0.1)')
  .option('--only <who>', 'train on the decisions of this who only (e.g. person)')
  .option('--name <text>', 'what the model is, for the sidecar')
  .action((o) => {
    process.exitCode = trainCommand({ ...o, command: `parceiro ${process.argv.slice(2).join(' ')}` });
  });

addStudyCommand(program);

try {
  // Everything from --ros-args on is ROS's (rclnodejs reads it from process.argv), not ours.
  const rosArgs = process.argv.indexOf('--ros-args');
  const argv = rosArgs >= 0 ? process.argv.slice(0, rosArgs) : process.argv;
  // simulate is the default command, so commander would read a mistyped command as simulate's
  // argument ("too many arguments for 'simulate'"): a first word that is no command is said as such.
  const first = argv[2];
  const names = program.commands.flatMap((c) => [c.name(), ...c.aliases()]);
  if (first !== undefined && !first.startsWith('-') && first !== 'help' && !names.includes(first))
    throw new UsageError(`unknown command '${first}' (the commands: ${names.join(', ')}; run with --help for usage)`);
  await program.parseAsync(argv);
} catch (e) {
  if (e instanceof CommanderError) {
    // Help and version exit cleanly; commander has already printed its own error message.
    process.exitCode = e.exitCode === 0 ? 0 : 2;
  } else if (isUserMistake(e)) {
    // A mistake in an option, a config file or a recording: its message names the file, line and key.
    // A config file with several mistakes lists each on a line of its own, each marked as an error.
    for (const line of e.message.split('\n')) process.stderr.write(`parceiro: error: ${line}\n`);
    process.exitCode = 2;
  } else if (e instanceof StoppedError) {
    process.stderr.write(`parceiro: ${e.message}\n`);
    process.exitCode = signalExitCode(e.reason);
  } else {
    throw e;
  }
}
