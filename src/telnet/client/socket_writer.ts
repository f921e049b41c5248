/** A bounded, ordered output queue in front of one TCP socket. */
import { concatBytes } from "../protocol/bytes.ts";

/** The part of a socket the writer needs (a `Deno.Conn` fits). */
export interface WritableSocket {
  write(bytes: Uint8Array): Promise<number>;
}

/** Settings for {@linkcode SocketWriter}. */
export interface SocketWriterOptions {
  /** Bytes that may wait unsent; one byte more and `onOverflow` fires (default 1 MiB). */
  maxQueuedBytes?: number;
  /** Called once when the queue overflows (the client stopped reading). */
  onOverflow: () => void;
  /** Called once when a write fails (the socket is gone). */
  onError: (error: unknown) => void;
}

/**
 * Queues bytes and writes them in order. Whatever piled up while a write was in flight goes out
 * as one write, so a burst of replies costs one syscall and one packet where it can.
 * A client that never reads makes the queue grow until `onOverflow`; nothing is ever unbounded.
 *
 * A fan-out to a room writes one line to each of a thousand of these at once, so a write
 * allocates nothing it can do without: no async function and its awaits (two callbacks bound
 * once, per writer), no view of a chunk written whole, no fresh queue or resolver list per write.
 */
export class SocketWriter {
  readonly #socket: WritableSocket;
  readonly #max: number;
  readonly #onOverflow: () => void;
  readonly #onError: (error: unknown) => void;
  readonly #queue: Uint8Array[] = [];
  #queued = 0;
  /** The chunk being written, and how much of it is out; null when no write is in flight. */
  #chunk: Uint8Array | null = null;
  #at = 0;
  #failed = false;
  #idle: (() => void)[] | null = null;
  readonly #written = (n: number): void => this.#afterWrite(n);
  readonly #writeFailed = (error: unknown): void => this.#error(error);

  constructor(socket: WritableSocket, opts: SocketWriterOptions) {
    this.#socket = socket;
    this.#max = opts.maxQueuedBytes ?? 1024 * 1024;
    this.#onOverflow = opts.onOverflow;
    this.#onError = opts.onError;
  }

  /** Bytes waiting to be written. */
  get queuedBytes(): number {
    return this.#queued;
  }

  /** True once the queue overflowed or a write failed; later writes are dropped. */
  get failed(): boolean {
    return this.#failed;
  }

  /** Queues bytes (never blocks). */
  write(bytes: Uint8Array): void {
    if (this.#failed || bytes.length === 0) return;
    if (this.#queued + bytes.length > this.#max) {
      this.#fail();
      this.#onOverflow();
      return;
    }
    if (this.#chunk === null) {
      // Nothing in flight (the usual case): straight out, without a trip through the queue.
      this.#start(bytes);
      return;
    }
    this.#queue.push(bytes);
    this.#queued += bytes.length;
  }

  /** Resolves when everything queued so far is written (or the writer failed). */
  idle(): Promise<void> {
    if (this.#chunk === null || this.#failed) return Promise.resolve();
    return new Promise((resolve) => (this.#idle ??= []).push(resolve));
  }

  /** Starts writing what is queued, as one chunk; or, with nothing queued, goes idle. */
  #next(): void {
    if (this.#queue.length === 0 || this.#failed) {
      this.#chunk = null;
      this.#settle();
      return;
    }
    const chunk = concatBytes(this.#queue);
    this.#queue.length = 0;
    this.#queued = 0;
    this.#start(chunk);
  }

  #start(chunk: Uint8Array): void {
    this.#chunk = chunk;
    this.#at = 0;
    this.#send();
  }

  #send(): void {
    const chunk = this.#chunk!;
    try {
      this.#socket.write(this.#at === 0 ? chunk : chunk.subarray(this.#at))
        .then(this.#written, this.#writeFailed);
    } catch (error) {
      this.#error(error);
    }
  }

  #afterWrite(n: number): void {
    if (this.#failed) {
      this.#chunk = null;
      return;
    }
    this.#at += n;
    if (this.#at < this.#chunk!.length) this.#send();
    else this.#next();
  }

  #error(error: unknown): void {
    this.#chunk = null;
    if (this.#failed) return;
    this.#fail();
    this.#onError(error);
  }

  #fail(): void {
    this.#failed = true;
    this.#queue.length = 0;
    this.#queued = 0;
    this.#settle();
  }

  /** Resolves the `idle()` promises waiting. */
  #settle(): void {
    const waiting = this.#idle;
    if (waiting === null) return;
    this.#idle = null;
    for (const resolve of waiting) resolve();
  }
}
