/**
 * Test helpers: a softcode engine over a small world held in maps, for the evaluator's unit
 * tests (the engine's own ports are tested through the commands, end to end).
 */
import { Softcode, type SoftcodeLimits, TOP_FLAGS } from "./eval.ts";
import { builtinFunctions } from "./functions/mod.ts";
import type { SoftAttr, SoftcodePorts, SoftSession } from "./ports.ts";
import type { DbObject, ObjectType } from "../world/types.ts";
import type { AttrFlag } from "../world/attributes/flags.ts";
import { stripMarkup } from "./markup.ts";
import { checkLock, lockOf, putLock } from "../world/locks.ts";
import { settableLockNow } from "../commands/lock_names.ts";
import { attrPattern } from "../world/attributes/names.ts";
import { linkedSaid, wipedSaid } from "../commands/format.ts";
import { canSeeWithin, hiddenFrom, shownLocation, visibleContents } from "../world/visibility.ts";
import {
  BUILDER_LOCK,
  builtRecord,
  checkLink,
  checkQuota,
  teleported,
  type TeleportRefusal,
  teleportRefusal,
} from "../world/building.ts";
import { controls as worldControls, examines, ownerOf } from "../world/control.ts";
import { attrWriteRefusal, canSeeAttr } from "../world/attributes/access.ts";
import { EngineError } from "../errors.ts";
import type { QueueRequest } from "../queue/types.ts";
import { defaultConfig, type EngineConfig } from "../config/defaults.ts";
import { paramNames, paramValue } from "./config_params.ts";
import { objectCounts } from "../world/stats.ts";
import { WorldVersion } from "../world/version.ts";

/**
 * A map whose every set and delete counts a change of the world, as the engine's stores count
 * theirs (src/world/version.ts). A test that changes an object in place calls `touch()`.
 */
class CountedMap<K, V> extends Map<K, V> {
  #version: WorldVersion | undefined;

  constructor(version: WorldVersion) {
    super();
    this.#version = version;
  }

  override set(key: K, value: V): this {
    this.#version?.bump();
    return super.set(key, value);
  }

  override delete(key: K): boolean {
    this.#version?.bump();
    return super.delete(key);
  }

  override clear(): void {
    this.#version?.bump();
    super.clear();
  }
}

/** A world of objects and attributes in maps, with delivery recorded. */
export class TestWorld {
  /** The world's change count (SoftcodePorts.version). */
  readonly version = new WorldVersion();
  readonly objects: Map<string, DbObject> = new CountedMap(this.version);
  readonly attrs: Map<string, Map<string, SoftAttr>> = new CountedMap(this.version);
  readonly online = new Set<string>();
  readonly sent: { to: string; msg: string }[] = [];
  /** What was queued (trigger()), in order. */
  readonly queued: QueueRequest[] = [];
  /** Objects a non-staff player may own (`game.objectQuota`; 0: no limit). */
  objectQuota = 0;
  now = Date.UTC(2026, 0, 1, 12, 0, 0);
  /** Connections of online players, when a test sets them (else one each: sessionsOf). */
  readonly sessions = new Map<string, SoftSession[]>();
  /** connrecord() and poll(). */
  connectionRecord = 1;
  pollHeader = "Doing";
  /** The game's configuration (config(), motd(); its name is mudname()'s). */
  config: EngineConfig = (() => {
    const c = defaultConfig();
    c.game.name = "TestMUSH";
    return c;
  })();
  /** Restarts of this run (restarts()). */
  restarts = 0;
  /** An automatic backup is being written (dumping()). */
  dumping = false;
  #next = 0;

  /**
   * An online player's connections: as set in `sessions`, else one telnet connection whose
   * port is its id plus 100, connected a minute ago and idle five seconds (as conn() and idle()).
   */
  sessionsOf(id: string): SoftSession[] {
    if (!this.online.has(id)) return [];
    return this.sessions.get(id) ?? [{
      port: Number(id) + 100,
      player: id,
      host: "127.0.0.1",
      kind: "telnet",
      width: 78,
      height: 24,
      terminal: "",
      colourDepth: 4,
      commands: 0,
      connectedAt: this.now - 60_000,
      lastInput: this.now - 5_000,
    }];
  }

  /** Adds an object; returns its id. */
  add(name: string, type: ObjectType, opts: Partial<DbObject> = {}): string {
    const id = String(this.#next++);
    this.objects.set(id, {
      id,
      name,
      flags: [type, ...(opts.flags ?? [])],
      location: opts.location ?? "",
      owner: opts.owner ?? (type === "player" ? id : ""),
      data: opts.data ?? {},
      createdAt: this.now,
      updatedAt: this.now,
    });
    return id;
  }

  /** Sets an attribute directly. */
  set(id: string, name: string, value: string, flags: AttrFlag[] = []): void {
    let m = this.attrs.get(id);
    if (!m) this.attrs.set(id, m = new CountedMap(this.version));
    const owner = this.objects.get(id)?.owner ?? id;
    m.set(name.toUpperCase(), { name: name.toUpperCase(), value, owner, flags });
  }

  /** Counts a change made to an object in place (its flags, its data), as a store would. */
  touch(): void {
    this.version.bump();
  }

  ports(): SoftcodePorts {
    // deno-lint-ignore no-this-alias
    const w = this;
    const staff = (o: DbObject) =>
      o.flags.some((f) => ["wizard", "admin", "superuser"].includes(f));
    // The engine's own control rule; with no lock world, no zone gives control and an inherit
    // object acts with its own flags (tests that need those go through the commands).
    const controls = (a: DbObject, b: DbObject) => worldControls(a, b, null);
    const byFlag = (flag: string) => [...w.objects.values()].filter((o) => o.flags.includes(flag));
    const passes = (lock: string, o: DbObject) =>
      checkLock(lock, { id: `#${o.id}`, flags: o.flags, connected: w.online.has(o.id) });
    // The building rules are the engine's own (src/world/building.ts); the writes are the map's.
    const ruled = <T>(rule: () => T): T | { refused: string } => {
      try {
        return rule();
      } catch (e) {
        if (e instanceof EngineError) return { refused: e.message };
        throw e;
      }
    };
    const denied = { refused: "Permission denied.", permission: true };
    return {
      version: w.version,
      changes: {
        create: (actorId, name, type) => {
          const actor = w.objects.get(actorId);
          if (!actor || !passes(BUILDER_LOCK, actor)) return denied;
          return ruled(() => {
            const here = w.objects.get(actor.location) ?? null;
            const rec = builtRecord(
              actor,
              name,
              type,
              here,
              () =>
                [...w.objects.values()].filter((o) =>
                  o.location === actor.location && o.flags.includes("exit")
                ),
              (room) => passes(room.data.locks?.open ?? "", actor),
              null,
            );
            const owner = ownerOf(actor);
            const owned = [...w.objects.values()].filter((o) => o.owner === owner).length;
            checkQuota(actor, owned, w.objectQuota, w.objects.get(owner) ?? null);
            return w.add(rec.name, rec.type, rec);
          });
        },
        teleport: (actorId, id, destId) => {
          const actor = w.objects.get(actorId), obj = w.objects.get(id);
          const dest = w.objects.get(destId);
          if (!actor || !obj || !dest || actor.flags.includes("guest")) return denied;
          let r: TeleportRefusal | null;
          try {
            r = teleportRefusal(actor, obj, dest, {
              object: (id) => w.objects.get(id) ?? null,
              passesLock: (s, on, type) => passes(on.data.locks?.[type] ?? "", s),
              world: null,
            });
          } catch (e) {
            if (e instanceof EngineError) return e.message;
            throw e;
          }
          // The places' messages (did_it) are the commands'; here the actor's answer alone.
          if (r) return actor.id === obj.id && r.refused !== "victim" ? "" : "Permission denied.";
          w.objects.set(id, { ...obj, location: dest.id });
          return teleported(actor, obj, false);
        },
        lock: (actorId, id, type, expr, resolve) => {
          const actor = w.objects.get(actorId), obj = w.objects.get(id);
          if (!actor || !obj || !controls(actor, obj)) return denied;
          return ruled(() => {
            const key = expr.trim() ? settableLockNow(expr, resolve) : null;
            const next = { ...obj, data: { ...obj.data } };
            putLock(next, type, key);
            w.objects.set(id, next);
            return "";
          });
        },
        link: (actorId, id, destId) => {
          const actor = w.objects.get(actorId), obj = w.objects.get(id);
          const dest = w.objects.get(destId);
          if (!actor || !passes(BUILDER_LOCK, actor)) return denied;
          if (!obj || !dest) return { refused: "I don't see that here." };
          return ruled(() => {
            const key = checkLink(
              actor,
              obj,
              dest,
              (room) => passes(lockOf(room, "link"), actor),
              null,
            );
            const old = key === "home" ? w.objects.get(String(obj.data.home)) ?? null : null;
            const linked = { ...obj, data: { ...obj.data, [key]: dest.id } };
            w.objects.set(id, linked);
            return linkedSaid(linked, old, dest);
          });
        },
      },
      world: {
        object: (id) => w.objects.get(id) ?? null,
        contents: (id) => [...w.objects.values()].filter((o) => o.location === id).map((o) => o.id),
        playerByName: (name) =>
          [...w.objects.values()].find((o) =>
            o.flags.includes("player") && o.name.toLowerCase() === name.toLowerCase()
          )?.id ?? null,
        byName: (name, limit) =>
          [...w.objects.values()].filter((o) => o.name.toLowerCase() === name.toLowerCase())
            .slice(0, limit).map((o) => o.id),
        ownedBy: (owner, limit) =>
          [...w.objects.values()].filter((o) => o.owner === owner).slice(0, limit).map((o) => o.id),
        withFlag: (flag, limit) => byFlag(flag).slice(0, limit).map((o) => o.id),
        children: (id, limit) =>
          [...w.objects.values()].filter((o) => o.data.parent === id).slice(0, limit).map((o) =>
            o.id
          ),
        zoned: (id, limit) =>
          [...w.objects.values()].filter((o) => o.data.zone === id).slice(0, limit).map((o) =>
            o.id
          ),
        exitsTo: (id, limit) =>
          [...w.objects.values()].filter((o) =>
            o.flags.includes("exit") && o.data.destination === id
          ).slice(0, limit).map((o) => o.id),
        homedAt: (id, limit) =>
          [...w.objects.values()].filter((o) =>
            (o.flags.includes("player") || o.flags.includes("thing")) && o.data.home === id
          ).slice(0, limit).map((o) => o.id),
        ownedCount: (owner) => [...w.objects.values()].filter((o) => o.owner === owner).length,
      },
      attributes: {
        get: (id, name) => w.attrs.get(id)?.get(name) ?? null,
        names: (id) => [...(w.attrs.get(id)?.keys() ?? [])].sort(),
        set: (actor, id, name, value) => {
          const a = w.objects.get(actor), o = w.objects.get(id);
          if (!a || !o) return "Permission denied.";
          const refused = attrWriteRefusal(a, o, name, w.attrs.get(id)?.get(name) ?? null, null);
          if (refused) return refused.message;
          if (value === "") w.attrs.get(id)?.delete(name);
          else w.set(id, name, value);
          return null;
        },
        wipe: (actorId, id, pattern) => {
          const a = w.objects.get(actorId), o = w.objects.get(id);
          if (!a || !o || !controls(a, o)) return "Permission denied.";
          const match = attrPattern(pattern);
          if (!match) return "That pattern is too long.";
          const cleared = [...(w.attrs.get(id)?.keys() ?? [])].filter((n) => match(n));
          for (const n of cleared) w.attrs.get(id)?.delete(n);
          return wipedSaid({ cleared, refused: [] });
        },
      },
      presence: {
        online: () => [...w.online],
        isOnline: (id) => w.online.has(id),
        idleSeconds: (id) => (w.online.has(id) ? 5 : -1),
        connectedSeconds: (id) => (w.online.has(id) ? 60 : -1),
        width: () => 78,
        sessions: (id) => w.sessionsOf(id),
        session: (port) => {
          for (const id of w.online) {
            const s = w.sessionsOf(id).find((s) => s.port === port);
            if (s) return s;
          }
          return null;
        },
        record: () => w.connectionRecord,
        poll: () => w.pollHeader,
      },
      access: {
        controls,
        examines: (viewer, target) => examines(viewer, target, null),
        canSee: (viewer, target) =>
          canSeeWithin(viewer, target, w.objects.get(target.location) ?? null, null),
        shownLocation: (viewer, target) => shownLocation(viewer, target, null),
        visibleContents: (viewer, container, contents) =>
          visibleContents(viewer, container, contents, null),
        hiddenFrom: (viewer, target) => hiddenFrom(viewer, target, null),
        canSeeAttr: (viewer, obj, attr) => canSeeAttr(viewer, obj, attr, null),
        isStaff: staff,
        passesLock: (lock, o) =>
          !lock ||
          checkLock(lock, { id: `#${o.id}`, flags: o.flags, connected: w.online.has(o.id) }),
      },
      delivery: {
        toObject: (id, msg) => w.sent.push({ to: id, msg }),
        tell: (id, msg) => w.sent.push({ to: id, msg }),
        toRoom: (room, msg, exclude = []) => {
          for (const o of w.objects.values()) {
            // As the hub: players hear it (objects that listen come with the next issue).
            if (o.location === room && o.flags.includes("player") && !exclude.includes(o.id)) {
              w.sent.push({ to: o.id, msg });
            }
          }
        },
      },
      now: () => w.now,
      startedAt: w.now - 3600_000,
      gameName: () => w.config.game.name,
      objectQuota: () => w.objectQuota,
      queue: {
        enqueue: (req) => {
          w.queued.push(req);
          return { pid: w.queued.length };
        },
      },
      game: {
        firstStartedAt: w.now - 7200_000,
        get restarts() {
          return w.restarts;
        },
        dumping: () => w.dumping,
        motd: () => w.config.game.loginMessage,
        paramNames,
        param: (name, staff) => paramValue(w.config, name, staff),
        startingRoom: () => "0",
        counts: (owner) =>
          objectCounts({
            flagCount: (flag) => byFlag(flag).length,
            ownedBy: (o) => [...w.objects.values()].filter((x) => x.owner === o).map((x) => x.id),
            object: (id) => w.objects.get(id) ?? null,
          }, owner),
      },
    };
  }
}

/** A softcode engine over a fresh test world with a room (#0) and a wizard (#1) in it. */
export function testSoftcode(
  limits: Partial<SoftcodeLimits> | (() => Partial<SoftcodeLimits>) = {},
  monotonic?: () => number,
  functions = builtinFunctions(),
) {
  const world = new TestWorld();
  const room = world.add("Limbo", "room");
  const wiz = world.add("Wizard", "player", { location: room, flags: ["wizard"] });
  const sc = new Softcode({
    ports: world.ports(),
    functions,
    limits,
    monotonic,
  });
  /** Evaluates as the wizard, `think`-style; colour markers removed. */
  const run = (text: string, executor = wiz) => stripMarkup(sc.evaluate(text, { executor }));
  /** Evaluates as the wizard, keeping colour markers. */
  const raw = (text: string, executor = wiz) => sc.evaluate(text, { executor });
  return { world, sc, room, wiz, run, raw, flags: TOP_FLAGS, functions };
}
