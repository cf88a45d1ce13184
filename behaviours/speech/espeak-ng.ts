// The espeak-ng backend: speaks European Portuguese (voice `pt`). The text goes on stdin as UTF-8
// (`-b 1`), never through a shell or an argument; espeak-ng then writes a WAV that the configured
// player plays (espeak-ng exits 0 even when it finds no sound device, so it is not left to play itself).

import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SpeechBackendError, firstLine, play, runProcess } from './process.js';
import type { SpeechOutput, SpeechRequest } from './speech-output.js';

interface EspeakOptions {
  /** The voice for each language; a language without one uses its own tag as the voice. */
  voices: Readonly<Record<string, string>>;
  /** Words per minute. */
  rate: number;
  /** Plays a WAV file: the program and its arguments; the path is appended. */
  player: readonly string[];
  timeoutMs: number;
  tempDir?: string;
  /** The espeak-ng program (default `espeak-ng`). */
  command?: string;
}

/**
 * The text as espeak-ng should read it: composed (NFC), control characters as spaces, and `[[` broken
 * up, since espeak-ng would read what follows as phoneme codes rather than words.
 */
const espeakText = (text: string): string =>
  text
    .normalize('NFC')
    // eslint-disable-next-line no-control-regex -- control characters are what this line removes
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ')
    .replace(/\[\[/g, '[ [')
    .replace(/\s+/g, ' ')
    .trim();

export class EspeakSpeech implements SpeechOutput {
  readonly name = 'espeak-ng';
  private readonly children = new Set<ChildProcess>();
  private readonly command: string;

  constructor(private readonly options: EspeakOptions) {
    this.command = options.command ?? 'espeak-ng';
  }

  voiceFor(language: string): string {
    return this.options.voices[language] ?? language;
  }

  async probe(): Promise<void> {
    const r = await this.run(['--version'], '');
    if (r.code !== 0)
      throw new SpeechBackendError(`${this.command} --version exited with ${r.code}: ${firstLine(r.stderr)}`);
  }

  /** Speaks `text` into a WAV file at `wavPath`. */
  async synthesize(text: string, language: string, wavPath: string): Promise<void> {
    const r = await this.run([...this.voiceArgs(language), '-w', wavPath], text);
    const size = await stat(wavPath).then(
      (s) => s.size,
      () => 0,
    );
    if (r.code !== 0 || size <= 44)
      throw new SpeechBackendError(
        `espeak-ng wrote no audio${r.stderr ? `: ${firstLine(r.stderr)}` : ` (exit ${r.code})`}`,
      );
  }

  /** The phonemes espeak-ng reads in `text` (IPA, or its own codes): shows that accents arrived. */
  async phonemes(text: string, language: string, notation: 'ipa' | 'espeak' = 'ipa'): Promise<string> {
    const r = await this.run([...this.voiceArgs(language), '-q', notation === 'ipa' ? '--ipa' : '-x'], text);
    if (r.code !== 0) throw new SpeechBackendError(`espeak-ng exited with ${r.code}: ${firstLine(r.stderr)}`);
    return r.stdout.toString('utf8').trim();
  }

  async say(request: SpeechRequest): Promise<void> {
    const dir = await mkdtemp(join(this.options.tempDir ?? tmpdir(), 'parceiro-espeak-'));
    try {
      const wav = join(dir, 'line.wav');
      await this.synthesize(request.text, request.language, wav);
      await play(this.options.player, wav, this.options.timeoutMs, (c) => this.track(c));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  stop(): void {
    for (const c of this.children) c.kill('SIGTERM');
  }

  private voiceArgs(language: string): string[] {
    return ['-v', this.voiceFor(language), '-s', String(this.options.rate), '-b', '1', '--stdin'];
  }

  private run(args: string[], text: string) {
    const input = Buffer.from(espeakText(text), 'utf8');
    return runProcess(this.command, args, { input, timeoutMs: this.options.timeoutMs, onSpawn: (c) => this.track(c) });
  }

  private track(child: ChildProcess): void {
    this.children.add(child);
    child.on('close', () => this.children.delete(child));
  }
}
