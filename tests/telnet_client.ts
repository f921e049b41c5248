/**
 * A small raw-TCP telnet client for black-box tests: answers option negotiation as configured,
 * decompresses MCCP2, collects GMCP and MSSP, and offers waits on the text received.
 */
import { createInflate, type Inflate } from "node:zlib";

const IAC = 255, DONT = 254, DO = 253, WONT = 252, WILL = 251, SB = 250, SE = 240;
const ECHO = 1, SGA = 3, TTYPE = 24, NAWS = 31, CHARSET = 42, MSSP = 70, MCCP2 = 86, GMCP = 201;

/** What the test client agrees to. Everything off means a client that negotiates nothing. */
export interface TelnetClientOptions {
  /** Answer DO NAWS with this size. */
  naws?: { width: number; height: number };
  /**
   * Answer TTYPE SEND with this name; a list is answered in turn (client, terminal,
   * `MTTS <n>`), repeating the last name once it runs out, as MTTS clients do.
   */
  ttype?: string | string[];
  /** Accept GMCP and send Core.Hello. */
  gmcp?: boolean;
  /** Accept MCCP2. */
  mccp?: boolean;
  /** Accept MSSP. */
  mssp?: boolean;
  /** Never read from the socket (a client that stalls). */
  noRead?: boolean;
}

/** A decoded GMCP message. */
export interface GmcpMessage {
  package: string;
  data: unknown;
}

const VERB: Record<number, string> = { [WILL]: "WILL", [WONT]: "WONT", [DO]: "DO", [DONT]: "DONT" };

/** The test telnet client. */
export class TelnetClient {
  /** Every data byte received (after telnet decoding and decompression), as text. */
  text = "";
  /** Negotiations received, e.g. `WILL 1`. */
  readonly negotiations: string[] = [];
  readonly gmcp: GmcpMessage[] = [];
  mssp: Record<string, string> | null = null;
  /** True while the server has said WILL ECHO (input hidden). */
  echoOff = false;
  /** True once MCCP2 started. */
  compressed = false;
  /** Raw bytes received on the wire (compressed or not). */
  wireBytes = 0;
  closed = false;

  readonly #conn: Deno.TcpConn;
  readonly #opts: TelnetClientOptions;
  #state: "data" | "iac" | "verb" | "sb" | "sbiac" = "data";
  #verb = 0;
  #sb: number[] = [];
  #inflate: Inflate | null = null;
  #decoder = new TextDecoder();
  #reading: Promise<void>;
  #inflated: Promise<void> = Promise.resolve();
  #ttypeAnswers = 0;
  #held: Promise<void> | null = null;

  private constructor(conn: Deno.TcpConn, opts: TelnetClientOptions) {
    this.#conn = conn;
    this.#opts = opts;
    this.#reading = opts.noRead ? Promise.resolve() : this.#read();
  }

  /** Connects to 127.0.0.1:`port`. */
  static async connect(port: number, opts: TelnetClientOptions = {}): Promise<TelnetClient> {
    const conn = await Deno.connect({ hostname: "127.0.0.1", port });
    return new TelnetClient(conn, opts);
  }

  /** Connects over TLS, trusting only `caCerts` (a self-signed test certificate). */
  static async connectTls(
    port: number,
    caCerts: string[],
    opts: TelnetClientOptions = {},
  ): Promise<TelnetClient> {
    const conn = await Deno.connectTls({ hostname: "127.0.0.1", port, caCerts });
    await conn.handshake();
    return new TelnetClient(conn as unknown as Deno.TcpConn, opts);
  }

  /** Text with ANSI escapes removed. */
  get plain(): string {
    // deno-lint-ignore no-control-regex
    return this.text.replace(/\x1b\[[0-9;]*m/g, "");
  }

  /**
   * Stops reading (after the read under way) until the function answered is called: a client
   * that stalls for a while, then catches up.
   */
  hold(): () => void {
    let release = () => {};
    this.#held = new Promise((r) => (release = r));
    return () => {
      this.#held = null;
      release();
    };
  }

  /** Sends a line (CRLF added). */
  send(line: string): Promise<void> {
    return this.write(new TextEncoder().encode(line + "\r\n"));
  }

  /** Sends raw bytes. */
  async write(bytes: Uint8Array): Promise<void> {
    let at = 0;
    while (at < bytes.length) at += await this.#conn.write(bytes.subarray(at));
  }

  /** Tells the server a new window size. */
  sendNaws(width: number, height: number): Promise<void> {
    return this.write(
      Uint8Array.of(IAC, SB, NAWS, width >> 8, width & 255, height >> 8, height & 255, IAC, SE),
    );
  }

  /** Sends a GMCP message. */
  sendGmcp(pkg: string, data?: unknown): Promise<void> {
    const body = new TextEncoder().encode(
      data === undefined ? pkg : `${pkg} ${JSON.stringify(data)}`,
    );
    return this.write(Uint8Array.from([IAC, SB, GMCP, ...body, IAC, SE]));
  }

  /** Length of the text so far; pass it to `waitFor` to look only at what comes after. */
  mark(): number {
    return this.plain.length;
  }

  /** Waits until the plain text (from `from`) matches; returns the match. */
  async waitFor(re: RegExp, ms = 10_000, from = 0): Promise<RegExpMatchArray> {
    const end = Date.now() + ms;
    for (;;) {
      const m = this.plain.slice(from).match(re);
      if (m) return m;
      if (Date.now() > end) {
        throw new Error(`telnet: timed out waiting for ${re}; got:\n${this.plain.slice(from)}`);
      }
      if (this.closed) {
        throw new Error(`telnet: closed while waiting for ${re}; got:\n${this.plain.slice(from)}`);
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /** Waits until a condition holds. */
  async until(fn: () => boolean, what: string, ms = 10_000): Promise<void> {
    const end = Date.now() + ms;
    while (!fn()) {
      if (Date.now() > end) throw new Error(`telnet: timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /** Closes the socket and waits for the reader to stop. */
  async close(): Promise<void> {
    try {
      this.#conn.close();
    } catch { /* already closed */ }
    await this.#reading;
    this.#inflate?.destroy();
    await this.#inflated;
  }

  async #read(): Promise<void> {
    const buf = new Uint8Array(64 * 1024);
    try {
      for (;;) {
        if (this.#held) await this.#held;
        const n = await this.#conn.read(buf);
        if (n === null) break;
        this.wireBytes += n;
        const chunk = buf.slice(0, n);
        if (this.#inflate) this.#inflate.write(chunk);
        else this.#parse(chunk);
      }
    } catch { /* closed */ }
    this.closed = true;
    if (this.#inflate) this.#inflate.end();
  }

  #parse(chunk: Uint8Array): void {
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i];
      switch (this.#state) {
        case "data":
          if (b === IAC) this.#state = "iac";
          else this.#data(b);
          break;
        case "iac":
          if (b === IAC) {
            this.#data(b);
            this.#state = "data";
          } else if (b in VERB) {
            this.#verb = b;
            this.#state = "verb";
          } else if (b === SB) {
            this.#sb = [];
            this.#state = "sb";
          } else this.#state = "data";
          break;
        case "verb":
          this.#state = "data";
          this.#negotiate(this.#verb, b);
          break;
        case "sb":
          if (b === IAC) this.#state = "sbiac";
          else this.#sb.push(b);
          break;
        case "sbiac":
          if (b === SE) {
            this.#state = "data";
            if (this.#subneg(this.#sb)) {
              // Everything after IAC SB MCCP2 IAC SE is one zlib stream.
              this.#startInflate(chunk.slice(i + 1));
              return;
            }
          } else {
            this.#sb.push(b);
            this.#state = "sb";
          }
          break;
      }
    }
    this.#flushText();
  }

  #pending: number[] = [];

  #data(b: number): void {
    this.#pending.push(b);
  }

  #flushText(): void {
    if (this.#pending.length === 0) return;
    this.text += this.#decoder.decode(Uint8Array.from(this.#pending), { stream: true });
    this.#pending = [];
  }

  #startInflate(rest: Uint8Array): void {
    this.#flushText();
    this.compressed = true;
    const inflate = createInflate();
    this.#inflate = inflate;
    this.#inflated = new Promise((resolve) => {
      inflate.on("data", (d: Uint8Array) => this.#parse(new Uint8Array(d)));
      inflate.on("end", () => resolve());
      inflate.on("close", () => resolve());
      inflate.on("error", () => resolve());
    });
    if (rest.length > 0) inflate.write(rest);
  }

  #reply(...bytes: number[]): void {
    this.write(Uint8Array.from(bytes)).catch(() => {});
  }

  #negotiate(verb: number, opt: number): void {
    this.negotiations.push(`${VERB[verb]} ${opt}`);
    const o = this.#opts;
    if (verb === WILL) {
      if (opt === ECHO) {
        this.echoOff = true;
        this.#reply(IAC, DO, ECHO);
      } else if (opt === SGA) this.#reply(IAC, DO, SGA);
      else if (opt === GMCP && o.gmcp) {
        this.#reply(IAC, DO, GMCP);
        this.sendGmcp("Core.Hello", { client: "TestClient", version: "1.0" }).catch(() => {});
      } else if (opt === MCCP2 && o.mccp) this.#reply(IAC, DO, MCCP2);
      else if (opt === MSSP && o.mssp) this.#reply(IAC, DO, MSSP);
      else this.#reply(IAC, DONT, opt);
    } else if (verb === WONT) {
      if (opt === ECHO) this.echoOff = false;
      this.#reply(IAC, DONT, opt);
    } else if (verb === DO) {
      if (opt === NAWS && o.naws) {
        this.#reply(IAC, WILL, NAWS);
        this.sendNaws(o.naws.width, o.naws.height).catch(() => {});
      } else if (opt === TTYPE && o.ttype) this.#reply(IAC, WILL, TTYPE);
      else this.#reply(IAC, WONT, opt);
    }
    void CHARSET;
  }

  /** Handles a subnegotiation; true when it starts MCCP2. */
  #subneg(sb: number[]): boolean {
    const [opt, ...rest] = sb;
    if (opt === MCCP2) return true;
    if (opt === TTYPE && rest[0] === 1 && this.#opts.ttype) {
      const names = Array.isArray(this.#opts.ttype) ? this.#opts.ttype : [this.#opts.ttype];
      const next = names[Math.min(this.#ttypeAnswers++, names.length - 1)];
      const name = new TextEncoder().encode(next);
      this.#reply(IAC, SB, TTYPE, 0, ...name, IAC, SE);
    } else if (opt === GMCP) {
      const text = new TextDecoder().decode(Uint8Array.from(rest));
      const sp = text.indexOf(" ");
      const pkg = sp === -1 ? text : text.slice(0, sp);
      let data: unknown;
      try {
        data = sp === -1 ? undefined : JSON.parse(text.slice(sp + 1));
      } catch { /* keep undefined */ }
      this.gmcp.push({ package: pkg, data });
    } else if (opt === MSSP) {
      const table: Record<string, string> = {};
      let name = "";
      let cur: number[] = [];
      let mode = 0;
      const end = () => {
        const s = new TextDecoder().decode(Uint8Array.from(cur));
        if (mode === 1) name = s;
        else if (mode === 2) table[name] = s;
        cur = [];
      };
      for (const b of rest) {
        if (b === 1 || b === 2) {
          end();
          mode = b;
        } else cur.push(b);
      }
      end();
      this.mssp = table;
    }
    return false;
  }
}
