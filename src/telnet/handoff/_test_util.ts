/**
 * Helpers for the handoff tests: real TCP connections whose server side is a bare descriptor
 * (what the sidecar hands over), and a reader that collects what a TCP client receives.
 */
import net from "node:net";

/** A TCP connection on 127.0.0.1: the client's socket, and the server side as a descriptor. */
export interface TcpPair {
  client: Deno.TcpConn;
  /** A descriptor of the accepted socket (a duplicate; the caller owns it). */
  fd: number;
  /** Everything the client has received so far, as text (telnet commands included). */
  received(): string;
  /** The same, as the bytes that came. */
  bytes(): Uint8Array;
  /** Resolves when the client has received text matching `re`, or rejects after `ms`. */
  waitFor(re: RegExp, ms?: number): Promise<void>;
  /** True once the server side has ended the connection. */
  readonly ended: boolean;
  close(): Promise<void>;
}

/** Opens a TCP connection to a one-off server and returns both ends. */
export async function tcpPair(): Promise<TcpPair> {
  const server = net.createServer({ pauseOnConnect: true });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as net.AddressInfo).port;
  const accepted = new Promise<net.Socket>((r) => server.once("connection", r));
  const client = await Deno.connect({ hostname: "127.0.0.1", port });
  const socket = await accepted;
  // deno-lint-ignore no-explicit-any
  const fd: number = (socket as any)._handle.fdForIpc();
  socket.destroy();
  await new Promise((r) => server.close(r));
  let text = "";
  let ended = false;
  const chunks: Uint8Array[] = [];
  const reading = (async () => {
    const buf = new Uint8Array(16384);
    try {
      for (;;) {
        const n = await client.read(buf);
        if (n === null) break;
        chunks.push(buf.slice(0, n));
        // One character per byte (Latin-1; TextDecoder's "latin1" is windows-1252).
        text += String.fromCharCode(...buf.subarray(0, n));
      }
    } catch { /* closed */ }
    ended = true;
  })();
  return {
    client,
    fd,
    received: () => text,
    bytes: () => {
      const all = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
      let at = 0;
      for (const c of chunks) {
        all.set(c, at);
        at += c.length;
      }
      return all;
    },
    get ended() {
      return ended;
    },
    async waitFor(re: RegExp, ms = 5_000) {
      const end = Date.now() + ms;
      while (!re.test(text)) {
        if (Date.now() > end) {
          throw new Error(`timed out waiting for ${re}; got ${JSON.stringify(text)}`);
        }
        if (ended) throw new Error(`closed while waiting for ${re}; got ${JSON.stringify(text)}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    async close() {
      try {
        client.close();
      } catch { /* already closed */ }
      await reading;
    },
  };
}
