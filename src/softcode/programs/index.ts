/**
 * The index of program attributes (`$-commands`, `^-listens`: ./entries.ts), so matching a line
 * never scans attributes. Per object, its programs by attribute, read once when first asked and
 * kept up to date by the attribute store's watch (every write, clear, flag change, failed-commit
 * repair and destroy passes through it); a restart builds it again, lazily, from what the store
 * loaded. `$-commands` are grouped by their literal prefix (`+who` of `+who *`), so a line is
 * tried only against the patterns it could match: a handful of map lookups however many
 * patterns there are. The master room's contents have one such index over all of them, rebuilt
 * when one of their programs changes or something enters or leaves the room. Per location, what
 * in it could offer a `$-command` is kept too, so a line in a crowded room looks at those alone.
 */
import type { WorldReader } from "../../world/live_world.ts";
import type { LiveAttributes } from "../../world/attributes/store.ts";
import { parentOf } from "../../world/parents.ts";
import { type ProgramEntry, programOf } from "./entries.ts";

/** Longest prefix keyed (a longer literal prefix is keyed by its start). */
const MAX_KEY = 12;

/** Most locations whose possible `$-command` holders are remembered (past it, memory restarts). */
const MAX_OFFER_PLACES = 10_000;

const NONE: readonly ProgramEntry[] = Object.freeze([]);
const NONE_IDS: readonly string[] = Object.freeze([]);

/** `$-commands` grouped by literal prefix; `candidates` keeps their order. */
class PrefixIndex {
  readonly #byKey = new Map<string, ProgramEntry[]>();
  readonly #always: ProgramEntry[] = [];
  readonly #order = new Map<ProgramEntry, number>();
  readonly size: number;

  constructor(entries: readonly ProgramEntry[]) {
    this.size = entries.length;
    for (const [i, e] of entries.entries()) {
      this.#order.set(e, i);
      if (!e.prefix) {
        this.#always.push(e);
        continue;
      }
      const key = e.prefix.slice(0, MAX_KEY);
      const list = this.#byKey.get(key);
      if (list) list.push(e);
      else this.#byKey.set(key, [e]);
    }
  }

  /** The entries whose literal prefix `lower` (the line, lower-cased) starts with, in order. */
  candidates(lower: string): readonly ProgramEntry[] {
    if (!this.size) return NONE;
    let out: ProgramEntry[] | null = this.#always.length ? [...this.#always] : null;
    let parts = out ? 1 : 0;
    const n = Math.min(MAX_KEY, lower.length);
    for (let i = 1; i <= n; i++) {
      const list = this.#byKey.get(lower.slice(0, i));
      if (!list) continue;
      for (const e of list) {
        // A prefix longer than the key must still be the line's.
        if (e.prefix.length > MAX_KEY && !lower.startsWith(e.prefix)) continue;
        (out ??= []).push(e);
      }
      parts++;
    }
    if (!out) return NONE;
    if (parts > 1) out.sort((a, b) => this.#order.get(a)! - this.#order.get(b)!);
    return out;
  }
}

/** One object's programs. */
interface Held {
  /** By attribute name, in name order when built (later additions at the end). */
  byAttr: Map<string, ProgramEntry>;
  dollar: PrefixIndex | null;
  caret: readonly ProgramEntry[] | null;
}

/** What in a location could offer `$-commands`, and what that was worked out from. */
interface Offerers {
  /** The location's contents as the world listed them (a new list whenever one of them changes). */
  contents: readonly string[];
  /** `#holderGeneration` then: an object that comes to hold a program makes a new one. */
  generation: number;
  ids: readonly string[];
}

/** What the index reads. */
export interface ProgramSources {
  /** The world in memory (null: not held; then nothing is indexed). */
  world(): WorldReader | null;
  attributes: Pick<LiveAttributes, "names" | "peek"> & {
    readonly live: boolean;
    /** Ids of the objects holding stored attributes. */
    holders(): Iterable<string>;
    watch(fn: (objectId: string, name: string) => void): () => void;
  };
  /** The master room's id (`softcode.masterRoom`), or "" for none. */
  masterRoom(): string;
}

/** The program index; see the module comment. */
export class ProgramIndex {
  readonly #src: ProgramSources;
  readonly #held = new Map<string, Held>();
  readonly #unwatch: () => void;
  // The master room's index and what it was built from.
  /**
   * Ids of the objects holding any program attribute, made by one pass over the store when first
   * asked, then kept: most objects near a player hold none and are passed over at once.
   */
  #holders: Set<string> | null = null;
  #global: PrefixIndex | null = null;
  #globalRoom = "";
  #globalContents: readonly string[] | null = null;
  /**
   * Per location, what in it could offer `$-commands` (see `offerersIn`), so a typed line looks
   * at those alone rather than at every player in the room.
   */
  readonly #offerers = new Map<string, Offerers>();
  /** Counts objects added to `#holders` (an object never leaves it: it then offers nothing). */
  #holderGeneration = 0;

  constructor(src: ProgramSources) {
    this.#src = src;
    this.#unwatch = src.attributes.watch((id, name) => this.#attrChanged(id, name));
  }

  /** Stops following the attribute store. */
  close(): void {
    this.#unwatch();
  }

  /** True while the world is in memory (otherwise no object has programs). */
  get active(): boolean {
    return this.#src.attributes.live && this.#src.world() !== null;
  }

  /** True when `objectId` itself holds a `$-command` or `^-listen` (any flags). */
  holds(objectId: string): boolean {
    if (!this.#holders) {
      this.#holders = new Set();
      if (!this.active) return false;
      const attrs = this.#src.attributes;
      for (const id of attrs.holders()) {
        for (const name of attrs.names(id)) {
          const v = attrs.peek(id, name)?.value;
          if (v && (v[0] === "$" || v[0] === "^") && v.includes(":")) {
            this.#holders.add(id);
            break;
          }
        }
      }
    }
    return this.#holders.has(objectId);
  }

  /**
   * The objects in `location` (a room, or what a player carries), exits apart, that could offer
   * `$-commands`: holding a program, with a parent, or with a use lock (MUX tests a use lock
   * before it reads any attribute); in the location's order. Worked out again only when the
   * location's contents change (the world lists them anew when one enters, leaves, or is written
   * in any way: its parent, locks or flags) or an object comes to hold a program.
   */
  offerersIn(location: string): readonly string[] {
    const world = this.#src.world();
    if (!world || !this.active) return NONE_IDS;
    this.holds("");
    const contents = world.contents(location);
    const held = this.#offerers.get(location);
    if (held && held.contents === contents && held.generation === this.#holderGeneration) {
      return held.ids;
    }
    const ids: string[] = [];
    for (const id of contents) {
      const o = world.object(id);
      // An exit's type flag is stored in lower case, as typeOf reads it.
      if (!o || o.flags.includes("exit")) continue;
      if (this.#holders!.has(id) || parentOf(o) || o.data?.locks?.use) ids.push(id);
    }
    if (this.#offerers.size >= MAX_OFFER_PLACES) this.#offerers.clear();
    this.#offerers.set(location, { contents, generation: this.#holderGeneration, ids });
    return ids;
  }

  /** The `^-listens` on `objectId` itself (no parents), in attribute-name order. */
  listens(objectId: string): readonly ProgramEntry[] {
    const h = this.#get(objectId);
    return h ? h.caret ??= this.#ofKind(h, "^") : NONE;
  }

  /** The `$-commands` on `objectId` itself that a line (lower-cased) could match, in order. */
  commands(objectId: string, lower: string): readonly ProgramEntry[] {
    const h = this.#get(objectId);
    if (!h || !h.byAttr.size) return NONE;
    h.dollar ??= new PrefixIndex(this.#ofKind(h, "$"));
    return h.dollar.candidates(lower);
  }

  /**
   * The `$-commands` of the master room's contents (then of the room itself, as MUX checks
   * them) that a line (lower-cased) could match, in order.
   */
  masterCommands(lower: string): readonly ProgramEntry[] {
    const world = this.#src.world();
    const room = this.#src.masterRoom();
    if (!world || !room || !world.object(room)) return NONE;
    const contents = world.contents(room);
    if (!this.#global || this.#globalRoom !== room || this.#globalContents !== contents) {
      const all: ProgramEntry[] = [];
      for (const id of [...contents, room]) all.push(...this.#ofKind(this.#get(id), "$"));
      this.#global = new PrefixIndex(all);
      this.#globalRoom = room;
      this.#globalContents = contents;
    }
    return this.#global.candidates(lower);
  }

  #ofKind(h: Held | null, kind: "$" | "^"): ProgramEntry[] {
    const out: ProgramEntry[] = [];
    if (h) { for (const e of h.byAttr.values()) if (e.kind === kind) out.push(e); }
    return out;
  }

  #get(objectId: string): Held | null {
    const held = this.#held.get(objectId);
    if (held) return held;
    if (this.#holders && !this.#holders.has(objectId)) return null;
    const world = this.#src.world();
    if (!world || !this.#src.attributes.live || !world.object(objectId)) return null;
    const byAttr = new Map<string, ProgramEntry>();
    const attrs = this.#src.attributes;
    for (const name of attrs.names(objectId)) {
      const a = attrs.peek(objectId, name);
      const e = a && programOf(objectId, a);
      if (e) byAttr.set(name, e);
    }
    const h: Held = { byAttr, dollar: null, caret: null };
    this.#held.set(objectId, h);
    return h;
  }

  #attrChanged(objectId: string, name: string): void {
    const v = this.#holders ? this.#src.attributes.peek(objectId, name)?.value : undefined;
    if (v && (v[0] === "$" || v[0] === "^") && !this.#holders!.has(objectId)) {
      this.#holders!.add(objectId);
      this.#holderGeneration++;
      this.#global = null;
    }
    const h = this.#held.get(objectId);
    if (!h) return;
    const world = this.#src.world();
    if (!world?.object(objectId)) {
      // Destroyed: its attributes go one by one; the object's entry goes with the first.
      this.#held.delete(objectId);
      this.#global = null;
      return;
    }
    const a = this.#src.attributes.peek(objectId, name);
    const next = a ? programOf(objectId, a) : null;
    const before = h.byAttr.get(name);
    if (!before && !next) return;
    if (next) {
      if (before) {
        // Keep its place: the order programs run in stays the attribute order.
        const rebuilt = new Map<string, ProgramEntry>();
        for (const [k, v] of h.byAttr) rebuilt.set(k, k === name ? next : v);
        h.byAttr = rebuilt;
      } else this.#insertSorted(h, name, next);
    } else h.byAttr.delete(name);
    h.dollar = null;
    h.caret = null;
    const room = this.#globalRoom;
    if (room && (objectId === room || world.object(objectId)?.location === room)) {
      this.#global = null;
    }
  }

  #insertSorted(h: Held, name: string, e: ProgramEntry): void {
    const all = [...h.byAttr.entries(), [name, e] as [string, ProgramEntry]];
    all.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    h.byAttr = new Map(all);
  }
}
