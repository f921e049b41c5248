/**
 * Token generations: every session token carries the generation of its player it was issued in,
 * and only tokens of the current generation are accepted. A password change, a reset, `@boot`
 * and `@toad` advance it, so every token issued before stops working at once, however many
 * copies of it exist (a browser tab, the telnet sidecar's resume, a stolen one).
 *
 * A token is checked on every request, so the generation comes from memory: read once per player
 * on first use and kept, and written through on every advance this process makes. That is only
 * right while this process is the database's only writer (the object cache's rule); otherwise
 * each check reads the stored value.
 */
import { keys } from "../storage/keys.ts";

/** An advance added to an atomic operation, recorded in memory once the operation commits. */
export interface StagedAdvance {
  /** The generation the player will be in. */
  readonly generation: number;
  /** Call after the operation committed: this process's checks see the new generation. */
  settle(): void;
}

/** A stored generation, or 0 for none (and for anything that is not one). */
function storedGeneration(v: unknown): number {
  return typeof v === "number" && Number.isSafeInteger(v) && v >= 0 ? v : 0;
}

/** Each player's current token generation, kept in memory. */
export class TokenGenerations {
  readonly #known = new Map<string, number>();

  /** `cache`: keep what was read (true while this process is the database's only writer). */
  constructor(private readonly kv: Deno.Kv, private readonly cache = true) {}

  /** The player's current generation (0 until first advanced). */
  async current(id: string): Promise<number> {
    const known = this.#known.get(id);
    if (known !== undefined) return known;
    const stored = storedGeneration((await this.kv.get(keys.tokenGeneration(id))).value);
    if (!this.cache) return stored;
    // An advance settled while the read was on its way is newer than what the read found.
    const meanwhile = this.#known.get(id);
    if (meanwhile !== undefined) return meanwhile;
    this.#known.set(id, stored);
    return stored;
  }

  /**
   * Adds the advance of a player's generation to `op`, checked against the entry it read, so
   * the operation fails (and its caller retries) when another advance came first.
   */
  async stage(id: string, op: Deno.AtomicOperation): Promise<StagedAdvance> {
    const entry = await this.kv.get(keys.tokenGeneration(id));
    const generation = storedGeneration(entry.value) + 1;
    op.check(entry).set(keys.tokenGeneration(id), generation);
    return { generation, settle: () => this.#settle(id, generation) };
  }

  /** Advances a player's generation on its own; returns the new one. */
  async advance(id: string): Promise<number> {
    for (let i = 0; i < 20; i++) {
      const op = this.kv.atomic();
      const staged = await this.stage(id, op);
      if ((await op.commit()).ok) {
        staged.settle();
        return staged.generation;
      }
    }
    throw new Error("storage: too much contention on a token generation");
  }

  #settle(id: string, generation: number): void {
    if (!this.cache) return;
    const known = this.#known.get(id);
    if (known === undefined || known < generation) this.#known.set(id, generation);
  }
}
