/**
 * One script's sandbox: a QuickJS instance of its own (its own WebAssembly memory, capped),
 * holding one version of one script, in the engine's process. Calls run one at a time, the
 * others wait in a bounded queue. A call runs in slices (its start, each awaited operation's
 * answer, each timer): the CPU time of all its slices is held to `timeoutMs` by QuickJS's
 * interrupt handler, and the call as a whole, awaits included, to `wallMs`. A call that passes
 * a limit, runs out of memory or makes too many SDK calls is stopped and the instance thrown
 * away (the next call gets a fresh one); nothing of it can run later, and nothing it did can
 * reach another script, whose sandbox is another instance.
 *
 * The sandbox reaches the engine through one host function (src/scripts/prelude.ts) whose
 * arguments are strings and numbers, and a send's data, which the engine has QuickJS serialise
 * in its binary format (src/scripts/bjson.ts) and reads with its own bounded reader; anything
 * else a script hands over crosses as JSON, length-checked here before it is read. The engine's
 * answers cross the same binary way, read by QuickJS (JSON only for what that cannot hold). A
 * call's end needs no crossing: the engine reads the state of the command's promise after each
 * slice.
 */
import type { JSValueConstPointer } from "quickjs-emscripten-core";
import type { ParsedLine } from "../commands/parser.ts";
import process from "node:process";
import {
  type Instance,
  NOT_A_PROMISE,
  PROMISE_FULFILLED,
  PROMISE_PENDING,
  type QuickJs,
  type Value,
} from "./quickjs.ts";
import { MAX_ARGS, MAX_DATA, MAX_MESSAGE, PRELUDE, PRELUDE_FILE } from "./prelude.ts";
import { readBjson, setOwn } from "./bjson.ts";
import { afterInput } from "../runtime/after_input.ts";

/** Why a call was stopped. */
export type StopReason =
  | "time"
  | "memory"
  | "calls"
  | "busy"
  | "crash"
  | "closed"
  | "refused";

/** The limits of one sandbox. */
export interface VmLimits {
  /** CPU time of one call (and of a load), in ms. */
  timeoutMs: number;
  /** Wall-clock time of one call, awaits included, in ms. */
  wallMs: number;
  /** The instance's memory cap, in MiB. */
  memoryMb: number;
  /** Calls that may wait while one runs. */
  maxQueue: number;
}

/** Does an SDK operation for the call's actor: a value or a promise of one; throws refusals. */
export type OpHandler = (name: string, args: unknown[]) => unknown;

/** How an operation's failure reads to the script: a refusal for the actor, or a failure. */
export type OpErrorMapper = (e: unknown) => { message: string; user: boolean };

/**
 * The script time budgets of a call's actor (src/scripts/budget.ts), asked when the call's turn
 * comes (not when it joins the queue: calls admitted while they waited were all let in before any
 * was charged) and told each slice's time as it is spent.
 */
export interface CallBudget {
  /** Why the call may not start now (shown to the actor), or null. */
  admit(): string | null;
  /** Takes the CPU time one slice of the call took, in ms. */
  spend(ms: number): void;
}

/**
 * The engine's side of one call, one object (the manager's is src/scripts/bridge.ts's
 * `ScriptCall`): its SDK operations, how their failures read, and its actor's budgets.
 */
export interface CallHost extends CallBudget {
  /** `u.send`'s operation (its own method: no array of arguments made for the common call). */
  send(msg: unknown, data: unknown): unknown;
  /** Any other operation (see OpHandler). */
  op: OpHandler;
  /** See OpErrorMapper. */
  failure: OpErrorMapper;
}

/** A CallHost of an operation handler, an error mapper and budgets (none: never refused). */
export function callHost(op: OpHandler, failure: OpErrorMapper, budget?: CallBudget): CallHost {
  return {
    op,
    failure,
    send: (msg, data) => op("send", [msg, data]),
    admit: () => budget?.admit() ?? null,
    spend: (ms) => budget?.spend(ms),
  };
}

/** What a script's exports say about its command (read from the sandbox as plain JSON). */
export type ScriptMeta = Record<string, unknown>;

/** How a call ended. */
export type Outcome =
  | {
    ok: true;
    /** CPU time its slices took, in ms. */
    cpuMs: number;
    /** A throw (`user`: an SDK refusal it did not catch, shown to the actor as it is). */
    error?: { message: string; user: boolean };
    /** What it returned instead of nothing (`object`, `number`, ...). */
    garbage?: string;
  }
  | { ok: false; cpuMs: number; reason: StopReason; message: string };

/** A load that failed: the one-line reason. */
export class LoadError extends Error {}

/** A throw in the sandbox while the engine read how a call ended (its description). */
class ScriptThrow extends Error {}

/** The host function's kinds of call (src/scripts/prelude.ts). */
const HOST_SEND = 1, HOST_BROADCAST = 2, HOST_OP = 3, HOST_TIMER = 4, HOST_CLEAR = 5;
const HOST_RANDOM = 6, HOST_SEND_VALUE = 7, HOST_SEND_FLAT = 8;
/** An operation's arguments when it has none (never changed: the operations only read them). */
const NO_ARGS: unknown[] = Object.freeze<unknown[]>([]) as unknown[];
/** Bytes of a send's data in the QuickJS binary format the engine reads (JSON checked after). */
const MAX_DATA_BYTES = 4 * MAX_DATA;

/** What a call of a sandbox thrown away answers. */
const RESTARTED: Outcome = { ok: false, cpuMs: 0, reason: "closed", message: "restarted" };

/** How a call ended, from the prelude's tag (see `outcome` in src/scripts/prelude.ts). */
function ended(tag: string): Outcome {
  const rest = tag.slice(1);
  switch (tag[0]) {
    case "g":
      return { ok: true, cpuMs: 0, garbage: rest.slice(0, 40) };
    case "u":
      return { ok: true, cpuMs: 0, error: { message: rest.slice(0, 1000), user: true } };
    default: {
      const message = rest.slice(0, 1000);
      return /^InternalError: out of memory/.test(message)
        ? { ok: false, cpuMs: 0, reason: "memory", message }
        : { ok: true, cpuMs: 0, error: { message, user: false } };
    }
  }
}

/** SDK operations one call may make. */
export const MAX_OPS_PER_CALL = 2_000;
/** Timers one call may have at once. */
const MAX_TIMERS = 100;
/** The shortest interval a timer repeats at, in ms. */
const MIN_INTERVAL_MS = 4;
/**
 * Time a version's top-level code may take to load: the most a call may be given. It runs once
 * per version, off the players' path, and the first load also meets code not yet compiled.
 */
const LOAD_MS = 250;
/** Stack QuickJS may use before "stack overflow" (well inside the engine's own stack). */
const MAX_STACK = 256 * 1024;

/** CPU time the whole process has used, in ms. */
function processCpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** Wall time a slice runs before the CPU clock is read (see SliceClock). */
const MARK_MS = 1;

/**
 * The time the engine's thread spends in a sandbox, as closely as can be told from outside it:
 * the lesser of the wall clock (which also counts time the machine gave other processes) and the
 * process's CPU time (which also counts the engine's other threads). Each is at least the thread's
 * own time, so a script is never stopped before its limit, and a busy machine does not stop a
 * script that was only waiting for a CPU. The CPU clock is a system call of about 12 µs when a
 * call comes cold, as much as a short script's whole run, so a slice's first MARK_MS are counted
 * by the wall clock alone: the CPU clock is read the first time the interrupt check finds the
 * slice past that mark, and the rest is the lesser of the two from there. A short slice (nearly
 * every call) never reads it; a long one counts at most MARK_MS of waiting as its own.
 */
class SliceClock {
  #wall = 0;
  /** Wall ms into the slice when the CPU clock was read (-1: not yet), and what it read. */
  #mark = -1;
  #cpu = 0;
  #limit = Infinity;

  /** Starts timing a slice that may take `limitMs`. */
  start(limitMs: number): void {
    this.#wall = performance.now();
    this.#mark = -1;
    this.#limit = limitMs;
  }

  /** Ends the slice; the time it took, in ms. */
  stop(): number {
    const ms = this.#elapsed(performance.now() - this.#wall);
    this.#limit = Infinity;
    return ms;
  }

  /** True once the running slice took more than its limit (the interrupt check asks often). */
  get over(): boolean {
    const wall = performance.now() - this.#wall;
    if (this.#mark < 0 && wall >= MARK_MS) {
      this.#mark = wall;
      this.#cpu = processCpuMs();
    }
    return wall > this.#limit && this.#elapsed(wall) > this.#limit;
  }

  #elapsed(wall: number): number {
    if (this.#mark < 0) return wall;
    return this.#mark + Math.min(wall - this.#mark, processCpuMs() - this.#cpu);
  }
}

interface Call {
  id: number;
  /** The line it runs for (read when its first slice begins). */
  cmd: ParsedLine;
  host: CallHost;
  cpuMs: number;
  opCount: number;
  /** Its timers (null until it sets one: most calls never do). */
  timers:
    | Map<number, { handle: ReturnType<typeof setTimeout>; ms: number; repeat: boolean }>
    | null;
  wall: ReturnType<typeof setTimeout> | undefined;
  /** The command's promise (0: none, or it settled), read after each slice. */
  main: Value | 0;
  /** How it ended, once it did. */
  result: Outcome | null;
  finish(o: Outcome): void;
}

/** A sandbox with one script version loaded. */
export class ScriptVm {
  readonly #limits: VmLimits;
  readonly #memory: WebAssembly.Memory;
  #q: Instance | null;
  #api:
    | Record<"meta" | "run" | "outcome" | "settle" | "fire" | "end" | "describe", Value>
    | null = null;
  /** Times the running slice (a load, a call's slice) against its limit. */
  readonly #clock = new SliceClock();
  /** A wall-clock bound for the engine's own calls into the sandbox (describing an error, ...). */
  #deadline = Infinity;
  #stop: { reason: StopReason; message: string } | null = null;
  #current: Call | null = null;
  #queue: (() => void)[] = [];
  /** True from a call's end until the next call in the queue has begun (see #handOn). */
  #handing = false;
  #nextCall = 1;
  #nextToken = 1;
  #nextTimer = 1;
  #dead = false;
  #outOfMemory = false;
  /** True while the engine reads a send's data inside QuickJS. */
  #reading = false;
  /** Calls served, for @script/show. */
  calls = 0;
  /** Values made for a call's entry, freed once it returned (one array for every call). */
  readonly #made: Value[] = [];
  /** The last call's command name and its QuickJS string (freed when another name comes). */
  #name: { text: string; value: Value } | null = null;

  private constructor(limits: VmLimits, q: Instance) {
    this.#limits = limits;
    this.#memory = q.memory;
    this.#q = q;
    // QuickJS grows its memory through this; a refused growth (past the cap) is how running out
    // of memory shows, whatever QuickJS then throws (an error, or null when it could make none).
    const memory = q.memory;
    const grow = memory.grow.bind(memory);
    Object.defineProperty(memory, "grow", {
      value: (pages: number) => {
        try {
          return grow(pages);
        } catch (e) {
          this.#outOfMemory = true;
          throw e;
        }
      },
    });
  }

  /** A fresh sandbox with the prelude run (the realm locked down); no script loaded yet. */
  static async create(qjs: QuickJs, limits: VmLimits): Promise<ScriptVm> {
    const q = await qjs.instance(limits.memoryMb);
    q.setMaxStack(MAX_STACK);
    const vm = new ScriptVm(limits, q);
    q.serve({
      call: (args) => vm.#host(args),
      interrupt: () => vm.#stop !== null || vm.#clock.over || performance.now() > vm.#deadline,
    });
    vm.#boot(q);
    return vm;
  }

  /** True once the instance was thrown away (stopped, crashed, closed). */
  get dead(): boolean {
    return this.#dead;
  }

  /** Bytes of WebAssembly memory the instance holds now. */
  get memoryBytes(): number {
    return this.#dead ? 0 : this.#memory.buffer.byteLength;
  }

  /** True while a call runs or waits. */
  get busy(): boolean {
    return this.#current !== null || this.#handing || this.#queue.length > 0;
  }

  #boot(q: Instance): void {
    this.#deadline = performance.now() + 5_000;
    try {
      // Without source text or line table: about 32 KiB of every sandbox. Its frames are left
      // out of error locations anyway, and its functions' source is nothing a script needs.
      const make = this.#unwrap(q, q.eval(PRELUDE, PRELUDE_FILE, false, false));
      const host = q.hostFunction("host");
      const api = this.#unwrap(q, q.call(make, [host]));
      q.free(make);
      q.free(host);
      this.#api = {
        meta: q.getProp(api, "meta"),
        run: q.getProp(api, "run"),
        outcome: q.getProp(api, "outcome"),
        settle: q.getProp(api, "settle"),
        fire: q.getProp(api, "fire"),
        end: q.getProp(api, "end"),
        describe: q.getProp(api, "describe"),
      };
      q.free(api);
    } finally {
      this.#deadline = Infinity;
    }
  }

  #unwrap(q: Instance, r: { value?: Value; error?: Value }): Value {
    if (r.error) {
      const text = q.dump(r.error);
      q.free(r.error);
      throw new Error(`the script sandbox would not start: ${text.slice(0, 300)}`);
    }
    return r.value!;
  }

  /**
   * Evaluates a version's JavaScript as a module (under the time limit) and reads its exports;
   * throws LoadError with one clean line when it does not load.
   */
  load(js: string, label: string): ScriptMeta {
    const q = this.#live();
    const api = this.#api!;
    const limit = Math.max(this.#limits.timeoutMs, LOAD_MS);
    this.#clock.start(limit);
    let took = 0;
    let failure: string | null = null;
    try {
      const ev = q.eval(js, label, true);
      let ns = ev.value;
      if (ev.error) failure = this.#describe(q, ev.error);
      else if (ns && q.promise(ns).state !== NOT_A_PROMISE) {
        // Top-level await: the evaluation is a promise. It may finish in its own jobs (and then
        // holds the exports), but a load waits for nothing.
        const jobError = q.runJobs();
        if (jobError) q.free(jobError);
        const { state, result } = q.promise(ns);
        q.free(ns);
        ns = undefined;
        if (state === PROMISE_FULFILLED && result && q.typeOf(result) === "object") ns = result;
        else if (state !== PROMISE_FULFILLED && result) failure = this.#describe(q, result);
        else {
          if (result) q.free(result);
          failure = "its top-level code waits for something; a script may not";
        }
      }
      if (ns && !failure) {
        const r = q.call(api.meta, [ns]);
        q.free(ns);
        if (r.error) failure = this.#describe(q, r.error);
        else {
          const meta = JSON.parse(q.text(r.value!));
          q.free(r.value!);
          return meta;
        }
      }
    } catch (e) {
      failure = this.#hostFailure(e);
    } finally {
      took = this.#clock.stop();
    }
    if (this.#stop || took > limit) {
      this.kill();
      throw new LoadError(`loading was stopped after ${limit} ms (the time limit)`);
    }
    if (this.#nearCap() || /out of memory/.test(failure ?? "")) {
      this.kill();
      throw new LoadError(
        `loading was stopped: it used more than ${this.#limits.memoryMb} MB (the memory limit)`,
      );
    }
    throw new LoadError(scriptError(failure ?? "it failed to load"));
  }

  /** The one-line description of a thrown value in the sandbox (the value is freed). */
  #describe(q: Instance, error: Value): string {
    const was = this.#deadline;
    // Describing runs the value's getters: bounded like the script.
    this.#deadline = Math.min(was, performance.now() + 50);
    try {
      const r = q.call(this.#api!.describe, [error]);
      if (r.error) {
        q.free(r.error);
        return "threw an unprintable value";
      }
      const text = q.text(r.value!);
      q.free(r.value!);
      return text;
    } finally {
      q.free(error);
      this.#deadline = was;
    }
  }

  /**
   * Runs the loaded script's command for one call of `cmd`: `host` carries out its SDK
   * operations and holds its budgets. Waits in the queue while another call runs (a full queue is
   * refused at once).
   */
  run(cmd: ParsedLine, host: CallHost): Promise<Outcome> {
    if (this.#dead) return Promise.resolve(RESTARTED);
    // A call that need not wait begins now: its promise is the only one between the engine and
    // its end (an async function around it added two more to settle, paced calls' cold work).
    if (this.#current || this.#handing) return this.#queued(cmd, host);
    return this.#begin(cmd, host);
  }

  /** A call that waits in the queue for the one running (refused at once when it is full). */
  async #queued(cmd: ParsedLine, host: CallHost): Promise<Outcome> {
    if (this.#queue.length >= this.#limits.maxQueue) {
      return {
        ok: false,
        cpuMs: 0,
        reason: "busy",
        message: `${this.#queue.length} calls are waiting`,
      };
    }
    await new Promise<void>((ok) => this.#queue.push(ok));
    this.#handing = false;
    if (this.#dead) return RESTARTED;
    return await this.#begin(cmd, host);
  }

  /** Starts a call whose turn it is (refused when its actor's budget says so). */
  #begin(cmd: ParsedLine, host: CallHost): Promise<Outcome> {
    const refused = host.admit();
    if (refused !== null) {
      this.#handOn();
      return Promise.resolve({ ok: false, cpuMs: 0, reason: "refused", message: refused });
    }
    this.calls++;
    this.#outOfMemory = false;
    return new Promise<Outcome>((finish) => {
      const call: Call = {
        id: this.#nextCall++,
        cmd,
        host,
        cpuMs: 0,
        opCount: 0,
        timers: null,
        wall: undefined,
        main: 0,
        result: null,
        finish,
      };
      this.#current = call;
      this.#slice(call, null, "run");
    });
  }

  /**
   * Enters the prelude's `run` for a call's line. The line's parts go as strings, not one JSON
   * text: QuickJS's JSON parser, run cold at each call, cost more than the few strings made here
   * (15-25 µs a paced call). The switches, most often none, as JSON. A part the prelude can make
   * exactly from the others goes as null, QuickJS's constant, not as a string made and freed: no
   * switches, `raw` that is `name args`, `lhs` that is `args` (most lines). The call's id is
   * written where QuickJS reads it, and the command's name (the same each call, but for an alias)
   * is kept from the last call: no value made for either.
   */
  #enterRun(q: Instance, call: Call): { value?: Value; error?: Value } {
    const cmd = call.cmd, made = this.#made;
    try {
      let id: Value | JSValueConstPointer | null = q.smallInt(call.id);
      if (!id) id = this.#make(q.number(call.id));
      const args = this.#make(q.string(cmd.args));
      return q.call(this.#api!.run, [
        id,
        cmd.raw === `${cmd.name} ${cmd.args}` ? q.null : this.#make(q.string(cmd.raw)),
        this.#nameValue(q, cmd.name),
        cmd.switches.length ? this.#make(q.string(JSON.stringify(cmd.switches))) : q.null,
        args,
        cmd.lhs === cmd.args ? q.null : this.#make(q.string(cmd.lhs)),
        cmd.rhs === null ? q.null : this.#make(q.string(cmd.rhs)),
      ]);
    } finally {
      for (let i = 0; i < made.length; i++) q.free(made[i]);
      made.length = 0;
    }
  }

  /** `v`, to be freed when the entry it was made for returns (see #enterRun). */
  #make(v: Value): Value {
    this.#made.push(v);
    return v;
  }

  /** The command's name as a QuickJS string, kept while calls use the same name. */
  #nameValue(q: Instance, name: string): Value {
    if (this.#name?.text !== name) {
      if (this.#name) q.free(this.#name.value);
      this.#name = { text: name, value: q.string(name) };
    }
    return this.#name.value;
  }

  /**
   * Runs one slice of `call` in the sandbox (its start, an answer, a timer) and then its
   * pending jobs, under what is left of its CPU time; then ends, stops or leaves it waiting.
   */
  #slice(
    call: Call,
    enter: ((q: Instance) => { value?: Value; error?: Value }) | null,
    kind: "run" | "fire" | "settle",
  ): void {
    const q = this.#q!;
    this.#clock.start(this.#limits.timeoutMs - call.cpuMs);
    let failure: string | null = null;
    try {
      const r = enter ? enter(q) : this.#enterRun(q, call);
      if (r.error) failure = this.#describe(q, r.error);
      else this.#entered(q, call, r.value!, kind);
      if (failure === null) {
        const jobError = q.runJobs();
        if (jobError) failure = this.#describe(q, jobError);
      }
      // Inside the slice's time: describing a rejection runs the script's getters.
      if (failure === null && !call.result && call.main) this.#settled(q, call);
    } catch (e) {
      failure = e instanceof ScriptThrow ? e.message : this.#hostFailure(e);
    } finally {
      const took = this.#clock.stop();
      call.cpuMs += took;
      call.host.spend(took);
    }
    if (this.#current !== call) return; // Stopped from inside (a call flood).
    const stop = this.#stop;
    if (stop) return this.#stopCall(call, stop.reason, stop.message);
    if (call.cpuMs > this.#limits.timeoutMs) {
      return this.#stopCall(
        call,
        "time",
        `stopped after ${this.#limits.timeoutMs} ms (the time limit)`,
      );
    }
    const done = call.result;
    if (failure !== null || (done && (!done.ok || done.error))) {
      // Out of memory may surface as any throw (even of null, when QuickJS could not allocate
      // the error): a call that ends in a throw with its memory used up ran out of it.
      const memory = this.#nearCap() || /out of memory/.test(failure ?? "") ||
        (done && !done.ok && done.reason === "memory");
      if (memory) {
        return this.#stopCall(
          call,
          "memory",
          `used more than ${this.#limits.memoryMb} MB of memory (the memory limit)`,
        );
      }
      if (failure !== null) return this.#stopCall(call, "crash", failure);
    }
    if (done) {
      done.cpuMs = call.cpuMs; // Made for this call (#entered, ended): no copy of it.
      return this.#end(call, done);
    }
    // Waiting on an answer or a timer: the wall-clock limit now applies.
    call.wall ??= setTimeout(() => {
      if (this.#current !== call) return;
      this.#quiet((q) => q.call(this.#api!.end, []));
      this.#stopCall(
        call,
        "time",
        `stopped after ${this.#limits.wallMs} ms waiting (the wall-clock limit)`,
        false,
      );
    }, Math.max(0, this.#limits.wallMs - call.cpuMs));
  }

  /** Calls into the sandbox for housekeeping, ignoring what it answers. */
  #quiet(fn: (q: Instance) => { value?: Value; error?: Value }): void {
    const q = this.#q;
    if (!q) return;
    this.#deadline = performance.now() + 50;
    try {
      const r = fn(q);
      const v = r.value ?? r.error;
      if (v) q.free(v);
    } catch {
      // A broken instance: it is thrown away by whoever noticed.
    } finally {
      this.#deadline = Infinity;
    }
  }

  /** What a throw of the host side while the sandbox ran means (its stack, an abort). */
  #hostFailure(e: unknown): string {
    this.#dead = true; // Whatever state QuickJS was left in is not trusted again.
    if (e instanceof RangeError) return "InternalError: stack overflow (it recursed too deep)";
    return `the sandbox failed: ${e instanceof Error ? e.message : String(e)}`.slice(0, 300);
  }

  /** True once the memory could not grow (or is all but full) since the call or load began. */
  #nearCap(): boolean {
    return this.#outOfMemory ||
      this.#memory.buffer.byteLength >= this.#limits.memoryMb * 1024 * 1024 * 0.97;
  }

  #stopCall(call: Call, reason: StopReason, message: string, kill = true): void {
    this.#stop = null;
    if (kill) this.kill();
    this.#end(call, { ok: false, cpuMs: call.cpuMs, reason, message });
  }

  /**
   * What a slice's entry answered: `run` a promise to watch or how the call ended, `fire` how
   * it ended when its callback threw ("" otherwise), `settle` nothing.
   */
  #entered(q: Instance, call: Call, v: Value, kind: "run" | "fire" | "settle"): void {
    if (kind === "run") {
      // Returned nothing (the prelude's answer for a clean end): told in place.
      if (q.isUndefined(v)) {
        call.result = { ok: true, cpuMs: 0 };
        return q.free(v);
      }
      if (q.promiseState(v) !== NOT_A_PROMISE) {
        call.main = v;
        return;
      }
    }
    if (kind !== "settle") {
      const tag = this.#tag(q, v);
      if (kind === "run" || tag !== "") {
        call.result = tag === "" ? { ok: true, cpuMs: 0 } : ended(tag);
      }
    }
    q.free(v);
  }

  /** Reads the command's promise: when it settled, how the call ended. */
  #settled(q: Instance, call: Call): void {
    const main = call.main as Value;
    const { state, result } = q.promise(main);
    if (state === PROMISE_PENDING) return;
    q.free(main);
    call.main = 0;
    if (state === PROMISE_FULFILLED && (!result || q.isUndefined(result))) {
      if (result) q.free(result);
      call.result = { ok: true, cpuMs: 0 };
      return;
    }
    const ok = q.number(state === PROMISE_FULFILLED ? 1 : 0);
    const value = result ?? q.number(0);
    try {
      const r = q.call(this.#api!.outcome, [ok, value]);
      if (r.error) throw new ScriptThrow(this.#describe(q, r.error));
      const tag = this.#tag(q, r.value!);
      q.free(r.value!);
      call.result = tag === "" ? { ok: true, cpuMs: 0 } : ended(tag);
    } finally {
      q.free(ok);
      q.free(value);
    }
  }

  /** A tag the prelude answered (bounded: it describes in at most 500 characters). */
  #tag(q: Instance, v: Value): string {
    return q.text(v).slice(0, 1100);
  }

  #end(call: Call, outcome: Outcome): void {
    // Most calls set no timer and end in their first slice: nothing of Deno's timers is run.
    if (call.wall !== undefined) clearTimeout(call.wall);
    if (call.main && this.#q) this.#q.free(call.main);
    call.main = 0;
    if (call.timers?.size) {
      for (const t of call.timers.values()) clearTimeout(t.handle);
      call.timers.clear();
    }
    if (this.#current === call) this.#current = null;
    call.finish(outcome);
    this.#handOn();
  }

  /**
   * Lets the next waiting call begin once the engine has read the input that came meanwhile:
   * begun at once (a promise's reaction), the calls of a queue ran back to back in one turn of
   * the event loop, forty 45 ms calls holding every player 1.7 s. Until it begins, new calls queue
   * behind it.
   */
  #handOn(): void {
    const next = this.#queue.shift();
    if (!next) return;
    this.#handing = true;
    afterInput(next);
  }

  /** Throws the instance away: calls waiting are answered `closed`, nothing of it runs again. */
  kill(): void {
    if (this.#dead && !this.#q) return;
    this.#dead = true;
    this.#stop = { reason: "closed", message: "stopped" };
    // Not freed: a QuickJS stopped mid-way may hold values; the whole instance is garbage.
    this.#q = null;
    this.#api = null;
    const waiting = this.#queue.splice(0);
    for (const w of waiting) w();
  }

  #live(): Instance {
    if (this.#dead || !this.#q) throw new LoadError("the sandbox was stopped");
    return this.#q;
  }

  // ---- The host function: what the sandbox asks of the engine ------------------------------

  #host(args: JSValueConstPointer[]): Value | 0 {
    const q = this.#q!;
    const [kind, callH, a, b] = args;
    const k = q.int(kind);
    if (k === HOST_RANDOM) return this.#random(q, q.num(a));
    // Script code run while QuickJS writes a send's data (none in this build: see #data) may not
    // call the engine, which is in the middle of a call already.
    if (this.#reading) return q.string("xThe engine is reading this script's data.");
    const call = this.#current;
    if (!call || call.result || q.int(callH) !== call.id) {
      return q.string("eThis script call has already ended.");
    }
    if (++call.opCount > MAX_OPS_PER_CALL) {
      // Stopped rather than answered: a loop of calls would keep the engine busy.
      this.#stop ??= {
        reason: "calls",
        message: `made more than ${MAX_OPS_PER_CALL} SDK calls in one run (the limit)`,
      };
      return q.string("xtoo many SDK calls");
    }
    try {
      switch (k) {
        case HOST_SEND: {
          const msg = this.#text(q, a, MAX_MESSAGE);
          const data = this.#text(q, b, MAX_DATA);
          return this.#answer(q, call, call.host.send(msg, data ? JSON.parse(data) : undefined));
        }
        case HOST_SEND_VALUE: {
          const msg = this.#text(q, a, MAX_MESSAGE);
          const data = this.#data(q, b);
          if (data === undefined) {
            call.opCount--; // Asked again with JSON: one operation.
            return q.string("j");
          }
          return this.#answer(q, call, call.host.send(msg, data));
        }
        case HOST_SEND_FLAT: {
          const msg = this.#text(q, a, MAX_MESSAGE);
          const data = this.#flat(q, args);
          if (data === undefined) {
            call.opCount--; // Asked again with JSON: one operation.
            return q.string("j");
          }
          return this.#answer(q, call, call.host.send(msg, data));
        }
        case HOST_BROADCAST:
          return this.#answer(
            q,
            call,
            call.host.op("broadcast", [
              this.#text(q, a, MAX_MESSAGE),
              JSON.parse(this.#text(q, b, MAX_ARGS)),
            ]),
          );
        case HOST_OP: {
          const name = this.#text(q, a, 40);
          // Without arguments (u.who(), u.me, ...): none to copy out and parse.
          const args = b === undefined ? NO_ARGS : JSON.parse(this.#text(q, b, MAX_ARGS));
          return this.#answer(q, call, call.host.op(name, Array.isArray(args) ? args : NO_ARGS));
        }
        case HOST_TIMER:
          return this.#setTimer(q, call, q.num(a), q.num(b) === 1);
        case HOST_CLEAR:
          this.#clearTimer(call, q.num(a));
          return 0;
      }
      return q.string("xnot an SDK call");
    } catch (e) {
      return q.string(this.#failureTag(call, e));
    }
  }

  /**
   * A send's data read in QuickJS's binary format: undefined when it holds what the engine's
   * reader does not take (then it comes as JSON made in the sandbox). This build's writer takes
   * own enumerable data properties and array elements (a hole as undefined, the prototype not
   * asked) and refuses accessors and proxies without running them, so no script code runs
   * meanwhile; should a later QuickJS read an element through a getter, that code could still
   * not call the engine (#reading). The prelude checked the data's size first (its `fits`): the
   * writer loops over an array's holes without an interrupt check, so this kind of call relies on
   * the prelude, the only holder of the host function.
   */
  #data(q: Instance, v: JSValueConstPointer): unknown {
    if (!q.binary) return undefined;
    this.#reading = true;
    let r: { bytes?: Uint8Array; error?: Value };
    try {
      r = q.encode(v, MAX_DATA_BYTES);
    } finally {
      this.#reading = false;
    }
    if (r.error) q.free(r.error);
    return r.bytes ? readBjson(r.bytes) : undefined;
  }

  /**
   * Flat data (the host function's arguments after the message: their characters in all, then
   * keys and values in turn, see `flat` in src/scripts/prelude.ts) as the object JSON.parse would
   * make of it; undefined when a string did not cross whole (a lone surrogate, which QuickJS
   * writes as bytes that are not UTF-8, or a NUL, where its C string ends): then it comes as JSON.
   * The prelude bounded their count and size; the engine's send checks the data's size again.
   */
  #flat(q: Instance, args: JSValueConstPointer[]): Record<string, unknown> | undefined {
    if (args.length < 6 || args.length % 2 === 1) throw new RangeError("not flat data");
    const chars = q.int(args[3]);
    if (!(chars >= 0 && chars <= MAX_DATA)) throw new RangeError("not flat data");
    const data: Record<string, unknown> = {};
    let got = 0;
    for (let i = 4; i < args.length; i += 2) {
      const k = q.wellFormed(args[i], MAX_DATA), v = q.wellFormed(args[i + 1], MAX_DATA);
      if (k === null || v === null) return undefined;
      got += k.length + v.length;
      setOwn(data, k, v);
    }
    return got === chars ? data : undefined;
  }

  /**
   * A string argument, refused when longer than `max`. The prelude bounds every string before it
   * crosses (the script never reaches the host function itself), so what is copied here is at
   * most that; this is the engine's own check of it.
   */
  #text(q: Instance, v: JSValueConstPointer, max: number): string {
    const s = q.text(v);
    if (s.length > max) throw new RangeError(`more than ${max} characters`);
    return s;
  }

  #failureTag(call: Call, e: unknown): string {
    const { message, user } = call.host.failure(e);
    return `${user ? "e" : "x"}${message}`;
  }

  /** An operation's answer for the sandbox: now, or a token settled when its promise is. */
  #answer(q: Instance, call: Call, value: unknown): Value | 0 {
    if (value instanceof Promise) {
      const token = this.#nextToken++;
      value.then(
        (v) => this.#settle(call, token, (q) => this.#wrap(q, v ?? null)),
        (e) => this.#settle(call, token, (q) => q.string(this.#failureTag(call, e))),
      );
      return q.string(`p${token}`);
    }
    return value === undefined ? 0 : this.#wrap(q, value);
  }

  /**
   * A value for the sandbox: a one-element array holding it, built as QuickJS values, or its
   * JSON tagged "v" when it holds what QuickJS values built here cannot (see Instance.value).
   */
  #wrap(q: Instance, value: unknown): Value {
    const v = q.value([value]);
    return v || q.string(`v${JSON.stringify(value)}`);
  }

  #settle(call: Call, token: number, answer: (q: Instance) => Value): void {
    if (this.#current !== call || this.#dead) return; // The call ended meanwhile.
    this.#slice(call, (q) => {
      const t = q.number(token);
      const v = answer(q);
      try {
        return q.call(this.#api!.settle, [t, v]);
      } finally {
        q.free(t);
        q.free(v);
      }
    }, "settle");
  }

  #setTimer(q: Instance, call: Call, ms: number, repeat: boolean): Value {
    const timers = call.timers ??= new Map();
    if (timers.size >= MAX_TIMERS) {
      return q.string(`xa command may have at most ${MAX_TIMERS} timers at once`);
    }
    const id = this.#nextTimer++;
    const delay = Math.min(
      this.#limits.wallMs,
      Math.max(repeat ? MIN_INTERVAL_MS : 0, Number.isFinite(ms) ? ms : 0),
    );
    const arm = () =>
      setTimeout(() => {
        const t = timers.get(id);
        if (!t || this.#current !== call || this.#dead) return;
        if (t.repeat) t.handle = arm();
        else timers.delete(id);
        this.#slice(call, (q) => {
          const h = q.number(id);
          try {
            return q.call(this.#api!.fire, [h]);
          } finally {
            q.free(h);
          }
        }, "fire");
      }, delay);
    timers.set(id, { handle: arm(), ms: delay, repeat });
    return q.number(id);
  }

  #clearTimer(call: Call, id: number): void {
    const t = call.timers?.get(id);
    if (!t) return;
    clearTimeout(t.handle);
    call.timers!.delete(id);
  }

  /** `n` random bytes as a string of characters 1 to 256 (a C string holds no 0). */
  #random(q: Instance, n: number): Value {
    const bytes = new Uint8Array(Math.max(0, Math.min(65536, Math.floor(n) || 0)));
    crypto.getRandomValues(bytes);
    const codes = new Uint16Array(bytes.length);
    for (let i = 0; i < bytes.length; i++) codes[i] = bytes[i] + 1;
    let s = "";
    for (let i = 0; i < codes.length; i += 8192) {
      s += String.fromCharCode(...codes.subarray(i, i + 8192));
    }
    return q.string(s);
  }
}

/**
 * Code that touches most of QuickJS (parsing, modules, closures, classes, promises, JSON,
 * regular expressions, strings, arrays, maps, typed arrays, errors) so its functions are
 * compiled before any script runs.
 */
const WARM_UP = `export const help = "x"; export const list = ["a"];
export default async function (u) {
  class A { #p = 1; get p() { return this.#p; } static s() { return new A().p; } }
  const o = { a: 1, b: "two", c: [1, 2, 3], d: { e: null, f: true } };
  const j = JSON.parse(JSON.stringify(o));
  const m = new Map([["k", 1]]), st = new Set([1, 2]);
  const t = new Uint32Array(8); t.fill(3);
  const r = /^(\\d+)d(\\d+)$/i.exec("2d6");
  const s = ["a", "bb", "ccc"].map((x) => x.padEnd(5).toUpperCase()).join("|").split("|")
    .filter(Boolean).sort().reduce((a, b) => a + b.trim(), "").replace(/c+/g, "c");
  const g = (function* () { yield 1; yield 2; })();
  let e; try { null.x; } catch (err) { e = String(err) + err.stack; }
  const p = Promise.all([1, Promise.resolve(2)]).then((v) => v.length);
  (async () => { await p; for await (const x of [1]) void x; })();
  const out = [A.s(), j, [...m], [...st], t[0], r, s, [...g], e, Object.keys(o), Object.freeze({}),
    new Date(0).toISOString(), Math.floor(1.5), (12.5).toFixed(1), String(1e21), "x".repeat(3),
    [3, 1, 2].includes(2), Array.from({ length: 3 }, (_, i) => i), new Error("x").message];
  crypto.getRandomValues(new Uint8Array(4));
  await new Promise((ok) => setTimeout(ok, 0));
  await u.send(u.cmd.args + u.me.name + JSON.stringify(out).length, { type: "warm", n: await u.target("me") });
  await u.attr.get("me", "x");
  try { await u.target("nobody"); } catch (err) { void err; }
  throw new Error("warm");
}`;

/**
 * Runs a sandbox through a script that touches most of QuickJS and the SDK, outside any
 * script's limits: V8 compiles WebAssembly functions lazily, on their first call, and the first
 * load or call would otherwise pay tens of milliseconds of compiling inside its time limit.
 * The compiled code belongs to the module, so every sandbox made after it shares it.
 */
export async function warmUp(qjs: QuickJs): Promise<void> {
  const vm = await ScriptVm.create(qjs, {
    timeoutMs: 10_000,
    wallMs: 10_000,
    memoryMb: 16,
    maxQueue: 1,
  });
  try {
    vm.load(WARM_UP, "warm-up.js");
    const ops: OpHandler = (name, args) =>
      name === "target"
        ? (args[0] === "me" ? Promise.resolve({ name: "warm" }) : Promise.reject(new Error("no")))
        : name === "me"
        ? { name: "warm" }
        : undefined;
    for (let i = 0; i < 2; i++) {
      await vm.run(
        { raw: "+warm x", name: "+warm", switches: ["w"], args: "x", lhs: "x", rhs: null },
        callHost(ops, () => ({ message: "no", user: true })),
      );
    }
  } finally {
    vm.kill();
  }
}

/** A QuickJS error line as the owner reads it: one line, no doubled error names. */
export function scriptError(text: string): string {
  return text.replace(/^(\w*Error): (?=\w*Error: )/, "").replace(/\s+/g, " ").trim().slice(0, 500);
}
