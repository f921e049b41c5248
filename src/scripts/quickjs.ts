/**
 * The WebAssembly JavaScript engine scripts run in: QuickJS from the quickjs-emscripten project
 * (its release-sync variant: the QuickJS C engine compiled to WebAssembly, no asyncify), driven
 * through the variant's own low-level bindings. The WebAssembly module is compiled once per
 * engine and each sandbox instantiates it with a `WebAssembly.Memory` of its own whose
 * `maximum` is the sandbox's memory cap: QuickJS's own memory limit does not hold in the
 * prebuilt build, a capped memory does (allocation past it fails inside QuickJS as "out of
 * memory", and the host grows by at most the cap).
 *
 * quickjs-emscripten-core's object API (handles with lifetimes and scopes) costs more than the
 * rest of a script call together (profiled: its scopes, generators and typed arrays were a third
 * of a call's time, and most of its garbage), so the sandbox uses the variant's functions
 * directly: values are QuickJS `JSValue` pointers, freed here when done.
 */
import type {
  EmscriptenModuleCallbacks,
  JSContextPointer,
  JSRuntimePointer,
  JSValueConstPointer,
  JSValuePointer,
  QuickJSEmscriptenModule,
  QuickJSFFI,
  QuickJSSyncVariant,
} from "quickjs-emscripten-core";
import * as releaseSync from "@jitl/quickjs-wasmfile-release-sync";
import { BjsonWriter } from "./bjson.ts";

/** WebAssembly pages are 64 KiB. */
const PAGE = 65536;
/** The release-sync build declares an initial memory of 16 MiB (256 pages); it may not be less. */
export const MIN_MEMORY_MB = 16;
/** QuickJS's eval flags (quickjs.h): global code, module code. */
const EVAL_GLOBAL = 0, EVAL_MODULE = 1;
/** QuickJS promise states (and what it answers for a value that is not a promise). */
export const NOT_A_PROMISE = -1, PROMISE_PENDING = 0, PROMISE_FULFILLED = 1;

/** Bytes of the per-instance buffer strings are copied in through. */
const SCRATCH = 4096;
/** Arguments of a call into QuickJS that fit the per-instance buffer for them. */
const MAX_ARGV = 8;
/**
 * Characters of a string copied in or out by hand when they are all ASCII: TextEncoder and
 * TextDecoder are calls into Deno's runtime, whose cost (several µs when a call comes cold)
 * was a tenth of a short script call's; a loop over a few dozen bytes costs next to nothing.
 */
const SHORT_TEXT = 256;

/** A QuickJS value: a pointer to a `JSValue` in the instance's memory (0: none). */
export type Value = JSValuePointer;

/** What the engine answers for a sandbox's host function and its interrupt check. */
export interface InstanceHost {
  /** The host function was called with `args` (borrowed: valid during the call only). */
  call(args: JSValueConstPointer[]): Value | 0;
  /** True to stop the code running now. */
  interrupt(): boolean;
}

/** Where the variant's WebAssembly file is (inside its npm package, wherever npm put it). */
export function wasmFile(): URL {
  return new URL(import.meta.resolve("@jitl/quickjs-wasmfile-release-sync/wasm"));
}

/** True for a loaded sync variant (the shape the variant module exports). */
function isSyncVariant(v: unknown): v is QuickJSSyncVariant {
  return typeof v === "object" && v !== null && Reflect.get(v, "type") === "sync" &&
    typeof Reflect.get(v, "importFFI") === "function" &&
    typeof Reflect.get(v, "importModuleLoader") === "function";
}

/**
 * The release-sync variant from its module: its default export (Deno types the package through
 * its CommonJS declarations, where the default is the module itself, so it is checked here).
 */
function syncVariant(): QuickJSSyncVariant {
  for (const v of [Reflect.get(releaseSync, "default"), releaseSync]) {
    if (isSyncVariant(v)) return v;
  }
  throw new Error("scripts: the QuickJS release-sync variant did not load");
}

type Loader = (opts: Record<string, unknown>) => Promise<QuickJSEmscriptenModule>;
type FfiClass = new (module: QuickJSEmscriptenModule) => QuickJSFFI;

/** One compiled QuickJS, from which every sandbox's instance is made. */
export class QuickJs {
  readonly #module: WebAssembly.Module;
  readonly #loader: Loader;
  readonly #Ffi: FfiClass;
  /** The engine's writer of QuickJS's binary format, once checked against this build. */
  #writer: BjsonWriter | null = null;
  /** Where a runtime keeps its strip flags, from its start (see stripFlagsAt); null: unknown. */
  #strip: number | null = null;

  private constructor(module: WebAssembly.Module, loader: Loader, Ffi: FfiClass) {
    this.#module = module;
    this.#loader = loader;
    this.#Ffi = Ffi;
  }

  /** True when values cross in QuickJS's binary format (the build writes what the engine does). */
  get binary(): boolean {
    return this.#writer !== null;
  }

  /** Reads and compiles the WebAssembly file (a few milliseconds, once). */
  static async load(file: URL = wasmFile()): Promise<QuickJs> {
    const variant = syncVariant();
    const [module, imported, Ffi] = await Promise.all([
      Deno.readFile(file).then((bytes) => WebAssembly.compile(bytes)),
      variant.importModuleLoader(),
      variant.importFFI(),
    ]);
    const loader = typeof imported === "function" ? imported : imported.default;
    const load = typeof loader === "function" ? loader : loader.default;
    const qjs = new QuickJs(module, (opts) => load(opts), Ffi);
    await qjs.#checkFormat();
    qjs.#strip = stripFlagsAt(await qjs.instance(MIN_MEMORY_MB));
    return qjs;
  }

  /** True when an instance can compile code without its source and debug information. */
  get strips(): boolean {
    return this.#strip !== null;
  }

  /**
   * Turns the binary crossing on when this build's `JS_WriteObject` writes, byte for byte, what
   * the engine's writer does for a sample of every kind of value it writes, and reads it back.
   */
  async #checkFormat(): Promise<void> {
    const sample = {
      s: "text",
      l: "é\u00ff",
      w: "€\ud800",
      n: [0, -1, 2147483647, -2147483648, 2147483648, 1.5, -0.25, 1e300],
      b: [true, false, null],
      o: { 7: "index", s: "again", __proto__x: {}, e: [] },
    };
    const writer = new BjsonWriter();
    const mine = writer.write(sample)!;
    const q = await this.instance(MIN_MEMORY_MB);
    const theirs = q.eval(`JSON.parse(${JSON.stringify(JSON.stringify(sample))})`, "check", false);
    if (!theirs.value) return;
    const bytes = q.encode(theirs.value, 1 << 16).bytes;
    const back = q.decode(mine);
    const same = !!bytes && bytes.length === mine.length && bytes.every((b, i) => b === mine[i]) &&
      !!back.value && q.dump(back.value) === q.dump(theirs.value);
    if (same) this.#writer = writer;
  }

  /**
   * A fresh QuickJS instance with its own memory of at most `memoryMb` MiB (at least the
   * build's 16), one runtime and one context: nothing in it is shared with any other instance.
   */
  async instance(memoryMb: number): Promise<Instance> {
    const pages = Math.max(MIN_MEMORY_MB, Math.floor(memoryMb)) * (1024 * 1024 / PAGE);
    const memory = new WebAssembly.Memory({ initial: MIN_MEMORY_MB * 16, maximum: pages });
    const wasmModule = this.#module;
    const em = await this.#loader({
      wasmMemory: memory,
      instantiateWasm(
        imports: WebAssembly.Imports,
        done: (i: WebAssembly.Instance, m: WebAssembly.Module) => void,
      ) {
        const instance = new WebAssembly.Instance(wasmModule, imports);
        done(instance, wasmModule);
        return instance.exports;
      },
    });
    return new Instance(em, new this.#Ffi(em), memory, this.#writer, this.#strip);
  }
}

/**
 * QuickJS's JS_STRIP_SOURCE and JS_STRIP_DEBUG (quickjs.h): functions compiled while set keep
 * no source text, and no file name or line table either.
 */
const STRIP_SOURCE = 1, STRIP_DEBUG = 2;

/**
 * Where this build's JSRuntime keeps `strip_flags` (the field JS_SetStripInfo sets, which the
 * FFI does not export), as an offset from the runtime's start; null when the layout is not the
 * one known (QuickJS 2025-09-13 on 32-bit WebAssembly, JSValue NaN-boxed in 8 bytes). Learned
 * on a throwaway instance `q` (left with no stack limit) and checked three ways: the fields
 * around it hold what they must, and code compiled with the flag set keeps no source while code
 * compiled after it is cleared does.
 */
function stripFlagsAt(q: Instance): number | null {
  const rt = q.rt as unknown as number;
  const words = () => new Uint32Array(q.memory.buffer);
  // JS_SetMaxStackSize writes stack_size: the one word of the runtime holding both values.
  const holding = (v: number) => {
    q.setMaxStack(v);
    const w = words(), at: number[] = [];
    for (let i = 0; i < 128; i++) if (w[(rt >> 2) + i] === v) at.push(i * 4);
    return at;
  };
  const first = holding(0x1357911), second = holding(0x2468ace);
  q.setMaxStack(0);
  const both = first.filter((o) => second.includes(o));
  if (both.length !== 1) return null;
  // From stack_size: stack_top, stack_limit, then current_exception (a JSValue, 8-aligned),
  // 92 bytes before strip_flags; then the shape hash's bits, size and count, and the table.
  const exception = ((rt + both[0] + 12 + 7) & ~7) - rt;
  const at = exception + 92;
  const w = words(), shapes = (rt + exception + 96) >> 2;
  const bits = w[shapes];
  if (
    q.memory.buffer.byteLength <= rt + at + 16 || bits < 1 || bits > 24 ||
    w[shapes + 1] !== 1 << bits || w[shapes + 2] > w[shapes + 1] * 4 || w[shapes + 3] === 0
  ) return null;
  const bytes = new Uint8Array(q.memory.buffer);
  if (bytes[rt + at] !== 0) return null;
  const source = (strip: boolean) => {
    new Uint8Array(q.memory.buffer)[rt + at] = strip ? STRIP_SOURCE : 0;
    const r = q.eval("(function f(a) { return a + 1; }).toString()", "strip", false);
    new Uint8Array(q.memory.buffer)[rt + at] = 0;
    if (!r.value) {
      q.free(r.error!);
      return null;
    }
    const text = q.text(r.value);
    q.free(r.value);
    return text;
  };
  const stripped = source(true), kept = source(false);
  return kept === "function f(a) { return a + 1; }" && stripped !== null &&
      !stripped.includes("a + 1")
    ? at
    : null;
}

/**
 * Bytes between two arguments of a host function call (a JSValue's size in this build), when
 * the build's own function says the i-th is at `argv + i * size`; 0 when it does not (then it
 * is asked for each). It computes an address and reads nothing, so any numbers will do.
 */
function argStride(ffi: QuickJSFFI): number {
  const at = (argv: number, i: number) =>
    ffi.QTS_ArgvGetJSValueConstPointer(argv as never, i) as unknown as number;
  const size = at(0, 1);
  return size > 0 && at(4096, 0) === 4096 && at(4096, 5) === 4096 + 5 * size ? size : 0;
}

/**
 * The instance's memory, at its cap, could not hold what the engine had to copy in: the call
 * fails with it (the sandbox stops it for its memory and throws the instance away).
 */
export class OutOfMemory extends Error {
  constructor(size: number) {
    super(`out of memory: the sandbox's memory, at its cap, could not take ${size} more bytes`);
  }
}

/** One QuickJS instance: its memory, one runtime, one context, and the calls the sandbox makes. */
export class Instance {
  readonly memory: WebAssembly.Memory;
  readonly #em: QuickJSEmscriptenModule;
  readonly #ffi: QuickJSFFI;
  readonly rt: JSRuntimePointer;
  readonly ctx: JSContextPointer;
  readonly undefined: JSValueConstPointer;
  /** QuickJS's null (a constant of the build: never freed). */
  readonly null: JSValueConstPointer;
  /** A word of memory for pointers QuickJS hands back (the context of a failed job). */
  readonly #out: number;
  #host: InstanceHost | null = null;
  /** Writes values in QuickJS's binary format (null: this build's format is another). */
  readonly #writer: BjsonWriter | null;
  /** A buffer for short strings on their way in (no allocation each). */
  readonly #scratch: number;
  /** A buffer for the argument pointers of a call into QuickJS (copied by QuickJS on entry). */
  readonly #argv: number;
  /** A 32-bit view of the memory (made again when the memory grows). */
  #heap32: Uint32Array;
  /**
   * This build's JSValue layout (see #learnLayout): a room for a small integer argument the
   * engine writes (smallInt), and the tags of undefined and of an exception, read in place.
   */
  readonly #layout: { slot: number; undefined: number; exception: number } | null;
  /**
   * Where this build keeps a string's characters (see #learnStrings): a string value's tag, and
   * the offset of the characters from the start of its JSString; null: every string is asked of
   * QuickJS.
   */
  readonly #strings: { tag: number; chars: number } | null;
  /** The address of the runtime's strip flags (0: this build's is not known). */
  readonly #strip: number;

  constructor(
    em: QuickJSEmscriptenModule,
    ffi: QuickJSFFI,
    memory: WebAssembly.Memory,
    writer: BjsonWriter | null,
    strip: number | null = null,
  ) {
    this.#em = em;
    this.#writer = writer;
    this.#ffi = ffi;
    this.memory = memory;
    // The host function's arguments are an array of JSValues: their addresses are computed
    // here (one call into WebAssembly each, before, for what is an addition).
    const stride = argStride(ffi);
    const callbacks: EmscriptenModuleCallbacks = {
      callFunction: (_a, _ctx, _this, argc, argv) => {
        const args: JSValueConstPointer[] = [];
        const at = argv as unknown as number;
        for (let i = 0; i < argc; i++) {
          args.push(
            stride ? (at + i * stride) as never : ffi.QTS_ArgvGetJSValueConstPointer(argv, i),
          );
        }
        return (this.#host?.call(args) || 0) as JSValuePointer;
      },
      shouldInterrupt: () => (this.#host?.interrupt() ? 1 : 0),
      // No module loader: an import finds nothing.
      loadModuleSource: () => 0 as never,
      normalizeModule: () => 0 as never,
      freeHostRef: () => {},
    };
    em.callbacks = callbacks;
    this.rt = ffi.QTS_NewRuntime();
    this.#strip = strip === null ? 0 : (this.rt as unknown as number) + strip;
    this.ctx = ffi.QTS_NewContext(this.rt, 0 as never);
    this.undefined = ffi.QTS_GetUndefined();
    this.null = ffi.QTS_GetNull();
    this.#out = this.#alloc(4);
    this.#scratch = this.#alloc(SCRATCH);
    this.#argv = this.#alloc(4 * MAX_ARGV);
    this.#heap32 = new Uint32Array(em.HEAPU8.buffer);
    this.#layout = stride === 8 ? this.#learnLayout(this.#alloc(8)) : null;
    this.#strings = this.#layout ? this.#learnStrings() : null;
  }

  /**
   * How this build lays out a flat string (QuickJS's JSString: a reference count, then a word of
   * its length in the low 31 bits and whether its characters are 16-bit in the top one, then its
   * characters, one byte each (Latin-1) or two), learned from strings made by the engine and by
   * QuickJS and checked by reading them back; null for any other layout. Reading a string where
   * it lies saves the two calls into WebAssembly (QuickJS making a C string of it, and freeing
   * it) that each string of a host call cost, met cold at each paced call.
   */
  #learnStrings(): { tag: number; chars: number } | null {
    const samples = ["layout of QuickJS strings, \u00e9!", "wide \u20ac\u0101 text"];
    const made = samples.map((s) => this.string(s));
    const joined = this.#evalRaw(`"side".repeat(3)`);
    try {
      const words = this.#words();
      const tag = words[((made[0] as unknown as number) >> 2) + 1];
      if (tag === 0 || tag === this.#layout!.undefined || tag === this.#layout!.exception) {
        return null;
      }
      for (let chars = 8; chars <= 64; chars += 4) {
        const learned = { tag, chars };
        const read = (v: unknown) => this.#flatString(v as number, learned);
        if (
          samples.every((s, i) => read(made[i]) === s) && read(joined) === "sidesideside" &&
          this.#flatString(this.null as unknown as number, learned) === null
        ) return learned;
      }
      return null;
    } finally {
      for (const v of made) this.free(v);
      this.#ffi.QTS_FreeValuePointer(this.ctx, joined);
    }
  }

  /**
   * The text of a string value read where QuickJS keeps it, by `layout` (#strings); null when
   * it is not a flat string (another kind of value, a rope of a later QuickJS), when it holds a
   * NUL (the C string QuickJS makes ends there) or a lone surrogate (which its C string writes as
   * bytes decoders read differently): those are asked of QuickJS as before, with the same answer.
   */
  #flatString(v: number, layout: { tag: number; chars: number }): string | null {
    const words = this.#words();
    if (words[(v >> 2) + 1] !== layout.tag) return null;
    const p = words[v >> 2];
    if (p === 0 || p % 4 !== 0) return null;
    const head = words[(p >> 2) + 1];
    const len = head & 0x7fffffff, wide = head >>> 31 === 1;
    const from = p + layout.chars, buffer = words.buffer;
    if (from + (wide ? 2 * len : len) > buffer.byteLength) return null;
    const units = wide
      ? new Uint16Array(buffer, from, len)
      : this.#em.HEAPU8.subarray(from, from + len);
    if (units.includes(0)) return null;
    let s = "";
    for (let i = 0; i < len; i += 8192) {
      s += String.fromCharCode.apply(null, units.subarray(i, i + 8192) as never);
    }
    return wide && !s.isWellFormed() ? null : s;
  }

  /**
   * How this build lays out a JSValue, when it is QuickJS's NaN-boxing on a 32-bit target: two
   * 32-bit words, the payload and then the tag (an integer's 0). Learned from values QuickJS
   * made (an integer, undefined, an exception) and from one the engine wrote and QuickJS read;
   * null for any other layout (then every question goes to QuickJS).
   */
  #learnLayout(slot: number): { slot: number; undefined: number; exception: number } | null {
    const ffi = this.#ffi, words = this.#words();
    const tag = (p: unknown) => words[((p as number) >> 2) + 1];
    const payload = (p: unknown) => words[(p as number) >> 2];
    const int = this.#evalRaw("123456");
    const isInt = payload(int) === 123456 && tag(int) === 0;
    this.#ffi.QTS_FreeValuePointer(this.ctx, int);
    const thrown = this.#evalRaw("throw 1");
    const exception = tag(thrown);
    const error = ffi.QTS_ResolveException(this.ctx, thrown);
    ffi.QTS_FreeValuePointer(this.ctx, thrown);
    if (error) ffi.QTS_FreeValuePointer(this.ctx, error);
    const undef = tag(this.undefined);
    words[slot >> 2] = 654321;
    words[(slot >> 2) + 1] = 0;
    const read = ffi.QTS_GetFloat64(this.ctx, slot as never) === 654321;
    if (
      isInt && read && !!error && payload(this.undefined) === 0 && undef !== 0 &&
      exception !== 0 && exception !== undef
    ) return { slot, undefined: undef, exception };
    this.#em._free(slot);
    return null;
  }

  /**
   * A small integer (0 to 2^31 - 1) as an argument of the next call into QuickJS, written in the
   * instance's memory with no value made (one room: QuickJS copies arguments on entry, so it is
   * free again once the call has begun); null when it cannot be (then make it with number()).
   */
  smallInt(n: number): JSValueConstPointer | null {
    const slot = this.#layout?.slot;
    if (!slot || !(n >= 0 && n <= 0x7fffffff && Number.isInteger(n))) return null;
    const words = this.#words();
    words[slot >> 2] = n;
    words[(slot >> 2) + 1] = 0;
    return slot as never;
  }

  /** A number argument of a host call read as an integer (read in place when it is one). */
  int(v: Value | JSValueConstPointer): number {
    if (this.#layout) {
      const words = this.#words(), at = v as unknown as number;
      if (words[(at >> 2) + 1] === 0) return words[at >> 2] | 0;
    }
    return this.#ffi.QTS_GetFloat64(this.ctx, v);
  }

  /**
   * `size` bytes of the instance's memory, or an OutOfMemory error: `_malloc` answers 0 when the
   * memory is at its cap, and what was written there overwrote the instance's own low memory.
   */
  #alloc(size: number): number {
    const p = this.#em._malloc(size);
    if (p === 0) throw new OutOfMemory(size);
    return p;
  }

  /** The memory as 32-bit words (the view of its current buffer). */
  #words(): Uint32Array {
    const buffer = this.#em.HEAPU8.buffer;
    if (this.#heap32.buffer !== buffer) this.#heap32 = new Uint32Array(buffer);
    return this.#heap32;
  }

  /** True when values cross in QuickJS's binary format (see QuickJs.binary). */
  get binary(): boolean {
    return this.#writer !== null;
  }

  /** True when strings are read where QuickJS keeps them (see #learnStrings). */
  get stringsInPlace(): boolean {
    return this.#strings !== null;
  }

  /** Routes the host function and the interrupt check to `host`. */
  serve(host: InstanceHost): void {
    this.#host = host;
    this.#ffi.QTS_RuntimeEnableInterruptHandler(this.rt);
  }

  /** Caps the stack QuickJS may use (its "stack overflow" comes first). */
  setMaxStack(bytes: number): void {
    this.#ffi.QTS_RuntimeSetMaxStackSize(this.rt, bytes);
  }

  /** A function value that calls the host when called. */
  hostFunction(name: string): Value {
    return this.#ffi.QTS_NewFunction(this.ctx, name, 4, false, 1 as never);
  }

  /**
   * Evaluates global code or a module; `{ value }` or `{ error }` (each to be freed). With
   * `debug` false its functions keep no source text (their `toString` says native code) and no
   * file or line (a stack names them without a place), where the build allows it: QuickJS
   * otherwise keeps each function's text, once for every function around it, in memory that
   * never shrinks.
   */
  eval(
    code: string,
    file: string,
    module: boolean,
    debug = true,
  ): { value?: Value; error?: Value } {
    if (debug || !this.#strip) return this.#result(this.#evalRaw(code, file, module));
    new Uint8Array(this.memory.buffer)[this.#strip] = STRIP_SOURCE | STRIP_DEBUG;
    try {
      return this.#result(this.#evalRaw(code, file, module));
    } finally {
      new Uint8Array(this.memory.buffer)[this.#strip] = 0;
    }
  }

  /** True when this instance can compile without source and debug information (see eval). */
  get strips(): boolean {
    return this.#strip !== 0;
  }

  /** QuickJS's answer to evaluating `code` (an exception too), to be freed. */
  #evalRaw(code: string, file = "layout", module = false): JSValuePointer {
    const em = this.#em;
    const size = em.lengthBytesUTF8(code) + 1;
    const p = this.#alloc(size);
    try {
      em.stringToUTF8(code, p as never, size);
      return this.#ffi.QTS_Eval(
        this.ctx,
        p as never,
        size - 1,
        file,
        0 as never,
        (module ? EVAL_MODULE : EVAL_GLOBAL) as never,
      );
    } finally {
      em._free(p);
    }
  }

  /** Calls `fn` with `args`; `{ value }` or `{ error }` (each to be freed). */
  call(fn: Value, args: (Value | JSValueConstPointer)[]): { value?: Value; error?: Value } {
    if (args.length > MAX_ARGV) throw new RangeError(`at most ${MAX_ARGV} arguments`);
    // One buffer serves every call, nested ones too: QuickJS copies the values on entry.
    const argv = this.#argv, words = this.#words();
    for (let i = 0; i < args.length; i++) words[(argv >> 2) + i] = args[i] as unknown as number;
    return this.#result(
      this.#ffi.QTS_Call(this.ctx, fn, this.undefined, args.length, argv as never),
    );
  }

  #result(r: JSValuePointer): { value?: Value; error?: Value } {
    // The answer's room could not be allocated (the memory at its cap): nothing to read.
    if (!r) throw new OutOfMemory(8);
    // Not an exception (its tag, read in place): nothing to ask QuickJS.
    const layout = this.#layout;
    if (layout && this.#words()[((r as unknown as number) >> 2) + 1] !== layout.exception) {
      return { value: r };
    }
    const error = this.#ffi.QTS_ResolveException(this.ctx, r);
    if (!error) return { value: r };
    this.#ffi.QTS_FreeValuePointer(this.ctx, r);
    return { error };
  }

  /** Runs the pending jobs (promise reactions); the error of one that threw, or 0. */
  runJobs(): Value | 0 {
    const ffi = this.#ffi;
    while (ffi.QTS_IsJobPending(this.rt)) {
      const r = ffi.QTS_ExecutePendingJob(this.rt, -1, this.#out as never);
      const ctx = this.#words()[this.#out >> 2];
      if (!ctx) {
        ffi.QTS_FreeValuePointerRuntime(this.rt, r);
        return 0;
      }
      const error = ffi.QTS_ResolveException(this.ctx, r);
      if (error) {
        ffi.QTS_FreeValuePointer(this.ctx, r);
        return error;
      }
      ffi.QTS_FreeValuePointer(this.ctx, r);
    }
    return 0;
  }

  /** A property of an object. */
  getProp(obj: Value, name: string): Value {
    const key = this.string(name);
    try {
      return this.#ffi.QTS_GetProp(this.ctx, obj, key);
    } finally {
      this.free(key);
    }
  }

  /** A new string value. */
  string(s: string): Value {
    const em = this.#em;
    if (s.length <= SHORT_TEXT) {
      const heap = em.HEAPU8, at = this.#scratch;
      let i = 0;
      for (; i < s.length; i++) {
        const c = s.charCodeAt(i);
        if (c > 0x7f || c === 0) break;
        heap[at + i] = c;
      }
      if (i === s.length) {
        heap[at + i] = 0;
        return this.#ffi.QTS_NewString(this.ctx, at as never);
      }
    }
    // Emscripten's encoder, a loop in JavaScript like the one above, writes a lone surrogate
    // as three bytes QuickJS reads back as that surrogate (TextEncoder wrote U+FFFD): a
    // string crosses whole.
    if (s.length * 3 < SCRATCH) {
      // At most 3 bytes of UTF-8 per UTF-16 unit: it fits.
      em.stringToUTF8(s, this.#scratch as never, SCRATCH);
      return this.#ffi.QTS_NewString(this.ctx, this.#scratch as never);
    }
    const size = em.lengthBytesUTF8(s) + 1;
    const p = this.#alloc(size);
    try {
      em.stringToUTF8(s, p as never, size);
      return this.#ffi.QTS_NewString(this.ctx, p as never);
    } finally {
      em._free(p);
    }
  }

  /**
   * A new QuickJS value holding `v` as JSON.parse would make it (strings, finite numbers,
   * booleans, null, arrays and plain objects; `__proto__` an own property like any key), read
   * by QuickJS from the engine's binary serialisation of it (src/scripts/bjson.ts): one call
   * into WebAssembly for the whole value. 0 for anything else (a class instance, a function,
   * undefined), or when this build's format is not the one the engine writes: the caller then
   * sends it as JSON.
   */
  value(v: unknown): Value | 0 {
    const bytes = this.#writer?.write(v);
    if (!bytes) return 0;
    const r = this.decode(bytes);
    if (r.error) {
      this.free(r.error); // Out of memory: the JSON way meets the same, as the script's error.
      return 0;
    }
    return r.value!;
  }

  /** A new number value. */
  number(n: number): Value {
    return this.#ffi.QTS_NewFloat64(this.ctx, n);
  }

  /** A value as text (its `String()` for a non-string). */
  text(v: Value | JSValueConstPointer): string {
    const s = this.#strings && this.#flatString(v as unknown as number, this.#strings);
    if (s !== null && s !== undefined) return s;
    const p = this.#ffi.QTS_GetString(this.ctx, v);
    try {
      return this.#cString(p as unknown as number);
    } finally {
      this.#ffi.QTS_FreeCString(this.ctx, p);
    }
  }

  /**
   * A string value's text (up to a NUL, where its C string ends) when it has at most `max`
   * characters and no lone surrogate (QuickJS writes one as bytes that are not UTF-8, which
   * decoders read differently); null otherwise.
   */
  wellFormed(v: Value | JSValueConstPointer, max: number): string | null {
    const s = this.#strings && this.#flatString(v as unknown as number, this.#strings);
    if (s !== null && s !== undefined) return s.length > max ? null : s;
    const ffi = this.#ffi;
    const p = ffi.QTS_GetString(this.ctx, v) as unknown as number;
    try {
      const heap = this.#em.HEAPU8;
      let at = p;
      while (heap[at] !== 0 && heap[at] < 0x80) at++;
      if (heap[at] === 0) {
        if (at - p > max) return null;
        return at - p <= SHORT_TEXT ? this.#cString(p) : this.#em.UTF8ToString(p as never);
      }
      // A surrogate's three bytes start with 0xED and a byte of 0xA0 or more.
      for (; heap[at] !== 0; at++) if (heap[at] === 0xed && heap[at + 1] >= 0xa0) return null;
      const s = this.#em.UTF8ToString(p as never);
      return s.length > max ? null : s;
    } finally {
      ffi.QTS_FreeCString(this.ctx, p as never);
    }
  }

  /** The C string at `p` (UTF-8, ended by a 0). */
  #cString(p: number): string {
    const heap = this.#em.HEAPU8;
    const end = Math.min(heap.length, p + SHORT_TEXT);
    let at = p;
    while (at < end && heap[at] !== 0 && heap[at] < 0x80) at++;
    if (at < end && heap[at] === 0) {
      return at === p ? "" : String.fromCharCode.apply(null, heap.subarray(p, at) as never);
    }
    return this.#em.UTF8ToString(p as never);
  }

  /** A value as a number. */
  num(v: Value | JSValueConstPointer): number {
    return this.#ffi.QTS_GetFloat64(this.ctx, v);
  }

  /** `typeof` of a value. */
  typeOf(v: Value | JSValueConstPointer): string {
    const p = this.#ffi.QTS_Typeof(this.ctx, v);
    try {
      return this.#cString(p as unknown as number);
    } finally {
      this.#ffi.QTS_FreeVoidPointer(this.ctx, p as never);
    }
  }

  /** True when a value is `undefined` (no allocation, unlike typeOf). */
  isUndefined(v: Value | JSValueConstPointer): boolean {
    const layout = this.#layout;
    if (layout) {
      const words = this.#words(), at = v as unknown as number;
      return words[(at >> 2) + 1] === layout.undefined && words[at >> 2] === 0;
    }
    return this.#ffi.QTS_IsEqual(this.ctx, v, this.undefined, 0 as never) === 1;
  }

  /** A promise's state (NOT_A_PROMISE for any other value), without reading its result. */
  promiseState(v: Value): number {
    return this.#ffi.QTS_PromiseState(this.ctx, v);
  }

  /** A promise's state, and its result when settled (to be freed). */
  promise(v: Value): { state: number; result?: Value } {
    const state: number = this.#ffi.QTS_PromiseState(this.ctx, v);
    return state === PROMISE_PENDING || state === NOT_A_PROMISE
      ? { state }
      : { state, result: this.#ffi.QTS_PromiseResult(this.ctx, v) };
  }

  /** Frees a value this side owns. */
  free(v: Value): void {
    this.#ffi.QTS_FreeValuePointer(this.ctx, v);
  }

  /**
   * QuickJS's binary serialisation of a value (`JS_WriteObject`, which takes own enumerable data
   * properties and refuses accessors and proxies without running them): its bytes copied out,
   * `{ error }` (to be freed) when QuickJS refused it, or `{}` when longer than `max` bytes.
   */
  encode(v: Value | JSValueConstPointer, max: number): { bytes?: Uint8Array; error?: Value } {
    const ffi = this.#ffi;
    const r = ffi.QTS_bjson_encode(this.ctx, v);
    const error = ffi.QTS_ResolveException(this.ctx, r);
    if (error) {
      ffi.QTS_FreeValuePointer(this.ctx, r);
      return { error };
    }
    try {
      const len = ffi.QTS_GetArrayBufferLength(this.ctx, r);
      if (len > max) return {};
      // A copy of the buffer's bytes, made with the build's malloc for the caller to free: left
      // behind, every send of data kept its bytes in the instance for good (the shipped +who's
      // about 1.3 KB a call: its sandbox reached its memory cap after some 20,000 calls).
      const p = ffi.QTS_GetArrayBuffer(this.ctx, r) as unknown as number;
      if (p === 0) return {};
      try {
        return { bytes: this.#em.HEAPU8.slice(p, p + len) };
      } finally {
        this.#em._free(p);
      }
    } finally {
      ffi.QTS_FreeValuePointer(this.ctx, r);
    }
  }

  /** A value read from QuickJS's binary serialisation (`JS_ReadObject`, no bytecode). */
  decode(bytes: Uint8Array): { value?: Value; error?: Value } {
    const em = this.#em, ffi = this.#ffi;
    const p = this.#alloc(bytes.length || 1);
    em.HEAPU8.set(bytes, p);
    // The ArrayBuffer takes the bytes where they are and frees them when it is freed (the build's
    // QTS_NewArrayBuffer hands them to JS_NewArrayBuffer with its free function): they are
    // freed here only when it could not be made. Freed here as well, they were freed twice.
    const ab = ffi.QTS_NewArrayBuffer(this.ctx, p as never, bytes.length);
    const failed = ffi.QTS_ResolveException(this.ctx, ab);
    if (failed) {
      ffi.QTS_FreeValuePointer(this.ctx, ab);
      em._free(p);
      return { error: failed };
    }
    try {
      return this.#result(ffi.QTS_bjson_decode(this.ctx, ab));
    } finally {
      ffi.QTS_FreeValuePointer(this.ctx, ab);
    }
  }

  /** A value as JSON text, for the engine's own diagnostics. */
  dump(v: Value): string {
    const p = this.#ffi.QTS_Dump(this.ctx, v);
    try {
      return this.#em.UTF8ToString(p as never);
    } finally {
      this.#ffi.QTS_FreeCString(this.ctx, p);
    }
  }
}
