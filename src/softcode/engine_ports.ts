/**
 * The evaluator's ports over the engine's own parts: the world and attributes held in memory
 * (src/world), the hub's presence and delivery, the engine's permission rules and clock. Built
 * once by the composition root (src/engine.ts).
 */
import type { WorldReader } from "../world/live_world.ts";
import type { ObjectStore } from "../world/objects.ts";
import type { DbObject } from "../world/types.ts";
import {
  type ActMessages,
  BUILDER_LOCK,
  builtRecord,
  checkLink,
  homeRefusal,
  quotaGate,
  teleported,
  type TeleportRefusal,
  teleportRefusal,
  teleportRefusalSaid,
} from "../world/building.ts";
import { EngineError } from "../errors.ts";
import type { LiveAttributes } from "../world/attributes/store.ts";
import { canSeeAttr } from "../world/attributes/access.ts";
import { controls, examines, ownerOf } from "../world/control.ts";
import { canSeeWithin, hiddenFrom, shownLocation, visibleContents } from "../world/visibility.ts";
import { isGuest, isStaff } from "../world/flags.ts";
import { checkLock, lockOf, type LockWorld, putLock } from "../world/locks.ts";
import { settableLockNow } from "../commands/lock_names.ts";
import { hearerOf, viewHeard } from "../world/hearing.ts";
import { announceArrival, announceLeaving, hearsWhereItIs } from "../world/move_heard.ts";
import type { Delivery, HubConnection, Outbound, Presence } from "../hub/types.ts";
import { terminalColourDepth, terminalHasColour } from "../text/colour_mode.ts";
import {
  HOME,
  type Refused,
  type SoftcodePorts,
  type SoftSession,
  type WorldChanges,
} from "./ports.ts";
import { homeOf } from "../world/start.ts";
import { WorldVersion } from "../world/version.ts";
import { Softcode, type SoftcodeLimits } from "./eval.ts";
import { builtinFunctions } from "./functions/mod.ts";
import type { FunctionTable } from "./types.ts";
import type { ActionQueue, QueueChain } from "../queue/types.ts";
import { withInheritedRank } from "../world/inherited_rank.ts";
import { linkedSaid, wipedSaid } from "../commands/format.ts";
import type { EngineConfig } from "../config/defaults.ts";
import type { EngineRun } from "../config/process_env.ts";
import { objectCounts } from "../world/stats.ts";
import { paramNames, paramValue } from "./config_params.ts";

/** What the ports are built from. */
export interface EnginePortParts {
  /** The world in memory (null on a shared KV Connect database, where softcode sees nothing). */
  world: () => WorldReader | null;
  /** What lock checks read of the world (the engine's one, src/world/lock_world.ts). */
  locks: LockWorld;
  attributes: LiveAttributes;
  /** Who is online (the hub's memory). */
  presence: Pick<
    Presence,
    "onlinePlayers" | "isOnline" | "connections" | "connection" | "lastInput" | "connectedSince"
  >;
  /** The most connections logged in at once (src/world/conninfo.ts). */
  connectionRecord: () => number;
  /** The header of `who`'s doing column (`@doing/header`). */
  poll: () => string;
  /** The engine's one delivery. */
  deliver: Pick<Delivery, "toPlayer" | "toRoom">;
  /** The object store, for the changes softcode makes in memory (`createNow`, `updateNow`). */
  objects: Pick<ObjectStore, "createNow" | "createOwnedNow" | "updateNow">;
  /** Objects one non-staff player may own (`game.objectQuota`; 0: no limit). */
  objectQuota: () => number;
  /** What `look` shows `viewer` of a room (a teleported player is shown its new room). */
  look: (viewer: DbObject, room: DbObject) => Promise<Outbound>;
  now: () => number;
  startedAt: number;
  gameName: () => string;
  /** The configuration as it stands (config(), motd()). */
  config: () => EngineConfig;
  /** Which run of its supervisor's the engine is (src/config/process_env.ts); null: alone. */
  run: EngineRun | null;
  /** An automatic backup is being written (dumping()). */
  dumping: () => boolean;
  /** The room where what has no home of its own goes home to (src/world/start.ts). */
  startingRoom: () => string;
  /** The command queue (`trigger()`). */
  queue: ActionQueue;
  /** Whether an object listens (`@listen`, a monitor's `^-listens`), for MUX's Hearer(). */
  listens: (o: DbObject) => boolean;
  /** What an object's listening makes of what `from` told it alone (`@pemit`). */
  hearTold: (id: string, from: string, msg: string) => void;
  /**
   * MUX's did_it as the commands have it (src/commands/did_it.ts): `actor` is told `verb.what`,
   * the others in `where` `verb.owhat`, and `thing` queues `verb.awhat` in `chain` (absent: the
   * entry running now).
   */
  didIt: (
    actor: DbObject,
    thing: DbObject,
    where: string | null,
    verb: ActMessages,
    chain: QueueChain | null | undefined,
  ) => void;
}

const NONE: readonly string[] = Object.freeze([]);

/** MUX's colour bits from a terminal's number of colours. */
const DEPTH_BITS: Readonly<Record<number, number>> = { 0: 0, 16: 4, 256: 8, 16777216: 24 };

/**
 * A hub connection as softcode sees it. Its port is its number (`c12`: 12). Colour: the web
 * client shows every colour (24); a telnet client what it negotiated (TTYPE, MTTS), else what its
 * terminal type says; a plain WebSocket the 16 ANSI colours; none when colour is off.
 */
function softSession(c: HubConnection): SoftSession {
  const terminal = c.kind === "telnet" ? c.ttype : "";
  const colours = c.colourDepth ??
    (terminalHasColour([terminal], null) ? terminalColourDepth([terminal], null) : 0);
  const depth = !c.colour
    ? 0
    : c.kind === "web"
    ? 24
    : c.kind === "telnet"
    ? DEPTH_BITS[colours] ?? 0
    : 4;
  return {
    port: Number(c.id.replace(/^c/, "")) || 0,
    player: c.playerId ?? "",
    host: c.ip,
    kind: c.kind,
    width: c.width,
    height: c.height,
    terminal,
    colourDepth: depth,
    commands: c.commands,
    connectedAt: c.connectedAt,
    lastInput: c.lastInput,
  };
}

/** True when `o` passes a lock expression (as the lock of object `on`, when given). */
function passes(p: EnginePortParts, lock: string, o: DbObject, on?: string): boolean {
  return !lock.trim() ||
    checkLock(lock, { id: `#${o.id}`, flags: o.flags, connected: p.presence.isOnline(o.id) }, {
      world: p.locks,
      on,
    });
}

const DENIED: Refused = Object.freeze({ refused: "Permission denied.", permission: true });

/** A building rule's refusal as softcode reports it; anything else is the engine's fault. */
function refusal(e: unknown): Refused {
  if (!(e instanceof EngineError)) throw e;
  return { refused: e.message };
}

/** create() and tel() over the store's writes in memory, under the building commands' rules. */
function worldChanges(p: EnginePortParts): WorldChanges {
  return {
    create(actorId, name, type) {
      const w = p.world();
      const held = w?.object(actorId);
      // An inherit object of a staff member builds with its owner's rank, as in MUX.
      const actor = held && withInheritedRank(w, held);
      if (!w || !actor || !passes(p, BUILDER_LOCK, actor)) return DENIED;
      try {
        const here = w.object(actor.location);
        const made = builtRecord(
          actor,
          name,
          type,
          here,
          () => w.contentsOfType(actor.location, "exit").map((id) => w.object(id)!).filter(Boolean),
          (room) => passes(p, lockOf(room, "open"), actor, room.id),
          p.locks,
        );
        const gate = quotaGate(actor, p.objectQuota(), w.object(ownerOf(actor)) ?? null);
        return p.objects.createOwnedNow(made, gate).id;
      } catch (e) {
        return refusal(e);
      }
    },
    link(actorId, id, destId) {
      const w = p.world();
      const held = w?.object(actorId);
      // An inherit object of a staff member links with its owner's rank, as in MUX.
      const actor = held && withInheritedRank(w, held);
      if (!w || !actor || !passes(p, BUILDER_LOCK, actor)) return DENIED;
      const obj = w.object(id), dest = w.object(destId);
      if (!obj || !dest) return { refused: "I don't see that here." };
      try {
        const key = checkLink(
          actor,
          obj,
          dest,
          (room) => passes(p, lockOf(room, "link"), actor, room.id),
          p.locks,
        );
        const isRoom = (id: string) => !!w.object(id)?.flags.includes("room");
        const old = key === "home" ? w.object(homeOf(obj, isRoom, p.startingRoom())) : null;
        const linked = p.objects.updateNow(id, (o) => {
          o.data[key] = dest.id;
        });
        return linkedSaid(linked, old, dest);
      } catch (e) {
        return refusal(e);
      }
    },
    lock(actorId, id, type, expr, resolve) {
      const w = p.world();
      const held = w?.object(actorId);
      // An inherit object of a staff member locks with its owner's rank, as in MUX.
      const actor = held && withInheritedRank(w, held);
      const obj = w?.object(id);
      if (!actor || !obj || !controls(actor, obj, p.locks)) return DENIED;
      try {
        const key = expr.trim() ? settableLockNow(expr, resolve) : null;
        p.objects.updateNow(id, (o) => putLock(o, type, key));
        return "";
      } catch (e) {
        return refusal(e);
      }
    },
    teleport(actorId, id, destId, quiet, chain) {
      const w = p.world();
      const held = w?.object(actorId);
      // An inherit object of a staff member teleports with its owner's rank, as in MUX.
      const actor = held && withInheritedRank(w, held);
      const obj = w?.object(id);
      const home = destId === HOME;
      const dest = obj && w?.object(
        home
          ? homeOf(obj, (id) => !!w.object(id)?.flags.includes("room"), p.startingRoom())
          : destId,
      );
      // MUX's tel() is @teleport's: who may not use the command (a guest) may not use it.
      if (!w || !actor || !obj || !dest || isGuest(actor.flags)) return DENIED;
      let refused: TeleportRefusal | null;
      try {
        const reads = {
          object: (id: string) => w.object(id),
          passesLock: (subject: DbObject, on: DbObject, type: "teleport" | "telout" | "open") =>
            passes(p, lockOf(on, type), subject, on.id),
          world: p.locks,
        };
        refused = home
          ? homeRefusal(actor, obj, dest, reads)
          : teleportRefusal(actor, obj, dest, reads);
      } catch (e) {
        return refusal(e).refused;
      }
      if (refused) {
        const { told, act } = teleportRefusalSaid(refused, dest, obj.id === actor.id);
        if (act) p.didIt(obj, act.place, obj.location, act.verb, chain);
        return told;
      }
      // Sent home when home already: as MUX, it went home (nothing moves, nobody is told).
      const stays = home && obj.location === dest.id;
      // Whether it hears is asked before it moves, as MUX's Hearer().
      const hears = hearsWhereItIs(obj, {
        isConnected: (id) => p.presence.isOnline(id),
        listens: p.listens,
      });
      let moved: DbObject = obj;
      try {
        if (!stays) {
          moved = p.objects.updateNow(id, (o) => {
            o.location = dest.id;
          });
        }
      } catch (e) {
        return refusal(e).refused;
      }
      // An exit moves silently (MUX's move_the_exit).
      if (moved.flags.includes("exit")) return teleported(actor, moved, home);
      if (!quiet && !stays) {
        announceLeaving(p.deliver, w, moved, obj.location, hears);
        // Before the view, which comes once the look is made: this line goes on meanwhile.
        announceArrival(p.deliver, w, moved, hears);
      }
      if (hearerOf(moved)) {
        p.look(moved, dest).then((out) => {
          const seen = viewHeard(moved, out);
          if (seen) p.deliver.toPlayer(seen.player, seen.out);
        }).catch((e) =>
          console.error(`softcode: tel() could not show #${moved.id} its room: ${e}`)
        );
      }
      return teleported(actor, moved, home);
    },
  };
}

/** The softcode ports of an engine. */
export function enginePorts(p: EnginePortParts): SoftcodePorts {
  const world = p.world;
  /** What an object hears told to it: a player; a puppet's owner; no other object. */
  const toObject = (id: string, msg: string) => {
    const o = world()?.object(id);
    const h = o ? hearerOf(o) : { player: id, prefix: "" };
    if (h) p.deliver.toPlayer(h.player, { msg: h.prefix + msg });
  };
  const cap = (ids: readonly string[], limit: number) =>
    ids.length > limit ? ids.slice(0, limit) : ids;
  return {
    changes: worldChanges(p),
    // The store's world is made with it and kept (null on a shared database, where softcode
    // sees no object: a count that never moves then keeps nothing wrong).
    version: world()?.version ?? new WorldVersion(),
    world: {
      object: (id) => world()?.object(id) ?? null,
      contents: (id) => world()?.contents(id) ?? NONE,
      playerByName: (name) => world()?.playerByWord(name.trim().toLowerCase()) ?? null,
      byName: (name, limit) => cap(world()?.named(name) ?? NONE, limit),
      ownedBy: (owner, limit) => cap(world()?.ownedBy(owner) ?? NONE, limit),
      withFlag: (flag, limit) => cap(world()?.withFlag(flag) ?? NONE, limit),
      children: (id, limit) => cap(world()?.children(id) ?? NONE, limit),
      zoned: (id, limit) => cap(world()?.zoned(id) ?? NONE, limit),
      exitsTo: (id, limit) => cap(world()?.exitsTo(id) ?? NONE, limit),
      homedAt: (id, limit) => cap(world()?.homedAt(id) ?? NONE, limit),
      ownedCount: (owner) => world()?.ownedCount(owner) ?? 0,
    },
    attributes: {
      get: (id, name) => p.attributes.peek(id, name),
      names: (id) => p.attributes.names(id),
      set: (actorId, id, name, value) => {
        const w = world();
        const held = w?.object(actorId);
        if (!w || !held) return "Permission denied.";
        // An inherit object of a staff member sets with its owner's rank, as in MUX.
        return p.attributes.setNow(withInheritedRank(w, held), id, name, value)?.message ?? null;
      },
      wipe: (actorId, id, pattern) => {
        const w = world();
        const held = w?.object(actorId);
        const obj = w?.object(id);
        if (!w || !held || !obj) return "Permission denied.";
        // An inherit object of a staff member wipes with its owner's rank, as in MUX.
        const r = p.attributes.wipeNow(withInheritedRank(w, held), obj, pattern);
        return "kind" in r ? r.message : wipedSaid(r);
      },
    },
    presence: {
      online: () => p.presence.onlinePlayers(),
      isOnline: (id) => p.presence.isOnline(id),
      idleSeconds: (id) => {
        const last = p.presence.lastInput(id);
        return last === null ? -1 : Math.max(0, Math.floor((p.now() - last) / 1000));
      },
      connectedSeconds: (id) => {
        const first = p.presence.connectedSince(id);
        return first === null ? -1 : Math.max(0, Math.floor((p.now() - first) / 1000));
      },
      width: (id) => {
        const conns = p.presence.connections(id);
        return conns.length ? conns[0].width : 78;
      },
      sessions: (id) => {
        const conns = p.presence.connections(id);
        return conns.map(softSession).sort((a, b) =>
          b.connectedAt - a.connectedAt || b.port - a.port
        );
      },
      session: (port) => {
        const c = Number.isSafeInteger(port) ? p.presence.connection(`c${port}`) : undefined;
        return c ? softSession(c) : null;
      },
      record: p.connectionRecord,
      poll: p.poll,
    },
    access: {
      controls: (actor, target) => controls(actor, target, p.locks),
      examines: (viewer, target) => examines(viewer, target, p.locks),
      canSee: (viewer, target) =>
        canSeeWithin(
          viewer,
          target,
          target.location ? world()?.object(target.location) ?? null : null,
          p.locks,
        ),
      shownLocation: (viewer, target) => shownLocation(viewer, target, p.locks),
      visibleContents: (viewer, container, contents) =>
        visibleContents(viewer, container, contents, p.locks),
      hiddenFrom: (viewer, target) => hiddenFrom(viewer, target, p.locks),
      // An inherit object of a staff member reads and counts as staff, as MUX's Wizard() has it.
      // Rank only ever adds to what may be read, so most reads pass without that view built.
      canSeeAttr: (viewer, obj, attr) => {
        if (canSeeAttr(viewer, obj, attr, p.locks)) return true;
        const ranked = withInheritedRank(world(), viewer);
        return ranked !== viewer && canSeeAttr(ranked, obj, attr, p.locks);
      },
      isStaff: (o) => {
        const ranked = withInheritedRank(world(), o);
        return isStaff(ranked.flags);
      },
      passesLock: (lock, o, on) => passes(p, lock, o, on),
    },
    delivery: {
      toObject,
      tell: (id, msg, from) => {
        toObject(id, msg);
        p.hearTold(id, from, msg);
      },
      toRoom: (room, msg, exclude, from) => p.deliver.toRoom(room, { msg }, exclude, from),
    },
    now: p.now,
    // Under a supervisor, its clock says when the game and this run began.
    startedAt: p.run?.startedAt ?? p.startedAt,
    gameName: p.gameName,
    objectQuota: p.objectQuota,
    queue: p.queue,
    game: {
      firstStartedAt: p.run?.firstStartedAt ?? p.startedAt,
      restarts: p.run?.restarts ?? 0,
      dumping: p.dumping,
      motd: () => p.config().game.loginMessage,
      paramNames,
      param: (name, staff) => paramValue(p.config(), name, staff),
      startingRoom: p.startingRoom,
      counts: (owner) => {
        const w = world();
        return w ? objectCounts(w, owner) : { total: 0, rooms: 0, exits: 0, things: 0, players: 0 };
      },
    },
  };
}

/**
 * The engine's evaluator: its ports, a function table (the built-ins, and the game's own
 * `@function`s added to it), limits read from `limits`.
 */
export function engineSoftcode(
  parts: EnginePortParts,
  limits: () => Partial<SoftcodeLimits>,
  functions: FunctionTable = builtinFunctions(),
): Softcode {
  return new Softcode({ ports: enginePorts(parts), functions, limits });
}
