/**
 * A lean telnet client for the benchmark: one TCP socket and one small read buffer, refuses every
 * telnet option the server offers (so no negotiation waits on it), strips telnet commands, and
 * keeps no transcript: a waiter looks for one needle in what arrives, a sink sees every chunk,
 * and counters count chosen phrases. 10,000 of these fit in the bench process.
 */

const IAC = 255, DONT = 254, DO = 253, WONT = 252, WILL = 251, SB = 250, SE = 240;

/** Receives every decoded chunk with its arrival time (performance.now()). */
export type ChunkSink = (text: string, at: number) => void;

const encoder = new TextEncoder();

/** One benchmark telnet connection. */
export class LeanTelnet {
  /** Extra receiver for every decoded chunk (fan-out measurement). */
  sink: ChunkSink | null = null;
  closed = false;
  readonly #conn: Deno.TcpConn;
  readonly #decoder = new TextDecoder();
  #state: "data" | "iac" | "verb" | "sb" | "sbiac" = "data";
  #verb = 0;
  #waiter: {
    needle: string;
    carry: string;
    resolve: (at: number) => void;
    reject: (e: Error) => void;
  } | null = null;
  readonly #counters = new Map<string, { n: number; carry: string }>();
  readonly #reading: Promise<void>;

  private constructor(conn: Deno.TcpConn) {
    this.#conn = conn;
    this.#reading = this.#read();
  }

  /** Connects to `hostname`:`port`. */
  static async connect(port: number, hostname = "127.0.0.1"): Promise<LeanTelnet> {
    const conn = await Deno.connect({ hostname, port });
    conn.setNoDelay(true);
    return new LeanTelnet(conn);
  }

  /** Counts every later occurrence of `phrase`; read with {@linkcode count}. */
  watch(phrase: string): void {
    this.#counters.set(phrase, { n: 0, carry: "" });
  }

  /** Occurrences of a watched phrase so far. */
  count(phrase: string): number {
    return this.#counters.get(phrase)?.n ?? 0;
  }

  /** Resolves with the arrival time of the first later chunk holding `needle`. */
  until(needle: string, ms = 30_000): Promise<number> {
    this.#waiter?.reject(new Error("replaced by a newer wait"));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        if (this.#waiter?.resolve !== done) return;
        this.#waiter = null;
        reject(new Error(`telnet: no "${needle}" within ${ms} ms`));
      }, ms);
      const done = (at: number) => {
        clearTimeout(timer);
        resolve(at);
      };
      this.#waiter = {
        needle,
        carry: "",
        resolve: done,
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      };
    });
  }

  /** Sends one line and resolves with the time (ms) until a chunk holding `needle` arrives. */
  async roundTrip(line: string, needle: string, ms = 30_000): Promise<number> {
    const reply = this.until(needle, ms);
    const t0 = performance.now();
    await this.send(line);
    return (await reply) - t0;
  }

  /** Sends one line (CRLF added). */
  async send(line: string): Promise<void> {
    await this.#write(encoder.encode(line + "\r\n"));
  }

  /** Closes the socket (no QUIT: the server sees the connection drop). */
  async close(): Promise<void> {
    if (!this.closed) {
      this.closed = true;
      try {
        this.#conn.close();
      } catch { /* already closed */ }
    }
    await this.#reading;
  }

  async #write(bytes: Uint8Array): Promise<void> {
    let at = 0;
    while (at < bytes.length) at += await this.#conn.write(bytes.subarray(at));
  }

  async #read(): Promise<void> {
    const buf = new Uint8Array(4096);
    try {
      for (;;) {
        const n = await this.#conn.read(buf);
        if (n === null) break;
        const at = performance.now();
        const text = this.#decode(buf.subarray(0, n));
        if (text) this.#deliver(text, at);
      }
    } catch { /* reset or closed by us */ }
    this.closed = true;
    this.#waiter?.reject(new Error("telnet: connection closed"));
    this.#waiter = null;
    try {
      this.#conn.close();
    } catch { /* already closed */ }
  }

  #deliver(text: string, at: number): void {
    const w = this.#waiter;
    if (w) {
      const s = w.carry + text;
      if (s.includes(w.needle)) {
        this.#waiter = null;
        w.resolve(at);
      } else w.carry = s.slice(-(w.needle.length - 1));
    }
    for (const [phrase, c] of this.#counters) {
      const s = c.carry + text;
      for (let i = s.indexOf(phrase); i !== -1; i = s.indexOf(phrase, i + phrase.length)) c.n++;
      c.carry = s.slice(-(phrase.length - 1));
    }
    this.sink?.(text, at);
  }

  /** Telnet-decodes a chunk: data bytes out, option offers refused, subnegotiations dropped. */
  #decode(bytes: Uint8Array): string {
    if (this.#state === "data" && !bytes.includes(IAC)) {
      return this.#decoder.decode(bytes, { stream: true });
    }
    const data: number[] = [];
    const replies: number[] = [];
    for (const b of bytes) {
      switch (this.#state) {
        case "data":
          if (b === IAC) this.#state = "iac";
          else data.push(b);
          break;
        case "iac":
          if (b === IAC) {
            data.push(b);
            this.#state = "data";
          } else if (b >= WILL && b <= DONT) {
            this.#verb = b;
            this.#state = "verb";
          } else this.#state = b === SB ? "sb" : "data";
          break;
        case "verb":
          if (this.#verb === WILL) replies.push(IAC, DONT, b);
          else if (this.#verb === DO) replies.push(IAC, WONT, b);
          this.#state = "data";
          break;
        case "sb":
          if (b === IAC) this.#state = "sbiac";
          break;
        case "sbiac":
          this.#state = b === SE ? "data" : "sb";
          break;
      }
    }
    if (replies.length) this.#write(Uint8Array.from(replies)).catch(() => {});
    return this.#decoder.decode(Uint8Array.from(data), { stream: true });
  }
}

/** Connects and logs in with `connect <name> <password>`, resolving once `arrived` is seen. */
export async function telnetLogin(
  port: number,
  name: string,
  password: string,
  arrived: string,
  ms = 60_000,
): Promise<LeanTelnet> {
  const c = await LeanTelnet.connect(port);
  try {
    const screen = c.until("connect <name>", ms);
    await screen;
    const room = c.until(arrived, ms);
    await c.send(`connect ${name} ${password}`);
    await room;
    return c;
  } catch (e) {
    await c.close();
    throw new Error(`${name}: ${(e as Error).message}`);
  }
}

/** Logs in every name, `inFlight` at a time (the engine's per-IP limit on logins is 10). */
export async function loginMany(
  port: number,
  names: readonly string[],
  password: string,
  arrived: string,
  inFlight = 10,
): Promise<LeanTelnet[]> {
  const out: LeanTelnet[] = new Array(names.length);
  let next = 0;
  const worker = async () => {
    while (next < names.length) {
      const i = next++;
      out[i] = await telnetLogin(port, names[i], password, arrived);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(inFlight, names.length) }, worker));
  } catch (e) {
    await Promise.all(out.filter(Boolean).map((c) => c.close()));
    throw e;
  }
  return out;
}
