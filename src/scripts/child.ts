/**
 * The sandbox runtime: the main module of a script process, started by src/scripts/sandbox.ts
 * with no --allow-* flag, --no-remote and --no-npm, and a V8 heap limit. It reads one JSON
 * message a line on stdin, evaluates scripts as data: URL modules, runs them with an SDK `u`
 * whose every operation is a request to the engine, and answers on stdout.
 *
 * Its module-level state (the module cache, the call in progress) is this process's own: the
 * process is the unit the engine creates, kills and replaces. It imports nothing and exports
 * nothing: a module a script could import back by its file URL
 * (already loaded, so no read permission is asked) must hold nothing worth reaching. Before any
 * script is evaluated it keeps private references to stdin/stdout, removes `Deno` and the other
 * globals that reach outside (storage, workers, sockets, WebAssembly) and freezes the
 * built-ins, so one script cannot leave a trap for the next in a shared global.
 */

// deno-lint-ignore-file no-explicit-any

/** A line of the engine, parsed. */
type Msg = Record<string, any>;

/** Message text a script may send in one call of u.send or u.here.broadcast. */
const MAX_MSG = 32_000;
/** Bytes of the structured data beside a message, as JSON. */
const MAX_DATA = 16_384;
/** Modules kept per process; the oldest is forgotten beyond this (a live edit makes a new one). */
const MAX_MODULES = 256;

const stdin = Deno.stdin;
/**
 * Kept before `Deno` is removed: the end of stdin means the engine is gone. (In the frozen realm
 * its unload step throws, so the process ends with status 1; it ends all the same, timers and all.)
 */
const exit: (code: number) => never = Deno.exit;
const stdout = Deno.stdout;
const encoder = new TextEncoder();
const decoder = new TextDecoder();
const realSetTimeout = setTimeout;
const realClearTimeout = clearTimeout;
const realSetInterval = setInterval;
const realClearInterval = clearInterval;
const jsonStringify = JSON.stringify;
const jsonParse = JSON.parse;

/** Timers of the call that is running, cleared when it ends so nothing of it runs later. */
let callTimers = new Set<any>();
let currentCall: number | null = null;
const modules = new Map<string, any>();
let nextOp = 1;

/** Lines written but not yet flushed (the messages of the running call, sent with its answer). */
let outLines: string[] = [];
let outChars = 0;
let flushTimer: any = null;
/** Characters buffered before a flush regardless (the engine counts a flood as it arrives). */
const FLUSH_CHARS = 16 * 1024;

/** Bytes read from stdin and not yet split into lines. */
let inBuf = new Uint8Array(64 * 1024);
let inLen = 0;
/** Errors an SDK operation refused for the actor (not found, permission denied). */
class ScriptUserError extends Error {
  user = true;
}

/**
 * Queues a message. The messages of a call go out in one write with its answer, or before it
 * waits: for an operation's answer, or on a timer of its own (a timer it sets flushes, and so
 * does the end of each of its timer callbacks). Each write wakes the engine, and a wakeup costs
 * more than the bytes; a timer armed per message to flush would cost more again (both measured
 * in docs/bench.md).
 */
function write(msg: Msg): void {
  const line = jsonStringify(msg);
  outLines.push(line);
  outChars += line.length;
  if (outChars > FLUSH_CHARS) flush();
}

/** Flushes once the microtasks of a script's timer callback have run (its async sends). */
function flushSoon(): void {
  // Armed even when nothing is queued yet: a callback that resolves a promise sends from the
  // continuation, after it returns.
  if (flushTimer === null) flushTimer = realSetTimeout(flush, 0);
}

/** Writes the queued messages, synchronously (the engine always reads). */
function flush(): void {
  if (flushTimer !== null) {
    realClearTimeout(flushTimer);
    flushTimer = null;
  }
  if (!outLines.length) return;
  const bytes = encoder.encode(outLines.join("\n") + "\n");
  outLines = [];
  outChars = 0;
  let off = 0;
  while (off < bytes.length) off += stdout.writeSync(bytes.subarray(off));
}

/**
 * The engine's next message, read synchronously: the process blocks in read(2) itself, so a
 * message wakes its one thread directly (an async read wakes a reader thread that then wakes
 * this one: twice the scheduling delay). At the end of input the process exits. Lines that are
 * not JSON objects are skipped.
 */
function readMessage(): Msg {
  for (;;) {
    const nl = inBuf.subarray(0, inLen).indexOf(10);
    if (nl >= 0) {
      const line = decoder.decode(inBuf.subarray(0, nl));
      inBuf.copyWithin(0, nl + 1, inLen);
      inLen -= nl + 1;
      try {
        const msg = jsonParse(line);
        if (msg && typeof msg === "object") return msg;
      } catch {
        // Not a message; the engine never sends one, so skip it.
      }
      continue;
    }
    if (inLen === inBuf.length) {
      const bigger = new Uint8Array(inBuf.length * 2);
      bigger.set(inBuf);
      inBuf = bigger;
    }
    const n = stdin.readSync(inBuf.subarray(inLen));
    if (n === null) exit(0); // The engine closed stdin (or died): whatever runs here ends too.
    inLen += n;
  }
}

/** The file name of the script being loaded or run, shown instead of its data: URL. */
let label = "script";

function describe(e: unknown): string {
  try {
    if (e instanceof Error) {
      const msg = `${e.name}: ${e.message}`.replace(
        /data:application\/\w+;base64,[\w+/=]+/g,
        label,
      );
      return msg.slice(0, 500);
    }
    return `threw ${typeof e === "string" ? e : typeof e}`.slice(0, 500);
  } catch {
    return "threw an unprintable value";
  }
}

/**
 * An operation with an answer: sent with what is queued, and answered before the script goes
 * on. One call runs at a time and the engine answers only the operation asked, so the next
 * message is its answer.
 */
function op(call: number, name: string, args: unknown[]): Promise<any> {
  if (currentCall !== call) {
    return Promise.reject(new ScriptUserError("This script call has already ended."));
  }
  const id = nextOp++;
  write({ t: "op", id, call, op: name, args });
  flush();
  for (;;) {
    const msg = readMessage();
    if (msg.t !== "res" || msg.id !== id) continue;
    if (msg.ok) return Promise.resolve(msg.value);
    return Promise.reject(
      msg.user ? new ScriptUserError(String(msg.error)) : new Error(String(msg.error)),
    );
  }
}

/**
 * An operation with nothing to answer (a message sent): it resolves at once and the engine
 * carries it out in order; a refusal there fails the call when it ends. Saves a round trip.
 */
function notify(call: number, name: string, args: unknown[]): Promise<void> {
  if (currentCall !== call) {
    return Promise.reject(new ScriptUserError("This script call has already ended."));
  }
  write({ t: "op", id: nextOp++, call, op: name, args, nr: 1 });
  return Promise.resolve();
}

function text(v: unknown, what: string): string {
  const s = typeof v === "string" ? v : String(v);
  if (s.length > MAX_MSG) {
    throw new RangeError(
      `${what}: the message is ${s.length} characters; the limit is ${MAX_MSG}.`,
    );
  }
  return s;
}

function data(v: unknown): unknown {
  if (v === undefined) return undefined;
  const json = jsonStringify(v);
  if (json === undefined || json.length > MAX_DATA) {
    throw new RangeError(`data must be JSON of at most ${MAX_DATA} bytes.`);
  }
  return jsonParse(json);
}

function deepFreeze(v: any): any {
  if (v && typeof v === "object") {
    for (const k of Object.keys(v)) deepFreeze(v[k]);
    Object.freeze(v);
  }
  return v;
}

/** The SDK `u` of one call. */
function makeSdk(call: number, ctx: Msg): any {
  const here = ctx.here
    ? {
      ...ctx.here,
      broadcast: (msg: unknown, opts?: { exclude?: string[] }) =>
        notify(call, "broadcast", [text(msg, "u.here.broadcast"), opts?.exclude ?? []]),
    }
    : null;
  return Object.freeze({
    me: deepFreeze(ctx.me),
    here: here ? Object.freeze(deepFreeze(here)) : null,
    cmd: deepFreeze(ctx.cmd),
    args: deepFreeze(ctx.args ?? []),
    send: (msg: unknown, d?: unknown) => notify(call, "send", [text(msg, "u.send"), data(d)]),
    target: (ref: unknown) => op(call, "target", [String(ref)]),
    player: (ref: unknown) => op(call, "player", [String(ref)]),
    online: () => op(call, "online", []),
    contents: (ref: unknown) => op(call, "contents", [String(ref)]),
    passes: (lock: unknown) => op(call, "passes", [String(lock)]),
    describe: (ref: unknown, desc: unknown) =>
      op(call, "describe", [String(ref), text(desc, "u.describe")]),
    attr: Object.freeze({
      get: (ref: unknown, name: unknown) => op(call, "attr.get", [String(ref), String(name)]),
      set: (ref: unknown, name: unknown, value: unknown) =>
        op(call, "attr.set", [String(ref), String(name), value === undefined ? null : data(value)]),
      flag: (ref: unknown, name: unknown, flag: unknown, on?: unknown) =>
        op(call, "attr.flag", [String(ref), String(name), String(flag), on !== false]),
      list: (ref: unknown, pattern?: unknown) =>
        op(call, "attr.list", [String(ref), pattern === undefined ? "*" : String(pattern)]),
    }),
  });
}

function moduleUrl(msg: Msg): string {
  const bytes = encoder.encode(String(msg.src));
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  const type = msg.js ? "application/javascript" : "application/typescript";
  return `data:${type};base64,${btoa(bin)}`;
}

async function loadModule(msg: Msg): Promise<any> {
  const known = modules.get(msg.key);
  if (known) return known;
  if (typeof msg.src !== "string") throw new Error("script source missing");
  const mod = await import(moduleUrl(msg));
  modules.set(msg.key, mod);
  if (modules.size > MAX_MODULES) modules.delete(modules.keys().next().value!);
  return mod;
}

function metaOf(mod: any): Msg {
  if (typeof mod.default !== "function") {
    throw new TypeError("the script must default-export a function (u) => void");
  }
  const pick = (k: string) => {
    const v = mod[k];
    return v === undefined ? undefined : jsonParse(jsonStringify(v) ?? "null");
  };
  return {
    help: pick("help"),
    aliases: pick("aliases"),
    lock: pick("lock"),
    switches: pick("switches"),
    category: pick("category"),
    guests: pick("guests"),
  };
}

async function handleLoad(msg: Msg): Promise<void> {
  label = String(msg.label ?? "script");
  try {
    const mod = await loadModule(msg);
    write({ t: "loaded", id: msg.id, ok: true, meta: metaOf(mod) });
  } catch (e) {
    modules.delete(msg.key);
    write({ t: "loaded", id: msg.id, ok: false, error: describe(e) });
  }
  flush();
}

async function handleRun(msg: Msg): Promise<void> {
  const call = msg.id as number;
  label = String(msg.label ?? "script");
  currentCall = call;
  callTimers = new Set();
  let error: Msg | undefined;
  let garbage: string | undefined;
  let imported = false;
  try {
    // A known version is taken without an await (each await is a turn of the microtask queue).
    const mod = modules.get(msg.key) ?? await loadModule(msg);
    imported = true;
    if (typeof mod.default !== "function") throw new TypeError("no default-exported function");
    const result = await mod.default(makeSdk(call, msg.ctx ?? {}));
    if (result !== undefined) garbage = result === null ? "null" : typeof result;
  } catch (e) {
    error = { message: describe(e), user: e instanceof ScriptUserError };
    if (e instanceof ScriptUserError) error.message = e.message;
  } finally {
    currentCall = null;
    for (const t of callTimers) realClearTimeout(t), realClearInterval(t);
    callTimers.clear();
  }
  write({ t: "done", id: call, error, garbage, imported });
  flush();
}

/** Removes what reaches outside the process and freezes the built-ins. */
function lockDown(): void {
  const g = globalThis as any;
  // A script that sets a timer is about to wait: what it sent so far goes out now, and what its
  // callback sends goes out when the callback (and its microtasks) are done.
  const afterwards = (f: any) => {
    flush();
    if (typeof f !== "function") return f;
    return function (this: unknown, ...a: any[]) {
      try {
        return f.apply(this, a);
      } finally {
        flushSoon();
      }
    };
  };
  const track = (id: any) => {
    if (currentCall !== null) callTimers.add(id);
    return id;
  };
  const timers = {
    setTimeout: (f: any, ms?: number, ...a: any[]) =>
      track(realSetTimeout(afterwards(f), ms, ...a)),
    setInterval: (f: any, ms?: number, ...a: any[]) =>
      track(realSetInterval(afterwards(f), ms, ...a)),
    clearTimeout: (id?: any) => realClearTimeout(id),
    clearInterval: (id?: any) => realClearInterval(id),
    console: Object.freeze(
      Object.fromEntries(
        ["log", "info", "warn", "error", "debug", "trace", "dir", "table"].map((k) => [
          k,
          () => {},
        ]),
      ),
    ),
  };
  const keep = new Set([
    "parseFloat",
    "parseInt",
    "undefined",
    "globalThis",
    "decodeURI",
    "decodeURIComponent",
    "encodeURI",
    "encodeURIComponent",
    "escape",
    "unescape",
    "eval",
    "isFinite",
    "isNaN",
    "queueMicrotask",
    "atob",
    "btoa",
    "crypto",
    "performance",
    "structuredClone",
    ...Object.keys(timers),
  ]);
  const drop = new Set([
    "Deno",
    "Worker",
    "WebSocket",
    "WebSocketStream",
    "EventSource",
    "BroadcastChannel",
    "CacheStorage",
    "Cache",
    "Storage",
    "WebAssembly",
    "Navigator",
    "Location",
    "Window",
    "SharedArrayBuffer",
    "Buffer",
  ]);
  for (const name of Object.getOwnPropertyNames(g)) {
    const lower = name[0] !== name[0].toUpperCase();
    if ((lower && !keep.has(name)) || drop.has(name)) {
      try {
        if (!delete g[name]) Object.defineProperty(g, name, { value: undefined });
      } catch {
        // A property that can be neither deleted nor redefined stays; it is frozen below.
      }
    }
  }
  for (const [k, v] of Object.entries(timers)) {
    Object.defineProperty(g, k, { value: v, writable: false, configurable: false });
  }
  const seen = new Set<unknown>();
  const freeze = (v: unknown, depth: number) => {
    if (!v || (typeof v !== "object" && typeof v !== "function") || seen.has(v) || depth > 4) {
      return;
    }
    seen.add(v);
    Object.freeze(v);
    for (const key of Reflect.ownKeys(v as object)) {
      const d = Object.getOwnPropertyDescriptor(v, key);
      if (d && "value" in d) freeze(d.value, depth + 1);
    }
    freeze(Object.getPrototypeOf(v), depth + 1);
  };
  for (const name of Object.getOwnPropertyNames(g)) {
    // Accessors (lazily loaded globals) are not touched: reading them would load them now.
    const d = Object.getOwnPropertyDescriptor(g, name);
    if (name !== "globalThis" && d && "value" in d) freeze(d.value, 0);
  }
  Object.freeze(g);
}

async function main(): Promise<void> {
  // A script's stray rejection (or a built-in failing inside the frozen realm) must not end
  // the process; the call it belongs to has already been answered or will time out.
  globalThis.addEventListener("unhandledrejection", (e) => e.preventDefault());
  globalThis.addEventListener("error", (e) => e.preventDefault());
  lockDown();
  write({ t: "ready" });
  flush();
  // One load or call at a time: a call's timers and operations belong to it alone. Between
  // requests the process sleeps in read(2); nothing of an ended call runs (its timers are gone).
  for (;;) {
    const msg = readMessage();
    if (msg.t === "load") await handleLoad(msg);
    else if (msg.t === "run") await handleRun(msg);
  }
}

await main();
