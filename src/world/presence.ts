/**
 * Who is online: kept in memory for the hub's hot paths and mirrored to the
 * `online` KV index so other readers (and the REST API) need no hub access.
 */
import { keys } from "../storage/keys.ts";

/** Presence details of one online player. */
export interface PresenceInfo {
  since: number;
  lastActive: number;
  connections: number;
}

/** Online players and their connection counts. */
export class Presence {
  readonly #online = new Map<string, PresenceInfo>();

  constructor(private readonly kv: Deno.Kv) {}

  /** Drops the index left by an earlier run (sessions re-register as they resume). */
  async reset(): Promise<void> {
    for await (const e of this.kv.list({ prefix: keys.onlineAll() })) await this.kv.delete(e.key);
    this.#online.clear();
  }

  /** Counts one more connection for a player; true when the player just came online. */
  async add(id: string): Promise<boolean> {
    const now = Date.now();
    const cur = this.#online.get(id);
    if (cur) {
      cur.connections++;
      cur.lastActive = now;
      return false;
    }
    this.#online.set(id, { since: now, lastActive: now, connections: 1 });
    await this.kv.set(keys.online(id), { since: now });
    return true;
  }

  /** Counts one connection less; true when the player just went offline. */
  async remove(id: string): Promise<boolean> {
    const cur = this.#online.get(id);
    if (!cur) return false;
    if (--cur.connections > 0) return false;
    this.#online.delete(id);
    await this.kv.delete(keys.online(id));
    return true;
  }

  /** Marks activity (for idle times). */
  touch(id: string): void {
    const cur = this.#online.get(id);
    if (cur) cur.lastActive = Date.now();
  }

  /** True when the player has at least one connection. */
  isOnline(id: string): boolean {
    return this.#online.has(id);
  }

  /** Presence details, or undefined when offline. */
  info(id: string): PresenceInfo | undefined {
    return this.#online.get(id);
  }

  /** Ids of online players, in order of arrival. */
  ids(): string[] {
    return [...this.#online.keys()];
  }

  /** Number of online players. */
  get size(): number {
    return this.#online.size;
  }
}
