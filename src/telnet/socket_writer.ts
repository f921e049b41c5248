/** A bounded, ordered output queue in front of one TCP socket. */
import { concatBytes } from "./bytes.ts";

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
 */
export class SocketWriter {
  readonly #socket: WritableSocket;
  readonly #max: number;
  readonly #onOverflow: () => void;
  readonly #onError: (error: unknown) => void;
  #queue: Uint8Array[] = [];
  #queued = 0;
  #writing = false;
  #failed = false;
  #idle: (() => void)[] = [];

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
    this.#queue.push(bytes);
    this.#queued += bytes.length;
    if (!this.#writing) this.#pump();
  }

  /** Resolves when everything queued so far is written (or the writer failed). */
  idle(): Promise<void> {
    if (!this.#writing || this.#failed) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  async #pump(): Promise<void> {
    this.#writing = true;
    try {
      while (this.#queue.length > 0 && !this.#failed) {
        const chunk = concatBytes(this.#queue);
        this.#queue = [];
        this.#queued = 0;
        let at = 0;
        while (at < chunk.length) at += await this.#socket.write(chunk.subarray(at));
      }
    } catch (error) {
      if (!this.#failed) {
        this.#fail();
        this.#onError(error);
      }
    } finally {
      this.#writing = false;
      for (const resolve of this.#idle.splice(0)) resolve();
    }
  }

  #fail(): void {
    this.#failed = true;
    this.#queue = [];
    this.#queued = 0;
    for (const resolve of this.#idle.splice(0)) resolve();
  }
}
