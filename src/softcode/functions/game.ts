/**
 * The game's state, as TinyMUX 2.12's server functions give it (`config()`, `stats()`,
 * `motd()`, `restarts()`, `dumping()`...), over what the engine and its supervisor know
 * (SoftcodePorts.game). docs/softcode.md says what each means here.
 */
import { define } from "./define.ts";
import { EVAL_ARG, type Frame, type FunctionDef } from "../types.ts";
import type { Evaluation } from "../eval.ts";
import { controls, examinable, objectBytes, thing } from "./objects.ts";
import { bool, isRational } from "../numbers.ts";
import { dbrefId } from "../match.ts";
import { typeOf } from "../../world/indexes.ts";
import type { DbObject, ObjectType } from "../../world/types.ts";

/** The executor counts as staff (its inherited rank included). */
function staff(ev: Evaluation, f: Frame): boolean {
  const me = ev.object(f.executor);
  return !!me && ev.ports.access.isStaff(me);
}

/**
 * MUX's lookup_player: `me`, a `#dbref` of any object, or a player's name or alias (a leading
 * `*` allowed); null when none.
 */
function lookupPlayer(ev: Evaluation, f: Frame, text: string): DbObject | null {
  const word = text.trim();
  if (word.toLowerCase() === "me") return ev.object(f.executor);
  if (word.startsWith("#")) {
    const id = dbrefId(word);
    return id === null ? null : ev.object(id);
  }
  const id = ev.ports.world.playerByName(word.replace(/^\*/, ""));
  return id === null ? null : ev.object(id);
}

/** MUX's NEWOBJS positions: what lastcreate()'s type letter asks for (any other: any type). */
const CREATED_TYPE: Readonly<Record<string, ObjectType>> = {
  r: "room",
  t: "thing",
  e: "exit",
  p: "player",
};

/** The most objects one call of playmem() or lastcreate() reads of an owner's holdings. */
const HOLDINGS_READ = 1_000_000;

/** The game-state functions. */
export const gameFunctions: FunctionDef<Evaluation>[] = [
  define("motd", 0, 0, {
    family: "game",
    args: "motd()",
    summary:
      "The message every login is shown (MUX's @motd: here game.loginMessage, set by @site).",
    example: { think: "motd()", gives: "" },
  }, (ev) => ev.ports.game.motd()),
  define("config", 0, 1, {
    family: "game",
    args: "config([<parameter>])",
    summary: "A MUX configuration parameter's value here; alone, the parameters you may read.",
    more:
      "The parameters are TinyMUX's names for the settings this game has (mud_name, idle_timeout, lbuf_size, function_invocation_limit, player_queue_limit, port, have_mailer...), booleans as 1 and 0. Those MUX shows wizards alone (master_room, max_players, conn_timeout, motd_message, number_guests) are for staff. A name the game does not have gives #-1 NO MATCH; one you may not read, #-1 PERMISSION DENIED.",
    example: { think: "config(mud_name)", gives: "TestMUSH" },
  }, (ev, f, args) => {
    const isStaff = staff(ev, f);
    if (args.length === 0) return ev.cap(ev.ports.game.paramNames(isStaff).join(" "));
    const v = ev.ports.game.param(args[0].trim(), isStaff);
    if (v === undefined) return "#-1 NO MATCH";
    return v === null ? "#-1 PERMISSION DENIED" : v;
  }),
  define("stats", 0, 1, {
    family: "game",
    args: "stats([<player>])",
    summary:
      "Objects counted as @stats counts them: total, rooms, exits, things, players, garbage (always 0 here).",
    more:
      "Alone or with all, the whole game's; with a player, what it owns (yours, or staff: anyone's). Nothing is charged (there is no money).",
    example: { think: "stats()", gives: "5 1 1 1 2 0" },
  }, (ev, f, args) => {
    const word = args[0]?.trim() ?? "";
    let owner: string | null = null;
    if (word !== "" && word.toLowerCase() !== "all") {
      const who = lookupPlayer(ev, f, word);
      if (!who) return "#-1 PLAYER NOT FOUND";
      // MUX's get_stats: what one controls, or anything for those who may stat anyone (staff).
      if (!staff(ev, f) && !controls(ev, f, who)) {
        ev.ports.delivery.toObject(f.executor, "Permission denied.");
        return "#-1 ERROR GETTING STATS";
      }
      owner = who.id;
    }
    const n = ev.ports.game.counts(owner);
    return `${n.total} ${n.rooms} ${n.exits} ${n.things} ${n.players} 0`;
  }),
  define("money", 1, 1, {
    family: "game",
    args: "money(<object>)",
    summary: "The coins an object has: always 0, as the game keeps no money.",
    example: { think: "money(me)", gives: "0" },
  }, (ev, f, args) => {
    const o = thing(ev, f, args[0]);
    if (typeof o === "string") return o;
    return examinable(ev, f, o) ? "0" : "#-1 PERMISSION DENIED";
  }),
  define("lastcreate", 0, 2, {
    family: "game",
    args: "lastcreate([<object>[, <type>]])",
    summary:
      "The newest object of a type (r, t, e, p; else any) that the object (default: you) owns.",
    more:
      "The game keeps who owns an object, not who made it: this is MUX's last created object for a player (what it made and kept), #-1 for an object that owns nothing, and #-1 for players (p), who own themselves. Dbrefs only grow, so the newest is the highest. You may ask of what you control (staff: anything).",
    example: { think: "lastcreate(me,t)", gives: "#3" },
  }, (ev, f, args) => {
    let target = ev.object(f.executor);
    if (args.length > 0 && args[0] !== "") {
      const o = thing(ev, f, args[0]);
      if (typeof o === "string") return "#-1 NO MATCH";
      if (!staff(ev, f) && !controls(ev, f, o)) return "#-1 PERMISSION DENIED";
      target = o;
    }
    if (!target) return "#-1";
    const want: ObjectType | undefined = CREATED_TYPE[(args[1] ?? "").charAt(0).toLowerCase()];
    let newest = -1;
    for (const id of ev.ports.world.ownedBy(target.id, HOLDINGS_READ)) {
      if (!ev.tick()) break;
      const n = Number(id);
      if (id === target.id || n <= newest) continue;
      const o = ev.object(id);
      if (o && (want === undefined || typeOf(o) === want)) newest = n;
    }
    return `#${newest}`;
  }),
  define("playmem", 0, 1, {
    family: "game",
    args: "playmem([<player>])",
    summary: "The bytes a player's objects take (what objmem() counts, over all it owns).",
    more: "Of yourself, or of what you may examine.",
    example: { think: "playmem(me)", gives: "400", varies: true },
  }, (ev, f, args) => {
    let who = ev.object(f.executor);
    if (args.length > 0) {
      const o = thing(ev, f, args[0]);
      if (typeof o === "string") return o;
      if (!examinable(ev, f, o)) return "#-1 PERMISSION DENIED";
      who = o;
    }
    if (!who) return "0";
    let bytes = 0;
    for (const id of ev.ports.world.ownedBy(who.id, HOLDINGS_READ)) {
      // Each object's attributes are read: the clock is asked at each.
      if (!ev.tickNow()) break;
      const o = ev.object(id);
      if (o) bytes += objectBytes(ev, o);
    }
    return String(bytes);
  }),
  define("dumping", 0, 0, {
    family: "game",
    args: "dumping()",
    summary: "1 while the game writes an automatic backup (MUX's forked @dump), else 0.",
    example: { think: "dumping()", gives: "0" },
  }, (ev) => bool(ev.ports.game.dumping())),
  define("restarts", 0, 0, {
    family: "game",
    args: "restarts()",
    summary: "How many times the game restarted (@reboot, @update) since it was started.",
    example: { think: "restarts()", gives: "0" },
  }, (ev) => String(ev.ports.game.restarts)),
  define("restartsecs", 0, 0, {
    family: "time",
    args: "restartsecs()",
    summary: "When the game last started or restarted, in seconds since 1970 (restarttime()'s).",
    example: { think: "restartsecs()", gives: "1767265200", varies: true },
  }, (ev) => String(Math.floor(ev.ports.startedAt / 1000))),
  define("siteinfo", 1, 1, {
    family: "game",
    args: "siteinfo(<player>)",
    summary:
      "A connected player's site flags as staff's WHO shows them: none here (the game keeps no site lists).",
    more:
      "Staff only. A player who is not connected gives #-1 NOT A CONNECTED PLAYER; no such player, #-1 PLAYER DOES NOT EXIST; a number (MUX's port), #-1 NOT AN ACTIVE PORT, as connections have no ports here.",
    example: { think: "siteinfo(me)", gives: "" },
  }, (ev, f, args) => {
    if (!staff(ev, f)) return "#-1 PERMISSION DENIED";
    if (isRational(args[0])) return "#-1 NOT AN ACTIVE PORT";
    const who = lookupPlayer(ev, f, args[0]);
    if (!who) return "#-1 PLAYER DOES NOT EXIST";
    return ev.ports.presence.isOnline(who.id) ? "" : "#-1 NOT A CONNECTED PLAYER";
  }),
  define(
    "trace",
    1,
    1,
    {
      family: "control",
      args: "trace(<code>)",
      summary:
        "Evaluates the code, as MUX's does with tracing on (the game shows no trace lines yet).",
      example: { think: "trace(add(1,2))", gives: "3" },
    },
    (ev, f, args) => ev.eval(f, args[0], EVAL_ARG),
    { lazy: true },
  ),
];
