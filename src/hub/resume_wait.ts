/**
 * The wait, after a restart, for the players the last engine had: what came due while the engine
 * was down (timer jobs, stored `@wait`s, each `@startup`) runs once they are back in the hub, so
 * what it tells them reaches them (docs/restarts.md, "What comes due during a restart").
 */
import { keys } from "../storage/keys.ts";

/** Longest wait for the players of the last engine (see docs/restarts.md for why this long). */
export const RESUME_WAIT_MS = 6_000;

/** Most players' ids the record keeps (a bigger game waits for the first this many). */
const MAX_RECORDED = 10_000;

/** Records who is online now, as the engine stops for a restart. */
export async function recordForResume(kv: Deno.Kv, online: readonly string[]): Promise<void> {
  await kv.set(keys.restartResumes(), {
    at: Date.now(),
    ids: online.slice(0, MAX_RECORDED),
  });
}

/**
 * Reads (and removes) the record the last engine left; resolves when each of its players has
 * resumed (`resumed` is called for each resumed login) or `ms` passed, at once with no record.
 */
export class ResumeWait {
  readonly #pending: Set<string>;
  readonly #done: Promise<void>;
  #finish: () => void = () => {};
  #timer: ReturnType<typeof setTimeout> | undefined;

  private constructor(ids: readonly string[], ms: number) {
    this.#pending = new Set(ids);
    this.#done = new Promise<void>((r) => this.#finish = r);
    if (this.#pending.size === 0) this.#end();
    else this.#timer = setTimeout(() => this.#end(), ms);
  }

  /** The wait for the record `kv` holds (none: nobody to wait for). */
  static async open(kv: Deno.Kv, ms = RESUME_WAIT_MS): Promise<ResumeWait> {
    const got = await kv.get<{ at: number; ids: string[] }>(keys.restartResumes());
    await kv.delete(keys.restartResumes());
    const ids = Array.isArray(got.value?.ids) ? got.value.ids : [];
    return new ResumeWait(ids.filter((id) => typeof id === "string"), ms);
  }

  /** True while some of the last engine's players are not back (and the bound has not passed). */
  get waiting(): boolean {
    return this.#pending.size > 0;
  }

  /** A session of `id` resumed. */
  resumed(id: string): void {
    if (this.#pending.delete(id) && this.#pending.size === 0) this.#end();
  }

  /** Resolves once everyone is back or the bound passed. */
  ready(): Promise<void> {
    return this.#done;
  }

  /** Stops waiting (the engine closes). */
  cancel(): void {
    this.#end();
  }

  #end(): void {
    clearTimeout(this.#timer);
    this.#pending.clear();
    this.#finish();
  }
}
