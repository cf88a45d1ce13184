// "Porquê?": a person asks why the robot played its last card (a table's game:control `why`, on the
// bus as a table event, so the recording has it and a replay asks again). The robot answers aloud
// now, in the session's language, with the reason its decision carried (game/explain), in seed
// 001's words: how sure, in certainly / probably / maybe; and what decided in its search, in numbers
// (the chance to win the game, or the points). Never stale: it was asked for. While the
// game is played it says only what the others can see (no card still in its hand, no points kept
// back); once the game is over every card is known, and it says the whole reason.

import type { BehaviourScheduler, BehaviourSetup, Clock } from '../../../behaviours/index.js';
import { cardPhrase, decidingEdge, reasonText, renderUtterance } from '../../../behaviours/index.js';
import type { Seat } from '../../../game/index.js';
import { parseCard, partnerOf } from '../../../game/index.js';
import type { Bus, DecisionMessage, Unsubscribe } from '../../bus/index.js';
import { movePairOfMessage, reasonOfMessage } from '../session/bus-messages.js';
import type { NodeLogger } from './logger.js';
import { sayNow } from './say-now.js';

interface WhyOptions {
  bus: Bus;
  scheduler: BehaviourScheduler;
  /** The behaviour setup of each language the robot can speak, by language tag. */
  setups: ReadonlyMap<string, BehaviourSetup>;
  language: string;
  robotSeat: Seat;
  clock: Clock;
  log: NodeLogger;
}

export function listenForWhy(o: WhyOptions): Unsubscribe {
  let language = o.language;
  /** The robot's last decision this game (null after a deal). */
  let last: DecisionMessage | null = null;
  /** The game is over: every card is known, the whole reason may be said. */
  let over = false;
  /** Cards played this game, and the trick (0-based) of the robot's last decision. */
  let plays = 0;
  let lastTrick = -1;
  let asked = 0;
  /** The seats each table hosts, from its hello: the partner's own table asking hears "you". */
  const hosts = new Map<string, readonly number[]>();
  const answer = (listener: 'partner' | 'other'): string | null => {
    const library = (o.setups.get(language) ?? [...o.setups.values()][0]!).utterances;
    const words = library.reasons;
    if (!words) return null;
    if (!last) return renderUtterance(library, { text: words.none }, {});
    const card = { card: cardPhrase(library, parseCard(last.card)) };
    const reason = reasonOfMessage(last);
    // What decided in the search (the chance to win, or the points), in numbers: a player learns
    // more from "19% against 8%" than from "we win more often".
    const pair = movePairOfMessage(last);
    if (reason) return reasonText(library, reason, !over, pair && decidingEdge(pair.chosen, pair.other), listener);
    // A forced card said as forced during the game tells the table what the robot did not hold.
    const forced = over || lastTrick === 9 ? words.forced : (words.forcedDiscreet ?? words.unknown);
    return renderUtterance(library, { text: last.fallback === 'forced' ? forced : words.unknown }, card);
  };
  const offs = [
    o.bus.subscribe('language', (m) => void (language = m.language)),
    o.bus.subscribe('decision', (m) => {
      last = m;
      lastTrick = Math.floor(plays / 4);
    }),
    o.bus.subscribe('gameEvents', (m) => {
      if (m.type === 'deal') {
        last = null;
        over = false;
        plays = 0;
      } else if (m.type === 'play') plays++;
      else if (m.type === 'end') over = true;
    }),
    o.bus.subscribe('tableEvents', (m) => {
      if (m.kind === 'hello') hosts.set(m.table_id, m.seats);
      if (m.kind !== 'control' || m.action !== 'why') return;
      const seats = hosts.get(m.table_id) ?? [];
      const text = answer(seats.length === 1 && seats[0] === partnerOf(o.robotSeat) ? 'partner' : 'other');
      if (!text)
        return void o.log.warn(
          { language },
          `asked why, but the ${language} utterances have no reasons section: nothing said`,
        );
      sayNow(o.scheduler, o.setups.get(language) ?? [...o.setups.values()][0]!, o.clock, {
        id: `why#${++asked}`,
        category: 'asked.why',
        askedBy: seats.length === 1 ? (seats[0] as Seat) : null,
        text,
        language,
      });
    }),
  ];
  return () => offs.forEach((off) => off());
}
