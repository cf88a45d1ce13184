// parceiro replay FILE: feeds a recording's table events back through the robot node with the
// recording's seeds and settings, and says whether the robot's plays, emotions and behaviours come
// out as recorded, and where they first differ (robot/offline/replay/replay.ts). Exit code 0 when they
// match, 1 when they differ, 2 for a file that is not a recording.

import { RecordingError, RecordingStream } from '../../robot/recording/index.js';
import type { GroupName, ReadableDifference, ReplayReport } from '../../robot/offline/index.js';
import { replayRecording } from '../../robot/offline/index.js';
import { UsageError } from '../errors.js';

interface ReplayCommandOptions {
  fast?: boolean;
  realtime?: boolean;
  json: boolean;
  character?: string;
}

const GROUP_TITLES: Record<GroupName, string> = {
  plays: "the robot's plays (decisions, game events and state, table output)",
  emotions: 'its emotions (estimates, emotional state)',
  behaviours: 'its behaviours (face, head, gaze, speech, toggles, language)',
};

export async function replayCommand(file: string, o: ReplayCommandOptions): Promise<ReplayReport> {
  try {
    // Streamed: read as it is replayed, so a recording of any length replays in the same memory.
    return await replayRecording(new RecordingStream(file), {
      mode: o.realtime ? 'realtime' : 'fast',
      ...(o.character === undefined ? {} : { character: o.character }),
    });
  } catch (e) {
    if (e instanceof RecordingError) throw new UsageError(e.message);
    throw e;
  }
}

function describeDifference(d: ReadableDifference): string {
  return `${d.topic} message ${d.index + 1}, ${d.at.toFixed(3)} s in (${d.context}): ${d.text}`;
}

export function formatReplay(r: ReplayReport): string {
  const s = r.settings;
  const lines = [
    `Replaying ${r.recording}`,
    `  session ${r.session}: seed ${s.seed}, ${s.games} game${s.games === 1 ? '' : 's'}, the robot in seat ${s.robotSeat}, speech ${s.speech}; ${r.mode === 'fast' ? 'as fast as possible' : 'at recorded speed'}.`,
    `  fed ${r.fed.tableEvents} table events and ${r.fed.requests} operator requests.`,
    ...r.notes.map((n) => `  note: ${n}.`),
    '',
  ];
  for (const [g, v] of Object.entries(r.groups) as [GroupName, ReplayReport['groups'][GroupName]][]) {
    lines.push(
      `${GROUP_TITLES[g]}: ${v.matches ? `match (${v.compared} messages)` : `DIFFER, first at ${describeDifference(v.firstDifference!)}`}`,
    );
  }
  for (const a of r.answerDifferences) lines.push(`  ${a}`);
  const total = Object.values(r.compared).reduce((a, b) => a + b, 0);
  lines.push('');
  lines.push(
    r.matches
      ? `The replay matches the recording: ${total} messages on ${Object.keys(r.compared).length} topics.`
      : `The replay differs from the recording; the first difference: ${describeDifference(r.firstDifference!)}`,
  );
  if (r.complete && !r.problems.length) lines.push('The recording is complete.');
  else {
    lines.push(`The recording is ${r.complete ? 'complete but damaged' : 'incomplete'}; replayed as far as it goes:`);
    for (const p of r.problems) lines.push(`  - ${p}`);
    for (const p of r.notReplayed) lines.push(`  - ${p}`);
  }
  lines.push(`Took ${r.seconds} s.`);
  return lines.join('\n');
}
