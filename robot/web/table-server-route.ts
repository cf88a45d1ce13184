// `/table-server.json`: where the virtual table connects, for a page opened without the table server
// in its link (it pre-fills the address the node really uses). The address only, never the token.

import type { IncomingMessage, ServerResponse } from 'node:http';

type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

const TABLE_SERVER_PATH = '/table-server.json';

/** `pages` with `/table-server.json` answered first (404 when the node offers no virtual table). */
export function withTableServerRoute(pages: RequestHandler, virtualTable: { url: string } | null): RequestHandler {
  return (req, res) => {
    let path = '';
    try {
      path = new URL(req.url ?? '/', 'http://x').pathname;
    } catch {
      // left to the pages' handler, which says what is wrong
    }
    if (path !== TABLE_SERVER_PATH || (req.method !== 'GET' && req.method !== 'HEAD')) return pages(req, res);
    const body = virtualTable ? JSON.stringify({ server: virtualTable.url }) : JSON.stringify({ server: null });
    res.writeHead(virtualTable ? 200 : 404, {
      'content-type': 'application/json',
      'cache-control': 'no-cache',
      'x-content-type-options': 'nosniff',
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  };
}
