/**
 * A small WebSocket test client for black-box tests of the hub: connect with a
 * token and client kind, send lines or JSON frames, and wait for a matching
 * message while buffering the others.
 */

/** One received message. For `web`/`telnet` clients `msg` and `data` come from the JSON frame. */
export interface WsMessage {
  /**
   * Text of the message: JSON `msg`, or for plain clients the frame with ANSI
   * escapes and the trailing CR/LF removed (`raw` keeps them).
   */
  msg: string;
  /** Structured data of a JSON frame (`{}` when absent or for plain clients). */
  // deno-lint-ignore no-explicit-any
  data: Record<string, any>;
  /** The frame as received (string, or bytes for a binary frame). */
  raw: string | Uint8Array;
  /** When it arrived (performance.now()). */
  at: number;
}

/** What `expect` waits for: a pattern tested against `msg`, or a predicate. */
export type WsMatcher = RegExp | ((m: WsMessage) => boolean);

/** Connection options. */
export interface WsClientOptions {
  /** Access token, sent as `?token=`. */
  token?: string;
  /** Client kind, sent as `?client=` (omitted: the hub's default, `plain`). */
  client?: "web" | "telnet" | "plain";
  /** Extra query parameters. */
  query?: Record<string, string>;
  /** Path on the server (default `/`; use `/ws` with the HTTP port). */
  path?: string;
  /** Milliseconds to wait for the connection to open (default 5000). */
  openTimeout?: number;
  /** Handshake headers (the telnet sidecar's secret). */
  headers?: Record<string, string>;
}

/** Where to connect: a server from tests/harness.ts (uses its `ws` port), a port, or a full URL. */
export type WsTarget = { ws: number } | number | string;

function urlOf(target: WsTarget, opts: WsClientOptions): string {
  let url: URL;
  if (typeof target === "string") url = new URL(target);
  else {
    const port = typeof target === "number" ? target : target.ws;
    url = new URL(`ws://127.0.0.1:${port}${opts.path ?? "/"}`);
  }
  if (opts.token !== undefined) url.searchParams.set("token", opts.token);
  if (opts.client) url.searchParams.set("client", opts.client);
  for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, v);
  return url.toString();
}

// deno-lint-ignore no-control-regex
const ANSI = /\x1b\[[0-9;]*[A-Za-z]/g;

function describe(m: WsMatcher): string {
  return m instanceof RegExp ? String(m) : "predicate";
}

/** A connected test client. Always `close()` it (Deno's test sanitizers check). */
export class WsClient {
  /** Messages received and not yet consumed by `expect`. */
  readonly buffer: WsMessage[] = [];
  /** Every message received, consumed or not. */
  readonly all: WsMessage[] = [];
  /** Resolves with the close event once the socket is closed (by either side). */
  readonly closed: Promise<CloseEvent>;
  readonly #ws: WebSocket;
  readonly #json: boolean;
  #waiters: Array<{ match: WsMatcher; resolve: (m: WsMessage) => void }> = [];
  #closeEvent: CloseEvent | null = null;

  private constructor(ws: WebSocket, json: boolean) {
    this.#ws = ws;
    this.#json = json;
    ws.binaryType = "arraybuffer";
    ws.onmessage = (e) => this.#receive(e.data);
    this.closed = new Promise((resolve) => {
      ws.addEventListener("close", (e) => {
        this.#closeEvent = e;
        resolve(e);
      });
    });
  }

  /** Opens a connection and resolves once it is open. */
  static connect(target: WsTarget, opts: WsClientOptions = {}): Promise<WsClient> {
    const ws = new WebSocket(urlOf(target, opts), { headers: opts.headers });
    const client = new WsClient(ws, opts.client === "web" || opts.client === "telnet");
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        ws.close();
        reject(new Error("WebSocket did not open in time"));
      }, opts.openTimeout ?? 5000);
      ws.addEventListener("open", () => {
        clearTimeout(timer);
        resolve(client);
      }, { once: true });
      ws.addEventListener("error", () => {
        clearTimeout(timer);
        reject(new Error("WebSocket failed to open"));
      }, { once: true });
    });
  }

  /** True while the socket is open. */
  get isOpen(): boolean {
    return this.#ws.readyState === WebSocket.OPEN;
  }

  /** The close event, once closed. */
  get closeEvent(): CloseEvent | null {
    return this.#closeEvent;
  }

  /** Sends one command line as a text frame. */
  send(line: string): void {
    this.#ws.send(line);
  }

  /** Sends a JSON frame (e.g. `{ type: "auth", token }`). */
  sendJson(frame: unknown): void {
    this.#ws.send(JSON.stringify(frame));
  }

  /** Sends a raw text or binary frame. */
  sendRaw(data: string | Uint8Array): void {
    this.#ws.send(data);
  }

  /**
   * Resolves with the first buffered or future message that matches, removing
   * it from the buffer (others stay buffered); rejects after `timeoutMs`.
   */
  expect(match: WsMatcher, timeoutMs = 5000): Promise<WsMessage> {
    const i = this.buffer.findIndex((m) => this.#matches(match, m));
    if (i !== -1) return Promise.resolve(this.buffer.splice(i, 1)[0]);
    return new Promise((resolve, reject) => {
      const waiter = {
        match,
        resolve: (m: WsMessage) => {
          clearTimeout(timer);
          resolve(m);
        },
      };
      const timer = setTimeout(() => {
        this.#waiters = this.#waiters.filter((w) => w !== waiter);
        const seen = this.buffer.map((m) => JSON.stringify(m.msg)).join("\n  ");
        reject(
          new Error(
            `timed out after ${timeoutMs} ms waiting for ${describe(match)}; buffered:\n  ${seen}`,
          ),
        );
      }, timeoutMs);
      this.#waiters.push(waiter);
    });
  }

  /** Resolves true if a matching message arrives (or is buffered) within `ms`, without consuming it. */
  async sees(match: WsMatcher, ms: number): Promise<boolean> {
    const end = Date.now() + ms;
    while (Date.now() < end) {
      if (this.buffer.some((m) => this.#matches(match, m))) return true;
      await new Promise((r) => setTimeout(r, 20));
    }
    return this.buffer.some((m) => this.#matches(match, m));
  }

  /** Waits `ms` and returns how many buffered messages match. */
  async countAfter(match: WsMatcher, ms: number): Promise<number> {
    await new Promise((r) => setTimeout(r, ms));
    return this.buffer.filter((m) => this.#matches(match, m)).length;
  }

  /** Drops every buffered message. */
  clear(): void {
    this.buffer.length = 0;
  }

  /** Closes the socket (if still open) and waits until it is closed. */
  async close(): Promise<void> {
    if (this.#ws.readyState === WebSocket.CONNECTING || this.#ws.readyState === WebSocket.OPEN) {
      this.#ws.close();
    }
    await this.closed;
  }

  #matches(match: WsMatcher, m: WsMessage): boolean {
    return match instanceof RegExp ? match.test(m.msg) : match(m);
  }

  #receive(raw: string | ArrayBuffer): void {
    const at = performance.now();
    let m: WsMessage;
    if (typeof raw !== "string") {
      m = { msg: "", data: {}, raw: new Uint8Array(raw), at };
    } else if (this.#json) {
      try {
        const obj = JSON.parse(raw);
        m = {
          msg: typeof obj?.msg === "string" ? obj.msg : "",
          data: obj?.data && typeof obj.data === "object" ? obj.data : {},
          raw,
          at,
        };
      } catch {
        m = { msg: raw, data: {}, raw, at };
      }
    } else {
      m = { msg: raw.replace(ANSI, "").replace(/\r?\n$/, ""), data: {}, raw, at };
    }
    this.all.push(m);
    const i = this.#waiters.findIndex((w) => this.#matches(w.match, m));
    if (i !== -1) {
      const [w] = this.#waiters.splice(i, 1);
      w.resolve(m);
      return;
    }
    this.buffer.push(m);
  }
}

/** Shorthand for `WsClient.connect`. */
export function connectWs(target: WsTarget, opts: WsClientOptions = {}): Promise<WsClient> {
  return WsClient.connect(target, opts);
}

/**
 * A sender that spaces lines at least `gapMs` apart, so a test that types quickly stays
 * under the hub's 10-commands-a-second limit instead of having lines dropped.
 */
export function pacedSender(ws: WsClient, gapMs = 110): (line: string) => Promise<void> {
  let last = 0;
  return async (line: string) => {
    const wait = last + gapMs - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    last = Date.now();
    ws.send(line);
  };
}
