/** MCCP2: one zlib stream per connection, flushed after every write. */

import {
  constants,
  createDeflate,
  createDeflateRaw,
  type Deflate,
  type DeflateRaw,
} from "node:zlib";

/** Settings for {@linkcode Mccp2Compressor}. */
export interface Mccp2CompressorOptions {
  /** zlib level 0-9 (default 6). */
  level?: number;
  /** Called once if zlib fails; the stream is dead afterwards and the connection should close. */
  onError?: (error: Error) => void;
  /**
   * Continue a stream another compressor began (in a process that is gone): raw deflate blocks,
   * no zlib header. Every write of ours ended on a sync flush, a byte-aligned block boundary, so
   * the client's inflater reads the new blocks as more of the same stream; they refer back only
   * to what this compressor itself sent. Only the checksum that ends a stream cannot be right
   * (it covers data this process never saw): `end()` sends zeros for it.
   */
  continued?: boolean;
}

/**
 * Compresses everything written into one zlib stream and hands the output to `sink` in order.
 *
 * Every write is sync-flushed (Z_SYNC_FLUSH), so the client can inflate each reply as soon as it
 * arrives instead of waiting for more output. Node's zlib has no synchronous streaming API, so
 * output reaches `sink` asynchronously (usually within the same turn of the event loop); use
 * {@linkcode Mccp2Compressor.flushed} to wait for it.
 */
export class Mccp2Compressor {
  readonly #deflate: Deflate | DeflateRaw;
  readonly #continued: boolean;
  readonly #sink: (bytes: Uint8Array) => void;
  #ended: Promise<void> | null = null;
  #failed = false;
  #discarded = false;
  #last: Promise<void> = Promise.resolve();

  /** Starts a zlib stream whose output goes to `sink`. */
  constructor(sink: (bytes: Uint8Array) => void, options: Mccp2CompressorOptions = {}) {
    // The flush option makes every write one sync-flushed zlib call, so each reply comes out as
    // one chunk: one socket write, decodable on arrival.
    const settings = { flush: constants.Z_SYNC_FLUSH, level: options.level ?? 6 };
    this.#continued = options.continued ?? false;
    this.#deflate = this.#continued ? createDeflateRaw(settings) : createDeflate(settings);
    this.#sink = sink;
    this.#deflate.on("data", (chunk: Uint8Array) => {
      if (!this.#failed && !this.#discarded) {
        sink(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      }
    });
    this.#deflate.on("error", (error: Error) => {
      if (this.#failed) return;
      this.#failed = true;
      options.onError?.(error);
    });
  }

  /** True until the stream is ended or has failed. */
  get active(): boolean {
    return this.#ended === null && !this.#failed;
  }

  /** Compresses `bytes` and flushes; ignored after `end()` or a failure. */
  write(bytes: Uint8Array): void {
    if (!this.active || bytes.length === 0) return;
    this.#last = new Promise((resolve) => {
      this.#deflate.write(bytes, () => resolve());
    });
  }

  /** Resolves once the output of every write so far has been handed to the sink. */
  flushed(): Promise<void> {
    return this.#ended ?? this.#last;
  }

  /** True when this compressor continues another's stream (see `continued`). */
  get continued(): boolean {
    return this.#continued;
  }

  /**
   * Drops the stream without ending it, for a connection that is closing, and frees zlib's
   * state at once (about 200 KB that is otherwise never given back): nothing more reaches the
   * sink. Call it once the output written so far is out (`flushed()`).
   */
  discard(): void {
    if (this.#discarded) return;
    this.#discarded = true;
    this.#ended ??= Promise.resolve();
    this.#deflate.close();
  }

  /**
   * Finishes the stream (Z_FINISH) and resolves once its last bytes reached the sink. A continued
   * stream ends with a zero checksum (a client that turns MCCP2 off after a restart may say the
   * check failed; closing the connection needs no end at all).
   */
  end(): Promise<void> {
    if (this.#ended !== null) return this.#ended;
    if (this.#failed) return this.#ended = Promise.resolve();
    this.#ended = new Promise((resolve) => {
      let once = false;
      const done = () => {
        if (once) return;
        once = true;
        // The raw stream's end has no checksum; the client's inflater expects one.
        if (this.#continued && !this.#failed) this.#sink(new Uint8Array(4));
        resolve();
      };
      this.#deflate.once("end", done);
      this.#deflate.once("close", done);
      this.#deflate.once("error", done);
      this.#deflate.end();
    });
    return this.#ended;
  }
}
