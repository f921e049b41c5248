/** Shapes of attributes, as held in memory, stored in Deno KV and refused. */
import type { AttrFlag } from "./flags.ts";

/** An attribute of an object. Held ones are frozen and shared: never change one. */
export interface Attribute {
  /** The canonical (upper-cased) name. */
  readonly name: string;
  /** The value: text of at most MAX_ATTR_VALUE characters, never empty (empty clears). */
  readonly value: string;
  /** Id of the player who owns it (MUX: the setter's owner); its bytes count on their quota. */
  readonly owner: string;
  /** Its flags, in canonical order. */
  readonly flags: readonly AttrFlag[];
}

/** What one attribute's KV entry (`keys.attribute(object, name)`) holds. */
export interface StoredAttribute {
  value: string;
  owner: string;
  flags?: AttrFlag[];
}

/** Why a write was refused, as commands, REST and softcode each report it. */
export type RefusalKind = "invalid" | "permission" | "not_found" | "quota";

/** A refused attribute operation: nothing was changed. */
export interface Refusal {
  kind: RefusalKind;
  /** A clear message for the player or the REST client. */
  message: string;
}

/** The outcome of a synchronous write: null when done, else why nothing was changed. */
export type WriteResult = Refusal | null;
