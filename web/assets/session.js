// Who is logged in: the access token and player, kept in this browser's localStorage (never in
// the address bar). Listeners hear of logins and logouts.

const KEY = "ursamu.session";
const listeners = new Set();

function read() {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) ?? "null");
    return v && typeof v.token === "string" ? v : null;
  } catch {
    return null;
  }
}

/** The session store. */
export const session = {
  /** The current token, or null. */
  token: () => read()?.token ?? null,
  /** The logged-in player `{ id, name }`, or null. */
  player: () => read()?.player ?? null,
  /** Keeps a token (and the player when known). */
  set(token, player) {
    const before = read();
    localStorage.setItem(KEY, JSON.stringify({ token, player: player ?? before?.player ?? null }));
    if (!before) listeners.forEach((f) => f("login"));
  },
  /**
   * The same player's new token after a password change: the old one no longer works, and the
   * play client's socket (closed by the change) starts again with this one.
   */
  renew(token) {
    const before = read();
    if (!before) return;
    localStorage.setItem(KEY, JSON.stringify({ ...before, token }));
    listeners.forEach((f) => f("renewed"));
  },
  /** Logs out. */
  clear() {
    const had = read();
    localStorage.removeItem(KEY);
    if (had) listeners.forEach((f) => f("logout"));
  },
  /** The token was refused: log out and say why. */
  expired() {
    const had = read();
    localStorage.removeItem(KEY);
    if (had) listeners.forEach((f) => f("expired"));
  },
  /** Calls `f(event)` on login, logout, expiry and a renewed token. */
  on(f) {
    listeners.add(f);
  },
};

/** The player's name from a token's payload (display only; the server checks tokens). */
export function playerFromToken(token) {
  try {
    const p = JSON.parse(atob(token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/")));
    return { id: String(p.sub), name: p.name ?? null };
  } catch {
    return null;
  }
}

/** True for staff (admin, wizard, superuser) by `/api/v1/me`'s flags. */
export function isStaff(me) {
  const f = Array.isArray(me?.flags) ? me.flags : String(me?.flags ?? "").split(/\s+/);
  return ["admin", "wizard", "superuser"].some((x) => f.includes(x));
}

/** True for a guest character (`connect guest`), by `/api/v1/me`'s flags. */
export function isGuest(me) {
  const f = Array.isArray(me?.flags) ? me.flags : String(me?.flags ?? "").split(/\s+/);
  return f.includes("guest");
}
