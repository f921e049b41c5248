/**
 * The engine side of the script SDK: each operation a script's sandbox asks for, carried out for
 * the acting player under the rules of the built-in commands (the same target lookup, the same
 * `canSee` / `controls` checks, the same limits as `@describe` and `PATCH /dbobj`). Nothing a
 * sandbox sends is trusted: every argument is type- and size-checked here. An operation answers
 * at once when the engine holds what it needs in memory (the actor, its room, the world and its
 * attributes while the engine is the database's only writer), and with a promise only where a
 * read has to wait; the sandbox goes on without leaving the event loop's turn in the first case.
 */
import type { CommandSdk } from "../commands/types.ts";
import type { DbObject } from "../world/types.ts";
import { canSeeSoon, controls } from "../world/access.ts";
import type { ControlWorld } from "../world/control.ts";
import { shownLocation, visibleContents } from "../world/visibility.ts";
import { findPlayer, NOT_HERE } from "../commands/target.ts";
import { CommandError } from "../commands/errors.ts";
import { checkLock, LockSyntaxError } from "../world/locks.ts";
import { subjectOf } from "../commands/sdk.ts";
import { canSeeOnline, visibleOnline } from "../hub/online.ts";
import { displayName } from "../world/players.ts";
import { MAX_DESCRIPTION } from "../world/patch.ts";
import { canSeeAttr } from "../world/attributes/access.ts";
import { throwRefusal } from "../world/attributes/store.ts";
import { attrFlagNamed } from "../world/attributes/flags.ts";
import { attrPattern, BAD_NAME, canonicalAttrName } from "../world/attributes/names.ts";
import { EngineError } from "../errors.ts";
import { isPlainObject } from "../config/load.ts";
import { isStaff } from "../world/flags.ts";
import type { CallHost } from "./sandbox.ts";

/** Longest message of one u.send / u.here.broadcast. */
export const MAX_MESSAGE = 32_000;
/** Characters one call may send in all (u.send and u.here.broadcast together). */
export const MAX_SENT_PER_CALL = 1_000_000;
/** Bytes of structured data beside a message, as JSON. */
export const MAX_DATA = 16_384;
/** Objects `u.contents` returns at most. */
const MAX_CONTENTS = 200;
/** Attributes `u.attr.list` returns at most. */
const MAX_LISTED = 500;

/** What a script sees of an object. */
export interface ObjectView {
  id: string;
  dbref: string;
  name: string;
  /** The name with its `@moniker` colours. */
  displayName: string;
  flags: string[];
  location: string;
  owner: string;
  description: string;
  /** The REST client's JSON (`data.state`); attributes are `u.attr`'s. */
  state: Record<string, unknown>;
}

/** The view of an object a script of `viewer` may see (its location only where it is shown). */
export function viewOf(o: DbObject, viewer: DbObject, world: ControlWorld | null): ObjectView {
  return {
    id: o.id,
    dbref: `#${o.id}`,
    name: o.name,
    displayName: displayName(o),
    flags: [...o.flags],
    location: shownLocation(viewer, o, world),
    owner: o.owner,
    description: typeof o.data.description === "string" ? o.data.description : "",
    state: isPlainObject(o.data.state) ? o.data.state as Record<string, unknown> : {},
  };
}

/** Maps an operation's failure for the script: the actor's refusals by message, others hidden. */
export function opError(e: unknown): { message: string; user: boolean } {
  if (e instanceof CommandError || e instanceof EngineError) {
    return { message: e.message, user: true };
  }
  console.error("scripts: an SDK operation failed:", e);
  return { message: "internal error in the engine", user: false };
}

function str(v: unknown, what: string, max: number): string {
  if (typeof v !== "string") throw new CommandError(`${what} must be a string.`);
  if (v.length > max) {
    throw new CommandError(`${what} is ${v.length} characters; the limit is ${max}.`);
  }
  return v;
}

function dataOf(v: unknown): { type: string; [k: string]: unknown } | undefined {
  if (v === undefined || v === null) return undefined;
  if (!isPlainObject(v)) throw new CommandError("data must be an object.");
  if (JSON.stringify(v).length > MAX_DATA) {
    throw new CommandError(`data must be at most ${MAX_DATA} bytes as JSON.`);
  }
  const type = (v as Record<string, unknown>).type;
  return { ...(v as Record<string, unknown>), type: typeof type === "string" ? type : "script" };
}

/** `f` of a value now, or of a promised value when it comes. */
function then<T, R>(v: T | Promise<T>, f: (v: T) => R | Promise<R>): R | Promise<R> {
  return v instanceof Promise ? v.then(f) : f(v);
}

/** The script time of actors (src/scripts/budget.ts): the manager's, one for all calls. */
export interface ScriptTime {
  /** Why `actor` may not start a script call now (its time or the game's is spent), or null. */
  refusal(actor: string): string | null;
  /** Charges `ms` of one slice to `actor` and the game. */
  spend(actor: string, ms: number): void;
}

const seconds = (ms: number) => Math.max(0, Math.floor(ms / 1000));

/** Whole seconds a connected player has been on at `now` (u.online(), u.player(), u.who()). */
function onForOf(presence: CommandSdk["presence"], id: string, now: number): number {
  return seconds(now - (presence.connectedSince(id) ?? now));
}

/** Whole seconds since a connected player's latest input at `now` (as onForOf). */
function idleOf(presence: CommandSdk["presence"], id: string, now: number): number {
  return seconds(now - (presence.lastInput(id) || now));
}

/**
 * One script call by the actor of `u`, the engine's side of it (src/scripts/sandbox.ts's
 * `CallHost`): the operations its sandbox asks for, how their failures read, its actor's budgets.
 * The operations are this class's methods, made once for every call, and a call's state is this
 * one record: a paced call met cold the making of some 25 closures and their table, each call.
 */
export class ScriptCall implements CallHost {
  readonly #u: CommandSdk;
  readonly #me: DbObject;
  readonly #time: ScriptTime;
  /** Characters sent so far (u.send and u.here.broadcast together). */
  #sent = 0;

  constructor(u: CommandSdk, time: ScriptTime) {
    this.#u = u;
    this.#me = u.me;
    this.#time = time;
  }

  /** Why the call may not start now (its actor's time or the game's is spent), or null. */
  admit(): string | null {
    return this.#time.refusal(this.#me.id);
  }

  /** Charges one slice's CPU time to the actor and the game. */
  spend(ms: number): void {
    this.#time.spend(this.#me.id, ms);
  }

  /** Maps an operation's failure for the script (see opError). */
  failure(e: unknown): { message: string; user: boolean } {
    return opError(e);
  }

  /** `u.send`: a message (and data) to the actor. */
  send(msg: unknown, data: unknown): void {
    const text = this.#budget(str(msg, "The message", MAX_MESSAGE));
    const d = dataOf(data);
    this.#u.deliver.toPlayer(this.#me.id, d ? { msg: text, data: d } : { msg: text });
  }

  /** Carries out the SDK operation `name`: a value, or a promise of one; throws refusals. */
  op(name: string, args: unknown[]): unknown {
    const u = this.#u, me = this.#me;
    switch (name) {
      case "send":
        return this.send(args[0], args[1]);
      case "me":
        return viewOf(me, me, u.locks);
      case "here":
        return u.here ? viewOf(u.here, me, u.locks) : null;
      case "who":
        return this.#who();
      case "online":
        return this.#online();
      case "target":
        return then(this.#visible(args[0]), (o) => viewOf(o, me, u.locks));
      case "player":
        return this.#player(args[0]);
      case "broadcast":
        return this.#broadcast(args[0], args[1]);
      case "contents":
        return this.#contents(args[0]);
      case "passes":
        return this.#passes(args[0]);
      case "describe":
        return this.#describe(args[0], args[1]);
      case "attr.get":
        return this.#attrGet(args[0], args[1]);
      case "attr.set":
        return this.#attrSet(args[0], args[1], args[2]);
      case "attr.flag":
        return this.#attrFlag(args[0], args[1], args[2], args[3]);
      case "attr.list":
        return this.#attrList(args[0], args[1]);
    }
    throw new CommandError(`There is no SDK operation '${name.slice(0, 40)}'.`);
  }

  #budget(text: string): string {
    this.#sent += text.length;
    if (this.#sent > MAX_SENT_PER_CALL) {
      throw new CommandError(`A script may send at most ${MAX_SENT_PER_CALL} characters per run.`);
    }
    return text;
  }

  #checked(obj: DbObject): DbObject | Promise<DbObject> {
    const u = this.#u;
    return then(canSeeSoon(u.objects, this.#me, obj, u.locks), (ok) => {
      if (!ok) throw new CommandError(NOT_HERE);
      return obj;
    });
  }

  /** An object the actor names and may see: `me` and `here` (the common case) known now. */
  #visible(ref: unknown): DbObject | Promise<DbObject> {
    const r = str(ref, "A target", 200).trim().toLowerCase();
    const u = this.#u;
    if (r === "me") return this.#checked(this.#me);
    if (r === "here" && u.here) return this.#checked(u.here);
    return u.target(String(ref)).then((o) => this.#checked(o));
  }

  #controlled(ref: unknown): DbObject | Promise<DbObject> {
    return then(this.#visible(ref), (obj) => {
      if (!controls(this.#me, obj, this.#u.locks)) throw new CommandError("Permission denied.");
      return obj;
    });
  }

  /**
   * Seconds connected and idle of a connected player, read in place from the hub's memory (a
   * clock behind a connection's times reads 0, as the built-in `who`'s durations do).
   */
  #presence(id: string, now: number): { onFor: number; idle: number } {
    const presence = this.#u.presence;
    return { onFor: onForOf(presence, id, now), idle: idleOf(presence, id, now) };
  }

  #online(): unknown[] {
    const now = Date.now();
    return visibleOnline(this.#u.presence, this.#me).map((c) => ({
      id: c.id,
      dbref: `#${c.id}`,
      name: c.name,
      displayName: displayName(c),
      flags: [...c.flags],
      ...this.#presence(c.id, now),
    }));
  }

  /**
   * `u.who()`: the connected players the actor may see, in order of login, each a row
   * `[id, name, onFor, idle, staff]` (numbers in seconds; `staff` by isStaff), read in place
   * from the hub's memory as the built-in `who` reads them.
   */
  #who(): unknown[] {
    const presence = this.#u.presence, now = Date.now();
    const rows: unknown[] = [];
    for (const c of visibleOnline(presence, this.#me)) {
      const onFor = onForOf(presence, c.id, now);
      rows.push([c.id, c.name, onFor, idleOf(presence, c.id, now), isStaff(c.flags)]);
    }
    return rows;
  }

  async #player(ref: unknown): Promise<unknown> {
    const u = this.#u, me = this.#me;
    const p = await findPlayer(u, me, str(ref, "A player", 200));
    const card = u.presence.playerCard(p.id);
    const online = !!card && u.presence.isOnline(p.id) && canSeeOnline(me, card);
    return {
      ...viewOf(p, me, u.locks),
      online,
      ...(online ? this.#presence(p.id, Date.now()) : {}),
    };
  }

  #broadcast(msg: unknown, exclude: unknown): void {
    const text = this.#budget(str(msg, "The message", MAX_MESSAGE));
    const here = this.#u.here;
    if (!here) throw new CommandError("You are nowhere.");
    const ex = Array.isArray(exclude)
      ? exclude.slice(0, 100).map((x) => String(x).replace(/^#/, ""))
      : [];
    this.#u.deliver.toRoom(here.id, { msg: text }, ex);
  }

  async #contents(ref: unknown): Promise<unknown> {
    const u = this.#u, me = this.#me;
    const obj = await this.#visible(ref);
    const inside = await u.objects.contents(obj.id, MAX_CONTENTS);
    return visibleContents(me, obj, inside, u.locks).map((o) => viewOf(o, me, u.locks));
  }

  #passes(lock: unknown): boolean {
    try {
      return checkLock(str(lock, "A lock", 500), subjectOf(this.#me), { world: this.#u.locks });
    } catch (e) {
      if (e instanceof LockSyntaxError) throw new CommandError(`Bad lock: ${e.message}`);
      throw e;
    }
  }

  #describe(ref: unknown, text: unknown): unknown {
    return then(this.#controlled(ref), async (obj) => {
      const desc = str(text, "A description", MAX_DESCRIPTION);
      await this.#u.objects.update(obj.id, (o) => {
        if (desc) o.data.description = desc;
        else delete o.data.description;
      });
    });
  }

  #attrGet(ref: unknown, name: unknown): unknown {
    const attr = attrName(name);
    const u = this.#u, attributes = u.attributes;
    return then(
      this.#visible(ref),
      (obj) =>
        then(
          attributes.live ? attributes.peek(obj.id, attr) : attributes.get(obj.id, attr),
          (a) => a && canSeeAttr(this.#me, obj, a, u.locks) ? a.value : null,
        ),
    );
  }

  #attrSet(ref: unknown, name: unknown, value: unknown): unknown {
    const attr = attrName(name);
    const attributes = this.#u.attributes, me = this.#me;
    // An attribute holds text: other JSON is kept as its JSON text; null clears.
    const text = value === null || value === undefined
      ? ""
      : typeof value === "string"
      ? value
      : JSON.stringify(value);
    return then(this.#visible(ref), (obj) => {
      if (!attributes.live) return attributes.set(me, obj.id, attr, text).then(() => {});
      // In memory now (stored behind, in order), so the script reads its write back at once.
      const refused = attributes.setNow(me, obj.id, attr, text);
      if (refused) throwRefusal(refused);
    });
  }

  #attrFlag(ref: unknown, name: unknown, flag: unknown, on: unknown): unknown {
    const attr = attrName(name);
    const f = typeof flag === "string" ? attrFlagNamed(flag) : null;
    if (!f) throw new CommandError(`There is no attribute flag '${String(flag).slice(0, 40)}'.`);
    const attributes = this.#u.attributes, me = this.#me;
    return then(this.#visible(ref), (obj) => {
      if (!attributes.live) {
        return attributes.setFlag(me, obj.id, attr, f, on !== false).then(() => {});
      }
      const refused = attributes.setFlagNow(me, obj.id, attr, f, on !== false);
      if (refused) throwRefusal(refused);
    });
  }

  #attrList(ref: unknown, pattern: unknown): unknown {
    const p = typeof pattern === "string" ? pattern : "*";
    if (!attrPattern(p)) throw new CommandError("That pattern is too long.");
    return then(
      this.#visible(ref),
      (obj) =>
        then(
          this.#u.attributes.visible(this.#me, obj, p),
          (shown) =>
            shown.slice(0, MAX_LISTED).map((a) => ({
              name: a.name,
              value: a.value,
              owner: a.owner,
              flags: [...a.flags],
            })),
        ),
    );
  }
}

function attrName(v: unknown): string {
  const name = canonicalAttrName(v);
  if (!name) throw new CommandError(BAD_NAME);
  return name;
}
