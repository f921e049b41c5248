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
  /** The loops' byte buffers (enterLoop), by how many loops were running when each began. */
  readonly #loops: Uint8Array[] = [];
  #loopsRunning = 0;

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

  /**
   * The slot of a loop's own byte buffer, for a loop starting now, or -1 past MAX_LOOP_BUFFERS
   * loops running. A loop's items evaluate softcode, which may run loops (of this evaluation or
   * of one it starts, a lock's): each running loop has its own, given back by leaveLoop() when
   * it ends, innermost first.
   */
  enterLoop(): number {
    const slot = this.#loopsRunning;
    if (slot >= MAX_LOOP_BUFFERS) return -1;
    if (slot === this.#loops.length) this.#loops.push(new Uint8Array(grown(0)));
    this.#loopsRunning = slot + 1;
    return slot;
  }

  /** Gives back the innermost running loop's buffer (see enterLoop). */
  leaveLoop(): void {
    this.#loopsRunning--;
  }

  /** Loop buffer `slot` with room for at least `n` bytes, its first `kept` bytes kept. */
  loopBytes(slot: number, n: number, kept: number): Uint8Array {
    const b = this.#loops[slot];
    if (b.length >= n) return b;
    const more = new Uint8Array(grown(n));
    more.set(b.subarray(0, kept));
    return this.#loops[slot] = more;
  }

  /** The first `n` bytes of loop buffer `slot`, ASCII characters written there, as a string. */
  loopText(slot: number, n: number): string {
    return this.#decoder.decode(this.#loops[slot].subarray(0, n));
  }
}

/** How many loops running at once have a byte buffer (deeper ones join their results). */
const MAX_LOOP_BUFFERS = 8;

/** Whether every character of `s` is ASCII. */
export function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 127) return false;
  return true;
}

/**
 * Writes `s` into `buf` from `at` (room known) when every character is ASCII: the offset after
 * it, or -1 (some of it written) when one is not.
 */
export function writeAscii(buf: Uint8Array, at: number, s: string): number {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 127) return -1;
    buf[at + i] = c;
  }
  return at + s.length;
}

/** A size of at least `n`, a power of two from 256 (so a few calls reach the largest). */
function grown(n: number): number {
  let size = 256;
  while (size < n) size *= 2;
  return size;
}
