/**
 * A lean raw-TCP telnet client for the benchmark: it negotiates nothing (a plain client), keeps
 * no transcript and reports when a reply holding a needle arrives, so the client side costs as
 * little as possible. tests/telnet_client.ts is the full client for tests.
 */

/** One benchmark telnet connection. */
export class TelnetProbe {
  readonly #conn: Deno.TcpConn;
  readonly #encoder = new TextEncoder();
  #waiter: { needle: string; resolve: (at: number) => void } | null = null;
  /** The end of what came before, so a needle split across two reads is still found. */
  #tail = "";
  #reading: Promise<void>;

  private constructor(conn: Deno.TcpConn) {
    this.#conn = conn;
    this.#reading = this.#read();
  }

  /** Connects to 127.0.0.1:`port` and logs in with `connect <name> <password>`. */
  static async login(port: number, name: string, password: string): Promise<TelnetProbe> {
    const p = new TelnetProbe(await Deno.connect({ hostname: "127.0.0.1", port }));
    try {
      await p.#within(p.until("connect <name>"), 30_000, "the login prompt");
      await p.#within(
        p.roundTrip(`connect ${name} ${password}`, "Limbo"),
        60_000,
        `the login of ${name}`,
      );
      return p;
    } catch (e) {
      await p.close();
      throw e;
    }
  }

  /** Resolves with the arrival time (performance.now()) of the next read holding `needle`. */
  until(needle: string): Promise<number> {
    this.#tail = "";
    return new Promise((resolve) => this.#waiter = { needle, resolve });
  }

  /** Sends one command line; resolves with the round trip (ms) of the reply holding `needle`. */
  async roundTrip(line: string, needle: string): Promise<number> {
    const reply = this.until(needle);
    const t0 = performance.now();
    await this.#conn.write(this.#encoder.encode(line + "\r\n"));
    return (await reply) - t0;
  }

  /** Closes the connection. */
  async close(): Promise<void> {
    try {
      this.#conn.close();
    } catch {
      // Already closed.
    }
    await this.#reading;
  }

  async #within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, fail) => {
      timer = setTimeout(() => fail(new Error(`telnet: timed out waiting for ${what}`)), ms);
    });
    try {
      return await Promise.race([p, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  async #read(): Promise<void> {
    const buf = new Uint8Array(64 * 1024);
    // Latin-1 keeps one character per byte: needles are ASCII, and nothing is decoded twice.
    const decoder = new TextDecoder("latin1");
    try {
      for (;;) {
        const n = await this.#conn.read(buf);
        if (n === null) return;
        const at = performance.now();
        const w = this.#waiter;
        if (!w) continue;
        const text = this.#tail + decoder.decode(buf.subarray(0, n));
        if (text.includes(w.needle)) {
          this.#waiter = null;
          this.#tail = "";
          w.resolve(at);
        } else this.#tail = text.slice(-w.needle.length);
      }
    } catch {
      // Closed.
    }
  }
}
