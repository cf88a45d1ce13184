// socket.io's typed-event maps for the /table namespace, built from the message types.

import type {
  CardDetectedMessage,
  CardRemovedMessage,
  EventAck,
  GameControlMessage,
  HandMessage,
  Hello,
  HelloAck,
  PromptMessage,
  RejectedMessage,
  RobotBehaviourMessage,
  RobotPlayMessage,
  TableReply,
  TableState,
} from './messages.js';

export interface ClientToServerEvents {
  hello: (msg: Hello, ack: (reply: HelloAck) => void) => void;
  'card:detected': (msg: CardDetectedMessage, ack: (reply: EventAck) => void) => void;
  'card:removed': (msg: CardRemovedMessage, ack: (reply: EventAck) => void) => void;
  'game:control': (msg: GameControlMessage, ack: (reply: EventAck) => void) => void;
}

export interface ServerToClientEvents {
  state: (state: TableState) => void;
  'robot:play': (msg: RobotPlayMessage, ack: (reply: TableReply) => void) => void;
  hand: (msg: HandMessage, ack: (reply: TableReply) => void) => void;
  prompt: (msg: PromptMessage) => void;
  rejected: (msg: RejectedMessage) => void;
  /** Only to tables whose hello asked for it (`behaviour: true`). */
  'robot:behaviour': (msg: RobotBehaviourMessage) => void;
}
