/**
 * The engine side of the script-process protocol: one JSON object a line in each direction.
 * Engine → process: `load`, `run`, `res` (the answer to an operation). Process → engine:
 * `ready`, `loaded`, `op` (an SDK operation of a running call), `done`. The process is
 * untrusted: every line is size-capped before it is parsed and every field is checked.
 */

/** Longest line the engine reads from a script process (a 1 MB message is refused by this). */
export const MAX_FRAME = 128 * 1024;

/** A message of either side, parsed. */
// deno-lint-ignore no-explicit-any
export type Frame = Record<string, any>;

/** Splits a byte stream into lines, refusing any line longer than `max` bytes. */
export class LineSplitter {
  readonly #max: number;
  readonly #decoder = new TextDecoder();
  #parts: Uint8Array[] = [];
  #size = 0;

  constructor(max: number) {
    this.#max = max;
  }

  /** The complete lines in `chunk` (with what came before); throws RangeError on an over-long one. */
  push(chunk: Uint8Array): string[] {
    const lines: string[] = [];
    let start = 0;
    for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, start)) {
      this.#add(chunk.subarray(start, i));
      lines.push(this.#take());
      start = i + 1;
    }
    this.#add(chunk.subarray(start));
    return lines;
  }

  #add(part: Uint8Array): void {
    if (!part.length) return;
    this.#size += part.length;
    if (this.#size > this.#max) {
      throw new RangeError(`a message of more than ${this.#max} bytes`);
    }
    this.#parts.push(part.slice());
  }

  #take(): string {
    const all = new Uint8Array(this.#size);
    let off = 0;
    for (const p of this.#parts) {
      all.set(p, off);
      off += p.length;
    }
    this.#parts = [];
    this.#size = 0;
    return this.#decoder.decode(all);
  }
}

/** Encodes one message as a line. */
export function encodeFrame(msg: Frame): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(msg) + "\n");
}

/** Parses a line into a message object, or null when it is not one. */
export function parseFrame(line: string): Frame | null {
  try {
    const v = JSON.parse(line);
    return v && typeof v === "object" && !Array.isArray(v) ? v : null;
  } catch {
    return null;
  }
}
