// Where the virtual table connects when its link does not say: the node's own answer first
// (`./table-server.json`, served beside the page), then the last address this browser used, then the
// protocol's default port on this host.

const DEFAULT_PORT = 7410;

/** The table server's address to pre-fill: `fromLink` when the link has one. */
export async function tableServerUrl(fromLink: string | null): Promise<string> {
  if (fromLink) return fromLink;
  try {
    const r = await fetch('./table-server.json', { cache: 'no-store' });
    if (r.ok) {
      const body = (await r.json()) as { server?: unknown };
      if (typeof body.server === 'string' && /^https?:\/\//.test(body.server)) return body.server;
    }
  } catch {
    // No node beside the page (opened from a file, or another server): the fallbacks below.
  }
  return localStorage.getItem('vt-server') ?? `${location.protocol}//${location.hostname}:${DEFAULT_PORT}`;
}
