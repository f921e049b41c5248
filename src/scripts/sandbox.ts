/**
 * One script process: spawned with no --allow-* flag, --no-remote, --no-npm, no config, an
 * empty environment and a V8 heap limit, running src/scripts/child.ts. It answers one request
 * at a time (a load or a call); the engine bounds each by time, by the process's resident
 * memory (what the heap limit does not cover: array buffers) and by message size, and kills
 * the process on any breach. Killing it never touches the engine.
 */
import { denoCacheEnv } from "../config/process_env.ts";
import { encodeFrame, type Frame, LineSplitter, MAX_FRAME, parseFrame } from "./protocol.ts";

/** Why a process was stopped, as reported to staff. */
export type StopReason = "time" | "memory" | "message" | "calls" | "crash" | "closed";

/** A request ended without an answer because the process was stopped. */
export class SandboxStopped extends Error {
  constructor(readonly reason: StopReason, message: string) {
    super(message);
  }
}

/** Limits and where the runtime lives. */
export interface SandboxOptions {
  /** V8 old-space limit of the process, in MB. */
  heapMb: number;
  /** Resident-memory ceiling of the process, in MB (checked while a request runs). */
  rssMb: number;
  /** The child runtime module (default: ./child.ts beside this file). */
  childUrl?: URL;
}

/** Handles an SDK operation of the running call; its value or throw is sent back. */
export type OpHandler = (op: string, args: unknown[]) => Promise<unknown>;

/** Answers an operation error: `user` errors reach the script as refusals, others as failures. */
export type OpErrorMapper = (e: unknown) => { message: string; user: boolean };

interface Pending {
  id: number;
  resolve(f: Frame): void;
  reject(e: Error): void;
  onOp?: OpHandler;
  /** Operations still being carried out; the answer waits for them. */
  ops: number;
  /** Set when the answer came while operations were still running. */
  answered?: Frame;
  opCount: number;
  /** The first refusal of an operation nobody waited for (`nr`); it fails the call. */
  late?: { message: string; user: boolean };
}

/** Operations one call may make before it is refused more. */
const MAX_OPS_PER_CALL = 2_000;
/** How often resident memory is sampled while a request runs. */
const RSS_SAMPLE_MS = 50;
/** How long a fresh process may take to say it is ready. */
const START_MS = 15_000;

/** A running script process. */
export class Sandbox {
  readonly #proc: Deno.ChildProcess;
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  readonly #opts: SandboxOptions;
  readonly #mapError: OpErrorMapper;
  #pending: Pending | null = null;
  /** When the running request started, its deadline and time limit (null when idle). */
  #limits: { started: number; deadline: number; timeoutMs: number } | null = null;
  #watchdog: ReturnType<typeof setTimeout> | undefined;
  #watchAt = 0;
  #nextId = 1;
  #stopped: SandboxStopped | null = null;
  #stderr = "";
  #ready!: () => void;
  #notReady!: (e: Error) => void;
  /** Resolves once the runtime has locked itself down and is ready for requests. */
  readonly ready: Promise<void>;
  /** Script versions this process has evaluated (keys `name@hash`). */
  readonly loaded = new Set<string>();
  /** True once the runtime said it was ready. */
  started = false;
  /** Requests served, so a pool can recycle a process that has evaluated many versions. */
  served = 0;
  /** Called once when the process ends, for whatever reason. */
  onExit: (s: Sandbox) => void = () => {};

  constructor(opts: SandboxOptions, mapError: OpErrorMapper) {
    this.#opts = opts;
    this.#mapError = mapError;
    const child = opts.childUrl ?? new URL("./child.ts", import.meta.url);
    // Only where Deno keeps its cache, so the runtime module is transpiled once, not per process.
    const env = { NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1", ...denoCacheEnv() };
    this.#proc = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--no-prompt",
        "--no-config",
        "--no-lock",
        "--no-npm",
        "--no-remote",
        "--no-check",
        `--v8-flags=--max-old-space-size=${Math.max(8, Math.floor(opts.heapMb))}`,
        child.href,
      ],
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
      clearEnv: true,
      env,
    }).spawn();
    this.#writer = this.#proc.stdin.getWriter();
    this.ready = new Promise<void>((ok, fail) => {
      this.#ready = ok;
      this.#notReady = fail;
    });
    this.ready.catch(() => {}); // Observed by request(); a process nobody asked of may just die.
    const startTimer = setTimeout(() => this.stop("crash", "did not start in time"), START_MS);
    const started = () => clearTimeout(startTimer);
    this.ready.then(started, started);
    void this.#readStdout();
    void this.#readStderr();
    void this.#proc.status.then(() => {
      clearTimeout(startTimer);
      this.#ended();
    });
  }

  /** The process id (for memory sampling and logs). */
  get pid(): number {
    return this.#proc.pid;
  }

  /** True once the process was stopped or ended. */
  get stopped(): boolean {
    return this.#stopped !== null;
  }

  /** True while a request is running. */
  get busy(): boolean {
    return this.#pending !== null;
  }

  /**
   * Sends a `load` or `run` request and resolves with its answer (`loaded` or `done`). Past
   * `timeoutMs`, or past the memory or message limits, the process is stopped and the
   * promise rejects with SandboxStopped naming why.
   */
  async request(msg: Frame, timeoutMs: number, onOp?: OpHandler): Promise<Frame> {
    if (this.#stopped) throw this.#stopped;
    if (this.#pending) throw new Error("sandbox: one request at a time");
    if (!this.started) await this.ready;
    const id = this.#nextId++;
    this.served++;
    const answer = new Promise<Frame>((resolve, reject) => {
      this.#pending = { id, resolve, reject, onOp, ops: 0, opCount: 0 };
    });
    answer.catch(() => {}); // Awaited below; it may fail while the request is still written.
    const started = performance.now();
    this.#limits = { started, deadline: started + timeoutMs, timeoutMs };
    this.#watch(Math.min(RSS_SAMPLE_MS, timeoutMs));
    this.#write({ ...msg, id });
    try {
      return await answer;
    } finally {
      this.#pending = null;
      this.#limits = null;
    }
  }

  /**
   * Makes sure the watchdog fires within `ms`. It is not cleared when a request ends: arming
   * and clearing a timer costs 40 to 50 µs a call (cold, on the shared machine), so one timer
   * serves every request that starts before it fires, and it is re-armed only while one runs.
   */
  #watch(ms: number): void {
    const at = performance.now() + ms;
    if (this.#watchdog !== undefined && this.#watchAt <= at) return;
    clearTimeout(this.#watchdog);
    this.#watchAt = at;
    this.#watchdog = setTimeout(() => this.#tick(), ms);
  }

  /** The watchdog: the time limit, and resident memory every RSS_SAMPLE_MS of a request. */
  #tick(): void {
    this.#watchdog = undefined;
    const l = this.#limits;
    if (!l || this.#stopped) return; // Idle: armed again by the next request.
    const now = performance.now();
    if (l.deadline - now <= 0.5) {
      return this.stop("time", `stopped after ${l.timeoutMs} ms (the time limit)`);
    }
    // A request that started just before this tick is sampled once it has run RSS_SAMPLE_MS.
    if (now - l.started >= RSS_SAMPLE_MS - 1) this.#checkMemory();
    if (this.#stopped) return;
    const sinceSample = (now - l.started) % RSS_SAMPLE_MS;
    this.#watch(Math.min(RSS_SAMPLE_MS - sinceSample, l.deadline - now));
  }

  /** Stops the process (SIGKILL) and fails the running request with `reason`. */
  stop(reason: StopReason, message: string): void {
    if (this.#stopped) return;
    this.#stopped = new SandboxStopped(reason, message);
    clearTimeout(this.#watchdog);
    this.#watchdog = undefined;
    this.#notReady(this.#stopped);
    this.#pending?.reject(this.#stopped);
    try {
      this.#proc.kill("SIGKILL");
    } catch {
      // Already gone.
    }
  }

  /** Waits until the process has ended (after stop). */
  async closed(): Promise<void> {
    await this.#proc.status;
  }

  /** Writes a message; a failed write means the process is gone (its exit is handled). */
  #write(msg: Frame): void {
    this.#writer.write(encodeFrame(msg)).catch(() => {
      this.stop("crash", "the script process went away");
    });
  }

  #ended(): void {
    if (!this.#stopped) {
      const oom = /heap limit|out of memory/i.test(this.#stderr);
      this.stop(
        oom ? "memory" : "crash",
        oom ? "ran out of memory (the heap limit)" : "the script process ended unexpectedly",
      );
    }
    this.#writer.close().catch(() => {});
    this.onExit(this);
  }

  #checkMemory(): void {
    let status: string;
    try {
      status = Deno.readTextFileSync(`/proc/${this.#proc.pid}/status`);
    } catch {
      return; // Not Linux, or already gone: the heap limit still applies.
    }
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    if (kb > this.#opts.rssMb * 1024) {
      this.stop("memory", `used more than ${this.#opts.rssMb} MB of memory (the memory limit)`);
    }
  }

  async #readStdout(): Promise<void> {
    const lines = new LineSplitter(MAX_FRAME);
    try {
      for await (const chunk of this.#proc.stdout) {
        for (const line of lines.push(chunk)) this.#receive(line);
      }
    } catch (e) {
      if (e instanceof RangeError) {
        this.stop("message", `sent ${e.message} (the limit is ${MAX_FRAME} bytes)`);
      }
    }
  }

  async #readStderr(): Promise<void> {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of this.#proc.stderr) {
        // Only the tail matters (why it died); a flood of output cannot grow this.
        this.#stderr = (this.#stderr + decoder.decode(chunk, { stream: true })).slice(-4096);
      }
    } catch {
      // The process went away.
    }
  }

  #receive(line: string): void {
    const f = parseFrame(line);
    if (!f) return;
    if (f.t === "ready") {
      this.started = true;
      return this.#ready();
    }
    const p = this.#pending;
    if (!p) return;
    if (f.t === "op") return this.#op(p, f);
    if ((f.t === "loaded" || f.t === "done") && f.id === p.id) {
      // Operations the script started without awaiting still finish before the answer counts.
      if (p.ops === 0) this.#answer(p, f);
      else p.answered = f;
    }
  }

  #answer(p: Pending, f: Frame): void {
    if (p.late && f.t === "done" && !f.error) f.error = p.late;
    p.resolve(f);
  }

  #op(p: Pending, f: Frame): void {
    const opId = f.id;
    if (typeof opId !== "number") return;
    // An operation sent with `nr` expects no answer; a refusal is kept for the end of the call.
    const reply = (r: Frame): void => {
      if (f.nr !== 1) return this.#write({ t: "res", id: opId, ...r });
      if (!r.ok) p.late ??= { message: String(r.error), user: r.user === true };
    };
    if (f.call !== p.id || !p.onOp || typeof f.op !== "string" || !Array.isArray(f.args)) {
      reply({ ok: false, user: false, error: "not a valid operation" });
      return;
    }
    if (++p.opCount > MAX_OPS_PER_CALL) {
      // Stopped rather than answered: a loop of unanswered sends would keep the engine parsing.
      this.stop("calls", `made more than ${MAX_OPS_PER_CALL} SDK calls in one run (the limit)`);
      return;
    }
    p.ops++;
    const settled = () => {
      if (--p.ops === 0 && p.answered) this.#answer(p, p.answered);
    };
    p.onOp(f.op, f.args).then(
      (value) => reply(value === undefined ? { ok: true } : { ok: true, value }),
      (e) => {
        const { message, user } = this.#mapError(e);
        return reply({ ok: false, error: message, user });
      },
    ).then(settled, settled);
  }
}
