/**
 * The engine's LockWorld (src/world/locks.ts): what lock keys read of the world in memory
 * (carrying, owners, attributes through the parent chain, who may read them) and the softcode
 * evaluator for evaluation keys. Built once by the composition root; every lock check of the
 * engine, its commands and its plugins goes through it.
 */
import type { WorldReader } from "./live_world.ts";
import type { DbObject } from "./types.ts";
import type { Attribute } from "./attributes/types.ts";
import { canSeeAttr } from "./attributes/access.ts";
import { inheritedAttr, type InheritSource } from "./attributes/inherit.ts";
import { type LockSubject, type LockWorld, MAX_LOCK_NESTING } from "./locks.ts";

/** What the lock world is built from. */
export interface LockWorldParts {
  /** The world in memory (null on a shared database: keys that read it then fail closed). */
  world: () => WorldReader | null;
  /** One object's own attribute, from memory (no permission check). */
  peek(id: string, name: string): Attribute | null;
  /** Plain text of `code` run as `executor` with `enactor` as `%#` (the softcode evaluator). */
  evaluate(code: string, executor: string, enactor: string): string;
  /**
   * Told when an evaluation key is refused for nesting depth: its key fails there only, so a
   * verdict found meanwhile must not be kept as the world's (the evaluator's `begun` moves).
   */
  refused?(): void;
}

const NONE: readonly string[] = Object.freeze([]);

/** Nobody in particular: sees only what everyone may see. */
const NOBODY = Object.freeze({
  id: "-1",
  flags: Object.freeze([]) as readonly string[],
  owner: "-1",
});

/** The engine's lock world over its memory and evaluator. */
export class EngineLockWorld implements LockWorld {
  readonly #parts: LockWorldParts;
  readonly #inherit: InheritSource;
  /** Evaluation keys running now, one inside another (elock() in an evaluation key). */
  #evaluating = 0;

  constructor(parts: LockWorldParts) {
    this.#parts = parts;
    this.#inherit = {
      object: (id) => this.object(id),
      ownAttr: (id, name) => parts.world() ? parts.peek(id, name) : null,
    };
  }

  object(id: string): DbObject | null {
    return this.#parts.world()?.object(id) ?? null;
  }

  contents(id: string): readonly string[] {
    return this.#parts.world()?.contents(id) ?? NONE;
  }

  attr(id: string, name: string): Attribute | null {
    return inheritedAttr(this.#inherit, id, name.toUpperCase())?.attr ?? null;
  }

  canSeeAttr(viewer: DbObject | null, obj: DbObject, attr: Attribute): boolean {
    return canSeeAttr(viewer ?? NOBODY, obj, attr, this);
  }

  evaluate(code: string, executor: string, enactor: string): string | null {
    // An evaluation key whose code checks a lock whose key evaluates... ends here.
    if (this.#evaluating >= MAX_LOCK_NESTING) {
      this.#parts.refused?.();
      return null;
    }
    this.#evaluating++;
    try {
      return this.#parts.evaluate(code, executor, enactor);
    } finally {
      this.#evaluating--;
    }
  }

  /** The lock subject of an object: connected when it is a player with a connection. */
  subject(o: Pick<DbObject, "id" | "flags">, connected: boolean): LockSubject {
    return { id: `#${o.id}`, flags: o.flags, connected };
  }
}
