// The small JSON APIs the node's pages post to (the dashboard's pass exchange, the questionnaires'):
// only from a page of the same origin, bounded in size, answered as JSON that is never cached.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { sameOriginPage } from './page-origin.js';

/** A JSON answer to a page: not cached, not sniffed as anything else. */
export function answerJson(res: ServerResponse, status: number, body: object): void {
  res.writeHead(status, {
    'content-type': 'application/json',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  res.end(JSON.stringify(body));
}

/**
 * Reads a page's JSON POST of at most `maxBytes` and hands it to `use`; answers what is wrong itself
 * (405 not a POST, with `notPost` as its error; 403 from another page; 413 too long; 400 not JSON).
 */
export function readPagePost(
  req: IncomingMessage,
  res: ServerResponse,
  maxBytes: number,
  use: (asked: unknown) => void,
  notPost = 'POST',
): void {
  if (req.method !== 'POST') return answerJson(res, 405, { error: notPost });
  const origin = req.headers.origin;
  if (origin !== undefined && !sameOriginPage(origin, req.headers.host))
    return answerJson(res, 403, { error: 'not from this page' });
  let body = '';
  let tooLong = false;
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => {
    if (tooLong) return;
    body += chunk;
    if (body.length > maxBytes) {
      tooLong = true;
      answerJson(res, 413, { error: 'too long' });
      req.destroy();
    }
  });
  req.on('end', () => {
    if (tooLong) return;
    let asked: unknown;
    try {
      asked = JSON.parse(body);
    } catch {
      return answerJson(res, 400, { error: 'not JSON' });
    }
    use(asked);
  });
}
