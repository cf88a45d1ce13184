// The `.msg` files of the interface package (robot/parceiro_msgs/msg), written from the specs in
// messages.ts: the specs are the one source, so the ROS 2 package, the node's types and the
// recordings' schemas say the same. `npm run gen:msgs` writes them (gen-msgs.ts); a test fails when a
// committed file differs from what this gives, so a forgotten regeneration does not pass CI.

import { PARCEIRO_MESSAGES } from './messages.js';
import { toMsgFile } from './spec.js';

/** The first lines of every generated file. */
export const GENERATED_HEADER =
  '# Generated from robot/bus/messages.ts by `npm run gen:msgs`: change the spec there, not this file.\n';

/** Each of our messages' file name (`Name.msg`) with its text. */
export function parceiroMsgFiles(): Map<string, string> {
  return new Map(
    PARCEIRO_MESSAGES.map((spec) => [`${spec.type.split('/').pop()}.msg`, GENERATED_HEADER + toMsgFile(spec)]),
  );
}
