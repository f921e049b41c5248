/**
 * The restart loop: keeps the telnet sidecar alive and restarts the engine on exit 75
 * (docs/operations.md). Process spawning is injected so the loop itself can be tested with fakes.
 */
import { restartDelay } from "./backoff.ts";
import { EXIT_CLEAN, EXIT_CONFIG, EXIT_RESTART } from "../lifecycle.ts";

export { EXIT_CLEAN, EXIT_CONFIG, EXIT_RESTART };

/**
 * Exit codes of an engine that did not get as far as serving: 78 (a port taken, a setting
 * refused) and 1 (any other start failure; once serving, the engine's crash guard keeps it up).
 * From the first engine they end the start; from one a restart began, they are tried again.
 */
const CANNOT_START = new Set([EXIT_CONFIG, 1]);

/** A running child process as the loop sees it. */
export interface Child {
  readonly pid: number;
  /** Resolves with the exit code (128 + signal number when killed by a signal). */
  readonly exited: Promise<number>;
  kill(signal: Deno.Signal): void;
}

/** What the loop needs from the outside world. */
export interface SupervisorDeps {
  spawnEngine(): Child;
  spawnSidecar(): Child;
  /** One log line; tests read these, so the wording is part of the contract (docs/operations.md). */
  log(line: string): void;
  /** One line the owner must see (error level), worded like `log`'s. */
  alert(line: string): void;
  /** Milliseconds since some fixed point. */
  now(): number;
  /** Waits `ms`, or less when `signal` aborts. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  /** How long a child may take to stop after SIGTERM before it gets SIGKILL (default 10 s). */
  stopTimeoutMs?: number;
  /** Cap on the restart delay (default and upper bound 60 s). */
  maxDelayMs?: number;
  /** The command that starts the game, as the operator typed it (default `deno task start`). */
  startCommand?: string;
}

/** Runs the engine and sidecar until a clean stop, a crash or a signal. */
export class Supervisor {
  readonly #deps: SupervisorDeps;
  readonly #stopping = new AbortController();
  #engine: Child | null = null;
  #sidecar: Child | null = null;
  #sidecarLoop: Promise<void> = Promise.resolve();
  #signalled = false;
  /** Exit code of a child that cannot run as configured; it ends the supervisor with that code. */
  #fatal: number | null = null;
  #stopped: Promise<void> | null = null;

  constructor(deps: SupervisorDeps) {
    this.#deps = deps;
  }

  /** True once a stop was requested (signal or end of the loop). */
  get stopping(): boolean {
    return this.#stopping.signal.aborted;
  }

  /** Runs the loop; resolves with the exit code the supervisor itself should end with. */
  async run(): Promise<number> {
    const { log, now } = this.#deps;
    this.#sidecarLoop = this.#keepSidecar();
    let previousDelay: number | null = null;
    let code = EXIT_CLEAN;
    // The first engine's start failure is the owner's to fix; after that the game is running,
    // its players held by the sidecar, and a start that fails is tried again.
    for (let restarted = false; !this.stopping; restarted = true) {
      const started = now();
      const engine = this.#deps.spawnEngine();
      this.#engine = engine;
      log(`engine started (pid ${engine.pid})`);
      code = await engine.exited;
      this.#engine = null;
      const ran = Math.max(0, now() - started);
      log(`engine exited with code ${code} after ${ran} ms`);
      if (this.stopping) break;
      if (code === EXIT_RESTART) {
        const delay = restartDelay(previousDelay, ran, this.#deps.maxDelayMs);
        previousDelay = delay;
        log(`restarting engine in ${delay} ms`);
        await this.#deps.sleep(delay, this.#stopping.signal);
        continue;
      }
      if (restarted && CANNOT_START.has(code)) {
        // Never a stable run, however long its bind retry took: the wait grows to the cap.
        const delay = restartDelay(previousDelay, 0, this.#deps.maxDelayMs);
        previousDelay = delay;
        this.#deps.alert(
          `engine could not start after a restart (exit ${code}; its reason is above); the ` +
            `telnet sidecar keeps the players; trying again in ${delay} ms`,
        );
        await this.#deps.sleep(delay, this.#stopping.signal);
        continue;
      }
      if (code === EXIT_CLEAN) {
        log("engine stopped cleanly (exit 0); stopping the telnet sidecar and exiting");
      } else if (code === EXIT_CONFIG) {
        // Its one line naming the key is above; restarting cannot help until someone edits it.
        log(
          `engine cannot start as configured (exit ${code}; its reason is above); stopping the ` +
            "telnet sidecar and exiting",
        );
      } else {
        log(
          `engine crashed (exit ${code}); not restarting. Check the output above, fix the cause ` +
            `and start again with \`${this.#deps.startCommand ?? "deno task start"}\`.`,
        );
      }
      break;
    }
    await this.stop();
    if (this.#fatal !== null) return this.#fatal;
    // A signal or a stop during a restart is a clean end; a crash passes its code on.
    return this.#signalled || code === EXIT_RESTART ? EXIT_CLEAN : code;
  }

  /**
   * Stops both processes (SIGTERM, then SIGKILL after the timeout); safe to call twice.
   * `signalled` marks a stop asked for by SIGINT/SIGTERM, which makes `run()` end with 0.
   */
  stop(signalled = false): Promise<void> {
    if (signalled) this.#signalled = true;
    this.#stopped ??= this.#stopAll();
    return this.#stopped;
  }

  async #stopAll(): Promise<void> {
    this.#stopping.abort();
    const children = [this.#engine, this.#sidecar].filter((c): c is Child => c !== null);
    await Promise.all(children.map((c) => this.#terminate(c)));
    await this.#sidecarLoop;
  }

  async #terminate(child: Child): Promise<void> {
    try {
      child.kill("SIGTERM");
    } catch { /* already gone */ }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const killed = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        this.#deps.log(`pid ${child.pid} did not stop after SIGTERM; sending SIGKILL`);
        try {
          child.kill("SIGKILL");
        } catch { /* already gone */ }
        resolve();
      }, this.#deps.stopTimeoutMs ?? 10_000);
    });
    await Promise.race([child.exited, killed]);
    clearTimeout(timer);
    await child.exited;
  }

  /**
   * Keeps the sidecar running: it holds the players' sockets, so it restarts after a crash. A
   * first sidecar that cannot run as configured (its port taken: exit 78) would fail the same way
   * forever while the web side ran on, so that stops everything instead; one started again after
   * a crash found the port taken for a moment, most likely, and is tried again like any other.
   */
  async #keepSidecar(): Promise<void> {
    const { log, now } = this.#deps;
    let previousDelay: number | null = null;
    for (let first = true; !this.stopping; first = false) {
      const started = now();
      const sidecar = this.#deps.spawnSidecar();
      this.#sidecar = sidecar;
      log(`telnet sidecar started (pid ${sidecar.pid})`);
      const code = await sidecar.exited;
      this.#sidecar = null;
      if (this.stopping) {
        log(`telnet sidecar stopped (exit ${code})`);
        return;
      }
      if (code === EXIT_CONFIG && first) {
        this.#fatal = code;
        log(
          `telnet sidecar cannot start as configured (exit ${code}; its reason is above); ` +
            "stopping the engine and exiting",
        );
        // Not awaited: stopping waits for this loop, which ends here.
        void this.stop();
        return;
      }
      const delay = restartDelay(previousDelay, Math.max(0, now() - started));
      previousDelay = delay;
      log(`telnet sidecar exited with code ${code}; restarting it in ${delay} ms`);
      await this.#deps.sleep(delay, this.#stopping.signal);
    }
  }
}

/** A sleep that ends early when `signal` aborts. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done);
  });
}
