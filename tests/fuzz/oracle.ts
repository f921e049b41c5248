/**
 * What counts as a failure, and the checks after a run: every stored value must read back
 * (a walk over the whole database, keys listed from its SQLite file so one unreadable entry
 * does not hide the ones after it) and every fuzzed account must still log in.
 */

/** Kinds of failure. */
export type FailureKind =
  | "server-error"
  | "command-error"
  | "hang"
  | "crash"
  | "health"
  | "unreadable"
  | "login"
  | "plugin-load"
  | "limit"
  /** A fixed attack of attacks.ts worked again. */
  | "attack";

/** One failure, with what reproduces it. */
export interface Failure {
  kind: FailureKind;
  /** Where: `rest`, `ws`, `telnet`, `raw`, `kv`, `engine`, `after-restart`. */
  target: string;
  /** One line: what went wrong. */
  summary: string;
  /** How to reproduce it (a request, frames, bytes, or a key). */
  repro: string;
  /** Seconds since the start of the run. */
  at: number;
  /** A body too large to print, saved beside the report when a directory is given. */
  attachment?: Uint8Array;
}

/** Collects failures, keeping the first few of each distinct signature. */
export class FailureLog {
  readonly failures: Failure[] = [];
  readonly counts = new Map<string, number>();
  readonly notes: string[] = [];
  readonly #start = performance.now();

  /** Seconds since the log was made. */
  elapsed(): number {
    return Math.round((performance.now() - this.#start) / 100) / 10;
  }

  /** Records a failure under `signature` (the first 3 of a signature are kept in full). */
  add(signature: string, f: Omit<Failure, "at">): void {
    const n = (this.counts.get(signature) ?? 0) + 1;
    this.counts.set(signature, n);
    if (n <= 3) this.failures.push({ ...f, at: this.elapsed() });
  }

  /** Records something worth knowing that is not a failure (bounded). */
  note(text: string): void {
    if (this.notes.length < 200 && !this.notes.includes(text)) this.notes.push(text);
  }
}

// ---- reading every stored entry ----------------------------------------------------------

/**
 * Decodes a Deno KV key from its stored bytes (the tuple encoding of the SQLite backend):
 * strings, byte arrays, numbers, bigints and booleans. Returns null for anything else.
 */
export function decodeKey(b: Uint8Array): Deno.KvKey | null {
  const parts: Deno.KvKeyPart[] = [];
  let i = 0;
  const until0 = (): Uint8Array => {
    const out: number[] = [];
    while (i < b.length) {
      if (b[i] === 0) {
        if (b[i + 1] === 0xff) {
          out.push(0);
          i += 2;
          continue;
        }
        i++;
        return Uint8Array.from(out);
      }
      out.push(b[i++]);
    }
    return Uint8Array.from(out);
  };
  while (i < b.length) {
    const tag = b[i++];
    if (tag === 0x01) parts.push(until0());
    else if (tag === 0x02) parts.push(new TextDecoder().decode(until0()));
    else if (tag === 0x21) {
      const raw = b.slice(i, i + 8);
      i += 8;
      if (raw[0] & 0x80) raw[0] ^= 0x80;
      else for (let j = 0; j < 8; j++) raw[j] ^= 0xff;
      parts.push(new DataView(raw.buffer).getFloat64(0));
    } else if (tag >= 0x0c && tag <= 0x1c) {
      const n = Math.abs(tag - 0x14);
      let v = 0n;
      for (let j = 0; j < n; j++) v = (v << 8n) | BigInt(b[i + j]);
      i += n;
      if (tag < 0x14) v = v - ((1n << BigInt(8 * n)) - 1n);
      parts.push(v);
    } else if (tag === 0x26) parts.push(false);
    else if (tag === 0x27) parts.push(true);
    else return null;
  }
  return parts;
}

/** Every key stored in a local Deno KV database file, straight from SQLite. */
export async function storedKeys(dbPath: string): Promise<Uint8Array[]> {
  const { DatabaseSync } = await import("node:sqlite");
  const db = new DatabaseSync(dbPath, { readOnly: true });
  try {
    return db.prepare("SELECT k FROM kv ORDER BY k").all().map((r) =>
      new Uint8Array((r as { k: Uint8Array }).k)
    );
  } finally {
    db.close();
  }
}

/** Shows a key for the report. */
export function showKey(k: Deno.KvKey): string {
  return JSON.stringify(k, (_, v) => (typeof v === "bigint" ? `${v}n` : v));
}

/**
 * Reads every entry of the database (the engine must be stopped): each key with `get`, and the
 * whole key space with `list`. Returns the number of entries read.
 */
export async function walkStore(dbPath: string, log: FailureLog): Promise<number> {
  const raw = await storedKeys(dbPath);
  const kv = await Deno.openKv(dbPath);
  let read = 0;
  try {
    for (const bytes of raw) {
      const key = decodeKey(bytes);
      if (!key) {
        log.note(`kv: a key of an unknown encoding was not checked: ${[...bytes.subarray(0, 32)]}`);
        continue;
      }
      try {
        await kv.get(key);
        read++;
      } catch (e) {
        log.add(`unreadable ${String(key[0])}`, {
          kind: "unreadable",
          target: "kv",
          summary: `stored value cannot be read back: ${(e as Error).message}`,
          repro: `key ${showKey(key)}`,
        });
      }
    }
    // The engine reads collections with list: a list over everything must pass as well
    // (or fail only where a get already did).
    let last: Deno.KvKey | null = null;
    try {
      for await (const e of kv.list({ prefix: [] }, { batchSize: 1 })) last = e.key;
    } catch (e) {
      if (!log.failures.some((f) => f.kind === "unreadable")) {
        log.add("unreadable list", {
          kind: "unreadable",
          target: "kv",
          summary: `listing the store fails: ${(e as Error).message}`,
          repro: `kv.list({ prefix: [] }) after key ${last ? showKey(last) : "(none)"}`,
        });
      }
    }
  } finally {
    kv.close();
  }
  return read;
}
