/**
 * Softcode programs in the world: `$-commands` a typed line may run, and what objects hear in
 * their room (`^-listens` on `monitor` objects, `@listen` with `@ahear`, `@amhear`, `@aahear`).
 * Matching is synchronous and reads the world in memory through the program index. What
 * matched is answered as jobs for the command queue, never run here, so a self-triggering
 * program is stopped by the queue's quota (docs/softcode.md, "$-commands and listening").
 */
import type { RegexpCache } from "../regexp_cache.ts";
import type { DbObject } from "../../world/types.ts";
import type { LiveAttributes } from "../../world/attributes/store.ts";
import { hasFlag } from "../../world/flags.ts";
import { stripColour } from "../../text/colour.ts";
import type { LockWorld } from "../../world/locks.ts";
import { ProgramIndex, type ProgramSources } from "./index.ts";
import { type LineForms, matchCommands, mayUse, type ProgramMatch } from "./dollar.ts";
import { matchProgram } from "./entries.ts";
import { wildCapture } from "../wild_capture.ts";
import { inheritedAttr, type InheritSource } from "../../world/attributes/inherit.ts";
import type { WorldReader } from "../../world/live_world.ts";

export { ProgramIndex } from "./index.ts";
export type { ProgramMatch } from "./dollar.ts";
export type { ProgramEntry } from "./entries.ts";

/** One action for the queue: `action` run as `executor`, caused by `enactor`, with `%0`–`%9`. */
export interface ProgramJob {
  executor: string;
  enactor: string;
  caller: string;
  action: string;
  args: string[];
}

/** What the programs read. */
export interface ProgramPorts extends ProgramSources {
  attributes: ProgramSources["attributes"] & Pick<LiveAttributes, "peek">;
  /** The softcode engine's compiled regular expressions. */
  regexps: RegexpCache;
  /** What use locks read (the engine's lock world). */
  locks: LockWorld | null;
}

/** The master room's id from `softcode.masterRoom` (`#2` or `2`), or "" for none. */
export function masterRoomId(setting: string): string {
  const m = /^\s*#?(\d{1,15})\s*$/.exec(String(setting ?? ""));
  return m ? String(Number(m[1])) : "";
}

/** The text attributes `@listen` fires, by whether the hearer heard itself. */
const HEAR_OTHER = ["AHEAR", "AAHEAR"] as const;
const HEAR_SELF = ["AMHEAR", "AAHEAR"] as const;

const NO_IDS: readonly string[] = Object.freeze([]);

/** Most rooms whose listening things are remembered (past it, the memory starts again). */
const MAX_LISTEN_ROOMS = 10_000;

/** The things of a room that may hear, and what that was worked out from. */
interface RoomListeners {
  /** The room's things as the world listed them (a new list whenever one of them changes). */
  things: readonly string[];
  /** `#listenGeneration` then: a LISTEN attribute set or cleared anywhere makes a new one. */
  generation: number;
  ids: readonly string[];
}

/** `$-commands` and listening; see the module comment. */
export class Programs {
  readonly index: ProgramIndex;
  readonly #ports: ProgramPorts;
  /** Attribute lookup through the `@parent` chain (`@ahear` and its kin, as MUX's did_it). */
  readonly #inherit: InheritSource;
  /**
   * Per room, the things in it that may hear (`monitor`, a LISTEN of their own, or `puppet`),
   * so what is said is offered to them alone rather than to every thing there. Worked out again
   * when the room's things change (the world gives a new list when one moves, or its flags
   * change) or a LISTEN attribute does.
   */
  readonly #listeners = new Map<string, RoomListeners>();
  #listenGeneration = 0;
  readonly #unwatch: () => void;

  constructor(ports: ProgramPorts) {
    this.#ports = ports;
    this.index = new ProgramIndex(ports);
    this.#inherit = {
      object: (id) => ports.world()?.object(id) ?? null,
      ownAttr: (id, name) => ports.attributes.peek(id, name),
    };
    this.#unwatch = ports.attributes.watch((_id, name) => {
      if (name === "LISTEN") this.#listenGeneration++;
    });
    // Learn who holds programs now, at start, rather than in the first line that needs it.
    this.index.holds("");
  }

  /** Stops following the attribute store. */
  close(): void {
    this.index.close();
    this.#unwatch();
  }

  /**
   * Whether `o` listens, as MUX's Hearer() counts it: a non-empty `@listen` of its own, or, set
   * `monitor`, a `^-listen` that is not switched off.
   */
  listens(o: DbObject): boolean {
    // A shared database (KV Connect) holds no attributes in memory: nothing listens there.
    if (!this.index.active) return false;
    if (this.#ports.attributes.peek(o.id, "LISTEN")?.value) return true;
    if (!hasFlag(o.flags, "monitor")) return false;
    return this.index.listens(o.id).some((e) => !e.off);
  }

  /** The `$-commands` `line` matches for `actor` in `room`, in the order they run. */
  match(
    actor: DbObject,
    room: DbObject | null,
    line: LineForms,
    more: () => boolean = () => true,
  ): ProgramMatch[] {
    const world = this.#ports.world();
    if (!world) return [];
    return matchCommands(
      {
        world,
        attributes: this.#ports.attributes,
        index: this.index,
        regexps: this.#ports.regexps,
        locks: this.#ports.locks,
        more,
      },
      actor,
      room,
      line,
    );
  }

  /** The queue jobs of what `match` found: each action as its object, `actor` the enactor. */
  jobs(actor: DbObject, found: readonly ProgramMatch[]): ProgramJob[] {
    return found.map((m) => ({
      executor: m.executor,
      enactor: actor.id,
      caller: actor.id,
      action: m.entry.action,
      args: m.args,
    }));
  }

  /**
   * What `roomId` and the objects in it hear of `msg`, said or shown by `from` (colour codes
   * allowed; the hearers match it without them). Objects in `exclude` hear nothing. Players
   * do not listen (MUX's player_listen is off); a halted object hears nothing; `^-listens`
   * need the `monitor` flag and never hear the object's own output; `@listen` fires `@ahear`
   * (someone else) or `@amhear` (itself), then `@aahear`. The use lock guards both. Answers
   * the actions to queue, in order; once `more()` is false (its time is up: Softcode.metered),
   * no one further hears it. The things in the room whose own `@listen` matched are added to
   * `passes` (MUX passes the message on to what is inside them, whatever their use lock).
   */
  heard(
    roomId: string,
    from: string,
    msg: string,
    exclude: readonly string[] = [],
    more: () => boolean = () => true,
    passes: string[] = [],
  ): ProgramJob[] {
    const out: ProgramJob[] = [];
    const p = this.#parties(roomId, from);
    if (!p) return out;
    const { world, target: room, sender } = p;
    const text = plainOnce(msg);
    // Things and the room listen; players (MUX's player_listen off) and exits do not.
    this.#hearIn(room, sender, text, exclude, out, more);
    for (const id of this.#listenersIn(world, roomId)) {
      const o = world.object(id);
      if (o && this.#hearIn(o, sender, text, exclude, out, more)) passes.push(id);
    }
    return out;
  }

  /**
   * What `objectId` makes of `msg` told to it alone by `from` (`@pemit`: MUX's
   * notify_with_cause), by `heard`'s rules; a player or an exit hears nothing. Answers the
   * actions to queue; `passes` gets the object when its own `@listen` matched (MUX passes the
   * message on to what is inside it).
   */
  told(
    objectId: string,
    from: string,
    msg: string,
    more: () => boolean = () => true,
    passes: string[] = [],
  ): ProgramJob[] {
    const out: ProgramJob[] = [];
    const p = this.#parties(objectId, from);
    if (!p || hasFlag(p.target.flags, "player") || hasFlag(p.target.flags, "exit")) return out;
    if (this.#hearIn(p.target, p.sender, plainOnce(msg), [], out, more)) passes.push(objectId);
    return out;
  }

  /** The world and the objects `id` and `from`, when programs run and both exist. */
  #parties(
    id: string,
    from: string,
  ): { world: WorldReader; target: DbObject; sender: DbObject } | null {
    const world = this.#ports.world();
    if (!world || !this.index.active) return null;
    const target = world.object(id);
    const sender = world.object(from);
    return target && sender ? { world, target, sender } : null;
  }

  /**
   * The things in `roomId` (a room, or any object things are in) that may hear what is shown
   * there, in its order: set `monitor` or `puppet`, or holding a LISTEN of their own (MUX's
   * Hearer(), players aside). From memory, worked out again only when they change.
   */
  hearersIn(roomId: string): readonly string[] {
    const world = this.#ports.world();
    return world && this.index.active ? this.#listenersIn(world, roomId) : NO_IDS;
  }

  /** The things in `roomId` that may hear, in the room's order (see `#listeners`). */
  #listenersIn(world: WorldReader, roomId: string): readonly string[] {
    const things = world.contentsOfType(roomId, "thing");
    const held = this.#listeners.get(roomId);
    if (held && held.things === things && held.generation === this.#listenGeneration) {
      return held.ids;
    }
    const ids = things.filter((id) => {
      const o = world.object(id);
      return !!o && (hasFlag(o.flags, "monitor") || hasFlag(o.flags, "puppet") ||
        !!this.#ports.attributes.peek(id, "LISTEN"));
    });
    if (this.#listeners.size >= MAX_LISTEN_ROOMS) this.#listeners.clear();
    this.#listeners.set(roomId, { things, generation: this.#listenGeneration, ids });
    return ids;
  }

  /** `#hear` for one not excluded nor halted; true when its own `@listen` matched. */
  #hearIn(
    o: DbObject,
    sender: DbObject,
    text: () => string,
    exclude: readonly string[],
    out: ProgramJob[],
    more: () => boolean,
  ): boolean {
    if (exclude.includes(o.id) || hasFlag(o.flags, "halt")) return false;
    return this.#hear(o, sender, text, out, more);
  }

  /** What `o` makes of the message; true when its own `@listen` matched. */
  #hear(
    o: DbObject,
    sender: DbObject,
    text: () => string,
    out: ProgramJob[],
    more: () => boolean,
  ): boolean {
    const monitor = hasFlag(o.flags, "monitor");
    const listen = this.#ports.attributes.peek(o.id, "LISTEN");
    if (!monitor && !listen) return false;
    // Only now: a room that does not listen (most) costs a message no evaluation's start.
    if (!more()) return false;
    const heard = listen ? wildCapture(listen.value, text(), more) : null;
    if (!heard && !(monitor && sender.id !== o.id)) return false;
    if (!mayUse(this.#ports.locks, o, sender)) return !!heard;
    if (heard) {
      // Read through the parent chain, as MUX's did_it reads every action attribute.
      for (const name of sender.id === o.id ? HEAR_SELF : HEAR_OTHER) {
        const a = inheritedAttr(this.#inherit, o.id, name)?.attr;
        if (a && a.value !== "") out.push(job(o.id, sender.id, a.value, heard));
      }
    }
    if (!monitor || sender.id === o.id) return !!heard;
    for (const e of this.index.listens(o.id)) {
      if (e.off) continue;
      if (!more()) break;
      const args = matchProgram(e, text(), this.#ports.regexps, more);
      if (args) out.push(job(o.id, sender.id, e.action, args));
    }
    return !!heard;
  }
}

function job(executor: string, enactor: string, action: string, args: string[]): ProgramJob {
  return { executor, enactor, caller: enactor, action, args };
}

/** `msg` without its colour codes, made once when first asked. */
function plainOnce(msg: string): () => string {
  let plain: string | null = null;
  return () => (plain ??= stripColour(msg));
}
