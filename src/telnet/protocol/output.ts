/** The ordered outgoing byte stream of one connection, with MCCP2 switched on and off in it. */

import { Mccp2Compressor } from "./mccp.ts";

/** Settings for {@linkcode OutputPipe}. */
export interface OutputPipeOptions {
  /** zlib level for MCCP2 (default 6). */
  compressionLevel?: number;
  /** Called when the sink throws or zlib fails; the connection should then be closed. */
  onError?: (error: unknown) => void;
}

type Op =
  | { kind: "data"; bytes: Uint8Array }
  | { kind: "start"; marker: Uint8Array | null }
  | { kind: "stop" };

/**
 * Delivers bytes to `sink` in exactly the order they were written, compressing while MCCP2 is on.
 *
 * Ending a zlib stream is asynchronous, so anything written while compression is being stopped
 * waits in a backlog until the stream's last bytes are out; otherwise plain bytes could overtake it.
 */
export class OutputPipe {
  /** The sink as given, called by `#send` (plain output, the bulk of it, takes no wrapper). */
  readonly #raw: (bytes: Uint8Array) => void;
  readonly #options: OutputPipeOptions;
  #compressor: Mccp2Compressor | null = null;
  #backlog: Op[] | null = null;
  #stopping: Promise<void> = Promise.resolve();
  #closed = false;

  /** Creates a pipe that writes to `sink` (for example a socket's write). */
  constructor(sink: (bytes: Uint8Array) => void, options: OutputPipeOptions = {}) {
    this.#options = options;
    this.#raw = sink;
  }

  /** True while output is being compressed (or will be, once queued output is out). */
  get compressing(): boolean {
    return this.#compressor !== null;
  }

  /** True once {@linkcode OutputPipe.close} was called. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Writes bytes that are already telnet-encoded. */
  write(bytes: Uint8Array): void {
    if (bytes.length === 0 || this.#closed) return;
    if (this.#backlog === null && this.#compressor === null) this.#send(bytes);
    else this.#dispatch({ kind: "data", bytes });
  }

  #send(bytes: Uint8Array): void {
    try {
      this.#raw(bytes);
    } catch (error) {
      this.#options.onError?.(error);
    }
  }

  /** Writes `marker` uncompressed, then compresses everything after it. */
  startCompression(marker: Uint8Array): void {
    this.#enqueue({ kind: "start", marker });
  }

  /**
   * Goes on compressing a stream that another process began (the connection was handed over
   * while MCCP2 was on): no marker, raw deflate blocks (see Mccp2Compressor's `continued`).
   */
  continueCompression(): void {
    this.#enqueue({ kind: "start", marker: null });
  }

  /** Ends the zlib stream; later output is sent plain. */
  stopCompression(): void {
    this.#enqueue({ kind: "stop" });
  }

  /** Resolves once everything written so far has reached the sink. */
  async idle(): Promise<void> {
    for (;;) {
      const stopping = this.#stopping;
      await stopping;
      const compressor = this.#compressor;
      if (compressor !== null) await compressor.flushed();
      if (stopping === this.#stopping && this.#backlog === null) return;
    }
  }

  /**
   * Delivers what is queued, ends compression, and drops anything written afterwards. A stream
   * continued from another process is discarded unended: its end could only carry a wrong
   * checksum (clients report it as a decompression error), and the connection is closing anyway.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.idle();
    const compressor = this.#compressor;
    this.#compressor = null;
    if (compressor === null) return;
    if (compressor.continued) compressor.discard();
    else await compressor.end();
  }

  #enqueue(op: Op): void {
    if (!this.#closed) this.#dispatch(op);
  }

  #dispatch(op: Op): void {
    if (this.#backlog !== null) {
      this.#backlog.push(op);
      return;
    }
    switch (op.kind) {
      case "data":
        if (this.#compressor !== null) this.#compressor.write(op.bytes);
        else this.#send(op.bytes);
        return;
      case "start":
        if (this.#compressor !== null) return;
        if (op.marker) this.#send(op.marker);
        this.#compressor = new Mccp2Compressor((bytes) => this.#send(bytes), {
          level: this.#options.compressionLevel,
          onError: this.#options.onError,
          continued: op.marker === null,
        });
        return;
      case "stop": {
        const compressor = this.#compressor;
        if (compressor === null) return;
        this.#compressor = null;
        const backlog: Op[] = [];
        this.#backlog = backlog;
        this.#stopping = compressor.end().then(() => {
          this.#backlog = null;
          for (const queued of backlog) this.#dispatch(queued);
        });
        return;
      }
    }
  }
}
