// Direct imitation through onnxruntime-node: the imitation player (game/learned/imitation.ts) with its
// network run by the runtime instead of game/'s TypeScript pass, so a tournament measures the model
// exactly as onnxruntime runs it (`imitation:model=FILE.onnx:runtime=onnx`). The runtime answers
// asynchronously, so these players sit on the tournament's async runner. Same rule: the most probable
// legal card, ties to the lowest card.

import { DECISION_FEATURES, encodeInfoSet, onnxImitationModel } from '../../game/index.js';
import type { Card, PlayerOptions, SeatView } from '../../game/index.js';
import type { AsyncChoice, AsyncPlayerLike } from './play-async.js';
import type { OnnxPolicy } from '../learned/onnx.js';

class OnnxImitationPlayer implements AsyncPlayerLike {
  private readonly x = new Float32Array(DECISION_FEATURES);

  constructor(
    private readonly onnx: OnnxPolicy,
    readonly kind: string,
  ) {}

  async choose(view: SeatView): Promise<AsyncChoice> {
    encodeInfoSet(view.snapshot(), this.x);
    const p = await this.onnx.forward(this.x, 1);
    const legal = view.legalCards();
    let best: Card = legal[0]!;
    for (const c of legal) if (p[c]! > p[best]!) best = c;
    return { card: best, fault: null };
  }
}

/**
 * The async players of `names` (each `imitation:model=FILE:runtime=onnx`), one onnxruntime session per
 * file, each checked as the live node checks its models (a policy network of this build's features,
 * with its sidecar); a file that fails is a ModelFileError naming it.
 */
export async function onnxImitationPlayers(
  names: readonly string[],
): Promise<{ players: Record<string, (o: PlayerOptions) => AsyncPlayerLike>; close: () => Promise<void> }> {
  const { loadLiveModel } = await import('../learned/onnx.js');
  const sessions = new Map<string, OnnxPolicy>();
  const players: Record<string, (o: PlayerOptions) => AsyncPlayerLike> = {};
  const close = async (): Promise<void> => void (await Promise.all([...sessions.values()].map((s) => s.close())));
  try {
    for (const name of names) {
      const file = onnxImitationModel(name)!;
      let session = sessions.get(file);
      if (!session) sessions.set(file, (session = (await loadLiveModel(file, process.cwd())).onnx));
      const s = session;
      players[name] = () => new OnnxImitationPlayer(s, name);
    }
  } catch (e) {
    await close();
    throw e;
  }
  return { players, close };
}
