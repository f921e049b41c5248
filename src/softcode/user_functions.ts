/**
 * Global user-defined functions (`@function`, MUX's rules): a name that runs an attribute of an
 * object as a function, with its arguments as %0-%9. Built-in functions come first: a name a
 * built-in has cannot be defined. A `privileged` function runs as the object that holds it
 * (else as whoever calls it); a `preserve` one leaves the caller's registers as they were.
 * Unlike MUX (which forgets them at each start), definitions are kept in the database and
 * loaded at start.
 */
import { type FunctionDef, MAX_ARGS, MAX_FUNCTION_NAME } from "./types.ts";
import type { FunctionRegistry } from "./functions/define.ts";
import type { Evaluation } from "./eval.ts";
import { type CallNode, newAttrSite } from "./compile.ts";
import { keys } from "../storage/keys.ts";

/** A user-defined function as it is kept. */
export interface UserFunctionRecord {
  /** Upper-case name. */
  name: string;
  /** The object holding the code (an id, no `#`). */
  obj: string;
  /** The attribute holding the code (upper-case). */
  attr: string;
  /** Runs as the object that holds it. */
  privileged: boolean;
  /** The caller's registers are restored after it. */
  preserve: boolean;
  /** When it was first defined (ms since the epoch): `@function` lists them in that order. */
  at: number;
}

/** Where the definitions are kept (the engine's database: src/engine.ts). */
export interface UserFunctionStore {
  all(): Promise<UserFunctionRecord[]>;
  put(r: UserFunctionRecord): Promise<void>;
  delete(name: string): Promise<void>;
}

/**
 * Names a user function may take: a letter or `_`, then letters, digits, `_`, `.` and `-`.
 * (MUX takes any text, spaces included, which no call could then spell.)
 */
const NAME_RE = /^[A-Z_][A-Z0-9_.-]*$/;

/** The name as it is kept (upper case), or null when it is not a valid one. */
export function userFunctionName(name: string): string | null {
  const upper = name.trim().toUpperCase();
  return upper.length <= MAX_FUNCTION_NAME && NAME_RE.test(upper) ? upper : null;
}

/** The definitions of a game: its store and the function table they are added to. */
export class UserFunctions {
  readonly #table: FunctionRegistry;
  readonly #store: UserFunctionStore;
  /** By name, in the order they were defined (the order `@function` lists them). */
  readonly #defs = new Map<string, UserFunctionRecord>();

  constructor(table: FunctionRegistry, store: UserFunctionStore) {
    this.#table = table;
    this.#store = store;
  }

  /**
   * Reads the kept definitions into the table. One that a built-in now shadows (a later
   * version added a function of that name) is reported and kept, but not callable.
   */
  async load(warn: (m: string) => void): Promise<number> {
    for (const r of await this.#store.all()) {
      if (this.isBuiltin(r.name)) {
        warn(`softcode: @function ${r.name} is shadowed by the built-in function of that name`);
      } else {
        this.#table.add(userFunctionDef(r));
      }
      this.#defs.set(r.name, r);
    }
    return this.#defs.size;
  }

  /** True when a built-in function (or alias) has this upper-case name. */
  isBuiltin(name: string): boolean {
    return !!this.#table.get(name) && !this.#defs.has(name);
  }

  /** The definitions, in the order they were made. */
  list(): UserFunctionRecord[] {
    return [...this.#defs.values()];
  }

  /** The definition of a name, or undefined. */
  get(name: string): UserFunctionRecord | undefined {
    return this.#defs.get(name);
  }

  /** Defines (or redefines) a function: kept first, then callable. */
  async define(def: Omit<UserFunctionRecord, "at">, now = Date.now()): Promise<void> {
    if (this.isBuiltin(def.name)) throw new Error(`${def.name} is a built-in function`);
    // A redefinition keeps its place in the list, as MUX's does.
    const r = { ...def, at: this.#defs.get(def.name)?.at ?? now };
    await this.#store.put(r);
    this.#defs.set(r.name, r);
    this.#table.add(userFunctionDef(r));
  }

  /** Deletes a function; false when there was none of that name. */
  async delete(name: string): Promise<boolean> {
    if (!this.#defs.has(name)) return false;
    await this.#store.delete(name);
    this.#defs.delete(name);
    this.#table.remove(name);
    return true;
  }
}

/** The function a definition makes: its attribute, read at each call, run as MUX runs it. */
function userFunctionDef(r: UserFunctionRecord): FunctionDef<Evaluation> {
  // Every field of a built-in's, in define.ts's order: one shape for the evaluator's call site.
  return {
    name: r.name,
    minArgs: 0,
    maxArgs: MAX_ARGS,
    parseArgs: MAX_ARGS,
    lazy: false,
    staff: undefined,
    raw: undefined,
    reads: undefined,
    help: undefined,
    impl: (ev, frame, args, call?: CallNode) => {
      const attr = ev.ports.attributes.get(r.obj, r.attr);
      if (!attr?.value) return "";
      const f = {
        executor: r.privileged ? r.obj : frame.executor,
        caller: frame.executor,
        enactor: frame.enactor,
        args,
      };
      // The call keeps the program of the text it ran last, as u()'s does (evalAttrAt): a +who
      // row of SGP's calls isstaff() twice and ostaff() once, and each looked its parse up.
      const site = call === undefined ? null : (call.site ??= newAttrSite(null, null, null));
      if (!r.preserve) {
        return site === null ? ev.evalAttr(f, attr.value) : ev.evalAttrAt(f, attr.value, site);
      }
      const saved = new Map(ev.regs);
      try {
        return site === null ? ev.evalAttr(f, attr.value) : ev.evalAttrAt(f, attr.value, site);
      } finally {
        ev.regs = saved;
      }
    },
    num: undefined,
  };
}

/** Checks a stored record's shape (a damaged entry is skipped, never trusted). */
function isRecord(v: unknown): v is UserFunctionRecord {
  const r = v as UserFunctionRecord;
  return !!r && typeof r === "object" && typeof r.name === "string" &&
    userFunctionName(r.name) === r.name && typeof r.obj === "string" &&
    typeof r.attr === "string" && typeof r.privileged === "boolean" &&
    typeof r.preserve === "boolean" && typeof r.at === "number";
}

/** The definitions kept in the engine's database, one entry each (src/storage/keys.ts). */
export function kvUserFunctionStore(kv: Deno.Kv): UserFunctionStore {
  return {
    async all() {
      const out: UserFunctionRecord[] = [];
      for await (const e of kv.list({ prefix: keys.userFunctions() })) {
        if (isRecord(e.value)) out.push(e.value);
      }
      // In the order they were defined, as MUX lists them.
      return out.sort((a, b) => a.at - b.at);
    },
    async put(r) {
      await kv.set(keys.userFunction(r.name), r);
    },
    async delete(name) {
      await kv.delete(keys.userFunction(name));
    },
  };
}
