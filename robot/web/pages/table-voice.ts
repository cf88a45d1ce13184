// The robot's voice in the browser (the Web Speech API), in the language of each line: on or off by
// the person's switch, remembered in localStorage. Where the browser has no speech synthesis, the
// switch says so and the bubble alone shows what the robot says.

const KEY = 'vt-voice';
/** A voice tag per session language: European Portuguese, as the robot speaks. */
const TAGS: Record<string, string> = { pt: 'pt-PT', en: 'en-GB' };

export class RobotVoice {
  #on: boolean;

  constructor(private readonly storage: Storage = localStorage) {
    this.#on = storage.getItem(KEY) !== 'off';
  }

  /** The browser can speak. */
  get available(): boolean {
    return typeof window.speechSynthesis !== 'undefined' && typeof window.SpeechSynthesisUtterance !== 'undefined';
  }

  get on(): boolean {
    return this.#on && this.available;
  }

  set(on: boolean): void {
    this.#on = on;
    this.storage.setItem(KEY, on ? 'on' : 'off');
    if (!on && this.available) window.speechSynthesis.cancel();
  }

  /** Says `text` in `language` (pt, en or a BCP 47 tag), after what it is saying now. */
  say(text: string, language: string): void {
    if (!this.on || !text.trim()) return;
    const u = new SpeechSynthesisUtterance(text);
    const base = language.toLowerCase().slice(0, 2);
    u.lang = TAGS[base] ?? language;
    // A voice of that language when the browser lists one; otherwise its default for `lang`.
    const voice = window.speechSynthesis.getVoices().find((v) => v.lang.toLowerCase().startsWith(base));
    if (voice) u.voice = voice;
    window.speechSynthesis.speak(u);
  }
}
