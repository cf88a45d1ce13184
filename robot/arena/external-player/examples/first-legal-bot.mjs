#!/usr/bin/env node
// A minimal Sueca player for the external-player protocol (PROTOCOL.md): it plays the first legal card.
import { createInterface } from 'node:readline';

const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);

for await (const line of createInterface({ input: process.stdin })) {
  const message = JSON.parse(line);
  if (message.type === 'hello') send({ type: 'ready', name: 'first-legal' });
  else if (message.type === 'turn') send({ type: 'move', id: message.id, card: message.legal[0] });
  else if (message.type === 'bye') break;
}
