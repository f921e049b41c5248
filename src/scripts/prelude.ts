/**
 * The JavaScript a script's sandbox runs before the script: it keeps private references to the
 * built-ins it needs, gives the realm the few globals scripts may use (timers bound to the
 * running call, `crypto.getRandomValues`, a silent `console`), removes `eval` and the function
 * constructors, freezes every reachable intrinsic (the iterator and generator prototypes
 * included) and the global object, and returns the functions the engine calls: `meta` (read a
 * loaded module's exports), `run` (start a call), `settle` (an awaited operation's answer),
 * `fire` (a timer) and `end` (forget a call).
 *
 * It talks to the engine through one host function, called with primitives (and the data of a
 * send, which the engine serialises inside QuickJS): objects the script hands over cross as
 * JSON text made here or as QuickJS's binary serialisation, so no getter, proxy or prototype of
 * the script's ever runs in the engine, and nothing of the engine's is reachable from the sandbox.
 * Every string is bounded here before it crosses (a message, data, the arguments of an
 * operation, an error's description), so no huge string is copied out. Host calls:
 * `host(kind, call, a, b)`, where kind is a number (a string would be one more copy a call):
 *   1 send (a: text, b: data JSON or "")              2 broadcast (a: text, b: exclude JSON)
 *   3 operation (a: name, b: arguments JSON, or none)  4 set a timer (a: delay ms, b: 1 repeats)
 *   5 clear a timer (a: its id)                        6 random bytes (a: how many)
 *   7 send (a: text, b: the data value itself, read by the engine with QuickJS's own binary
 *     serialisation, which refuses accessors and proxies without running them; "j" answers
 *     that it could not, and the data goes as JSON made here)
 *   8 send (a: text, b: how many characters the rest holds, then the keys and values of flat
 *     data, strings in turn: see flat; "j" as 7)
 * An operation's answer is a one-element array holding its value (built by the engine from
 * QuickJS values, fresh for this call), or tagged text: "v<json>" a value as JSON, "p<n>"
 * pending (settled later by the engine calling `settle(n, <answer>)`), "e<message>" a refusal
 * for the actor, "x<message>" a failure.
 *
 * A call ends without a crossing of its own: `run` returns the command's promise (or how it
 * ended, when it returned or threw at once), and the engine reads the promise's state after
 * each slice; `outcome` describes a rejection (or a value returned) only when there is one.
 */

/** Longest message of one u.send or u.here.broadcast (the engine checks it again). */
export const MAX_MESSAGE = 32_000;
/** Bytes of structured data beside a message, as JSON (the engine checks it again). */
export const MAX_DATA = 16_384;

/** Longest arguments of one SDK operation, as JSON (the engine checks it again). */
export const MAX_ARGS = 65_536;

/** The file name the prelude runs under (its frames are left out of error locations). */
export const PRELUDE_FILE = "ursamu:sdk";

/**
 * The prelude's source without its comments, indentation and blank lines (see `compact`): a
 * function expression of the host function.
 */
export const PRELUDE = compact(`(function (host) {
"use strict";
const G = globalThis;
const O = Object, freeze = O.freeze, keys = O.keys, values = O.values;
const defineProperty = O.defineProperty;
const getProto = O.getPrototypeOf, getOwnDesc = O.getOwnPropertyDescriptor;
const ownKeys = Reflect.ownKeys, apply = Reflect.apply;
const parse = JSON.parse, stringify = JSON.stringify;
const P = Promise, resolve = (v) => P.resolve(v), reject = (e) => P.reject(e);
const S = String, isArray = Array.isArray, MapC = Map, WeakSetC = WeakSet;
const TypeErrorC = TypeError, RangeErrorC = RangeError, ErrorC = Error;
const U8 = Uint8Array, abSlice = ArrayBuffer.prototype.slice;
const MAX_MESSAGE = ${MAX_MESSAGE}, MAX_DATA = ${MAX_DATA}, MAX_ARGS = ${MAX_ARGS};

// ---- Errors the engine answers: a refusal reaches the actor as its message. ----------------
const refusals = new WeakSetC();
// What an operation that answers nothing returns: one settled promise for the sandbox's life, so
// that a command returning it ends at once (see run), without a promise made and read each call.
const DONE = freeze(resolve(undefined));
function refused(message) {
  const e = new ErrorC(message);
  refusals.add(e);
  return e;
}
function answer(r) {
  if (r === undefined) return DONE;
  if (typeof r === "object") return resolve(r[0]);
  const tag = r[0], rest = r.slice(1);
  if (tag === "v") return resolve(parse(rest));
  if (tag === "p") {
    const token = +rest;
    return new P((ok, fail) => { pending.set(token, { ok, fail }); });
  }
  if (tag === "e") return reject(refused(rest));
  return reject(new ErrorC(rest));
}

/** One line describing a thrown value (its name, message and where), at most 500 characters. */
function describe(e) {
  let text;
  try {
    if (e !== null && typeof e === "object") {
      // QuickJS says "'x' is not defined"; script authors know it as "x is not defined".
      const message = S(e.message ?? "").replace(/^'([^']*)' is not defined$/, "$1 is not defined");
      text = S(e.name ?? "Error") + ": " + message;
      // The first frame in the script itself (not in this prelude), as "file:line".
      const stack = S(e.stack ?? "");
      const frames = /at (?:[^\\n(]*\\()?([^()\\s]+?):(\\d+)(?::\\d+)?/g;
      for (let m = frames.exec(stack); m; m = frames.exec(stack)) {
        if (m[1] !== "${PRELUDE_FILE}") { text += " (" + m[1] + ":" + m[2] + ")"; break; }
      }
    } else {
      text = "threw " + (typeof e === "string" ? e : typeof e);
    }
  } catch (_) {
    text = "threw an unprintable value";
  }
  return S(text).replace(/\\s*[\\r\\n]+\\s*/g, " ").slice(0, 500);
}

/**
 * Throws when v is clearly larger than max as JSON (its strings and keys alone), before it
 * is turned into JSON: a huge value is refused at once instead of after a long stringify.
 */
function bounded(v, max, what) {
  // Index loops and a stack kept by hand: QuickJS interprets this, and for...of and push/pop
  // cost twice as much. Each count is at most what JSON writes for it, so nothing that fits in
  // max as JSON is refused (array indexes are not written, an element takes a character at least).
  let left = max, top = 1, n = 0;
  const todo = [v];
  while (top > 0) {
    const x = todo[--top];
    const t = typeof x;
    if (t === "string") left -= x.length + 2;
    else if (t === "object" && x !== null) {
      if (isArray(x)) {
        // Holes count too (JSON writes each as null): a length costs nothing to make.
        const m = x.length;
        left -= m + 1;
        if (left < 0) throw new RangeErrorC(what);
        for (let i = 0; i < m; i++) {
          const y = x[i];
          if (typeof y === "string" || (typeof y === "object" && y !== null)) todo[top++] = y;
        }
      } else {
        const ks = keys(x), m = ks.length;
        left -= 2;
        for (let i = 0; i < m; i++) {
          const k = ks[i], y = x[k];
          // JSON leaves out what it cannot write, key and all.
          if (y === undefined || typeof y === "function" || typeof y === "symbol") continue;
          left -= k.length + 3;
          todo[top++] = y;
        }
      }
      if (++n >= 10000) break;
    }
    if (left < 0) throw new RangeErrorC(what);
  }
}

/**
 * True when v is small enough for the engine to have QuickJS write it: its arrays' lengths, its
 * objects' values and its strings at most MAX_DATA in all. QuickJS's writer loops over an array's
 * length, holes included, without an interrupt check (\`a.length = 1e9\` costs nothing to make and
 * seconds to write), and what it writes takes the sandbox's memory, which never shrinks. Only
 * containers are kept to visit (at most 10,000); the engine's reader checks the rest. Keys are not
 * counted: at most MAX_DATA of them, each already in the sandbox's memory, so what the writer
 * copies of them is bounded by the memory cap, and the engine refuses a result longer than
 * 4 * MAX_DATA bytes before reading it (then the JSON way refuses it by its own bound).
 */
function fits(v) {
  let left = MAX_DATA, top = 0, seen = 0, x = v;
  const todo = [];
  for (;;) {
    // QuickJS's writer takes own enumerable properties only: a toJSON it would not see (not
    // enumerable, or on a class's prototype) is JSON's to call.
    if (x.toJSON !== undefined) return false;
    // An object's values in one call: a for...in and a read per key were twice the interpreted
    // work, met cold each send (Object.values runs getters, as those reads did).
    const vs = isArray(x) ? x : values(x), n = vs.length;
    left -= n;
    if (left < 0) return false;
    for (let i = 0; i < n; i++) {
      const y = vs[i];
      if (typeof y === "string") left -= y.length;
      else if (typeof y === "object" && y !== null) todo[top++] = y;
    }
    if (left < 0) return false;
    if (top === 0) return true;
    if (++seen > 10000) return false;
    x = todo[--top];
  }
}

/**
 * A send of data that is a plain object of at most FLAT_KEYS strings (\`{ type, text }\`, the
 * common case): its keys and values cross as the host function's arguments, strings the engine
 * copies like the message, with no walk of the data and no serialisation on either side. What
 * JSON would write differently (toJSON, another prototype, a non-string) is NOT_FLAT, and so is
 * data whose strings, each character escaped, could pass MAX_DATA as JSON: those go as before,
 * with the same errors. "j" from the engine: a string it could not take as text (a lone
 * surrogate); the data goes as JSON.
 */
const NOT_FLAT = freeze({}), FLAT_KEYS = 4, OBJECT_PROTO = O.prototype;
function flat(m, d) {
  const ks = keys(d), n = ks.length;
  if (n === 0 || n > FLAT_KEYS) return NOT_FLAT;
  // The values first: data that is not flat (a list, a number) is most often told by them.
  // Each pair is its own variables and the host is called with them directly: an array of the
  // arguments and Reflect.apply were more of QuickJS's code met cold each call.
  const k0 = ks[0], v0 = d[k0];
  if (typeof v0 !== "string") return NOT_FLAT;
  let chars = k0.length + v0.length, k1, v1, k2, v2, k3, v3;
  if (n > 1) {
    k1 = ks[1];
    v1 = d[k1];
    if (typeof v1 !== "string") return NOT_FLAT;
    chars += k1.length + v1.length;
    if (n > 2) {
      k2 = ks[2];
      v2 = d[k2];
      if (typeof v2 !== "string") return NOT_FLAT;
      chars += k2.length + v2.length;
      if (n > 3) {
        k3 = ks[3];
        v3 = d[k3];
        if (typeof v3 !== "string") return NOT_FLAT;
        chars += k3.length + v3.length;
      }
    }
  }
  if (getProto(d) !== OBJECT_PROTO || d.toJSON !== undefined) return NOT_FLAT;
  if (6 * chars + 6 * n + 2 > MAX_DATA) return NOT_FLAT;
  // Characters in all, so the engine can tell that every string crossed whole.
  if (n === 2) return host(8, call, m, chars, k0, v0, k1, v1);
  if (n === 1) return host(8, call, m, chars, k0, v0);
  if (n === 3) return host(8, call, m, chars, k0, v0, k1, v1, k2, v2);
  return host(8, call, m, chars, k0, v0, k1, v1, k2, v2, k3, v3);
}

// ---- The running call -----------------------------------------------------------------------
let call = 0;
const pending = new MapC();
const timers = new MapC();
let main = null;

function text(v, what) {
  const s = typeof v === "string" ? v : S(v);
  if (s.length > MAX_MESSAGE) {
    throw new RangeErrorC(what + ": the message is " + s.length + " characters; the limit is " + MAX_MESSAGE + ".");
  }
  return s;
}
function json(v) {
  bounded(v, MAX_DATA, "data must be JSON of at most " + MAX_DATA + " bytes.");
  const s = stringify(v);
  if (s === undefined || s.length > MAX_DATA) {
    throw new RangeErrorC("data must be JSON of at most " + MAX_DATA + " bytes.");
  }
  return s;
}
function deepFreeze(v) {
  if (v !== null && typeof v === "object" && !O.isFrozen(v)) {
    freeze(v);
    for (const k of O.keys(v)) deepFreeze(v[k]);
  }
  return v;
}

// The SDK is one frozen object for the sandbox's life: it always acts for the call that runs
// now (its actor, its line), and between calls every operation is refused.
let cmd = null, me, here;
// The running call's line as the engine gave it, made into u.cmd when the script first reads it:
// freezing an object is QuickJS's generic path (each property redefined, the shape copied), met
// cold each call, and many commands never read their line (the shipped +who).
let lineRaw = null, lineName = null, lineSwitches = null, lineArgs = null, lineLhs = null, lineRhs = null;
function command() {
  const sw = lineSwitches === null ? NO_ARGS : freeze(parse(lineSwitches));
  return freeze({
    raw: lineRaw === null ? lineName + " " + lineArgs : lineRaw, name: lineName, switches: sw, args: lineArgs,
    lhs: lineLhs === null ? lineArgs : lineLhs, rhs: lineRhs,
  });
}
function live() {
  if (!call) throw refused("This script call has already ended.");
}
function op(name, args) {
  if (!call) return reject(refused("This script call has already ended."));
  try {
    // No arguments: none cross (the engine reads none, no "[]" to copy out and parse).
    if (args === NO_ARGS) return answer(host(3, call, name));
    const tooLong = "the arguments of u." + name + " are too long";
    bounded(args, MAX_ARGS, tooLong);
    const a = stringify(args);
    if (a.length > MAX_ARGS) throw new RangeErrorC(tooLong);
    return answer(host(3, call, name, a));
  } catch (e) {
    return reject(e);
  }
}
function now(name) {
  live();
  const r = host(3, call, name);
  if (typeof r === "object") return r[0];
  if (r[0] !== "v") throw new ErrorC(r.slice(1));
  return parse(r.slice(1));
}
function broadcast(msg, opts) {
  try {
    live();
    const ex = opts && isArray(opts.exclude) ? stringify(opts.exclude.slice(0, 100).map(S)) : "[]";
    return answer(host(2, call, text(msg, "u.here.broadcast"), ex));
  } catch (e) {
    return reject(e);
  }
}
const NO_ARGS = freeze([]);

// QuickJS keeps an object's shape (its keys, in order) only while some object has it, and gives
// a new object its keys one at a time by changing the object's own shape in place: each of the
// objects the engine hands over (u.online()'s forty players, a view of an object) and each
// u.cmd built its shapes again, in fresh memory, every call. An object for every prefix of those
// keys, held here for the sandbox's life (meta refers to it), keeps the shapes: the next object
// given the same keys in the same order takes each shape as it is. Never frozen (freezing gives
// an object a shape of its own) and never reachable from a script.
const shapes = [];
for (const ks of [
  ["id", "dbref", "name", "displayName", "flags", "onFor", "idle"],
  ["id", "dbref", "name", "displayName", "flags", "location", "owner", "description", "state", "online", "onFor", "idle"],
  ["raw", "name", "switches", "args", "lhs", "rhs"],
]) {
  for (let n = 1; n <= ks.length; n++) {
    const o = {};
    for (let i = 0; i < n; i++) o[ks[i]] = 0;
    shapes.push(o);
  }
}
const u = freeze({
  get me() {
    if (me === undefined) me = deepFreeze(now("me"));
    return me;
  },
  get here() {
    if (here === undefined) {
      const view = now("here");
      if (view) view.broadcast = broadcast;
      here = deepFreeze(view);
    }
    return here;
  },
  get cmd() {
    if (cmd === null && call) cmd = command();
    return cmd;
  },
  args: NO_ARGS,
  send(msg, data) {
    try {
      live();
      const m = text(msg, "u.send");
      if (data === undefined || data === null) return answer(host(1, call, m, ""));
      // The engine reads the value itself in QuickJS's binary format; "j": it could not (a
      // getter, a Date, a shared object, ...), or it is too big to try: it goes as JSON made here.
      let r = "j";
      if (typeof data === "object") {
        r = flat(m, data);
        if (r === NOT_FLAT) r = fits(data) ? host(7, call, m, data) : "j";
      }
      return answer(r === "j" ? host(1, call, m, json(data)) : r);
    } catch (e) {
      return reject(e);
    }
  },
  target: (ref) => op("target", [S(ref)]),
  player: (ref) => op("player", [S(ref)]),
  online: () => op("online", NO_ARGS),
  who: () => op("who", NO_ARGS),
  contents: (ref) => op("contents", [S(ref)]),
  passes: (lock) => op("passes", [S(lock)]),
  describe: (ref, desc) => {
    try {
      return op("describe", [S(ref), text(desc, "u.describe")]);
    } catch (e) {
      return reject(e);
    }
  },
  attr: freeze({
    get: (ref, name) => op("attr.get", [S(ref), S(name)]),
    set: (ref, name, value) => op("attr.set", [S(ref), S(name), value === undefined ? null : value]),
    flag: (ref, name, flag, on) => op("attr.flag", [S(ref), S(name), S(flag), on !== false]),
    list: (ref, pattern) => op("attr.list", [S(ref), pattern === undefined ? "*" : S(pattern)]),
  }),
});

/** Forgets the call that ran: its answers still to come and its timers. */
function forget() {
  call = 0;
  cmd = null;
  lineRaw = lineName = lineSwitches = lineArgs = lineLhs = lineRhs = null;
  me = undefined;
  here = undefined;
  if (pending.size) pending.clear();
  if (timers.size) timers.clear();
}

/**
 * How a call ended, as tagged text: "" returned nothing, "g<type>" returned something else,
 * "u<message>" an SDK refusal it did not catch, "e<description>" any other throw.
 */
function outcome(ok, value) {
  if (ok) return value === undefined ? "" : "g" + (value === null ? "null" : typeof value);
  if (refusals.has(value)) return "u" + S(value.message);
  return "e" + describe(value);
}

// ---- Globals scripts may use ------------------------------------------------------------------
function timer(fn, ms, args, repeat) {
  if (typeof fn !== "function") throw new TypeErrorC("a timer needs a function");
  if (!call) throw new TypeErrorC("timers can be set only while a command runs");
  const id = host(4, call, +ms || 0, repeat ? 1 : 0);
  if (typeof id !== "number") throw new ErrorC(S(id).slice(1));
  timers.set(id, { fn, args, repeat });
  return id;
}
function clear(id) {
  if (call && timers.delete(id)) host(5, call, id);
}
const silent = () => {};
const globals = {
  setTimeout: (fn, ms, ...args) => timer(fn, ms, args, false),
  setInterval: (fn, ms, ...args) => timer(fn, ms, args, true),
  clearTimeout: clear,
  clearInterval: clear,
  queueMicrotask: (fn) => { resolve().then(fn); },
  console: { log: silent, info: silent, warn: silent, error: silent, debug: silent, trace: silent, dir: silent, table: silent },
  crypto: {
    getRandomValues(view) {
      if (!ArrayBuffer.isView(view) || view instanceof Float32Array || view instanceof Float64Array || view instanceof DataView) {
        throw new TypeErrorC("getRandomValues takes an integer typed array");
      }
      if (view.byteLength > 65536) throw new RangeErrorC("getRandomValues takes at most 65536 bytes");
      const bytes = host(6, call, view.byteLength, 0);
      const out = new U8(view.buffer, view.byteOffset, view.byteLength);
      for (let i = 0; i < out.length; i++) out[i] = bytes.charCodeAt(i) - 1;
      return view;
    },
    randomUUID() {
      const r = host(6, call, 16, 0), b = new U8(16);
      for (let i = 0; i < 16; i++) b[i] = r.charCodeAt(i) - 1;
      b[6] = (b[6] & 0x0f) | 0x40;
      b[8] = (b[8] & 0x3f) | 0x80;
      let h = "";
      for (let i = 0; i < 16; i++) h += (b[i] < 16 ? "0" : "") + b[i].toString(16);
      return h.slice(0, 8) + "-" + h.slice(8, 12) + "-" + h.slice(12, 16) + "-" + h.slice(16, 20) + "-" + h.slice(20);
    },
  },
};

// ---- Lock-down --------------------------------------------------------------------------------
// No code from text: eval goes, and every function constructor throws (their prototypes stay,
// so instanceof keeps working).
delete G.eval;
const noCode = function () { throw new TypeErrorC("scripts cannot make functions from text"); };
for (const proto of [
  getProto(function () {}),
  getProto(async function () {}),
  getProto(function* () {}),
  getProto(async function* () {}),
]) {
  const tamed = function () { return noCode(); };
  defineProperty(tamed, "prototype", { value: proto });
  defineProperty(proto, "constructor", { value: tamed, writable: false, configurable: false });
  if (proto === Function.prototype) defineProperty(G, "Function", { value: tamed, writable: false, configurable: false });
}
delete G.FinalizationRegistry;
for (const [k, v] of O.entries(globals)) defineProperty(G, k, { value: v, writable: false, configurable: false });

// Assigning a method or a name to an object whose prototype's property is frozen would throw
// ("the override mistake"); these become accessors that define the property on the object.
function tameOverride(proto, key) {
  const d = getOwnDesc(proto, key);
  if (!d || !("value" in d)) return;
  const value = d.value;
  defineProperty(proto, key, {
    get() { return value; },
    set(v) {
      if (this === proto) throw new TypeErrorC("Cannot assign to read only property '" + S(key) + "'");
      defineProperty(this, key, { value: v, writable: true, enumerable: true, configurable: true });
    },
    enumerable: d.enumerable,
    configurable: false,
  });
}
for (const k of ["constructor", "toString", "valueOf", "toLocaleString", "hasOwnProperty", "isPrototypeOf", "propertyIsEnumerable"]) {
  tameOverride(O.prototype, k);
}
for (const E of [ErrorC, TypeErrorC, RangeErrorC, SyntaxError, ReferenceError, EvalError, URIError, G.AggregateError, G.InternalError]) {
  if (typeof E !== "function") continue;
  for (const k of ["name", "message", "constructor", "toString"]) tameOverride(E.prototype, k);
}
tameOverride(Function.prototype, "toString");
tameOverride(Array.prototype, "toString");

// Every intrinsic reachable from the global object and from syntax (iterators, generators,
// async functions, typed arrays) is frozen, with its prototype and accessors. Being frozen is
// the walk's own mark of an object done (a WeakSet of the thousand-odd intrinsics held 65 KiB of
// the instance's memory, for good: WebAssembly memory never shrinks). Nothing reachable here
// was frozen before the walk but %ThrowTypeError% (frozen by the language), whose prototype,
// Function.prototype, the walk reaches by other ways.
// A method (a function whose own properties are only its length and name: no statics, no
// prototype) is made non-extensible instead: nothing can be added to it and its prototype
// cannot change, and its slot on its frozen holder cannot be replaced. Freezing it would
// change the flags of its length and name, and QuickJS gives every object whose flags change a
// shape of its own: some 500 methods, 40 KiB of every sandbox (docs/scripts.md, "Decisions").
// Its length and name stay configurable, as the language makes them; the prelude reads neither.
const isFrozen = O.isFrozen, isExtensible = O.isExtensible, preventExtensions = O.preventExtensions;
const hasOwn = O.hasOwn;
function harden(v) {
  if (v === null || (typeof v !== "object" && typeof v !== "function") || isFrozen(v)) return;
  if (typeof v !== "function") freeze(v);
  else if (ownKeys(v).length !== 2 || !hasOwn(v, "length") || !hasOwn(v, "name")) freeze(v);
  else if (isExtensible(v)) preventExtensions(v);
  else return;
  for (const k of ownKeys(v)) {
    const d = getOwnDesc(v, k);
    if (!d) continue;
    if ("value" in d) harden(d.value);
    else { harden(d.get); harden(d.set); }
  }
  harden(getProto(v));
}
const hidden = [
  G,
  getProto([][Symbol.iterator]()),
  getProto(getProto([][Symbol.iterator]())),
  getProto(new MapC().entries()),
  getProto(new Set().values()),
  getProto(""[Symbol.iterator]()),
  getProto("a".matchAll(/a/g)),
  getProto(function* () {}),
  getProto(function* () {}).prototype,
  getProto(async function* () {}),
  getProto(async function* () {}).prototype,
  getProto(getProto(async function* () {}).prototype),
  getProto(async function () {}),
  getProto(U8),
  getProto(U8.prototype),
];
for (const v of hidden) harden(v);
for (const v of [describe, answer, outcome]) harden(v);

return freeze({
  /** Reads a loaded module's exports; keeps its default export as the command. */
  meta(ns) {
    if (typeof ns.default !== "function" || !shapes.length) throw new TypeErrorC("the script must default-export a function (u) => void");
    main = ns.default;
    const pick = (k) => {
      const v = ns[k];
      return v === undefined ? undefined : parse(stringify(v) ?? "null");
    };
    return stringify({
      help: pick("help"), aliases: pick("aliases"), lock: pick("lock"), switches: pick("switches"),
      category: pick("category"), guests: pick("guests"),
    });
  },
  /**
   * Starts call \`id\` of the command line whose parts the engine made: the switches as JSON,
   * \`rhs\` a string or null, and null for a part made here from the others (no switches,
   * \`raw\` that is \`name args\`, \`lhs\` that is \`args\`). Returns undefined when it has
   * ended cleanly (it returned nothing, or an operation's settled answer), the command's promise,
   * whose state the engine reads, or how it ended otherwise (see outcome).
   */
  run(id, raw, name, switches, args, lhs, rhs) {
    forget();
    let result;
    try {
      call = id;
      lineRaw = raw;
      lineName = name;
      lineSwitches = switches;
      lineArgs = args;
      lineLhs = lhs;
      lineRhs = rhs;
      result = main(u);
    } catch (e) {
      return outcome(false, e);
    }
    // Nothing, or the settled answer of an operation (\`(u) => u.send(...)\`): it has ended
    // (undefined, which the engine tells without asking).
    if (result === undefined || result === DONE) return undefined;
    if (result !== null && typeof result === "object" && typeof result.then === "function") {
      try {
        return resolve(result);
      } catch (e) {
        return outcome(false, e);
      }
    }
    return outcome(true, result);
  },
  outcome,
  /** The answer of an awaited operation. */
  settle(token, tagged) {
    const p = pending.get(token);
    if (!p) return;
    pending.delete(token);
    answer(tagged).then(p.ok, p.fail);
  },
  /** A timer of the running call came due. */
  fire(id) {
    const t = timers.get(id);
    if (!t) return;
    if (!t.repeat) timers.delete(id);
    // A callback that throws fails its call, as a throw in the command itself would.
    try { apply(t.fn, undefined, t.args); } catch (e) { return outcome(false, e); }
    return "";
  },
  describe,
  /** Forgets the running call (stopped by the engine). */
  end() {
    forget();
  },
});
})`);

/**
 * `src` without its comment lines, comment blocks that begin a line, indentation and blank
 * lines. QuickJS keeps each function's source text for \`toString\` in the instance's memory,
 * which never shrinks: the prelude's comments took about 8 KiB of every sandbox. (Where the build
 * lets the sandbox compile the prelude without source, none is kept: this is then the text copied
 * into each instance and parsed there, half of it with the comments.) Only for the
 * prelude, whose code has no template literal and no string or regular expression spanning
 * lines (where a line could start with what looks like a comment).
 */
function compact(src: string): string {
  const out: string[] = [];
  let block = false;
  for (const line of src.split("\n")) {
    const t = line.trim();
    if (block) block = !t.endsWith("*/");
    else if (t.startsWith("/*") && (t.endsWith("*/") || !t.includes("*/"))) {
      block = !t.endsWith("*/");
    } else if (t !== "" && !t.startsWith("//")) out.push(t);
  }
  return out.join("\n");
}
