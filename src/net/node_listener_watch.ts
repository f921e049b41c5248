/**
 * A watch on a listener of Deno's Node layer (`net.Server`; the telnet sidecar takes its sockets
 * with one because only Node's sockets give up their descriptor). When an accept fails with
 * `Too many open files`, that layer stops accepting for good: no `error` event, `listening`
 * still true, and the port takes connections into its backlog that nobody ever accepts. So the
 * watch dials the listener every few seconds; two dials in a row that connect but are not
 * accepted within a second mean the accept loop stalled, and the server is closed and listens
 * again on the same address (what waited in the old backlog is reset; new connections are
 * served). A dial that cannot even be made for want of descriptors is retried at the next turn.
 */
import net from "node:net";

/** Settings of the watch. */
export interface NodeListenerWatchOptions {
  /** Between two dials (default 5 s). */
  everyMs?: number;
  /** How long a dial may wait to be accepted (default 1 s). */
  acceptMs?: number;
  /** Starts each log line, e.g. `telnet`. */
  label: string;
  log: (line: string) => void;
}

/** Watches one `net.Server` (see the module's comment). */
export class NodeListenerWatch {
  readonly #server: net.Server;
  readonly #o: NodeListenerWatchOptions;
  readonly #timer: ReturnType<typeof setInterval>;
  /** Local ports of the dials not yet accepted. */
  readonly #pending = new Set<number>();
  #stopped = false;
  #reopening = false;
  /** Dials in a row that connected and were not accepted. */
  #misses = 0;

  /** Starts watching `server`, which must be listening. */
  constructor(server: net.Server, o: NodeListenerWatchOptions) {
    this.#server = server;
    this.#o = o;
    this.#timer = setInterval(() => this.#dial(), o.everyMs ?? 5_000);
    Deno.unrefTimer(this.#timer);
  }

  /**
   * True when `socket` is the watch's own dial, which the server's connection handler drops
   * before anything else (it is no client). Marks the dial accepted.
   */
  isOwnDial(socket: net.Socket): boolean {
    const port = socket.remotePort;
    if (port === undefined || !this.#pending.has(port)) return false;
    if (!isLoopback(socket.remoteAddress ?? "")) return false;
    this.#pending.delete(port);
    this.#misses = 0;
    socket.destroy();
    return true;
  }

  /** Stops dialling. */
  stop(): void {
    this.#stopped = true;
    clearInterval(this.#timer);
  }

  #dial(): void {
    if (this.#stopped || this.#reopening) return;
    const address = this.#server.address();
    if (address === null || typeof address === "string") return;
    const host = address.address === "0.0.0.0"
      ? "127.0.0.1"
      : address.address === "::"
      ? "::1"
      : address.address;
    // The dial's own port is chosen here, so that it is known before the server sees the
    // connection (both ends are this process; the server may see it first). One in use
    // already fails the dial, and the next turn picks another.
    const own = 32768 + Math.floor(Math.random() * 28000);
    const dial = net.connect({ host, port: address.port, localAddress: host, localPort: own });
    this.#pending.add(own);
    let connected = false;
    const wait = setTimeout(() => {
      dial.destroy();
      // Connected but never accepted: the accept loop stalled. (Not connected at all: out of
      // descriptors on this side too, or refused; the next turn tries again.)
      // Two in a row, so that one slow turn of a busy event loop reopens nothing.
      if (this.#pending.delete(own) && connected && !this.#stopped && ++this.#misses >= 2) {
        this.#misses = 0;
        this.#reopen(host, address.port);
      }
    }, this.#o.acceptMs ?? 1_000);
    Deno.unrefTimer(wait);
    dial.on("connect", () => connected = true);
    dial.on("error", () => {/* out of descriptors here too, or refused: next turn */});
    dial.on("close", () => {
      if (!connected && this.#pending.delete(own)) clearTimeout(wait);
    });
  }

  #reopen(host: string, port: number): void {
    this.#reopening = true;
    const address = this.#server.address();
    const bind = address !== null && typeof address !== "string" ? address.address : host;
    this.#o.log(
      `${this.#o.label}: the listener on ${bind}:${port} stopped accepting (out of ` +
        "descriptors?); reopening it",
    );
    this.#server.close();
    const listen = () => {
      if (this.#stopped) return;
      const failed = () => {
        // Taken meanwhile, or still out of descriptors: try again shortly.
        const again = setTimeout(listen, 1_000);
        Deno.unrefTimer(again);
      };
      this.#server.once("error", failed);
      this.#server.listen({ host: bind, port }, () => {
        this.#server.off("error", failed);
        this.#reopening = false;
        this.#o.log(`${this.#o.label}: listening again on ${bind}:${port}`);
      });
    };
    listen();
  }
}

function isLoopback(ip: string): boolean {
  return ip === "::1" || ip.startsWith("127.") || ip.startsWith("::ffff:127.");
}
