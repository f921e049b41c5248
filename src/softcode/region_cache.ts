/**
 * The `[...]` parts of lines players type, parsed (src/softcode/parse.ts). A typed line is seen
 * once, so it is parsed without the parsed-text cache, but its bracketed parts often repeat from
 * line to line (the same `think [...]` or `@pemit %#=[...]` around another text): a part is kept
 * from its second time on, by its text and flags, and a line whose parts are kept parses only the
 * text around them. Two generations, as the parsed-text cache, so nothing is walked to make room.
 */
import type { Program } from "./compile.ts";
import { SeenOnce } from "./seen_once.ts";

/** A part's program under one flag set, then the next flag set's. */
interface Part {
  readonly flags: number;
  readonly p: Program;
  readonly next: Part | undefined;
}

/** A kept part with its text (`RegionCache.recent`). */
export interface KeptPart {
  readonly text: string;
  readonly flags: number;
  readonly p: Program;
}

const RBRACKET = 0x5d;

/** Parsed parts of typed lines by their text (what lies between `[` and its `]`). */
export class RegionCache {
  #young = new Map<string, Part>();
  #old = new Map<string, Part>();
  /** The part found or kept last (see `recent`). */
  #last: KeptPart | null = null;
  readonly #seen: SeenOnce;
  constructor(readonly max: number) {
    this.#seen = new SeenOnce(max);
  }

  /**
   * The part found or kept last, when `src` holds its text from `from` and then a `]`: a run of
   * lines with the same part (one player's, or a crowd typing one command) finds it without
   * scanning its text for its end, cutting it out and hashing it. That `]` is where the scan
   * ends: the scan reads nothing past it, and read over the same characters it found the end
   * just after them before.
   */
  recent(src: string, from: number, flags: number): KeptPart | null {
    const l = this.#last;
    if (
      l === null || l.flags !== flags || src.charCodeAt(from + l.text.length) !== RBRACKET ||
      !src.startsWith(l.text, from)
    ) return null;
    return l;
  }

  /** The program kept for a part, or undefined. */
  get(text: string, flags: number): Program | undefined {
    let e = this.#young.get(text);
    if (e === undefined) {
      e = this.#old.get(text);
      if (e === undefined) return undefined;
      // Used again: back to the current generation.
      this.#old.delete(text);
      this.#put(text, e);
    }
    while (e !== undefined && e.flags !== flags) e = e.next;
    if (e === undefined) return undefined;
    this.#last = { text, flags, p: e.p };
    return e.p;
  }

  /** A part parsed in a line that parsed as a whole: kept the second time it is offered. */
  offer(text: string, flags: number, p: Program): void {
    if (!this.#seen.again(text, flags)) return;
    this.#put(text, { flags, p, next: this.#young.get(text) });
    this.#last = { text, flags, p };
  }

  #put(text: string, e: Part): void {
    if (this.#young.size >= this.max) {
      this.#old = this.#young;
      this.#young = new Map();
    }
    this.#young.set(text, e);
  }

  /** Number of parts kept (for tests). */
  get size(): number {
    return this.#young.size + this.#old.size;
  }

  /** Forgets every part (the function table or the parse depth changed). */
  clear(): void {
    this.#young.clear();
    this.#old.clear();
    this.#last = null;
    this.#seen.clear();
  }
}
