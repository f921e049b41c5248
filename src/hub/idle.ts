/**
 * The idle sweep: one timer for all connections (sockets have no ping timer of their own)
 * closes connections that have not logged in within `server.loginTimeout` of opening (whatever
 * they send meanwhile: pings and stray lines do not keep one open) and players idle past
 * `game.idleTimeout`.
 */
import type { Config } from "../config/load.ts";
import { isStaff } from "../world/flags.ts";
import { idleSweepMs } from "./limits.ts";
import type { SessionRegistry } from "./registry.ts";

/** The hub's one idle timer. */
export class IdleSweep {
  #timer: ReturnType<typeof setTimeout> | null = null;
  #stopped = false;

  constructor(
    private readonly registry: SessionRegistry,
    private readonly config: () => Config,
  ) {}

  /** Runs the sweep while there are connections (call after each accept; a no-op when armed). */
  arm(): void {
    if (this.#timer !== null || this.#stopped || this.registry.connectionCount === 0) return;
    const { game, server } = this.config().value;
    const bounds = [game.idleTimeout, server.loginTimeout].filter((s) => s > 0);
    const ms = idleSweepMs(bounds.length ? Math.min(...bounds) : 0);
    this.#timer = setTimeout(() => {
      this.#timer = null;
      try {
        this.#sweep();
      } catch (e) {
        console.error(`hub: idle sweep: ${e}`);
      }
      this.arm();
    }, ms);
  }

  /** Stops the timer (no connections left); `arm` starts it again. */
  disarm(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
  }

  /** Stops for good (the hub is shutting down). */
  stop(): void {
    this.#stopped = true;
    this.disarm();
  }

  #sweep(): void {
    const now = Date.now();
    const login = this.config().value.server.loginTimeout;
    if (login > 0) {
      const loginCutoff = now - login * 1000;
      for (const c of this.registry.connections()) {
        // Sockets have no ping timer, so silent pre-login connections (half-open ones included)
        // end here, and so do ones that only keep themselves busy. Counted from this engine's
        // opening, not the sidecar's report: a session resuming after a reboot is not late.
        if (!c.playerId && !c.closed && c.openedAt < loginCutoff) {
          c.close(`Connection timed out (no login within ${formatSeconds(login)}).`);
        }
      }
    }
    const limit = this.config().value.game.idleTimeout;
    if (limit <= 0) return;
    const cutoff = now - limit * 1000;
    const idle = [...this.registry.connections()].filter((c) =>
      c.playerId && !c.closed && c.lastInput < cutoff &&
      !isStaff(this.registry.card(c.playerId)?.flags ?? [])
    );
    for (const c of idle) {
      c.close(`You have been idle for more than ${formatSeconds(limit)}. Goodbye!`);
    }
  }
}

/** "90 minutes", "1 hour", "45 seconds". */
function formatSeconds(s: number): string {
  if (s % 3600 === 0) return s === 3600 ? "1 hour" : `${s / 3600} hours`;
  if (s % 60 === 0) return s === 60 ? "1 minute" : `${s / 60} minutes`;
  return s === 1 ? "1 second" : `${s} seconds`;
}
