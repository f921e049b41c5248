/**
 * Attribute names as softcode writes them, and the references u(), get() and their kin read
 * (`#12/FOO`, `foo`, `me/foo`): those that name the same attribute whoever reads them are resolved
 * without the matcher, a bare name kept resolved (trimmed, checked and upper-cased once), a
 * `#12/FOO` cut anew at each call (see AttrRefs.get). What is kept is the text's meaning only,
 * never the world's: whether the object exists, the attribute and who may read it are looked up
 * at every call.
 */
import { plainDbref } from "./match.ts";

/** Attribute names MUX accepts: a letter or `_`, then letters, digits and `_-.'` etc. */
export function validAttrName(name: string): boolean {
  // The characters allowed leave out spaces, `/`, brackets, braces, `,` and `"`. Read by a
  // table, not a regular expression: u() asks it at every call (functions/control_test.ts
  // compares the two).
  const n = name.length;
  if (n === 0 || n > 64) return false;
  const c = name.charCodeAt(0);
  if (c >= 128 || ATTR_CHAR[c] !== 2) return false;
  for (let i = 1; i < n; i++) {
    const d = name.charCodeAt(i);
    if (d >= 128 || ATTR_CHAR[d] === 0) return false;
  }
  return true;
}

/** By ASCII code: 2 may start an attribute's name (a letter, `_`, `~`), 1 may follow, 0 not. */
const ATTR_CHAR: Uint8Array = (() => {
  const t = new Uint8Array(128);
  for (const ch of "0123456789-.'`!@#$%^&*+=|?:;<>") t[ch.charCodeAt(0)] = 1;
  for (let c = 65; c <= 90; c++) t[c] = t[c + 32] = 2;
  t[95] = t[126] = 2;
  return t;
})();

/** A valid attribute name (ASCII: validAttrName) in upper case, itself when it already is. */
export function upperName(name: string): string {
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c >= 97 && c <= 122) return name.toUpperCase();
  }
  return name;
}

/** A reference whose meaning does not depend on who reads it. */
export interface AttrRef {
  /** The object a plain `#123` names (its id), or null: the reader's own attribute (no `/`). */
  readonly id: string | null;
  /** The attribute's name: valid (validAttrName) and upper-case. */
  readonly name: string;
}

/** Kept for a text that needs the full match (`*bob/foo`, `here/foo`, a bad name). */
const LOOKER_BOUND: AttrRef = { id: null, name: "" };

/**
 * The longest text kept: a plain `#<16 digits>/<64-character name>` is 81 characters, with room
 * for a few spaces. A longer text is matched in full and not kept: kept, 4,096 of a player's
 * 8,000-character texts would hold 32 MB or more.
 */
export const MAX_KEPT_TEXT = 96;

/**
 * References resolved by their text (one per Softcode engine), at most `most` of them: when
 * full they are all dropped and made again as they are used (cheaper than finding the oldest).
 */
export class AttrRefs {
  #held = new Map<string, AttrRef>();
  readonly #most: number;

  constructor(most: number) {
    this.#most = most;
  }

  /**
   * What `ref` names when that does not depend on the reader: a plain `#123/<name>`, a bare
   * `<name>` or `me/<name>`, with a valid name; null for anything else (the caller matches it
   * in full).
   */
  get(ref: string): AttrRef | null {
    if (ref.length > MAX_KEPT_TEXT) return null;
    // A `#123/<name>` is cut anew: most are made at the call (`##/sex`, `[v(db)]/header`), and
    // a fresh text's lookup in the table cost a paced listing more than cutting it (the table
    // and its keys cold in cache: SGP's +who 0.95-0.97 of the CPU without it, docs/bench.md).
    if (ref.charCodeAt(0) === 35) return resolvedRef(ref);
    let r = this.#held.get(ref);
    if (r === undefined) {
      r = resolvedRef(ref) ?? LOOKER_BOUND;
      if (this.#held.size >= this.#most) this.#held = new Map();
      this.#held.set(ref, r);
    }
    return r === LOOKER_BOUND ? null : r;
  }

  /** Texts kept (for tests). */
  get size(): number {
    return this.#held.size;
  }
}

/**
 * parseObjAttr()'s answer for `ref` where it needs no looker (see AttrRefs.get): a plain
 * `#123/<name>`, or a bare `<name>` or `me/<name>` (the reader's own), with a valid name; null
 * for anything else.
 */
export function resolvedRef(ref: string): AttrRef | null {
  const at = ref.indexOf("/");
  if (at < 0) {
    const name = ref.trim();
    return validAttrName(name) ? { id: null, name: upperName(name) } : null;
  }
  const head = ref.slice(0, at);
  const id = plainDbref(head);
  // `me/<name>` is the reader's own, as a bare name is (the matcher's `me` is the looker).
  if (id === null && !isMe(head)) return null;
  const name = ref.slice(at + 1).trim();
  return validAttrName(name) ? { id, name: upperName(name) } : null;
}

/** True when `text` is `me` in any case, spaces around it allowed (matchThing's rule). */
function isMe(text: string): boolean {
  return text.length <= 16 && text.trim().toLowerCase() === "me";
}
