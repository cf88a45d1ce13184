// config/node.yaml: the robot's player settings, inference included, and the errors a broken file gets.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultConfigDir } from '../../behaviours/index.js';
import { NODE_FILE, loadNodeSettings } from '../../robot/live/node/index.js';
import { tempDir } from '../behaviours/helpers.js';

describe('node settings', () => {
  it("give the robot its budget and how far it reads the others' plays", () => {
    const s = loadNodeSettings();
    expect(s.player.budgetMs).toBe(2000);
    expect(s.player.inference).toBe(50);
  });

  it('name the file, the line and what was expected when inference is out of range', () => {
    const text = readFileSync(join(defaultConfigDir(), NODE_FILE), 'utf8').replace(/^( {2}inference:) 50$/m, '$1 150');
    const file = join(tempDir('parceiro-node-'), NODE_FILE);
    writeFileSync(file, text);
    const line = text.split('\n').findIndex((l) => l.includes('inference: 150')) + 1;
    expect(line).toBeGreaterThan(0);
    expect(() => loadNodeSettings(file)).toThrow(new RegExp(`node\\.yaml:${line}.*player\\.inference.*100`, 's'));
  });
});
