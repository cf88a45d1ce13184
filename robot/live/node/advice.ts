// The training mode (off by default: table talk is not allowed in a real game). When the
// robot's partner, a person (a virtual or touch table hosts the seat), is to play, the robot searches that seat's cards, as a coach who sees its
// partner's hand, and when the choice matters (adviceFor: the best card beats the person's likely
// card, the rule-based player's, by a margin) it suggests the card aloud to the partner. Only with
// hands the runtime dealt (a physical deal's hands are not known), and only while that turn lasts.
// Besides, as a coach would: at each deal how its own hand looks (fuzzy words after Yano and Onisawa,
// from the hand model), and once a game each warning of the situation (game/explain/warnings.ts: the
// ace of trumps on the other side of the partner's seven; no trumps left with the opponents).
// Everything goes out as a request to say a line (`wizardSay`, by "advice"), as the operator's lines
// do: the recording has it, and a replay says it again without searching.

import type { BehaviourSetup } from '../../../behaviours/index.js';
import { cardPhrase, certaintyOf, renderUtterance } from '../../../behaviours/index.js';
import type { AdviceMargin, Seat } from '../../../game/index.js';
import {
  HandAssessor,
  RulePlayer,
  SeatView,
  adviceFor,
  deriveSeed,
  partnerOf,
  situationWarnings,
  strengthOf,
  winGainSupport,
} from '../../../game/index.js';
import type { Bus, Unsubscribe } from '../../bus/index.js';
import { PoolSearchPlayer } from '../search/pool-player.js';
import type { SessionRuntime } from '../session/index.js';
import type { NodeLogger } from './logger.js';

interface AdviceSettings {
  /** Time for the advice's search (ms). */
  budgetMs: number;
  margin: AdviceMargin;
}

interface AdviceOptions extends AdviceSettings {
  bus: Bus;
  runtime: SessionRuntime;
  setups: ReadonlyMap<string, BehaviourSetup>;
  language: string;
  robotSeat: Seat;
  seed: number;
  log: NodeLogger;
}

/** The running advice: stop it with `close`. */
interface AdviceMode {
  close(): Promise<void>;
  /** Advice searched, and said. */
  readonly stats: { searched: number; said: number };
}

export function startAdvice(o: AdviceOptions): AdviceMode {
  const partner = partnerOf(o.robotSeat);
  // One search thread: the robot's own search is idle while its partner thinks.
  const coach = new PoolSearchPlayer({
    seat: partner,
    seed: deriveSeed(o.seed, 0xad71ce),
    budgetMs: o.budgetMs,
    threads: 1,
    explain: false,
    name: 'advice',
  });
  const person = new RulePlayer({ seat: partner, seed: deriveSeed(o.seed, 0xad71cf) });
  const stats = { searched: 0, said: 0 };
  const assessor = new HandAssessor();
  /** Games whose deal was commented on, and the warnings said ("game:kind", each once a game). */
  const handSaid = new Set<number>();
  const warned = new Set<string>();
  let language = o.language;
  /**
   * Connections of people's tables (virtual, touch) hosting the partner's seat, by table id: advice is
   * for a person. Counted, since a table that reconnects is connected again before its old connection
   * is reported gone.
   */
  const people = new Map<string, number>();
  const personAtPartner = (): boolean => [...people.values()].some((n) => n > 0);
  /** The turn last advised on (game, cards played): each turn at most once. */
  let asked = '';
  let running: Promise<void> = Promise.resolve();

  const turnOf = (): { key: string; view: SeatView } | null => {
    const current = o.runtime.view().current;
    const game = current?.game;
    if (!game || game.isOver || game.toMove !== partner || !game.knowsHand(partner)) return null;
    return { key: `${current.index}:${game.plays}`, view: new SeatView(game, partner) };
  };

  const say = (text: string, language: string): void =>
    o.bus.publish('wizardSay', {
      text,
      language,
      utterance_id: `advice#${++stats.said}`,
      target: 'partner',
      by: 'advice',
    });
  const library = () => (o.setups.get(language) ?? [...o.setups.values()][0]!).utterances;

  /**
   * What a coach tells its partner besides a card: at the deal, how its own hand looks (fuzzy words
   * after Yano and Onisawa, from the hand model); once a game each, the warnings of the situation that
   * a coach who sees both of the team's hands knows.
   */
  const comment = (): void => {
    const current = o.runtime.view().current;
    const game = current?.game;
    const words = library().reasons;
    if (!personAtPartner() || !current || !game || game.isOver || !words) return;
    const lib = library();
    if (!handSaid.has(current.index) && game.plays === 0 && game.knowsHand(o.robotSeat)) {
      handSaid.add(current.index);
      const a = assessor.assess(game.hand(o.robotSeat), o.robotSeat, game.dealer, game.trumpCard);
      say(
        renderUtterance(lib, { text: words.hand }, { strength: words.strength[strengthOf(a.expectedPoints).class] }),
        lib.language,
      );
    }
    // Warnings of the situation, when the partner is to play (situationWarnings: from the two hands and the table only).
    if (game.toMove !== partner) return;
    for (const w of situationWarnings(game, o.robotSeat)) {
      const key = `${current.index}:${w.kind}`;
      if (warned.has(key)) continue;
      warned.add(key);
      if (w.kind === 'ace-with-them')
        say(renderUtterance(lib, { text: words.aceWithThem }, { card: cardPhrase(lib, w.card) }), lib.language);
      else say(renderUtterance(lib, { text: words.noTrumpsWithThem }, {}), lib.language);
    }
  };

  const advise = async (): Promise<void> => {
    const turn = turnOf();
    if (!personAtPartner() || !turn || turn.key === asked || turn.view.legalCards().length < 2) return;
    asked = turn.key;
    const likely = person.choose(turn.view);
    stats.searched++;
    const decision = await coach.decide(turn.view);
    const advice = adviceFor(decision.beliefs, likely, o.margin);
    // Said only while the turn lasts: once the partner has played, the moment has passed.
    if (!advice || turnOf()?.key !== turn.key) return;
    const lib = library();
    const words = lib.reasons;
    if (!words) return;
    const text = renderUtterance(
      lib,
      { text: words.advice },
      {
        card: cardPhrase(lib, advice.card),
        other: cardPhrase(lib, likely),
        certainty: words.certainty[certaintyOf(winGainSupport(advice.gain.winProbability))],
      },
    );
    say(text, lib.language);
  };

  const offs: Unsubscribe[] = [
    o.bus.subscribe('language', (m) => void (language = m.language)),
    o.bus.subscribe('connections', (m) => {
      if (m.component !== 'table') return;
      // A table's seats are in its detail ("seats 2", "seats 1, 3"): see connection-watch.ts.
      const seats = m.detail.startsWith('seats ')
        ? m.detail
            .slice(6)
            .split(',')
            .map((x) => Number(x.trim()))
        : [];
      if (m.connected && (m.kind === 'virtual' || m.kind === 'touch') && seats.includes(partner))
        people.set(m.id, (people.get(m.id) ?? 0) + 1);
      else if (!m.connected && people.has(m.id)) people.set(m.id, people.get(m.id)! - 1);
    }),
    // Every change of the session; one search at a time, in order.
    o.bus.subscribe('gameState', () => {
      running = running
        .then(() => (comment(), advise()))
        .catch((e: unknown) =>
          o.log.warn({ err: e instanceof Error ? e.message : String(e) }, 'the advice failed; the game goes on'),
        );
    }),
  ];
  return {
    stats,
    close: async () => {
      for (const off of offs) off();
      await running;
      await coach.close();
    },
  };
}
