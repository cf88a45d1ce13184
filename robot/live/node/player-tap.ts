// The session runtime tells the robot's player every event as the robot's seat sees it, and asks it
// for decisions: the one place where both pass. This wrapper hands them to the reactions too, so the
// appraisal sees each event with the beliefs of the decision behind it, without changing the runtime.

import type { Decision, GameEvent } from '../../../game/index.js';
import type { RobotPlayer } from '../session/index.js';

interface PlayerListener {
  observe(event: GameEvent): void;
  decided(decision: Decision): void;
}

export function tappedPlayer(player: RobotPlayer, listener: PlayerListener): RobotPlayer {
  const tapped: RobotPlayer = {
    get kind() {
      return player.kind;
    },
    observe(event) {
      player.observe?.(event);
      listener.observe(event);
    },
    async decide(view) {
      const decision = await player.decide(view);
      listener.decided(decision);
      return decision;
    },
  };
  if (player.newGame) tapped.newGame = (game) => player.newGame!(game);
  return tapped;
}
