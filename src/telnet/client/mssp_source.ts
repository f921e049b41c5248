/** A telnet client's MSSP table: game name, players online (cached from the REST API), uptime. */
import type { MsspTable } from "../protocol/mssp.ts";

/** Settings for {@linkcode MsspSource}. */
export interface MsspSourceOptions {
  gameName: string;
  /** Base URL of the engine's HTTP API, e.g. `http://127.0.0.1:4203`. */
  httpBase: string;
  /** Telnet port, reported as PORT. */
  port: number;
  /** Start of the sidecar (ms since epoch); it outlives engine restarts, so it is the uptime. */
  startedAt: number;
  /** How long a player count stays fresh (default 5 s). */
  maxAgeMs?: number;
  /** Fetch (tests may stub it). */
  fetch?: typeof fetch;
  /** The count itself, where it is known without asking (the engine's own telnet players). */
  count?: () => number;
}

/**
 * Supplies the MSSP table synchronously (the telnet session asks mid-negotiation) from a player
 * count refreshed in the background, at most once per `maxAgeMs` however many crawlers call.
 */
export class MsspSource {
  readonly #o: MsspSourceOptions;
  readonly #fetch: typeof fetch;
  #players = 0;
  #fetchedAt = -Infinity;
  #inFlight: Promise<void> | null = null;

  constructor(opts: MsspSourceOptions) {
    this.#o = opts;
    this.#fetch = opts.fetch ?? fetch;
  }

  /** The last known number of players online. */
  get players(): number {
    return this.#o.count?.() ?? this.#players;
  }

  /** Refreshes the player count when it is stale; never throws. */
  refresh(): Promise<void> {
    if (this.#o.count) return Promise.resolve();
    if (Date.now() - this.#fetchedAt < (this.#o.maxAgeMs ?? 5_000)) return Promise.resolve();
    this.#inFlight ??= this.#load().finally(() => this.#inFlight = null);
    return this.#inFlight;
  }

  /** The table as of now. */
  table(): MsspTable {
    return {
      NAME: this.#o.gameName,
      PLAYERS: String(this.players),
      UPTIME: String(Math.floor(this.#o.startedAt / 1000)),
      CODEBASE: "UrsaMU",
      PORT: String(this.#o.port),
      ANSI: "1",
      UTF8: "1",
      GMCP: "1",
      MCCP: "1",
      MSSP: "1",
    };
  }

  async #load(): Promise<void> {
    const ctl = new AbortController();
    const timer = setTimeout(() => ctl.abort(), 2_000);
    try {
      const res = await this.#fetch(`${this.#o.httpBase}/api/v1/players/online`, {
        signal: ctl.signal,
      });
      const body = await res.json();
      if (res.ok && Array.isArray(body)) this.#players = body.length;
      this.#fetchedAt = Date.now();
    } catch {
      // The engine is down (restarting): keep the last count, try again on the next call.
    } finally {
      clearTimeout(timer);
    }
  }
}
