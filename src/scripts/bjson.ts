/**
 * The engine's side of QuickJS's binary serialisation (`JS_WriteObject` / `JS_ReadObject`, the
 * build's `QTS_bjson_encode` / `QTS_bjson_decode`), for the JSON-shaped values that cross between
 * the engine and a sandbox: strings, numbers, booleans, null, arrays and plain objects. A value
 * crosses as one buffer and one call into WebAssembly instead of a QuickJS call per property
 * (engine to sandbox) or an interpreted walk, a stringify and a parse (sandbox to engine).
 *
 * The format is QuickJS's own and not documented: the version byte, a table of the property
 * names used, then the value, tag by tag. Only the tags of JSON-shaped values are written or
 * read here; a value holding anything else (a Date, a shared or circular reference, a typed
 * array, a BigInt) is answered `null`, and the caller sends it as JSON instead. `QuickJs.load`
 * checks this writer against the build's own output and turns it off when they differ (a new
 * QuickJS with another format), so a mismatch costs speed, never a wrong value.
 */

/** The format version of the QuickJS in the pinned build (its first byte). */
const VERSION = 5;
const TAG_NULL = 1, TAG_UNDEFINED = 2, TAG_FALSE = 3, TAG_TRUE = 4, TAG_INT32 = 5;
const TAG_FLOAT64 = 6, TAG_STRING = 7, TAG_OBJECT = 8, TAG_ARRAY = 9;
/** Nesting the reader follows before it gives the value back to the JSON path. */
const MAX_DEPTH = 100;
/** QuickJS keeps keys that are array indexes up to this as integers ("tagged int" atoms). */
const MAX_INT_ATOM = 2 ** 31 - 1;

/** Writes JSON-shaped values in QuickJS's binary format; one writer is reused. */
export class BjsonWriter {
  #buf = new Uint8Array(4096);
  #at = 0;
  readonly #atoms = new Map<string, number>();
  #atomList: string[] = [];
  readonly #f64 = new DataView(new ArrayBuffer(8));

  /**
   * The bytes of `v` (a view of the writer's buffer, valid until its next use), or null when
   * `v` holds what JSON.parse could not make (a class instance, a function, undefined, ...).
   */
  write(v: unknown): Uint8Array | null {
    this.#at = 0;
    this.#atoms.clear();
    this.#atomList = [];
    if (!this.#value(v, 0)) return null;
    const bodyEnd = this.#at;
    // The property names come first in the format: written after the body, then moved ahead.
    const names = this.#atomList;
    this.#byte(VERSION);
    this.#leb(names.length);
    for (const n of names) this.#str(n);
    const head = this.#at - bodyEnd;
    const out = new Uint8Array(this.#at);
    out.set(this.#buf.subarray(bodyEnd, this.#at), 0);
    out.set(this.#buf.subarray(0, bodyEnd), head);
    return out;
  }

  #value(v: unknown, depth: number): boolean {
    switch (typeof v) {
      case "string":
        this.#byte(TAG_STRING);
        this.#str(v);
        return true;
      case "number":
        if (Number.isInteger(v) && v >= -(2 ** 31) && v < 2 ** 31 && !Object.is(v, -0)) {
          this.#byte(TAG_INT32);
          this.#leb(((v << 1) ^ (v >> 31)) >>> 0);
        } else if (Number.isFinite(v)) {
          this.#byte(TAG_FLOAT64);
          this.#f64.setFloat64(0, v, true);
          this.#room(8);
          for (let i = 0; i < 8; i++) this.#buf[this.#at++] = this.#f64.getUint8(i);
        } else this.#byte(TAG_NULL); // As JSON has it.
        return true;
      case "boolean":
        this.#byte(v ? TAG_TRUE : TAG_FALSE);
        return true;
      case "object":
        break;
      default:
        return false;
    }
    if (v === null) {
      this.#byte(TAG_NULL);
      return true;
    }
    if (depth >= MAX_DEPTH) return false;
    if (Array.isArray(v)) {
      this.#byte(TAG_ARRAY);
      this.#leb(v.length);
      for (let i = 0; i < v.length; i++) {
        const x = v[i];
        if (x === undefined) this.#byte(TAG_NULL);
        else if (!this.#value(x, depth + 1)) return false;
      }
      return true;
    }
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) return false;
    const rec = v as Record<string, unknown>;
    const keys = Object.keys(rec);
    let n = 0;
    for (const k of keys) if (rec[k] !== undefined) n++;
    this.#byte(TAG_OBJECT);
    this.#leb(n);
    for (const k of keys) {
      const x = rec[k];
      if (x === undefined) continue;
      this.#atom(k);
      if (!this.#value(x, depth + 1)) return false;
    }
    return true;
  }

  /** A property name: an index as QuickJS keeps it (an integer), any other by its table entry. */
  #atom(k: string): void {
    const i = indexKey(k);
    if (i >= 0) return this.#leb(((i << 1) | 1) >>> 0);
    let n = this.#atoms.get(k);
    if (n === undefined) {
      this.#atomList.push(k);
      n = this.#atomList.length; // Entry i of the table is atom i + 1 (0 is "no atom").
      this.#atoms.set(k, n);
    }
    this.#leb(n << 1);
  }

  /** A string: its length and width, then Latin-1 bytes or UTF-16 units. */
  #str(s: string): void {
    const n = s.length;
    // Written as Latin-1 until a wider unit shows; the header's size is the same either way.
    const start = this.#at;
    this.#leb(n * 2);
    this.#room(n * 2);
    const buf = this.#buf;
    let at = this.#at;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c > 0xff) {
        this.#at = start;
        this.#leb(n * 2 + 1);
        at = this.#at;
        for (let j = 0; j < n; j++) {
          const d = s.charCodeAt(j);
          buf[at++] = d & 0xff;
          buf[at++] = d >> 8;
        }
        this.#at = at;
        return;
      }
      buf[at++] = c;
    }
    this.#at = at;
  }

  #leb(n: number): void {
    this.#room(5);
    const buf = this.#buf;
    while (n >= 0x80) {
      buf[this.#at++] = (n & 0x7f) | 0x80;
      n >>>= 7;
    }
    buf[this.#at++] = n;
  }

  #byte(b: number): void {
    this.#room(1);
    this.#buf[this.#at++] = b;
  }

  #room(n: number): void {
    if (this.#at + n <= this.#buf.length) return;
    let size = this.#buf.length * 2;
    while (size < this.#at + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.#buf.subarray(0, this.#at));
    this.#buf = next;
  }
}

/**
 * Sets `o[k]` as an own property whatever the name, as JSON.parse makes it: `__proto__` too,
 * which an assignment would take as the prototype. Any other key is assigned, since
 * defineProperty is V8's runtime, met cold at each paced call (about 10 µs for two keys).
 */
export function setOwn(o: Record<string, unknown>, k: string, v: unknown): void {
  if (k === "__proto__") {
    Object.defineProperty(o, k, { value: v, writable: true, enumerable: true, configurable: true });
  } else o[k] = v;
}

/** The index `k` names when it is one QuickJS keeps as an integer atom, else -1. */
function indexKey(k: string): number {
  const n = k.length;
  if (n === 0 || n > 10) return -1;
  const c0 = k.charCodeAt(0);
  if (c0 < 48 || c0 > 57 || (c0 === 48 && n > 1)) return -1;
  let v = 0;
  for (let i = 0; i < n; i++) {
    const c = k.charCodeAt(i);
    if (c < 48 || c > 57) return -1;
    v = v * 10 + (c - 48);
  }
  return v <= MAX_INT_ATOM ? v : -1;
}

/** Thrown inside the reader for bytes it does not take: the value goes the JSON way. */
class Unsupported extends Error {}

/**
 * The JSON-shaped value in `bytes` (written by QuickJS), as JSON.parse of its JSON.stringify
 * would give it: undefined properties left out, undefined elements and non-finite numbers null.
 * `undefined` when the bytes hold anything else (the caller then asks for JSON).
 */
export function readBjson(bytes: Uint8Array): unknown {
  try {
    return new Reader(bytes).read();
  } catch (e) {
    if (e instanceof Unsupported || e instanceof RangeError) return undefined;
    throw e;
  }
}

/** Marks a property or element QuickJS wrote as undefined (JSON leaves it out). */
const SKIP = Symbol("undefined");

class Reader {
  readonly #b: Uint8Array;
  #at = 0;
  #atoms: string[] = [];
  readonly #f64: DataView;

  constructor(b: Uint8Array) {
    this.#b = b;
    this.#f64 = new DataView(b.buffer, b.byteOffset, b.byteLength);
  }

  read(): unknown {
    if (this.#u8() !== VERSION) throw new Unsupported();
    const count = this.#leb();
    if (count > this.#b.length) throw new Unsupported();
    const atoms: string[] = [];
    for (let i = 0; i < count; i++) atoms.push(this.#str());
    this.#atoms = atoms;
    const v = this.#value(0);
    if (this.#at !== this.#b.length) throw new Unsupported();
    return v === SKIP ? undefined : v;
  }

  #value(depth: number): unknown {
    switch (this.#u8()) {
      case TAG_NULL:
        return null;
      case TAG_UNDEFINED:
        return SKIP;
      case TAG_FALSE:
        return false;
      case TAG_TRUE:
        return true;
      case TAG_INT32: {
        const z = this.#leb();
        return (z >>> 1) ^ -(z & 1);
      }
      case TAG_FLOAT64: {
        if (this.#at + 8 > this.#b.length) throw new Unsupported();
        const x = this.#f64.getFloat64(this.#at, true);
        this.#at += 8;
        return Number.isFinite(x) ? x : null;
      }
      case TAG_STRING:
        return this.#str();
      case TAG_ARRAY: {
        if (depth >= MAX_DEPTH) throw new Unsupported();
        const n = this.#leb();
        if (n > this.#b.length - this.#at) throw new Unsupported();
        const a: unknown[] = new Array(n);
        for (let i = 0; i < n; i++) {
          const x = this.#value(depth + 1);
          a[i] = x === SKIP ? null : x;
        }
        return a;
      }
      case TAG_OBJECT: {
        if (depth >= MAX_DEPTH) throw new Unsupported();
        const n = this.#leb();
        if (n > this.#b.length - this.#at) throw new Unsupported();
        const o: Record<string, unknown> = {};
        for (let i = 0; i < n; i++) {
          const k = this.#atom();
          const x = this.#value(depth + 1);
          if (x === SKIP) continue;
          setOwn(o, k, x);
        }
        return o;
      }
      default:
        throw new Unsupported();
    }
  }

  #atom(): string {
    const v = this.#leb();
    if (v & 1) return String(v >>> 1);
    const i = v >>> 1;
    if (i < 1 || i > this.#atoms.length) throw new Unsupported();
    return this.#atoms[i - 1];
  }

  #str(): string {
    const h = this.#leb();
    const n = h >>> 1, wide = h & 1;
    const bytes = wide ? n * 2 : n;
    if (this.#at + bytes > this.#b.length) throw new Unsupported();
    const view = this.#b.subarray(this.#at, this.#at + bytes);
    this.#at += bytes;
    // By hand: TextDecoder's "latin1" is windows-1252, and its UTF-16 replaces lone surrogates.
    const CHUNK = 4096;
    let s = "";
    for (let from = 0; from < n; from += CHUNK) {
      const m = Math.min(CHUNK, n - from);
      const codes = new Array<number>(m);
      if (wide) {
        for (let i = 0; i < m; i++) {
          const j = 2 * (from + i);
          codes[i] = view[j] | (view[j + 1] << 8);
        }
      } else for (let i = 0; i < m; i++) codes[i] = view[from + i];
      s += String.fromCharCode.apply(null, codes);
    }
    return s;
  }

  #u8(): number {
    if (this.#at >= this.#b.length) throw new Unsupported();
    return this.#b[this.#at++];
  }

  #leb(): number {
    let v = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      const b = this.#u8();
      v |= (b & 0x7f) << shift;
      if (b < 0x80) return v >>> 0;
    }
    throw new Unsupported();
  }
}
