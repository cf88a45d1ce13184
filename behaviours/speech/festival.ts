// The `say` backend: festival. Festival reads Scheme, and the text goes inside a Scheme string, so
// backslashes and double quotes are escaped; it reads bytes as Latin-1, so the text is sent in Latin-1
// (every Portuguese letter is in it) with the few typographic characters outside it replaced. One
// Latin-1 byte is unsafe: festival's tokenizer reads 0xFF (ÿ) as the end of its input (a char taken
// for EOF), so the words after it were never spoken and a line starting with it wrote no audio at all.
// Festival reports errors on stderr but exits 0, so success is judged by the WAV it writes; the WAV is
// then played by the configured player, whose exit code is reliable.

import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SpeechBackendError, firstLine, play, runProcess } from './process.js';
import type { SpeechOutput, SpeechRequest } from './speech-output.js';

interface FestivalOptions {
  /** A festival voice procedure (voice_kal_diphone); null for festival's default voice. */
  voice: string | null;
  /** Plays a WAV file: the program and its arguments; the path is appended. */
  player: readonly string[];
  timeoutMs: number;
  /** Where temporary WAV files go (default: the system's temporary folder). */
  tempDir?: string;
  /** The festival program (default `festival`). */
  command?: string;
}

const TYPOGRAPHY: Readonly<Record<string, string>> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u201a': "'",
  '\u201b': "'",
  '\u201c': '"',
  '\u201d': '"',
  '\u201e': '"',
  '\u2026': '...',
  '\u2013': '-',
  '\u2014': '-',
  '\u2212': '-',
  '\u20ac': 'euros',
};

/**
 * The text as festival can read it: composed (NFC), control characters and line breaks as spaces,
 * typographic quotes and dashes as their ASCII cousins, ÿ (byte 0xFF, festival's end of input) and
 * other letters outside Latin-1 without their accents, and anything left outside Latin-1 dropped.
 * Every byte of the result is one festival reads as text.
 */
export function festivalText(text: string): string {
  let out = '';
  for (const ch of text.normalize('NFC')) {
    const cp = ch.codePointAt(0)!;
    if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) out += ' ';
    else if (cp < 0xff) out += ch;
    else if (TYPOGRAPHY[ch] !== undefined) out += TYPOGRAPHY[ch];
    else {
      const base = ch.normalize('NFD').replace(/\p{M}/gu, '');
      out += [...base].every((c) => c.codePointAt(0)! < 0xff) ? base : ' ';
    }
  }
  return out.replace(/\s+/g, ' ').trim();
}

/** A Scheme string literal holding `s` (which must already be Latin-1): `"..."`, with \ and " escaped. */
export const schemeString = (s: string): string => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

const latin1 = (scheme: string): Buffer => {
  for (const ch of scheme)
    if (ch.codePointAt(0)! >= 0xff)
      throw new SpeechBackendError(`festival cannot read ${JSON.stringify(ch)} (outside Latin-1, or its end of input)`);
  return Buffer.from(scheme, 'latin1');
};

export class FestivalSpeech implements SpeechOutput {
  readonly name = 'festival';
  private readonly children = new Set<ChildProcess>();
  private readonly command: string;

  constructor(private readonly options: FestivalOptions) {
    this.command = options.command ?? 'festival';
    // The voice is spliced into Scheme as a procedure call, so it must be a plain name.
    if (options.voice !== null && !/^[A-Za-z0-9_]+$/.test(options.voice))
      throw new SpeechBackendError(`festival voice ${JSON.stringify(options.voice)} is not a plain voice name`);
  }

  async probe(): Promise<void> {
    const r = await this.run(['--version'], Buffer.alloc(0));
    if (r.code !== 0)
      throw new SpeechBackendError(`${this.command} --version exited with ${r.code}: ${firstLine(r.stderr)}`);
  }

  /** Speaks `text` into a WAV file at `wavPath`. */
  async synthesize(text: string, wavPath: string): Promise<void> {
    const voice = this.options.voice ? `(${this.options.voice})\n` : '';
    const scheme = `${voice}(utt.save.wave (utt.synth (Utterance Text ${schemeString(festivalText(text))})) ${schemeString(wavPath)} 'riff)\n`;
    const r = await this.run(['--pipe'], latin1(scheme));
    const complaint = /SIOD ERROR|error/i.test(r.stderr)
      ? firstLine(r.stderr.slice(r.stderr.search(/SIOD ERROR|error/i)))
      : '';
    const size = await stat(wavPath).then(
      (s) => s.size,
      () => 0,
    );
    if (r.code !== 0 || size <= 44) {
      throw new SpeechBackendError(
        `festival wrote no audio${complaint ? `: ${complaint}` : r.code !== 0 ? ` (exit ${r.code})` : ''}`,
      );
    }
  }

  /**
   * The text exactly as festival's Scheme reader received it (festival prints the string back). For
   * diagnostics and tests: it shows what escaping and Latin-1 did to a line.
   */
  async heard(text: string): Promise<string> {
    const r = await this.run(['--pipe'], latin1(`(format t "%s\\n" ${schemeString(festivalText(text))})\n`));
    if (r.code !== 0) throw new SpeechBackendError(`festival exited with ${r.code}: ${firstLine(r.stderr)}`);
    return r.stdout.toString('latin1').replace(/\n$/, '');
  }

  async say(request: SpeechRequest): Promise<void> {
    const dir = await mkdtemp(join(this.options.tempDir ?? tmpdir(), 'parceiro-festival-'));
    try {
      const wav = join(dir, 'line.wav');
      await this.synthesize(request.text, wav);
      await play(this.options.player, wav, this.options.timeoutMs, (c) => this.track(c));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  stop(): void {
    for (const c of this.children) c.kill('SIGTERM');
  }

  private run(args: string[], input: Buffer) {
    return runProcess(this.command, args, { input, timeoutMs: this.options.timeoutMs, onSpawn: (c) => this.track(c) });
  }

  private track(child: ChildProcess): void {
    this.children.add(child);
    child.on('close', () => this.children.delete(child));
  }
}
