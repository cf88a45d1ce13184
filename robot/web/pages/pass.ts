// A link's one-time pass (#pass=...), traded once with the page's own server for what it grants: the
// links the node prints carry no token, because a browser keeps every address it opened in its
// history (robot/web/passes.ts).

/** What the pass in this page's address grants, or null when there is none, or it was used or is too old. */
export async function redeemPass(pass: string): Promise<Record<string, unknown> | null> {
  try {
    const r = await fetch('/pass', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pass }),
    });
    return r.ok ? ((await r.json()) as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** A pass for a virtual table link (`seat` null: to choose one), for the operator whose token this is. */
export async function tablePass(operatorToken: string, seat: number | null): Promise<string | null> {
  try {
    const r = await fetch('/pass', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ operatorToken, table: { seat } }),
    });
    if (!r.ok) return null;
    const { pass } = (await r.json()) as { pass?: unknown };
    return typeof pass === 'string' ? pass : null;
  } catch {
    return null;
  }
}

/** A table server's address as this page can reach it: "every interface" (0.0.0.0) is this page's host. */
export function reachableFromHere(server: string): string {
  return server.replace(/^(\w+:\/\/)(0\.0\.0\.0|\[::\])(?=[:/]|$)/, `$1${location.hostname}`);
}
