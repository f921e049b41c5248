/**
 * Lists iter() and list() split at spaces, kept by their text: softcode walks the same list
 * again and again (an attribute's list read with get(), lwho() from line to line), and
 * splitting 1,000 words made 48 KiB of garbage and a fifth of iter()'s time each call. A split
 * depends on the text alone (the items and whether all are inert: template.ts), so a text
 * equal to a kept one gets the kept split, and no write anywhere can make it stale.
 */
import { splitInert } from "./template.ts";

/** A list split at spaces (splitInert): read-only, since it may be shared by later loops. */
export interface SplitList {
  readonly items: readonly string[];
  readonly inert: boolean;
}

/**
 * Shorter lists are split each time: cheap to split, and kept they would push the long ones
 * out (an inner iter()'s short list, split once for each outer item).
 */
const MIN_KEPT = 64;

/** The last few long lists split, by their text (one per engine: Softcode.splits). */
export class SplitLists {
  readonly #texts: string[] = [];
  readonly #splits: SplitList[] = [];
  #next = 0;

  constructor(readonly size: number) {}

  /** The list split at spaces, as splitInert gives it. */
  get(s: string): SplitList {
    if (s.length < MIN_KEPT) return splitInert(s);
    const texts = this.#texts;
    // The same string is found by identity; an equal one made anew (lwho() each line) by its
    // characters, and an unequal one mostly by its length.
    for (let i = 0; i < texts.length; i++) if (texts[i] === s) return this.#splits[i];
    const split = splitInert(s);
    const at = this.#next;
    this.#next = (at + 1) % this.size;
    texts[at] = s;
    this.#splits[at] = split;
    return split;
  }

  /** Forgets every kept list (tests). */
  clear(): void {
    this.#texts.length = 0;
    this.#splits.length = 0;
    this.#next = 0;
  }
}
