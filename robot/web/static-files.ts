// Serves the built front end (dist/web) from the package: no CDN, sessions run offline. Only GET and
// HEAD, only files under the root (no traversal), with a strict content security policy.

import { createReadStream, existsSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { packageRoot } from '../../table-bridge/index.js';

export const defaultWebRoot = (): string => join(packageRoot(), 'dist', 'web');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.map': 'application/json',
};

/** Short names for the two pages; browsers ask for /favicon.ico whatever the page links, so it is the svg. */
const ALIASES: Record<string, string> = {
  '/': '/index.html',
  '/table': '/table.html',
  '/questionnaire': '/questionnaire.html',
  '/favicon.ico': '/favicon.svg',
};

const HEADERS = {
  // The virtual table connects to the table server on another port, so connect-src is open to sockets.
  'content-security-policy':
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; connect-src 'self' http: https: ws: wss:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

export function staticHandler(root: string): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const send = (status: number, text: string): void => {
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...HEADERS });
      res.end(req.method === 'HEAD' ? undefined : `${text}\n`);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'method not allowed');
    let path: string;
    try {
      path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    } catch {
      return send(400, 'bad path');
    }
    path = ALIASES[path] ?? path;
    if (path.includes('\0')) return send(400, 'bad path');
    const file = normalize(join(root, path));
    if (!file.startsWith(root.endsWith(sep) ? root : root + sep)) return send(404, 'not found');
    if (!existsSync(join(root, 'index.html')))
      return send(503, 'the dashboard front end is not built: run npm run build');
    let size: number;
    try {
      const st = statSync(file);
      if (!st.isFile()) return send(404, 'not found');
      size = st.size;
    } catch {
      return send(404, 'not found');
    }
    const type = TYPES[extname(file)] ?? 'application/octet-stream';
    // Built assets have hashed names; pages are always revalidated.
    const cache = path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache';
    res.writeHead(200, { 'content-type': type, 'content-length': size, 'cache-control': cache, ...HEADERS });
    if (req.method === 'HEAD') return void res.end();
    createReadStream(file)
      .on('error', () => res.destroy())
      .pipe(res);
  };
}
