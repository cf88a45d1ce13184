// One-time passes. The links the node prints (the dashboard, the virtual table) and the dashboard's
// link to the virtual table carry a pass, never a token: a browser keeps every address it opened in
// its history, so on a shared lab computer its address bar would offer a token to the next person. A
// page trades its pass once, by POST /pass from its own origin, for what it grants (the operator's
// token, or the table server and its token), which it keeps in memory and the tab's session storage
// only. A spent or old pass is worth nothing: the history holds nothing that opens the robot.

import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { answerJson, readPagePost, tokensEqual } from '../../table-bridge/index.js';

/**
 * What a pass grants: the operator's dashboard, a seat (null: to choose one) at the virtual table, or
 * a study participant's questionnaires (by code).
 */
export type Grant =
  { kind: 'operator' } | { kind: 'table'; seat: number | null } | { kind: 'participant'; code: string };

/** Long enough to open a printed link after a coffee; a pass is for one opening, not for the day. */
const LIFETIME_MS = 30 * 60_000;
/** The oldest open pass goes first beyond this many: nobody opens hundreds of links. */
const MAX_OPEN = 64;
/** A request for a pass is a few dozen bytes. */
const MAX_BODY = 1024;

export const PASS_PATH = '/pass';

export class Passes {
  readonly #open = new Map<string, { grant: Grant; until: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * A new pass for `grant`, good for one redemption within `lifetimeMs` (LIFETIME_MS by default;
   * Infinity: as long as this server runs, e.g. a study session's links, which close with it).
   */
  issue(grant: Grant, lifetimeMs: number = LIFETIME_MS): string {
    const code = randomBytes(18).toString('base64url');
    this.#open.set(code, { grant, until: this.now() + lifetimeMs });
    while (this.#open.size > MAX_OPEN) this.#open.delete(this.#open.keys().next().value!);
    return code;
  }

  /** What `code` grants, once; null for a pass that is unknown, spent or expired. */
  redeem(code: string): Grant | null {
    const open = this.#open.get(code);
    if (!open) return null;
    this.#open.delete(code);
    return open.until >= this.now() ? open.grant : null;
  }
}

type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

export interface PassRoute {
  passes: Passes;
  operatorToken: string;
  /** Where the virtual table connects and its token; null when the node offers none. */
  virtualTable: { url: string; token: string } | null;
  /** A study session's participants: a page's token for `code` (null: not at this session). */
  participants?: { join(code: string): { token: string; code: string } | null } | null;
}

/**
 * `pages` with POST /pass answered first. The body is `{ pass }` (answered with what it grants:
 * `{ operatorToken }` or `{ server, token, seat }`), or `{ operatorToken, table: { seat } }`, by which
 * the dashboard's page gets a pass for a virtual table link (`{ pass }`). Only from the pages' own
 * origin (or a program, which sends none); anything else is 403 with nothing in it.
 */
export function withPassRoute(pages: RequestHandler, route: PassRoute): RequestHandler {
  return (req, res) => {
    let path = '';
    try {
      path = new URL(req.url ?? '/', 'http://x').pathname;
    } catch {
      // left to the pages' handler, which says what is wrong
    }
    if (path !== PASS_PATH) return pages(req, res);
    const answer = (status: number, body: object): void => answerJson(res, status, body);
    readPagePost(
      req,
      res,
      MAX_BODY,
      (json) => {
        type Asked = { pass?: unknown; operatorToken?: unknown; table?: { seat?: unknown } };
        const asked = (json !== null && typeof json === 'object' ? json : {}) as Asked;
        if (typeof asked.pass === 'string') {
          const grant = route.passes.redeem(asked.pass);
          if (!grant) return answer(403, { error: 'this link was used or is too old: ask for a new one' });
          if (grant.kind === 'operator') return answer(200, { operatorToken: route.operatorToken });
          if (grant.kind === 'participant') {
            const joined = route.participants?.join(grant.code) ?? null;
            return joined ? answer(200, { participant: joined }) : answer(404, { error: 'no study session here' });
          }
          if (!route.virtualTable) return answer(404, { error: 'no virtual table here' });
          return answer(200, { server: route.virtualTable.url, token: route.virtualTable.token, seat: grant.seat });
        }
        if (typeof asked.operatorToken === 'string' && asked.table && typeof asked.table === 'object') {
          if (asked.operatorToken.length > 512 || !tokensEqual(asked.operatorToken, route.operatorToken))
            return answer(403, { error: 'the operator token does not match' });
          if (!route.virtualTable) return answer(404, { error: 'no virtual table here' });
          const seat = asked.table.seat;
          const s = typeof seat === 'number' && Number.isInteger(seat) && seat >= 0 && seat <= 3 ? seat : null;
          return answer(200, { pass: route.passes.issue({ kind: 'table', seat: s }) });
        }
        answer(400, { error: 'give a pass' });
      },
      'POST a pass',
    );
  };
}
