/**
 * The rules of building, in one place for the building commands (a plugin's `@create`,
 * `@dig`, `@open`, `@link`, `@teleport`) and softcode's `create()`, `link()` and `tel()`: who may build and
 * teleport, names, exits, the object quota, the records made, and what rooms are told of a
 * teleport. Callers read the world and write the records their own way (the commands wait on
 * the store; softcode changes memory at once).
 */
import { ForbiddenError, NotFoundError, ValidationError } from "../errors.ts";
import { controls, type ControlWorld, ownerOf } from "./control.ts";
import { hasFlag, isStaff } from "./flags.ts";
import { exitName, objectNameProblem } from "./names.ts";
import { zoneOf } from "./zones.ts";
import type { DbObject, NewObject } from "./types.ts";
import type { OwnedBy } from "./objects.ts";
import { withInheritedRank } from "./inherited_rank.ts";

/** Who may build (`@dig`, `@open`, `@create`, `create()`): a lock expression. */
export const BUILDER_LOCK = "builder+";

/** Longest room description accepted. */
export const MAX_DESCRIPTION = 8000;
/** Most aliases on one exit. */
const MAX_ALIASES = 10;

/** A parsed `Name;alias;alias` exit spec. */
export interface ExitSpec {
  name: string;
  aliases: string[];
}

/** Parses `North;n` into a name and aliases; throws ValidationError. */
export function parseExitSpec(raw: string): ExitSpec {
  const parts = String(raw ?? "").split(";").map((s) => s.trim());
  const [name, ...rest] = parts;
  const problem = objectNameProblem(name);
  if (problem) throw new ValidationError(`Exit ${problem}.`);
  const aliases = [...new Set(rest.filter(Boolean).map((a) => a.toLowerCase()))];
  if (aliases.length > MAX_ALIASES) {
    throw new ValidationError(`An exit has at most ${MAX_ALIASES} aliases.`);
  }
  for (const a of aliases) {
    if (a.length > 32 || /[=#]/.test(a) || objectNameProblem(a)) {
      throw new ValidationError(`'${a.slice(0, 40)}' is not a usable exit alias.`);
    }
  }
  return { name, aliases };
}

/** Checks a room or thing name; throws ValidationError. */
export function checkName(name: unknown, what: string): string {
  const problem = objectNameProblem(name);
  if (problem) throw new ValidationError(`${what} ${problem}.`);
  return (name as string).trim();
}

/**
 * True when the actor may add exits to a room (MUX's open_exit): it controls it, or the room is
 * `open_ok` or has no owner and `passesOpenLock(room)` says the actor passes its open lock.
 */
export function mayBuildIn(
  actor: DbObject,
  room: DbObject,
  passesOpenLock: (room: DbObject) => boolean,
  world: ControlWorld | null,
): boolean {
  if (controls(actor, room, world)) return true;
  return (!room.owner || hasFlag(room.flags, "open_ok")) && passesOpenLock(room);
}

/**
 * True when the actor may link something to `dest` (an exit's destination, a home): staff
 * anywhere (MUX's Link_Anywhere), anyone else when `passesLinkLock(dest)` says it passes the
 * room's link lock. Any room may be linked to, as if MUX's `link_ok` were set on every room.
 */
export function mayLinkTo(
  actor: DbObject,
  dest: DbObject,
  passesLinkLock: (dest: DbObject) => boolean,
): boolean {
  return isStaff(actor.flags) || passesLinkLock(dest);
}

/**
 * Throws why `actor` may not link `obj` to `dest` (`@link` and `link()`): it must control `obj`,
 * an exit (whose destination becomes `dest`) or a player or thing (whose home it becomes), and
 * `dest` must be a room it may link to (mayLinkTo, with its link lock). Answers the field set.
 */
export function checkLink(
  actor: DbObject,
  obj: DbObject,
  dest: DbObject,
  passesLinkLock: (dest: DbObject) => boolean,
  world: ControlWorld | null,
): "destination" | "home" {
  if (!controls(actor, obj, world)) throw new ForbiddenError(`You don't control ${obj.name}.`);
  if (obj.flags.includes("room")) {
    throw new ValidationError("Rooms cannot be linked; link an exit instead.");
  }
  if (!dest.flags.includes("room")) throw new NotFoundError(`#${dest.id} is not a room.`);
  // MUX's link_exit and @link of a home: the destination's link lock (MUX's message).
  if (!mayLinkTo(actor, dest, passesLinkLock)) throw new ForbiddenError("Permission denied.");
  return obj.flags.includes("exit") ? "destination" : "home";
}

/**
 * Throws why an exit cannot be opened in `from` (not a room, not the actor's to build in, a
 * name or alias already used by one of `exitsThere`, the exits already in `from`);
 * `passesOpenLock` checks the actor against a room's open lock (mayBuildIn).
 */
export function checkExit(
  actor: DbObject,
  from: DbObject,
  spec: ExitSpec,
  exitsThere: readonly DbObject[],
  passesOpenLock: (room: DbObject) => boolean,
  world: ControlWorld | null,
): void {
  if (!from.flags.includes("room")) {
    throw new ValidationError("Exits can only be opened in rooms.");
  }
  if (!mayBuildIn(actor, from, passesOpenLock, world)) {
    throw new ForbiddenError(`You don't control ${from.name}.`);
  }
  const wanted = [spec.name.toLowerCase(), ...spec.aliases];
  const taken = exitsThere.find((e) =>
    [e.name.toLowerCase(), ...(e.data.aliases ?? [])].some((n) =>
      wanted.includes(String(n).toLowerCase())
    )
  );
  if (taken) {
    throw new ValidationError(`${from.name} already has an exit called ${exitName(taken)}.`);
  }
}

/**
 * Throws when `actor` may make no more objects: the owner index counts `owned` for its owner
 * (`owner`, the object itself for a player), and the quota (`game.objectQuota`; 0: none) is
 * reached. Staff have none, nor do their things, as MUX's wizards (Free_Quota of the owner).
 */
export function checkQuota(
  actor: DbObject,
  owned: number,
  quota: number,
  owner: DbObject | null = null,
): void {
  const left = quotaLeft(actor, owned, quota, owner);
  if (left !== null && left <= 0) {
    throw new ForbiddenError(
      `Sorry, your building contract has run out: you own ${
        quota - left
      } objects, the most you may.`,
    );
  }
}

/**
 * The object store's quota check for a create by `actor` (ObjectStore.createOwned): its owner's
 * objects counted, refused as checkQuota refuses. `owner` is the owning player's record.
 */
export function quotaGate(actor: DbObject, quota: number, owner: DbObject | null): OwnedBy {
  return {
    owner: ownerOf(actor),
    atMost: Math.max(quota, 0) + 1,
    check: (owned) => checkQuota(actor, owned, quota, owner),
  };
}

/**
 * How many more objects `actor` may own under `quota` when its owner owns `owned` (the owner
 * index's count, which lists the owning player among its own objects), or null when nothing
 * limits it (no quota, or `actor` or its `owner` is staff: MUX's Free_Quota of either): the rule
 * of checkQuota, which `hasquota()` asks too. As in MUX 2.12, the quota is the owner's whoever
 * builds (a player or one of its things), and the player itself is not charged to it.
 */
export function quotaLeft(
  actor: DbObject,
  owned: number,
  quota: number,
  owner: DbObject | null = null,
): number | null {
  if (quota <= 0 || isStaff(actor.flags) || (owner !== null && isStaff(owner.flags))) return null;
  return quota - Math.max(0, owned - 1);
}

/** A room's description: a string of at most MAX_DESCRIPTION characters; throws ValidationError. */
export function checkDescription(description: unknown): string {
  if (typeof description !== "string") throw new ValidationError("description must be a string.");
  if (description.length > MAX_DESCRIPTION) {
    throw new ValidationError(`description must be ${MAX_DESCRIPTION} characters or fewer.`);
  }
  return description;
}

/** What a new object of `actor` starts with of its zone: the actor's (MUX). */
function zoned(actor: DbObject): { zone?: string } {
  const zone = zoneOf(actor);
  return zone ? { zone } : {};
}

/** The record of a room owned by the actor. */
export function roomRecord(actor: DbObject, name: unknown, description: unknown = ""): NewObject {
  const n = checkName(name, "Room");
  const desc = checkDescription(description);
  return {
    name: n,
    type: "room",
    owner: ownerOf(actor),
    data: { ...zoned(actor), ...(desc ? { description: desc } : {}) },
  };
}

/** The record of a thing carried by the actor, at home in the actor's room. */
export function thingRecord(actor: DbObject, name: unknown): NewObject {
  return {
    name: checkName(name, "Thing"),
    type: "thing",
    location: actor.id,
    owner: ownerOf(actor),
    data: { ...zoned(actor), ...(actor.location ? { home: actor.location } : {}) },
  };
}

/** The record of an exit in `from` (checked with `checkExit`), leading to `to` or unlinked. */
export function exitRecord(
  actor: DbObject,
  from: DbObject,
  spec: ExitSpec,
  to: DbObject | null,
): NewObject {
  return {
    name: spec.name,
    type: "exit",
    location: from.id,
    owner: ownerOf(actor),
    data: {
      ...zoned(actor),
      ...(to ? { destination: to.id } : {}),
      ...(spec.aliases.length ? { aliases: spec.aliases } : {}),
    },
  };
}

/**
 * The record of a new `type` of object for the actor (softcode's `create()`): a thing it carries,
 * a room, or an unlinked exit in `here` (its room), checked against `exitsThere()`, the exits
 * already there. Throws the rule's refusal.
 */
export function builtRecord(
  actor: DbObject,
  name: string,
  type: "thing" | "room" | "exit",
  here: DbObject | null,
  exitsThere: () => readonly DbObject[],
  passesOpenLock: (room: DbObject) => boolean,
  world: ControlWorld | null,
): NewObject {
  if (type === "room") return roomRecord(actor, name);
  if (type === "thing") return thingRecord(actor, name);
  if (!here) throw new ValidationError("You are not in a room.");
  const spec = parseExitSpec(name);
  checkExit(actor, here, spec, exitsThere(), passesOpenLock, world);
  return exitRecord(actor, here, spec, null);
}

/** Most containers a teleport looks through to refuse putting an object inside itself. */
export const MAX_CONTAINMENT = 50;

/**
 * Throws MUX's "You can't teleport that." for a room, asked before who may move it, as MUX's
 * do_teleport does. (An exit is teleported to another room: its source changes.)
 */
export function teleportable(obj: DbObject): void {
  if (obj.flags.includes("room")) throw new ValidationError("You can't teleport that.");
}

/**
 * Throws why `obj` cannot be teleported to `dest`: a room, or (as in MUX, where installers keep
 * their objects inside a global one) a thing that is not `obj` and not inside it, or a player for
 * a thing (into its hands, as MUX's); an exit only to another room (its new source). A player is
 * not sent into a player, as MUX would: speech, rooms and presence here know no player standing
 * inside another (docs/commands.md). `locationOf` reads where an object is, to follow `dest`'s
 * containers up to MAX_CONTAINMENT.
 */
export function checkTeleport(
  obj: DbObject,
  dest: DbObject,
  locationOf: (id: string) => string | undefined,
): void {
  teleportable(obj);
  // MUX's do_teleport: an object sent to itself is a bad destination.
  if (dest.id === obj.id) throw new ValidationError("Bad destination.");
  if (obj.flags.includes("exit")) {
    // MUX also moves an exit onto a thing or a player; here exits lead out of rooms only.
    if (!dest.flags.includes("room")) throw new ValidationError("Bad destination.");
    if (obj.location === dest.id) throw new ValidationError(`${obj.name} is already there.`);
    return;
  }
  if (dest.flags.includes("player")) {
    if (obj.flags.includes("player")) {
      throw new ValidationError("A player cannot be teleported into a player.");
    }
  } else if (!dest.flags.includes("room") && !dest.flags.includes("thing")) {
    throw new ValidationError(`${dest.name} is not a room, a thing or a player.`);
  }
  if (obj.location === dest.id) throw new ValidationError(`${obj.name} is already there.`);
  if (dest.flags.includes("room")) return;
  let at: string | undefined = dest.id;
  for (let i = 0; at && i <= MAX_CONTAINMENT; i++) {
    if (at === obj.id) throw new ValidationError(`${obj.name} cannot go inside itself.`);
    at = locationOf(at);
  }
  if (at) throw new ValidationError(`${dest.name} is inside too many things.`);
}

/**
 * A teleport refused (MUX's do_teleport and move_via_teleport): the actor may not move the
 * object ("victim"), may not send it there ("destination"), or the object may not leave where it
 * is ("telout": `place`, the one it stands in). teleportRefusalSaid says what each answers.
 */
export type TeleportRefusal =
  | { refused: "victim" }
  | { refused: "destination" }
  | { refused: "exit" }
  | { refused: "telout"; place: DbObject };

/** What deciding a teleport reads, synchronously (a caller that waits on the store reads ahead). */
export interface TeleportReads {
  /**
   * An object by id, or null. Read: where the object stands and the containers around it up to
   * the room, and the containers around the destination.
   */
  object(id: string): DbObject | null;
  /** True when `subject` passes `on`'s lock of `type` (an unlocked place passes). */
  passesLock(subject: DbObject, on: DbObject, type: "teleport" | "telout" | "open"): boolean;
  /** What control reads of the world. */
  world: ControlWorld | null;
}

/**
 * The one teleport rule, for `@teleport` and softcode's `tel()`: may `actor` send `obj` to `dest`?
 * As MUX: staff move anything anywhere; anyone else moves what it controls or what stands in a
 * place it controls, to a place it controls or to one set `jump_ok` whose teleport lock `obj`
 * passes; an exit, which goes to rooms only, needs of a `jump_ok` room also that the actor may
 * open exits there (mayBuildIn). Then (for everyone, staff too, as MUX's move_via_teleport) the
 * place `obj` leaves and each container around it up to the room must let it pass their telout
 * locks (not for an exit). Null when it may go; throws ValidationError (checkTeleport) for what
 * can never be teleported there.
 */
export function teleportRefusal(
  actor: DbObject,
  obj: DbObject,
  dest: DbObject,
  r: TeleportReads,
): TeleportRefusal | null {
  const staff = isStaff(actor.flags);
  const place = obj.location ? r.object(obj.location) : null;
  // MUX's order (do_teleport_single): what it is, who may move it, itself as the destination,
  // who may send it there; then what can never be (already there, inside itself).
  teleportable(obj);
  if (!mayMove(actor, obj, place, r)) return { refused: "victim" };
  if (dest.id === obj.id) throw new ValidationError("Bad destination.");
  const exit = obj.flags.includes("exit");
  // An exit goes only where one may open exits too: the room's open_ok and open lock (MUX).
  if (exit && !dest.flags.includes("room")) throw new ValidationError("Bad destination.");
  if (
    !staff && !controls(actor, dest, r.world) &&
    !(hasFlag(dest.flags, "jump_ok") && r.passesLock(obj, dest, "teleport") &&
      (!exit || mayBuildIn(actor, dest, (room) => r.passesLock(actor, room, "open"), r.world)))
  ) return { refused: exit ? "exit" : "destination" };
  checkTeleport(obj, dest, (id) => r.object(id)?.location || undefined);
  // What holds an exit is not left as a player leaves a place: no telout lock asks it (MUX's
  // asks the lock of the room the exit leads to, an accident of where it keeps an exit's source).
  if (exit) return null;
  let at = place;
  for (let i = 0; place && at && i <= MAX_CONTAINMENT; i++) {
    if (!r.passesLock(obj, at, "telout")) return { refused: "telout", place };
    if (at.flags.includes("room") || !at.location) break;
    at = r.object(at.location);
  }
  return null;
}

/**
 * The rule of sending `obj` home (`@teleport <obj>=home`, `tel(<obj>,home)`), `home` being where
 * homeOf says it goes: as MUX's do_teleport, only who may move it is asked (staff, or one that
 * controls it or the place it stands in); its home's teleport lock and the telout locks around
 * it are not. Null when it may go (also when it is home already: nothing is refused then);
 * throws ValidationError (checkTeleport) as teleportRefusal, and "Bad destination." for an exit.
 */
export function homeRefusal(
  actor: DbObject,
  obj: DbObject,
  home: DbObject,
  r: TeleportReads,
): TeleportRefusal | null {
  const place = obj.location ? r.object(obj.location) : null;
  teleportable(obj);
  if (!mayMove(actor, obj, place, r)) return { refused: "victim" };
  // An exit has no home (MUX's do_teleport_single).
  if (obj.flags.includes("exit")) throw new ValidationError("Bad destination.");
  // Already home: MUX sends it home again all the same (the caller then moves nothing).
  if (obj.location === home.id) return null;
  checkTeleport(obj, home, (id) => r.object(id)?.location || undefined);
  return null;
}

/** True when `actor` may teleport `obj`, which stands in `place`: staff, or it controls either. */
function mayMove(
  actor: DbObject,
  obj: DbObject,
  place: DbObject | null,
  r: TeleportReads,
): boolean {
  return isStaff(actor.flags) || controls(actor, obj, r.world) ||
    !!(place && controls(actor, place, r.world));
}

/** An act's messages as MUX's did_it takes them: the actor's (else `def`), the others', the action. */
export interface ActMessages {
  what: string;
  def: string;
  owhat: string;
  awhat: string;
}

/**
 * What a refused teleport says, as MUX's do_teleport: `told` to the actor ("" when the object
 * asked to go itself and hears the place instead), and `act`, the place that refused with the
 * messages it says to the one teleported and the others there, and the action it runs (did_it).
 */
export function teleportRefusalSaid(
  r: TeleportRefusal,
  dest: DbObject,
  self: boolean,
): { told: string; act: { place: DbObject; verb: ActMessages } | null } {
  // An exit refused hears nothing and nobody hears it (it stands in no place to say it in).
  if (r.refused === "victim" || r.refused === "exit") {
    return { told: "Permission denied.", act: null };
  }
  if (r.refused === "destination") {
    const verb = {
      what: "TFAIL",
      def: "You can't teleport there!",
      owhat: "OTFAIL",
      awhat: "ATFAIL",
    };
    return { told: self ? "" : "Permission denied.", act: { place: dest, verb } };
  }
  const verb = {
    what: "TOFAIL",
    def: self ? "You can't teleport out!" : "You can't be teleported out!",
    owhat: "OTOFAIL",
    awhat: "ATOFAIL",
  };
  return { told: self ? "" : "You can't teleport that out!", act: { place: r.place, verb } };
}

/**
 * What `actor` is told of sending `moved` somewhere: MUX's "Teleported." (do_teleport_single);
 * "" when it went itself, was sent `home` (MUX says nothing of that), or the actor is `quiet`.
 */
export function teleported(actor: DbObject, moved: DbObject, home: boolean): string {
  if (actor.id === moved.id || home || hasFlag(actor.flags, "quiet")) return "";
  return "Teleported.";
}

/**
 * MUX's `Dark(x) && Can_Dark(x)`: set dark and a wizard (itself, or an inherit object of a
 * wizard or the superuser). Such an object is never heard leaving or arriving, though it hears.
 */
export function isDarkWizard(world: { object(id: string): DbObject | null }, o: DbObject): boolean {
  if (!hasFlag(o.flags, "dark")) return false;
  const rank = withInheritedRank(world, o).flags;
  return hasFlag(rank, "wizard") || hasFlag(rank, "superuser");
}
