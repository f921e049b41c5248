/**
 * Work buffers a function reuses from call to call (sort()'s integer path), held by the
 * softcode engine: evaluations are synchronous and never overlap, and a buffer is used only
 * inside one call that evaluates nothing else. A paced call that writes fresh memory each time
 * pays for it in cold caches (docs/bench.md); these stay the same memory. Each grows to the
 * largest size asked (a list is at most the output limit) and is never shrunk.
 */
export class WorkBuffers {
  #int32: Int32Array[] = [new Int32Array(0), new Int32Array(0), new Int32Array(0)];
  #float64 = new Float64Array(0);
  #bytes = new Uint8Array(0);
  /** Reads the byte buffer as text (UTF-8, so ASCII bytes are their characters). */
  readonly #decoder = new TextDecoder();

  /** Int32 buffer `slot` (0 to 2) with room for at least `n` entries (its contents left over). */
  int32(slot: 0 | 1 | 2, n: number): Int32Array {
    const b = this.#int32[slot];
    return b.length >= n ? b : (this.#int32[slot] = new Int32Array(grown(n)));
  }

  /** The float64 buffer, with room for at least `n` entries. */
  float64(n: number): Float64Array {
    const b = this.#float64;
    return b.length >= n ? b : (this.#float64 = new Float64Array(grown(n)));
  }

  /** The byte buffer, with room for at least `n` bytes. */
  bytes(n: number): Uint8Array {
    const b = this.#bytes;
    return b.length >= n ? b : (this.#bytes = new Uint8Array(grown(n)));
  }

  /** The first `n` bytes of the byte buffer, ASCII characters written there, as a string. */
  ascii(n: number): string {
    return this.#decoder.decode(this.#bytes.subarray(0, n));
  }
}

/** A size of at least `n`, a power of two from 256 (so a few calls reach the largest). */
function grown(n: number): number {
  let size = 256;
  while (size < n) size *= 2;
  return size;
}
