/**
 * The accept loop every listener of ours runs (the engine's HTTP and WebSocket ports, the telnet
 * sidecar's port). A failed accept is one connection's problem (reset before we took it) or a
 * passing shortage (out of file descriptors: `Too many open files`): it is retried after a
 * growing pause, never the end of the loop, and logged without flooding the log. Only a listener
 * that is gone (closed under us) ends it, and then `lost` decides what happens.
 */

/** Delay before retrying after the `failures`-th accept error in a row: 10 ms doubling to 1 s. */
export function acceptRetryDelay(failures: number): number {
  return Math.min(1_000, 10 * 2 ** Math.min(failures, 7));
}

/** True for errors that mean the peer is already gone (reset, aborted, not connected). */
export function isConnectionGone(e: unknown): boolean {
  return e instanceof Deno.errors.NotConnected || e instanceof Deno.errors.ConnectionReset ||
    e instanceof Deno.errors.ConnectionAborted || e instanceof Deno.errors.BrokenPipe;
}

/** Accept failures are logged at most once per this many ms (with how many there were). */
const FAILURE_LOG_MS = 60_000;

/** What the loop does with what it accepts, and whom it tells. */
export interface AcceptOptions<C extends Deno.Conn> {
  /** Starts each line of the log, e.g. `telnet` or `engine: HTTP`. */
  label: string;
  /** Takes a new connection; a throw closes it (a socket that died during its setup). */
  admit(conn: C): void;
  /** True once the listener is being closed on purpose. */
  stopping(): boolean;
  /** The listener is gone while not stopping: nobody can connect any more. */
  lost(e: Error): void;
  log(line: string): void;
}

/** Accepts until the listener is closed (see the module's comment). */
export async function acceptLoop<C extends Deno.Conn>(
  listener: Deno.Listener<C>,
  o: AcceptOptions<C>,
): Promise<void> {
  let failures = 0;
  let logged = -Infinity;
  let unlogged = 0;
  while (!o.stopping()) {
    let conn: C;
    try {
      conn = await listener.accept();
    } catch (e) {
      if (o.stopping()) return;
      if (e instanceof Deno.errors.BadResource || e instanceof Deno.errors.Interrupted) {
        o.log(`${o.label}: the listener is gone: ${(e as Error).message}`);
        o.lost(e as Error);
        return;
      }
      // The client hung up between the handshake and accept(): nothing to wait for.
      if (isConnectionGone(e)) continue;
      const wait = acceptRetryDelay(failures++);
      const now = Date.now();
      if (now - logged >= FAILURE_LOG_MS) {
        const more = unlogged > 0 ? ` (${unlogged} more failures since the last line)` : "";
        o.log(`${o.label}: accept failed (${(e as Error).message}); retrying${more}`);
        logged = now;
        unlogged = 0;
      } else unlogged++;
      await new Promise((r) => setTimeout(r, wait));
      continue;
    }
    failures = 0;
    try {
      o.admit(conn);
    } catch (e) {
      // A socket that died between accept() and its setup (remote address, TCP_NODELAY).
      if (!isConnectionGone(e)) {
        o.log(`${o.label}: connection setup failed: ${(e as Error).message}`);
      }
      try {
        conn.close();
      } catch { /* already closed */ }
    }
  }
}
