/**
 * The byte stream under one telnet player, whichever process holds it: a Deno TCP socket in the
 * sidecar (TLS, or no descriptor passing), or a descriptor the sidecar handed to the engine
 * (src/telnet/handoff/adopted.ts). A {@linkcode TelnetClient} runs the same way on either.
 */
import { SocketWriter } from "./socket_writer.ts";

/** Size of each Deno socket's read buffer. */
const READ_BUFFER_BYTES = 512;

/** Why a transport ended: the peer went away or failed, or it stopped reading our output. */
export type TransportEnd = "closed" | "overflow";

/** What a transport reports to its client. */
export interface TransportHandlers {
  /** One read's bytes. */
  data(bytes: Uint8Array): void;
  /** Called once when the socket is done: closed by the peer, failed, or output overflowed. */
  end(why: TransportEnd): void;
}

/** The byte stream of one telnet player. */
export interface TelnetTransport {
  /** The player's address. */
  readonly ip: string;
  /** Starts reading; writes are accepted before this. */
  start(handlers: TransportHandlers): void;
  /** Queues bytes, in order, bounded (beyond the bound `end("overflow")`). */
  write(bytes: Uint8Array): void;
  /** Bytes queued and not yet taken by the socket (about: a write under way may not count). */
  readonly queued: number;
  /** Resolves once everything written so far is out (or the socket failed). */
  idle(): Promise<void>;
  /** Closes the socket: the player is disconnected. */
  close(): void;
  /** Stops reading, for good: the socket is being handed to another process. */
  pause?(): void;
  /**
   * Stops reading for `ms` (the client sent more than its input budget); the kernel and TCP hold
   * back what comes meanwhile. Ignored while already held, paused or closed.
   */
  throttle(ms: number): void;
  /** Closes this process's hold on the socket only; the connection stays up for the next. */
  release?(): void;
  /** The socket's descriptor, where this process has one of its own to hand on. */
  readonly fd?: number;
}

/** A Deno TCP (or TLS) socket as a transport. */
export class ConnTransport implements TelnetTransport {
  readonly ip: string;
  readonly #conn: Deno.TcpConn;
  readonly #writer: SocketWriter;
  #handlers: TransportHandlers | null = null;
  #ended = false;
  /** While throttled: the wait the read loop sits in, and how to end it early. */
  #held: Promise<void> | null = null;
  #unhold: (() => void) | null = null;
  #holdTimer: ReturnType<typeof setTimeout> | undefined;

  /** Wraps `conn`; at most `maxQueuedBytes` of output wait for a client that does not read. */
  constructor(conn: Deno.TcpConn, maxQueuedBytes: number) {
    this.#conn = conn;
    this.ip = (conn.remoteAddr as Deno.NetAddr).hostname ?? "";
    // Replies are single writes; without this each would wait ~40 ms on delayed ACKs.
    conn.setNoDelay(true);
    this.#writer = new SocketWriter(conn, {
      maxQueuedBytes,
      onOverflow: () => this.#end("overflow"),
      onError: () => this.#end("closed"),
    });
  }

  /** Starts the read loop. */
  start(handlers: TransportHandlers): void {
    this.#handlers = handlers;
    this.#read();
  }

  /** Queues bytes for the socket. */
  write(bytes: Uint8Array): void {
    this.#writer.write(bytes);
  }

  /** Bytes waiting behind the write under way. */
  get queued(): number {
    return this.#writer.queuedBytes;
  }

  /** Resolves once the queue is written. */
  idle(): Promise<void> {
    return this.#writer.idle();
  }

  /** Closes the socket. */
  close(): void {
    try {
      this.#conn.close();
    } catch { /* already closed */ }
    this.#unhold?.();
  }

  /** The read loop waits `ms` before its next read. */
  throttle(ms: number): void {
    if (this.#held !== null || this.#ended) return;
    this.#held = new Promise((resolve) => {
      this.#unhold = () => {
        clearTimeout(this.#holdTimer);
        this.#held = this.#unhold = null;
        resolve();
      };
      this.#holdTimer = setTimeout(this.#unhold, ms);
    });
  }

  async #read(): Promise<void> {
    // Held by every idle player's pending read: typed lines are short, and a paste just takes
    // more reads, which the line framer joins (16 KiB here was a third of the sidecar's memory
    // per player).
    const buf = new Uint8Array(READ_BUFFER_BYTES);
    try {
      for (;;) {
        const n = await this.#conn.read(buf);
        if (n === null) break;
        this.#handlers!.data(buf.subarray(0, n));
        if (this.#held !== null) await this.#held;
      }
    } catch { /* reset by peer or closed by us */ }
    this.#end("closed");
  }

  #end(why: TransportEnd): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#unhold?.();
    this.#handlers?.end(why);
  }
}
