// The speech output config/behaviours.yaml asks for, wrapped so that it falls back to the log.

import type { SpeechBackendSettings } from '../behaviour-settings.js';
import type { BehaviourLog } from '../log.js';
import type { Publisher } from '../topics.js';
import { EspeakSpeech } from './espeak-ng.js';
import { FestivalSpeech } from './festival.js';
import { DegradingSpeech, LogSpeech, PublishSpeech } from './speech-output.js';
import type { SpeechOutput } from './speech-output.js';

interface SpeechDeps {
  log: BehaviourLog;
  /** Needed by the `publish` backend. */
  publisher?: Publisher;
  tempDir?: string;
}

/** The configured backend, not yet checked. */
function speechBackend(settings: SpeechBackendSettings, deps: SpeechDeps): SpeechOutput {
  const temp = deps.tempDir ? { tempDir: deps.tempDir } : {};
  switch (settings.kind) {
    case 'festival':
      return new FestivalSpeech({ ...settings.festival, player: settings.player, ...temp });
    case 'espeak-ng':
      return new EspeakSpeech({ ...settings.espeakNg, player: settings.player, ...temp });
    case 'publish':
      if (deps.publisher) return new PublishSpeech(deps.publisher);
      return {
        name: 'publish',
        say: () => Promise.reject(new Error('no publisher was given to the publish backend')),
        probe: () => Promise.reject(new Error('no publisher was given to the publish backend')),
      };
    case 'log':
      return new LogSpeech(deps.log);
  }
}

/**
 * The configured backend behind the log fallback, checked now: a backend that is not installed gives
 * its one warning at start rather than at the first line.
 */
export async function createSpeechOutput(settings: SpeechBackendSettings, deps: SpeechDeps): Promise<DegradingSpeech> {
  const speech = new DegradingSpeech(speechBackend(settings, deps), new LogSpeech(deps.log), deps.log);
  await speech.probe();
  return speech;
}
