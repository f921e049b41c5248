/**
 * Texts seen once, remembered by a hash rather than held: the parsed-text caches keep a text's
 * program from its second time on, so a text seen once (a typed line, an iter() item) is
 * parsed and dropped instead of pushing a program that is used again out of the cache.
 */

/**
 * A hash of a text and flags (a collision keeps a text parsed a time early). Every character
 * counts: typed lines differ in a few characters anywhere (a counter in a marker), and a sample
 * of every other character of a line over 256 missed such a difference half the time, keeping
 * those lines as if seen twice. Texts are cut to the output limit before they get here, and the
 * parse that follows reads every character anyway.
 */
function textHash(text: string, flags: number): number {
  const n = text.length;
  let h = Math.imul(flags ^ n, 0x9e3779b1);
  for (let i = 0; i < n; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h;
}

/** The hashes of texts seen once, in two generations of at most `max` each. */
export class SeenOnce {
  #seen = new Set<number>();
  #older = new Set<number>();
  constructor(readonly max: number) {}

  /**
   * True when the text (with its flags) was seen before, and it is forgotten; false the first
   * time, and it is remembered. A full generation becomes the older one (nothing is walked).
   */
  again(text: string, flags: number): boolean {
    const h = textHash(text, flags);
    if (this.#seen.delete(h) || this.#older.delete(h)) return true;
    if (this.#seen.size >= this.max) {
      this.#older = this.#seen;
      this.#seen = new Set();
    }
    this.#seen.add(h);
    return false;
  }

  /** Forgets every text. */
  clear(): void {
    this.#seen.clear();
    this.#older.clear();
  }
}
