// The levels of play's settings: config/levels.yaml is the embedded defaults, a broken file is named
// by line and key, and the player names say what is wrong.

import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../behaviours/index.js';
import { DEFAULT_LEVELS, LEVEL_NAMES, PlayerSpecError, playerFactory } from '../../game/index.js';
import { loadLevels, parseLevels } from '../../launch/levels.js';

describe('levels of play', () => {
  it('config/levels.yaml holds the embedded defaults', () => {
    expect(loadLevels()).toEqual(DEFAULT_LEVELS);
  });

  it('names the file, the line, the key and what was expected', () => {
    const text = [
      'secondsPerCard: 5',
      'levels:',
      ...LEVEL_NAMES.map((l) => `  ${l}: { memory: perfect, infer: 50 }`),
    ].join('\n');
    expect(parseLevels(text, 'levels.yaml').levels.full).toEqual({ memory: 'perfect', infer: 50 });
    const broken = text.replace(
      '  casual: { memory: perfect, infer: 50 }',
      '  casual:\n    memory: { decay: 0.5, noise: 0.3, threshold: -2, salience: 1, rehearse: [leads] }\n    infer: 50',
    );
    expect(() => parseLevels(broken, 'levels.yaml')).toThrow(ConfigError);
    try {
      parseLevels(broken, 'levels.yaml');
    } catch (e) {
      expect((e as Error).message).toMatch(/^levels\.yaml:5:\d+: levels\.casual\.memory/);
    }
    const missing = text.replace(/ {2}expert: .*\n/, '');
    expect(() => parseLevels(missing, 'levels.yaml')).toThrow(/levels\.expert: missing/);
    const unknown = `${text}\n  master: { memory: perfect, infer: 50 }`;
    expect(() => parseLevels(unknown, 'levels.yaml')).toThrow(/:8:3: levels\.master: unknown key "master"/);
  });

  it('makes level:name=LEVEL players and refuses others in one line', () => {
    for (const l of LEVEL_NAMES) expect(typeof playerFactory(`level:name=${l}`)).toBe('function');
    expect(() => playerFactory('level:name=grandmaster')).toThrow(PlayerSpecError);
    expect(() => playerFactory('level:name=grandmaster')).toThrow(
      /unknown level 'grandmaster' \(levels: beginner, casual, club, expert, full\)/,
    );
    expect(() => playerFactory('level')).toThrow(/level needs a name/);
    expect(() => playerFactory('level:depth=3')).toThrow(/level takes name=LEVEL/);
  });
});
