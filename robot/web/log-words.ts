// The table log in people's words: what a table did (joined, put down a card, asked for a new game)
// and what the runtime told it (the robot's card, a prompt, a refusal), seats named from the robot's
// point of view ("the partner (seat 2)"). The raw codes go in `detail`, for a tooltip. Pure and free
// of Node APIs: the server's reducer and the browser's both use it.

import type { TableEvent, TableOutput } from '../bus/messages.js';
import { seatWords } from './pages/words.js';

export interface Words {
  text: string;
  detail?: string;
}

/** "the partner (seat 2)"; "seat 2" before the robot's seat is known; "" for no seat (-1). */
export function seatLabel(seat: number, robotSeat: number): string {
  if (seat < 0) return '';
  if (robotSeat < 0) return `seat ${seat}`;
  return seat === robotSeat ? `the robot (seat ${seat})` : `${seatWords(seat, robotSeat)} (seat ${seat})`;
}

const list = (xs: readonly string[]): string =>
  xs.length <= 1 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} and ${xs.at(-1)}`;
const words = (code: string): string => code.replaceAll('_', ' ').replaceAll('-', ' ');

const CONTROLS: Readonly<Record<string, string>> = {
  new_game: 'asks for a new game',
  pause: 'asks to pause',
  resume: 'asks to resume',
  next_session: 'asks for the next session',
  why: 'asks the robot why it played its last card',
  review: 'asks the robot how the game went',
};

/** What the runtime's prompt asks (the prompt kinds of table-bridge/messages.ts, written with _). */
const PROMPTS: Readonly<Record<string, string>> = {
  turn: 'says whose turn it is',
  place_robot_card: "asks someone to place the robot's card",
  put_back: 'asks to put a card back',
  gather: 'asks to gather the trick',
  new_game: 'offers a new game',
  game_over: 'says the game is over',
  session_over: 'says the session is over',
  info: 'tells the table',
};

function cardMove(removed: boolean, m: Pick<TableEvent, 'card' | 'zone' | 'seat'>, robot: number): string {
  const who = seatLabel(m.seat, robot);
  const where = !who ? '' : m.zone === 'hand' ? ` in the hand area of ${who}` : ` on the spot of ${who}`;
  return `${removed ? 'lifted' : 'put down'} ${m.card}${where}`;
}

export function tableEventText(m: TableEvent, robot: number): Words {
  const name = m.table_name || m.table_id;
  switch (m.kind) {
    case 'hello':
      return m.seats.length
        ? {
            text: `${name} joined, playing ${list(m.seats.map((s) => seatLabel(s, robot)))}`,
            detail: `${m.table_id} (${m.table_kind || 'table'})`,
          }
        : { text: `${name} joined to watch (no seat)`, detail: `${m.table_id} (${m.table_kind || 'table'})` };
    case 'disconnect':
      return { text: `${name} left (${m.reason || 'no reason given'})`, detail: m.table_id };
    case 'refused_again': {
      // Copies the table bridge refused without the runtime: nothing for the robot to react to.
      const what =
        m.event === 'game:control'
          ? (CONTROLS[m.action] ?? words(m.action))
          : cardMove(m.event === 'card:removed', m, robot);
      const times = `${m.repeats} more time${m.repeats === 1 ? '' : 's'}`;
      return {
        text: `${name} #${m.first_seq}-${m.seq}: ${what}, sent ${times}, refused again (${words(m.code)})`,
        detail: `${m.event} ${m.code}`,
      };
    }
    case 'control':
      return { text: `${name} #${m.seq}: ${CONTROLS[m.action] ?? words(m.action)}`, detail: m.action };
    default:
      return { text: `${name} #${m.seq}: ${cardMove(m.kind === 'card_removed', m, robot)}`, detail: m.kind };
  }
}

export function tableOutputText(m: TableOutput, robot: number): Words {
  switch (m.kind) {
    case 'robot_play':
      return { text: `the robot plays ${m.card}` };
    case 'prompt':
      return { text: `the runtime ${PROMPTS[m.code] ?? 'tells the table'}: "${m.text}"`, detail: `prompt ${m.code}` };
    case 'rejected': {
      const who = seatLabel(m.seat, robot);
      return {
        text: `refused${m.card ? ` ${m.card}` : ''}${who ? ` from ${who}` : ''} (${words(m.code)}): ${m.text}`,
        detail: m.code,
      };
    }
    default:
      return { text: `${words(m.kind)}: ${m.text}`, detail: m.code };
  }
}
