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

/** The operations of one call by the actor of `u`; returns the handler the sandbox calls. */
export function scriptOps(u: CommandSdk): (op: string, args: unknown[]) => unknown {
  const { me, here } = u;
  const attributes = u.attributes;
  const checked = (obj: DbObject): DbObject | Promise<DbObject> =>
    then(canSeeSoon(u.objects, me, obj, u.locks), (ok) => {
      if (!ok) throw new CommandError(NOT_HERE);
      return obj;
    });
  // `me` and `here` (the common case) are known now; other references are looked up.
  const visible = (ref: unknown): DbObject | Promise<DbObject> => {
    const r = str(ref, "A target", 200).trim().toLowerCase();
    if (r === "me") return checked(me);
    if (r === "here" && here) return checked(here);
    return u.target(String(ref)).then(checked);
  };
  const controlled = (ref: unknown): DbObject | Promise<DbObject> =>
    then(visible(ref), (obj) => {
      if (!controls(me, obj, u.locks)) throw new CommandError("Permission denied.");
      return obj;
    });
  let sent = 0;
  const budget = (text: string) => {
    sent += text.length;
    if (sent > MAX_SENT_PER_CALL) {
      throw new CommandError(`A script may send at most ${MAX_SENT_PER_CALL} characters per run.`);
    }
    return text;
  };
  const seconds = (ms: number) => Math.max(0, Math.floor(ms / 1000));
  const presence = (id: string) => {
    const now = Date.now();
    let since = now, last = 0;
    for (const c of u.presence.connections(id)) {
      since = Math.min(since, c.connectedAt);
      last = Math.max(last, c.lastInput);
    }
    return { onFor: seconds(now - since), idle: seconds(now - (last || now)) };
  };
  const ops: Record<string, (a: unknown[]) => unknown> = {
    me() {
      return viewOf(me, me, u.locks);
    },
    here() {
      return here ? viewOf(here, me, u.locks) : null;
    },
    send([msg, data]) {
      const text = budget(str(msg, "The message", MAX_MESSAGE));
      const d = dataOf(data);
      u.deliver.toPlayer(me.id, d ? { msg: text, data: d } : { msg: text });
    },
    broadcast([msg, exclude]) {
      const text = budget(str(msg, "The message", MAX_MESSAGE));
      if (!here) throw new CommandError("You are nowhere.");
      const ex = Array.isArray(exclude)
        ? exclude.slice(0, 100).map((x) => String(x).replace(/^#/, ""))
        : [];
      u.deliver.toRoom(here.id, { msg: text }, ex);
    },
    target([ref]) {
      return then(visible(ref), (o) => viewOf(o, me, u.locks));
    },
    async player([ref]) {
      const p = await findPlayer(u, me, str(ref, "A player", 200));
      const card = u.presence.playerCard(p.id);
      const online = !!card && u.presence.isOnline(p.id) && canSeeOnline(me, card);
      return { ...viewOf(p, me, u.locks), online, ...(online ? presence(p.id) : {}) };
    },
    online() {
      return visibleOnline(u.presence, me).map((c) => ({
        id: c.id,
        dbref: `#${c.id}`,
        name: c.name,
        displayName: displayName(c),
        flags: [...c.flags],
        ...presence(c.id),
      }));
    },
    async contents([ref]) {
      const obj = await visible(ref);
      const inside = await u.objects.contents(obj.id, MAX_CONTENTS);
      return visibleContents(me, obj, inside, u.locks).map((o) => viewOf(o, me, u.locks));
    },
    passes([lock]) {
      try {
        return checkLock(str(lock, "A lock", 500), subjectOf(me), { world: u.locks });
      } catch (e) {
        if (e instanceof LockSyntaxError) throw new CommandError(`Bad lock: ${e.message}`);
        throw e;
      }
    },
    describe([ref, text]) {
      return then(controlled(ref), async (obj) => {
        const desc = str(text, "A description", MAX_DESCRIPTION);
        await u.objects.update(obj.id, (o) => {
          if (desc) o.data.description = desc;
          else delete o.data.description;
        });
      });
    },
    "attr.get"([ref, name]) {
      const attr = attrName(name);
      return then(
        visible(ref),
        (obj) =>
          then(
            attributes.live ? attributes.peek(obj.id, attr) : attributes.get(obj.id, attr),
            (a) => a && canSeeAttr(me, obj, a, u.locks) ? a.value : null,
          ),
      );
    },
    "attr.set"([ref, name, value]) {
      const attr = attrName(name);
      // An attribute holds text: other JSON is kept as its JSON text; null clears.
      const text = value === null || value === undefined
        ? ""
        : typeof value === "string"
        ? value
        : JSON.stringify(value);
      return then(visible(ref), (obj) => {
        if (!attributes.live) return attributes.set(me, obj.id, attr, text).then(() => {});
        // In memory now (stored behind, in order), so the script reads its write back at once.
        const refused = attributes.setNow(me, obj.id, attr, text);
        if (refused) throwRefusal(refused);
      });
    },
    "attr.flag"([ref, name, flag, on]) {
      const attr = attrName(name);
      const f = typeof flag === "string" ? attrFlagNamed(flag) : null;
      if (!f) throw new CommandError(`There is no attribute flag '${String(flag).slice(0, 40)}'.`);
      return then(visible(ref), (obj) => {
        if (!attributes.live) {
          return attributes.setFlag(me, obj.id, attr, f, on !== false).then(() => {});
        }
        const refused = attributes.setFlagNow(me, obj.id, attr, f, on !== false);
        if (refused) throwRefusal(refused);
      });
    },
    "attr.list"([ref, pattern]) {
      const p = typeof pattern === "string" ? pattern : "*";
      if (!attrPattern(p)) throw new CommandError("That pattern is too long.");
      return then(
        visible(ref),
        (obj) =>
          then(attributes.visible(me, obj, p), (shown) =>
            shown.slice(0, MAX_LISTED).map((a) => ({
              name: a.name,
              value: a.value,
              owner: a.owner,
              flags: [...a.flags],
            }))),
      );
    },
  };
  return (op, args) => {
    const fn = Object.hasOwn(ops, op) ? ops[op] : undefined;
    if (!fn) throw new CommandError(`There is no SDK operation '${op.slice(0, 40)}'.`);
    return fn(args);
  };
}

function attrName(v: unknown): string {
  const name = canonicalAttrName(v);
  if (!name) throw new CommandError(BAD_NAME);
  return name;
}
