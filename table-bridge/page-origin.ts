// Which browser pages may open a socket to the node's ports. A browser sends the page's origin with
// every socket.io request; programs that are not browsers (the lab's table program, the TUIO adapter,
// the simulated table) send none and are not concerned. Without this, any web page open on the lab's
// computer could talk to the table port from 127.0.0.1.

import { isIP } from 'node:net';
import { hostname } from 'node:os';

/** Names a page of this machine can be loaded from; a name another site controls could be rebound to it. */
function ownName(name: string): boolean {
  const bare = name.replace(/^\[|\]$/g, '').toLowerCase();
  if (isIP(bare) || bare === 'localhost') return true;
  const me = hostname().toLowerCase();
  return bare === me || bare === `${me}.local`;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

const parse = (url: string): URL | null => {
  try {
    return new URL(url);
  } catch {
    return null;
  }
};

const portOf = (u: URL): number => Number(u.port || (u.protocol === 'https:' ? 443 : 80));

/**
 * A page served on `pagesPort` (the dashboard's, which serves the virtual table) of this machine,
 * under a loopback name or the name the socket itself was opened to (`host`, the request's Host).
 */
export function pageOriginAllowed(origin: string, pagesPort: number, host: string | undefined): boolean {
  const page = parse(origin);
  if (!page || (page.protocol !== 'http:' && page.protocol !== 'https:') || portOf(page) !== pagesPort) return false;
  if (LOOPBACK.has(page.hostname)) return true;
  const to = host ? parse(`http://${host}`) : null;
  return to !== null && to.hostname === page.hostname && ownName(page.hostname);
}

/** A page of the same origin as the server it opens a socket to (the dashboard's own page). */
export function sameOriginPage(origin: string, host: string | undefined): boolean {
  const page = parse(origin);
  const to = host ? parse(`http://${host}`) : null;
  if (!page || !to || (page.protocol !== 'http:' && page.protocol !== 'https:')) return false;
  return page.hostname === to.hostname && portOf(page) === portOf(to) && ownName(page.hostname);
}
