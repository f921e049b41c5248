/**
 * A player's connection statistics, MUX's A_CONNINFO: how many connections have ended, the time
 * connected in all, the longest session, the last session's length (seconds) and when the last
 * connection ended (seconds since the epoch). Kept on the player's record (`data.conninfo`),
 * written when a connection ends (not when the engine restarts under its players, whose sessions
 * go on), and read by softcode's `connnum()`, `conntotal()`, `connmax()`, `connlast()` and
 * `connleft()`. The game's record of connections at once (`connrecord()`) is one KV entry.
 */
import type { DbObject } from "./types.ts";
import type { ObjectStore } from "./objects.ts";
import { keys } from "../storage/keys.ts";
import { NotFoundError } from "../errors.ts";

/** What is kept of a player's connections. */
export interface ConnInfo {
  /** Connections ended. */
  connects: number;
  /** Seconds connected in all (sessions that overlap are counted once). */
  total: number;
  /** The longest session, in seconds. */
  longest: number;
  /** The last session's length, in seconds. */
  last: number;
  /** When the last connection ended, in seconds since the epoch (0: never). */
  left: number;
}

const NONE: ConnInfo = Object.freeze({ connects: 0, total: 0, longest: 0, last: 0, left: 0 });

/** A whole number of at least 0 from what is stored (anything else reads as 0, as MUX's). */
function count(v: unknown): number {
  return typeof v === "number" && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0;
}

/** A player's statistics as stored (all zero when none are). */
export function connInfoOf(player: DbObject): ConnInfo {
  const c = player.data?.conninfo;
  if (!c || typeof c !== "object") return NONE;
  const r = c as Record<string, unknown>;
  return {
    connects: count(r.connects),
    total: count(r.total),
    longest: count(r.longest),
    last: count(r.last),
    left: count(r.left),
  };
}

/** One of a player's connections ending, as the hub saw it (times in ms since the epoch). */
export interface ConnectionEnd {
  playerId: string;
  /** When the connection that ended had connected. */
  since: number;
  /** When the oldest and the second oldest of the player's other connections connected. */
  others: readonly number[];
  at: number;
}

/**
 * The statistics after a connection ends, counted as MUX counts them: each connection that ends
 * is one more; a session runs from the oldest connection, and the time only the oldest was open
 * is added to the total when it ends (so sessions that overlap count once).
 */
export function afterEnd(before: ConnInfo, end: ConnectionEnd): ConnInfo {
  const others = [...end.others].sort((a, b) => a - b);
  const oldest = Math.min(end.since, others[0] ?? Infinity);
  const full = Math.max(0, Math.floor((end.at - oldest) / 1000));
  const next = {
    ...before,
    connects: before.connects + 1,
    last: full,
    left: Math.floor(end.at / 1000),
  };
  if (end.since <= oldest) {
    // The oldest went: the part until the next oldest came is this session's own time.
    const part = others.length ? Math.max(0, Math.floor((others[0] - end.since) / 1000)) : full;
    next.total = before.total + part;
    next.longest = Math.max(before.longest, full);
  }
  return next;
}

/** Where the hub reports connections (src/hub/sessions.ts). */
export interface ConnectionLog {
  /** A connection logged in; `open` logged-in connections the game now has. */
  started(open: number): void;
  /** A player's connection ended (a restart under it is no end). */
  ended(end: ConnectionEnd): void;
}

/** The engine's connection log: statistics on the players' records, the record in KV. */
export class ConnectionStats implements ConnectionLog {
  #record = 0;

  constructor(
    private readonly kv: Deno.Kv,
    private readonly objects: Pick<ObjectStore, "update" | "updateNow" | "world">,
    private readonly report: (message: string) => void = console.error,
  ) {}

  /** Reads the record. */
  async load(): Promise<void> {
    this.#record = count((await this.kv.get<number>(keys.connectionRecord())).value);
  }

  /** The most connections logged in at once (MUX's record_players). */
  get record(): number {
    return this.#record;
  }

  started(open: number): void {
    if (open <= this.#record) return;
    this.#record = open;
    // Only ever raised: a slower write of a smaller number must not win.
    const key = keys.connectionRecord();
    void (async () => {
      for (let i = 0; i < 5; i++) {
        const e = await this.kv.get<number>(key);
        if (count(e.value) >= open) return;
        if ((await this.kv.atomic().check(e).set(key, open).commit()).ok) return;
      }
    })().catch((e) => this.report(`connection record not saved: ${e}`));
  }

  ended(end: ConnectionEnd): void {
    const change = (p: DbObject) => {
      if (p.flags.includes("player")) p.data.conninfo = afterEnd(connInfoOf(p), end);
    };
    const failed = (e: unknown) => {
      // A guest removed as it left, a player destroyed meanwhile: nothing to keep.
      if (e instanceof NotFoundError) return;
      this.report(`connection statistics of #${end.playerId} not saved: ${(e as Error).message}`);
    };
    // With the world in memory the change shows at once (softcode reads it the next moment, as
    // MUX's do) and is committed behind; on a shared database, written and read back.
    if (!this.objects.world) return void this.objects.update(end.playerId, change).catch(failed);
    try {
      this.objects.updateNow(end.playerId, change);
    } catch (e) {
      failed(e);
    }
  }
}
