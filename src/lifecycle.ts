/**
 * How the engine ends its own process: `@reboot` exits 75, `@shutdown` and signals exit 0.
 * Exit hooks (listeners, hub, storage) run first so nothing written is lost.
 */
import { fileURLToPath } from "node:url";

/** Exit code that asks the supervisor for a restart (`@reboot`, `@update`). */
export const EXIT_RESTART = 75;
/** Exit code of a clean stop (`@shutdown`, signals); the supervisor stops too. */
export const EXIT_CLEAN = 0;
/**
 * Exit code of a process that cannot run as configured (sysexits' EX_CONFIG): the telnet sidecar
 * uses it when its port is taken. Restarting cannot help, so the supervisor stops everything.
 */
export const EXIT_CONFIG = 78;

/** Something to finish before the process exits (close listeners, flush logs, close KV). */
export type ExitHook = () => void | Promise<void>;

/** Settings for {@linkcode Lifecycle}; the defaults suit the real engine. */
export interface LifecycleOptions {
  /** Ends the process (default `Deno.exit`); tests pass a recorder. */
  exit?: (code: number) => void;
  /** Time given to queued socket output (the announcement) before hooks run (default 100 ms). */
  drainMs?: number;
  /** Longest wait for one hook before moving on (default 3 s). */
  hookTimeoutMs?: number;
  /** Receives progress lines (default console.log). */
  log?: (line: string) => void;
  /** The checkout `@update` pulls into (default: the engine's own folder). */
  updateDir?: string;
}

/** The engine's exit path (commands reach it as `u.engine.lifecycle`). */
export class Lifecycle {
  readonly #hooks: { name: string; fn: ExitHook }[] = [];
  readonly #exit: (code: number) => void;
  readonly #drainMs: number;
  readonly #hookTimeoutMs: number;
  readonly #log: (line: string) => void;
  #exiting: Promise<void> | null = null;
  #code: number | null = null;
  #task: string | null = null;
  /** The checkout `@update` pulls into. */
  readonly updateDir: string;

  constructor(opts: LifecycleOptions = {}) {
    this.updateDir = opts.updateDir ?? fileURLToPath(new URL("../", import.meta.url));
    this.#exit = opts.exit ?? ((code) => Deno.exit(code));
    this.#drainMs = opts.drainMs ?? 100;
    this.#hookTimeoutMs = opts.hookTimeoutMs ?? 3_000;
    this.#log = opts.log ?? ((line) => console.log(line));
  }

  /** The exit code once an exit has begun, else null. */
  get exitCode(): number | null {
    return this.#code;
  }

  /** The long task marked by {@linkcode Lifecycle.begin} that is running, else null. */
  get task(): string | null {
    return this.#task;
  }

  /**
   * Marks a long lifecycle task (an update's git pull) as running, so a second one is refused.
   * Returns the task already running (nothing marked), or null when `task` may go ahead.
   */
  begin(task: string): string | null {
    if (this.#code !== null) return "exit";
    if (this.#task !== null) return this.#task;
    this.#task = task;
    return null;
  }

  /** Ends the task marked by {@linkcode Lifecycle.begin}. */
  end(): void {
    this.#task = null;
  }

  /**
   * Registers a hook; hooks run last-registered first (like `defer`), so storage that was set up
   * first is closed last. Returns a function that removes the hook again.
   */
  onExit(name: string, fn: ExitHook): () => void {
    const entry = { name, fn };
    this.#hooks.push(entry);
    return () => {
      const i = this.#hooks.indexOf(entry);
      if (i !== -1) this.#hooks.splice(i, 1);
    };
  }

  /**
   * Ends the process with `code` after draining output and running every hook. Only the first
   * call counts; later calls return the same promise (a second @reboot cannot change the code).
   */
  exit(code: number, reason: string): Promise<void> {
    if (this.#exiting) return this.#exiting;
    this.#code = code;
    this.#log(`engine: exiting with code ${code} (${reason})`);
    this.#exiting = this.#run(code);
    return this.#exiting;
  }

  async #run(code: number): Promise<void> {
    if (this.#drainMs > 0) await sleep(this.#drainMs);
    for (const { name, fn } of [...this.#hooks].reverse()) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<"timeout">((resolve) => {
        timer = setTimeout(() => resolve("timeout"), this.#hookTimeoutMs);
      });
      try {
        const result = await Promise.race([Promise.resolve().then(fn), timeout]);
        if (result === "timeout") this.#log(`engine: exit hook '${name}' timed out; going on`);
      } catch (e) {
        this.#log(`engine: exit hook '${name}' failed: ${(e as Error)?.message ?? e}`);
      } finally {
        clearTimeout(timer);
      }
    }
    this.#exit(code);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Under the supervisor, standard input is a pipe from it: end-of-file means the supervisor died,
 * so the engine stops instead of lingering as an orphan that holds the ports.
 */
export async function exitWhenStdinCloses(lifecycle: Lifecycle): Promise<void> {
  const buf = new Uint8Array(256);
  try {
    while (await Deno.stdin.read(buf) !== null) { /* nothing is ever sent */ }
  } catch { /* closed or unreadable: same meaning */ }
  await lifecycle.exit(0, "the supervisor went away");
}
