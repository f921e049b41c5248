/**
 * A warm pool of script processes. A request takes an idle process (starting one while fewer
 * than `size` run), or waits in a bounded queue. A process that is stopped (time, memory,
 * message size, crash) is replaced in the background, so the next call finds one warm.
 */
import {
  type OpErrorMapper,
  type OpHandler,
  Sandbox,
  SandboxStopped,
  type StopReason,
} from "./sandbox.ts";
import type { Frame } from "./protocol.ts";

/** Limits of the pool and of each request. */
export interface PoolOptions {
  /** Processes kept running. */
  size: number;
  /** Time limit of one load or call, in ms. */
  timeoutMs: number;
  /** V8 heap limit of a process, in MB. */
  heapMb: number;
  /** Resident-memory ceiling of a process, in MB. */
  rssMb: number;
  /** Requests waiting for a process beyond which new ones are refused. */
  maxQueue?: number;
  /** Requests after which a process is replaced (each live edit leaves a module behind). */
  recycleAfter?: number;
}

/** A script version: its key (`name@hash`), source and language. */
export interface ScriptSource {
  key: string;
  /** Its file name, shown in error messages. */
  label: string;
  src: string;
  js: boolean;
}

/** How a load or call ended. */
export type Outcome =
  | { ok: true; frame: Frame }
  | {
    ok: false;
    reason: StopReason | "busy";
    message: string;
  };

const DEFAULT_QUEUE = 200;
const DEFAULT_RECYCLE = 5_000;

/** The pool. */
export class ScriptPool {
  readonly #opts: PoolOptions;
  readonly #mapError: OpErrorMapper;
  readonly #all = new Set<Sandbox>();
  readonly #idle: Sandbox[] = [];
  readonly #waiting: ((s: Sandbox | null) => void)[] = [];
  #closed = false;

  constructor(opts: PoolOptions, mapError: OpErrorMapper) {
    this.#opts = opts;
    this.#mapError = mapError;
  }

  /** Starts the processes now rather than on first use. */
  warm(): void {
    while (!this.#closed && this.#all.size < this.#opts.size) this.#idle.push(this.#spawn());
  }

  /** Processes running (for @script/list). */
  get running(): number {
    return this.#all.size;
  }

  /** Evaluates a script version and returns its exports' metadata (`loaded` frame). */
  load(source: ScriptSource): Promise<Outcome> {
    return this.#withSandbox((sb) =>
      sb.request({
        t: "load",
        key: source.key,
        label: source.label,
        src: source.src,
        js: source.js,
      }, this.#opts.timeoutMs)
        .then((frame) => {
          if (frame.ok) sb.loaded.add(source.key);
          return frame;
        })
    );
  }

  /** Runs a script version for one call; `onOp` answers its SDK operations. */
  run(source: ScriptSource, ctx: Frame, onOp: OpHandler): Promise<Outcome> {
    return this.#withSandbox((sb) => {
      const known = sb.loaded.has(source.key);
      const msg: Frame = { t: "run", key: source.key, label: source.label, js: source.js, ctx };
      if (!known) msg.src = source.src;
      return sb.request(msg, this.#opts.timeoutMs, onOp).then((frame) => {
        if (frame.imported === true) sb.loaded.add(source.key);
        return frame;
      });
    });
  }

  /** Stops every process. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const w of this.#waiting.splice(0)) w(null);
    const all = [...this.#all];
    for (const s of all) s.stop("closed", "the engine is stopping");
    await Promise.all(all.map((s) => s.closed()));
  }

  async #withSandbox(work: (s: Sandbox) => Promise<Frame>): Promise<Outcome> {
    const sb = await this.#take();
    if (!sb) {
      return {
        ok: false,
        reason: "busy",
        message: this.#closed ? "the engine is stopping" : "every script process is busy",
      };
    }
    try {
      return { ok: true, frame: await work(sb) };
    } catch (e) {
      if (e instanceof SandboxStopped) return { ok: false, reason: e.reason, message: e.message };
      throw e;
    } finally {
      this.#give(sb);
    }
  }

  #take(): Promise<Sandbox | null> {
    if (this.#closed) return Promise.resolve(null);
    let sb = this.#idle.pop();
    while (sb && sb.stopped) sb = this.#idle.pop();
    if (sb) return Promise.resolve(sb);
    if (this.#all.size < this.#opts.size) return Promise.resolve(this.#spawn());
    if (this.#waiting.length >= (this.#opts.maxQueue ?? DEFAULT_QUEUE)) {
      return Promise.resolve(null);
    }
    return new Promise((ok) => this.#waiting.push(ok));
  }

  #give(sb: Sandbox): void {
    if (sb.served >= (this.#opts.recycleAfter ?? DEFAULT_RECYCLE)) {
      sb.stop("closed", "recycled");
    }
    if (sb.stopped) return; // onExit replaces it.
    const next = this.#waiting.shift();
    if (next) next(sb);
    else this.#idle.push(sb);
  }

  #spawn(): Sandbox {
    const sb = new Sandbox({ heapMb: this.#opts.heapMb, rssMb: this.#opts.rssMb }, this.#mapError);
    this.#all.add(sb);
    sb.onExit = (gone) => {
      this.#all.delete(gone);
      const i = this.#idle.indexOf(gone);
      if (i >= 0) this.#idle.splice(i, 1);
      // One that died before it was ready is not restarted by itself (no crash loop); the
      // next request starts one.
      if (this.#closed || !gone.started) return;
      // Keep the pool warm, and hand a waiting request the replacement.
      if (this.#waiting.length || this.#all.size < this.#opts.size) {
        const fresh = this.#spawn();
        const next = this.#waiting.shift();
        if (next) next(fresh);
        else this.#idle.push(fresh);
      }
    };
    return sb;
  }
}
