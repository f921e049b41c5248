/**
 * A WebSocket client written by hand over TCP, for frames a real client library refuses to
 * send (text that is not UTF-8, hand-made binary frames): it does the upgrade, writes masked
 * frames, and reads the server's frames, close frames included.
 */

/** One frame from the server. */
export interface RawFrame {
  opcode: number;
  payload: Uint8Array;
}

/** A hand-made WebSocket connection. */
export class RawWs {
  #buf = new Uint8Array(0);
  #eof = false;

  private constructor(private readonly conn: Deno.TcpConn) {}

  /** Connects to `port` and upgrades at `path`; throws unless the server answers 101. */
  static async open(port: number, path = "/"): Promise<RawWs> {
    const conn = await Deno.connect({ hostname: "127.0.0.1", port });
    const ws = new RawWs(conn);
    const key = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
    await ws.#write(
      `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
        `Sec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
    );
    const head = await ws.#readHead();
    if (!head.startsWith("HTTP/1.1 101")) {
      conn.close();
      throw new Error(`upgrade refused: ${head.split("\r\n")[0]}`);
    }
    return ws;
  }

  /** Sends one masked frame (opcode 1 text, 2 binary, 8 close) with `payload` as given. */
  async send(opcode: number, payload: Uint8Array | string, fin = true): Promise<void> {
    const data = typeof payload === "string" ? new TextEncoder().encode(payload) : payload;
    if (data.length > 0xffff) throw new Error("RawWs sends frames under 64 KiB only");
    const mask = crypto.getRandomValues(new Uint8Array(4));
    const len = data.length < 126
      ? [0x80 | data.length]
      : [0x80 | 126, data.length >> 8, data.length & 0xff];
    const frame = new Uint8Array([(fin ? 0x80 : 0) | opcode, ...len, ...mask, ...data]);
    for (let i = 0; i < data.length; i++) frame[frame.length - data.length + i] ^= mask[i % 4];
    await this.#write(frame);
  }

  /**
   * Reads frames until a close frame (returned) or the end of the stream (null: the socket
   * was dropped without a close frame). Gives up after `ms`.
   */
  async untilClose(ms = 15_000): Promise<{ frames: RawFrame[]; close: RawFrame | null }> {
    const frames: RawFrame[] = [];
    const timer = setTimeout(() => this.conn.close(), ms);
    try {
      for (;;) {
        const f = await this.#frame();
        if (!f) return { frames, close: null };
        if (f.opcode === 8) return { frames, close: f };
        frames.push(f);
      }
    } finally {
      clearTimeout(timer);
    }
  }

  /** Closes the TCP connection. */
  close(): void {
    try {
      this.conn.close();
    } catch { /* already closed */ }
  }

  async #write(data: string | Uint8Array): Promise<void> {
    let bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
    while (bytes.length) bytes = bytes.subarray(await this.conn.write(bytes));
  }

  /** Reads more bytes into the buffer; false at the end of the stream. */
  async #fill(): Promise<boolean> {
    if (this.#eof) return false;
    const chunk = new Uint8Array(65536);
    let n: number | null = null;
    try {
      n = await this.conn.read(chunk);
    } catch { /* reset or closed: the end */ }
    if (n === null) {
      this.#eof = true;
      return false;
    }
    const next = new Uint8Array(this.#buf.length + n);
    next.set(this.#buf);
    next.set(chunk.subarray(0, n), this.#buf.length);
    this.#buf = next;
    return true;
  }

  async #readHead(): Promise<string> {
    for (;;) {
      const text = new TextDecoder().decode(this.#buf);
      const end = text.indexOf("\r\n\r\n");
      if (end >= 0) {
        this.#buf = this.#buf.subarray(new TextEncoder().encode(text.slice(0, end + 4)).length);
        return text.slice(0, end);
      }
      if (!(await this.#fill())) return text;
    }
  }

  async #need(n: number): Promise<boolean> {
    while (this.#buf.length < n) if (!(await this.#fill())) return false;
    return true;
  }

  async #frame(): Promise<RawFrame | null> {
    if (!(await this.#need(2))) return null;
    const opcode = this.#buf[0] & 0x0f;
    let len = this.#buf[1] & 0x7f;
    let head = 2;
    if (len === 126) {
      if (!(await this.#need(4))) return null;
      len = (this.#buf[2] << 8) | this.#buf[3];
      head = 4;
    } else if (len === 127) {
      if (!(await this.#need(10))) return null;
      len = Number(new DataView(this.#buf.buffer, this.#buf.byteOffset + 2, 8).getBigUint64(0));
      head = 10;
    }
    if (!(await this.#need(head + len))) return null;
    const payload = this.#buf.slice(head, head + len);
    this.#buf = this.#buf.subarray(head + len);
    return { opcode, payload };
  }
}

/** The code of a close frame (1005 when it carries none). */
export function closeCode(f: RawFrame): number {
  return f.payload.length >= 2 ? (f.payload[0] << 8) | f.payload[1] : 1005;
}
