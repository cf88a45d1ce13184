// `npm run gen:msgs`: writes robot/parceiro_msgs/msg/*.msg from robot/bus/messages.ts, and removes a
// .msg file no spec gives any more. CMakeLists.txt's list is kept by hand (a test checks it).

import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../table-bridge/index.js';
import { parceiroMsgFiles } from './msg-files.js';

const dir = join(packageRoot(), 'robot', 'parceiro_msgs', 'msg');
const files = parceiroMsgFiles();
for (const [name, text] of files) writeFileSync(join(dir, name), text);
for (const name of readdirSync(dir)) if (name.endsWith('.msg') && !files.has(name)) rmSync(join(dir, name));
console.log(`wrote ${files.size} .msg files in ${dir}`);
