/**
 * World edits for building: creating rooms, exits and things, linking, locking,
 * moving and destroying, with the rules that keep the world consistent. Typed
 * errors carry messages fit for both players and REST clients.
 */
import {
  announceArrival,
  announceLeaving,
  checkExit,
  checkLink,
  checkTeleport,
  controls,
  type ControlWorld,
  type DbObject,
  type Delivery,
  exitRecord,
  type ExitSpec,
  ForbiddenError,
  hearerOf,
  homeOf,
  lockOf,
  MAX_CONTAINMENT,
  mayLinkTo,
  normalizeId,
  NotFoundError,
  type PluginWorld,
  roomRecord,
  type TeleportReads,
  thingRecord,
  ValidationError,
  viewHeard,
} from "../../src/plugins/mod.ts";

/**
 * Most objects `@destroy` sends home out of a room or thing, and most exits elsewhere it unlinks
 * from a room (`plugins.building.destroyContents`): past it the destroy is refused.
 */
export const DESTROY_CONTENTS = 5000;

/** Building operations over the object store. */
export class Builder {
  /** Rooms awaiting a second `@destroy` (actor id → room id and deadline). */
  readonly #pending = new Map<string, { id: string; until: number }>();

  /** `destroyContents` is read at each destroy (`@reload/config` changes it). */
  constructor(
    private readonly w: PluginWorld,
    private readonly deliver: Delivery,
    private readonly destroyContents: () => number = () => DESTROY_CONTENTS,
  ) {}

  /** Creates a room owned by the actor (within its object quota). */
  async room(actor: DbObject, name: unknown, description: unknown = ""): Promise<DbObject> {
    return await this.w.createOwned(actor, roomRecord(actor, name, description));
  }

  /**
   * Throws the reason an exit cannot be opened in `from` (not a room, not the actor's to
   * build in, a name or alias already used there, the actor's object quota reached); `@dig`
   * asks before it makes its room.
   */
  async checkExit(actor: DbObject, from: DbObject, spec: ExitSpec): Promise<void> {
    const there = await this.w.contentsOfType(from.id, "exit", 1000);
    checkExit(
      actor,
      from,
      spec,
      there,
      (room) => this.passesLock(actor, room, "open"),
      this.w.locks,
    );
    await this.w.checkQuota(actor);
  }

  /** What control reads of the world (the engine's lock world). */
  get locks(): ControlWorld {
    return this.w.locks;
  }

  /** True when the actor passes `obj`'s lock of `type` (an unlocked object passes). */
  passesLock(actor: DbObject, obj: DbObject, type: string): boolean {
    const subject = { id: `#${actor.id}`, flags: actor.flags, connected: true };
    return this.w.passes(lockOf(obj, type), subject, obj.id);
  }

  /** True when the actor may link an exit or a home to `dest` (its link lock: mayLinkTo). */
  mayLinkTo(actor: DbObject, dest: DbObject): boolean {
    return mayLinkTo(actor, dest, (room) => this.passesLock(actor, room, "link"));
  }

  /**
   * Creates an exit in `from` leading to `to`, or unlinked: without a `to`, or (as MUX's
   * open_exit, which opens the exit and then refuses the link) when `to`'s link lock keeps the
   * actor out.
   */
  async exit(
    actor: DbObject,
    from: DbObject,
    spec: ExitSpec,
    to: DbObject | null,
  ): Promise<DbObject> {
    await this.checkExit(actor, from, spec);
    const dest = to && this.mayLinkTo(actor, to) ? to : null;
    return await this.w.createOwned(actor, exitRecord(actor, from, spec, dest));
  }

  /** Creates a thing carried by the actor, at home in the actor's room. */
  async thing(actor: DbObject, name: unknown): Promise<DbObject> {
    return await this.w.createOwned(actor, thingRecord(actor, name));
  }

  /**
   * Resolves a room reference: `here`, `#12`/`12`, or an exact room name
   * (case-insensitive, must be unique).
   */
  async findRoom(ref: string, here: DbObject | null): Promise<DbObject> {
    const r = String(ref ?? "").trim();
    if (!r) throw new ValidationError("Which room?");
    if (r.toLowerCase() === "here") {
      if (!here) throw new NotFoundError("You are not in a room.");
      return here;
    }
    const id = normalizeId(r);
    if (id) {
      const o = await this.w.get(id);
      if (!o || !o.flags.includes("room")) throw new NotFoundError(`#${id} is not a room.`);
      return o;
    }
    if (r.length > 64) throw new NotFoundError("There is no such room.");
    const rooms = (await this.w.byName(r)).filter((o) => o.flags.includes("room"));
    if (!rooms.length) throw new NotFoundError(`There is no room called ${r}.`);
    if (rooms.length > 1) {
      throw new ValidationError(
        `Several rooms are called ${r}: ${
          rooms.slice(0, 10).map((o) => `#${o.id}`).join(", ")
        }. Use a #dbref.`,
      );
    }
    return rooms[0];
  }

  /**
   * Resolves where `@teleport` sends something: a room as findRoom does, or (as in MUX) a thing
   * by #dbref (checkTeleport says what may be entered); `near` finds one by name around the
   * actor when no room has that name. Nothing found is MUX's "No match.".
   */
  async findDestination(
    ref: string,
    here: DbObject | null,
    near: (ref: string) => Promise<DbObject>,
  ): Promise<DbObject> {
    const id = normalizeId(String(ref ?? "").trim());
    if (id) {
      const o = await this.w.get(id);
      if (!o) throw new NotFoundError("No match.");
      return o;
    }
    try {
      return await this.findRoom(ref, here);
    } catch (e) {
      if (!(e instanceof NotFoundError)) throw e;
      return await near(ref).catch(() => {
        throw new NotFoundError("No match.");
      });
    }
  }

  /** The room `obj` goes home to (homeOf: its home, else the starting room). */
  async home(obj: DbObject): Promise<DbObject> {
    const set = normalizeId(String(obj.data.home ?? ""));
    const room = set ? await this.w.get(set) : null;
    const id = homeOf(obj, () => !!room?.flags.includes("room"), await this.w.startingRoom());
    const home = id === room?.id ? room : await this.w.get(id);
    if (!home) throw new NotFoundError(`${obj.name} has no home to go to.`);
    return home;
  }

  /** Links an exit to a room, or sets the home of a player or thing. */
  async link(actor: DbObject, obj: DbObject, room: DbObject): Promise<DbObject> {
    // The rule link() shares (src/world/building.ts).
    const key = checkLink(
      actor,
      obj,
      room,
      (dest) => this.passesLock(actor, dest, "link"),
      this.w.locks,
    );
    return await this.w.update(obj.id, (o) => {
      o.data[key] = room.id;
    });
  }

  /** Unlinks an exit (it then leads nowhere). */
  async unlink(actor: DbObject, obj: DbObject): Promise<DbObject> {
    if (!controls(actor, obj, this.w.locks)) {
      throw new ForbiddenError(`You don't control ${obj.name}.`);
    }
    if (!obj.flags.includes("exit")) throw new ValidationError("Only exits can be unlinked.");
    return await this.w.update(obj.id, (o) => {
      delete o.data.destination;
    });
  }

  /**
   * What the teleport rule (teleportRefusal) reads of sending `obj` to `dest`, read ahead from
   * the store: the containers around each up to the room, and locks.
   */
  async teleportReads(obj: DbObject, dest: DbObject): Promise<TeleportReads> {
    const held = new Map<string, DbObject>([[obj.id, obj], [dest.id, dest]]);
    for (const start of [obj, dest]) {
      let at = start;
      for (let i = 0; at.location && !at.flags.includes("room") && i <= MAX_CONTAINMENT; i++) {
        const next = held.get(at.location) ?? await this.w.get(at.location);
        if (!next) break;
        held.set(next.id, next);
        at = next;
      }
    }
    return {
      object: (id) => held.get(id) ?? null,
      passesLock: (subject, on, type) => this.passesLock(subject, on, type),
      world: this.w.locks,
    };
  }

  /**
   * Moves an object to `dest` as MUX's move_via_teleport: the place left hears it go, the one
   * moved (a player, or a puppet's owner) is shown the new room `width` columns wide, then the
   * place reached hears it come (announceLeaving, announceArrival); an exit moves silently to
   * its new room, its destination kept. The store's change event moves a player in the hub's
   * room index and an exit in the indexes of exits. Returns the moved object.
   */
  async move(obj: DbObject, dest: DbObject, width = 78): Promise<DbObject> {
    // Where dest's containers are, read up front: the check itself reads no store.
    const where = new Map<string, string>();
    let at: DbObject | null = dest;
    for (let i = 0; at && at.location && i <= MAX_CONTAINMENT; i++) {
      where.set(at.id, at.location);
      at = at.flags.includes("room") ? null : await this.w.get(at.location);
    }
    checkTeleport(obj, dest, (id) => where.get(id));
    const from = obj.location;
    const place = (o: DbObject) => {
      o.location = dest.id;
    };
    if (obj.flags.includes("exit")) return await this.w.update(obj.id, place);
    // Whether it hears is asked before it moves, as MUX's Hearer().
    const hears = this.w.hears(obj);
    // What the announcements read: the places left (dark?) and reached (told too, when a player
    // or a puppet), and the owner (an inherit object's rank).
    const world = await this.#reader([from, dest.id, obj.owner]);
    const moved = await this.w.update(obj.id, place);
    announceLeaving(this.deliver, world, moved, from, hears);
    await this.showRoom(moved, dest, width);
    announceArrival(this.deliver, world, moved, hears);
    return moved;
  }

  /**
   * Shows `obj` the room it is in now, `width` columns wide, as MUX's move does: a player, or a
   * puppet's owner each line after the puppet's name; nobody else looks.
   */
  async showRoom(obj: DbObject, room: DbObject, width = 78): Promise<void> {
    if (!hearerOf(obj)) return;
    const seen = viewHeard(obj, await this.w.look(obj, room, width));
    if (seen) this.deliver.toPlayer(seen.player, seen.out);
  }

  /** A reader of the objects `ids` as they are now (what an announcement of a move reads). */
  async #reader(ids: readonly string[]): Promise<{ object(id: string): DbObject | null }> {
    const read = new Map<string, DbObject | null>();
    for (const id of ids) if (id && !read.has(id)) read.set(id, await this.w.get(id));
    return { object: (id: string) => read.get(id) ?? null };
  }

  /**
   * Sends `o`, in something being destroyed, to the room `home`, as MUX's empty_obj does: its
   * place is gone, so nothing hears it leave; it looks at its home (a player, a puppet's owner)
   * and, when it hears (asked first), its home hears it arrive.
   */
  async #sendHome(o: DbObject, home: string): Promise<void> {
    const hears = this.w.hears(o);
    const moved = await this.w.update(o.id, (x) => {
      x.location = home;
    });
    const room = await this.w.get(home);
    if (room) await this.showRoom(moved, room);
    announceArrival(this.deliver, await this.#reader([o.owner]), moved, hears);
  }

  /**
   * Takes `o` out of `obj`, which is being destroyed: an exit goes with it, anything else goes
   * home (the starting room `fallback` when its home is no room, or `obj`). True when sent home.
   */
  async #empty(obj: DbObject, o: DbObject, fallback: string): Promise<boolean> {
    if (o.flags.includes("exit")) {
      await this.w.destroy(o.id);
      return false;
    }
    const home = normalizeId(String(o.data.home ?? ""));
    const target = home && home !== obj.id && (await this.w.get(home))?.flags.includes("room")
      ? home
      : fallback;
    try {
      await this.#sendHome(o, target);
    } catch (e) {
      // The thing destroyed meanwhile needs nothing; its home destroyed since it was read (a
      // move into it is refused), the starting room instead: the destroy must not stop there
      // with things still inside.
      if (!(e instanceof NotFoundError)) throw e;
      if (!(await this.w.get(o.id))) return false;
      if (target === fallback) throw e;
      await this.#sendHome(o, fallback);
    }
    return true;
  }

  /**
   * Destroys an object. Players and the starting room are refused. A room needs confirming
   * (`/confirm`, or the same `@destroy` again within a minute). Exits of a destroyed room go
   * with it, exits elsewhere that led to it are unlinked; what is inside a room or thing goes
   * home, players too, heard as MUX's destroy is (a thing leaving its place, each one that
   * hears arriving home, each player shown its home).
   * Returns null when confirmation is needed.
   */
  async destroy(
    actor: DbObject,
    obj: DbObject,
    confirmed: boolean,
    override = false,
  ): Promise<{ moved: number; unlinked: number } | null> {
    if (!controls(actor, obj, this.w.locks)) {
      throw new ForbiddenError(`You don't control ${obj.name}.`);
    }
    if (obj.flags.includes("player")) {
      throw new ValidationError("Players cannot be destroyed (staff can @toad them).");
    }
    // MUX's SAFE: kept from @destroy unless /override says so.
    if (obj.flags.includes("safe") && !override) {
      throw new ValidationError(
        "Sorry, that object is protected.  Use @destroy/override to destroy it.",
      );
    }
    const isRoom = obj.flags.includes("room");
    if (isRoom) {
      const start = await this.w.startingRoom();
      if (obj.id === start || obj.id === "1") {
        throw new ValidationError("The starting room cannot be destroyed.");
      }
    }
    // Read whole or refused before anything changes (or any confirmation is asked): one past the
    // bound tells that more are there, and a destroy that moved only the first ones would leave
    // the rest, players too, inside an object that no longer exists.
    const limit = this.destroyContents();
    const inside = obj.flags.includes("exit") ? [] : await this.w.contents(obj.id, limit + 1);
    if (inside.length > limit) {
      throw new ValidationError(
        `${obj.name}(#${obj.id}) holds more than ${limit} objects, more than @destroy sends ` +
          "home at once. Move some out first.",
      );
    }
    // Found through the destination index: no scan of every exit in the world.
    const leading = isRoom ? await this.w.exitsTo(obj.id, limit + 1) : [];
    if (leading.length > limit) {
      throw new ValidationError(
        `More than ${limit} exits lead to ${obj.name}(#${obj.id}), more than @destroy unlinks ` +
          "at once. Unlink some first.",
      );
    }
    if (isRoom) {
      const p = this.#pending.get(actor.id);
      const now = Date.now();
      if (!confirmed && !(p && p.id === obj.id && p.until > now)) {
        this.#pending.set(actor.id, { id: obj.id, until: now + 60_000 });
        return null;
      }
      this.#pending.delete(actor.id);
    }
    let moved = 0;
    // An exit holds nothing; anything else is emptied, its contents sent home.
    const emptied = !obj.flags.includes("exit");
    const fallback = emptied ? await this.w.startingRoom() : "";
    if (emptied) {
      // MUX's destroy_thing: the thing leaves its place for nowhere first, heard as any move
      // (its owner, the move's cause, is not told).
      if (!isRoom && obj.location) {
        const world = await this.#reader([obj.location, obj.owner]);
        announceLeaving(this.deliver, world, obj, obj.location, this.w.hears(obj), obj.owner);
      }
      for (const o of inside) if (await this.#empty(obj, o, fallback)) moved++;
    }
    await this.w.destroy(obj.id);
    if (emptied) {
      // A move that committed after `inside` was read and before the delete landed inside; none
      // commits after it (the store checks a move's destination in its commit): sent home too.
      for (const o of await this.w.storedContents(obj.id, limit)) {
        if (await this.#empty(obj, o, fallback)) moved++;
      }
    }
    let unlinked = 0;
    if (isRoom) {
      // With the exits linked after `leading` was read and before the delete (none links after
      // it: the store checks a link's destination in its commit).
      const late = await this.w.storedExitsTo(obj.id, limit);
      const seen = new Set(leading.map((e) => e.id));
      for (const e of [...leading, ...late.filter((e) => !seen.has(e.id))]) {
        try {
          await this.w.update(e.id, (x) => {
            if (x.data.destination === obj.id) delete x.data.destination;
          });
          unlinked++;
        } catch (err) {
          // An exit destroyed meanwhile leads nowhere already: the destroy goes on.
          if (!(err instanceof NotFoundError) || await this.w.get(e.id)) throw err;
        }
      }
    }
    return { moved, unlinked };
  }
}
