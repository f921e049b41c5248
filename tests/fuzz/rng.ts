/** A seeded random source (mulberry32) with the picks the generators need, so a seed replays a run. */

/** Seeded random numbers and picks. */
export class Rng {
  #a: number;

  constructor(seed: number) {
    this.#a = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.#a = (this.#a + 0x6d2b79f5) >>> 0;
    let t = this.#a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** One element of a non-empty list. */
  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.next() * list.length)];
  }

  /** One of several weighted producers, run. */
  weighted<T>(choices: readonly [number, () => T][]): T {
    const total = choices.reduce((s, [w]) => s + w, 0);
    let r = this.next() * total;
    for (const [w, f] of choices) {
      r -= w;
      if (r < 0) return f();
    }
    return choices[choices.length - 1][1]();
  }

  /** An independent generator derived from this one (a worker's own stream). */
  fork(): Rng {
    return new Rng(Math.floor(this.next() * 4294967296));
  }

  /** Random bytes. */
  bytes(n: number): Uint8Array {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) out[i] = this.int(0, 255);
    return out;
  }
}

/** A fresh random seed (32 bits). */
export function randomSeed(): number {
  return crypto.getRandomValues(new Uint32Array(1))[0];
}
