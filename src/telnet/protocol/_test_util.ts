/** Helpers shared by the telnet unit tests. */

/** A small seeded PRNG (mulberry32), so fuzz failures can be replayed. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Bytes from numbers and strings (strings as UTF-8). */
export function bytes(...parts: (number | string | Uint8Array)[]): Uint8Array {
  const out: number[] = [];
  for (const p of parts) {
    if (typeof p === "number") out.push(p);
    else if (typeof p === "string") out.push(...new TextEncoder().encode(p));
    else out.push(...p);
  }
  return Uint8Array.from(out);
}

/** Random bytes, biased towards telnet-significant values so the fuzz reaches every state. */
export function randomBytes(rand: () => number, length: number): Uint8Array {
  const special = [255, 255, 255, 250, 240, 251, 252, 253, 254, 13, 10, 0, 8, 127, 0xc3, 0xe2];
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) {
    out[i] = rand() < 0.3 ? special[Math.floor(rand() * special.length)] : Math.floor(rand() * 256);
  }
  return out;
}
