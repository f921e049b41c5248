/**
 * The side effects that build: `create()`, `link()` and `tel()`, as MUX 2.12 has them, under the
 * rules of the engine's building commands (`@create`, `@dig`, `@open`, `@link`, `@teleport`:
 * builders build, within their object quota; anyone but a guest teleports what it may move to
 * where it may send it); `wipe()` under `@wipe`'s, the attribute store's.
 * The world changes in memory at once, so the rest of the evaluation sees the new object or the
 * new place; the database follows behind. A refusal is told to the executor, as MUX tells it,
 * and changes nothing. `trigger()` queues an action list through the command queue, as
 * `@trigger` does.
 */
import { define } from "./define.ts";
import type { Evaluation } from "../eval.ts";
import type { Frame, FunctionDef } from "../types.ts";
import { type BuiltType, HOME, type Refused } from "../ports.ts";
import { found, matchThing } from "../match.ts";
import { toInt } from "../numbers.ts";
import { splitList } from "../list.ts";
import { upperAscii } from "../compile.ts";

/** The least and most a thing may cost (MUX's createmin and createmax defaults). */
const MIN_COST = 10;
const MAX_COST = 505;

/** Tells the executor why, as MUX does beside the function's result. */
function tell(ev: Evaluation, f: Frame, why: string): void {
  ev.ports.delivery.toObject(f.executor, why);
}

/** MUX's one-letter types: `r`oom, `e`xit, anything else a thing. */
function builtType(letter: string): BuiltType {
  const t = letter.toLowerCase();
  return t === "r" ? "room" : t === "e" ? "exit" : "thing";
}

/** What a refused change answers: the reason told, MUX's error value returned. */
function refused(ev: Evaluation, f: Frame, r: Refused, value: string): string {
  tell(ev, f, r.refused);
  return r.permission ? "#-1 PERMISSION DENIED" : value;
}

/** The building functions. */
export const buildingFunctions: FunctionDef<Evaluation>[] = [
  define("trigger", 1, 11, {
    family: "effects",
    args: "trigger(<object>/<attribute>[, <arg0>[, <arg1>...]])",
    summary: "Queues an attribute's action list as its object, as @trigger does; gives nothing.",
    example: { think: "[set(me,GO:@emit Hi %0)][trigger(me/go,there)]", gives: "" },
    more: "You become the enactor (%#) and the arguments %0 to %9. You must control the " +
      "object; a refusal gives #-1 PERMISSION DENIED, an unset attribute #-1 NO MATCH.",
  }, (ev, f, args) => {
    const ref = args[0];
    const at = ref.indexOf("/");
    if (at < 1) return "#-1 NO MATCH";
    const id = matchThing(ev.ports.world, f.executor, ref.slice(0, at));
    const obj = found(id) ? ev.object(id) : null;
    const me = ev.object(f.executor);
    if (!obj || !me) return "#-1 NO MATCH";
    if (!ev.ports.access.controls(me, obj)) return "#-1 PERMISSION DENIED";
    const attr = ev.attrWithParents(obj.id, upperAscii(ref.slice(at + 1).trim()));
    if (!attr) return "#-1 NO MATCH";
    const r = ev.ports.queue.enqueue({
      executor: obj.id,
      enactor: f.executor,
      caller: f.executor,
      action: attr.value,
      args: args.slice(1),
      regs: ev.regs,
      // Absent (an evaluation no command made): the entry running now, if any.
      chain: ev.request.chain,
    });
    if ("refused" in r && r.told !== me.id) tell(ev, f, r.refused);
    return "";
  }),
  define("create", 2, 3, {
    family: "effects",
    args: "create(<name>, <cost>[, <type>])",
    summary: "Makes a thing you carry (type r: a room; e: an exit here) and gives its dbref.",
    example: { think: "[setq(0,create(Widget,10))][name(%q0)] [type(%q0)]", gives: "Widget THING" },
    more: "Builders only, within the object quota, as @create, @dig and @open. A thing's cost " +
      "is 10 to 505 (nothing is charged). A refusal gives #-1 and tells you why.",
  }, (ev, f, args) => {
    const letter = args[2] ?? "";
    if (letter.length > 1) return "#-1 SEPARATOR MUST BE ONE CHARACTER";
    // MUX answers an empty name so; a blank one is refused by the name rules, with the reason.
    const name = args[0];
    if (!name) return "#-1 ILLEGAL NAME";
    const type = builtType(letter);
    // Rooms and exits have fixed costs in MUX; the engine has no money, so the cost is checked
    // as MUX checks it, and not charged.
    const cost = toInt(args[1]);
    if (type === "thing" && (cost < MIN_COST || cost > MAX_COST)) return "#-1 OUT OF RANGE";
    const made = ev.ports.changes.create(f.executor, name, type);
    return typeof made === "string" ? "#" + made : refused(ev, f, made, "#-1");
  }),
  define("tel", 2, 3, {
    family: "effects",
    args: "tel(<object>, <room>[, <switches>])",
    summary:
      "Moves a player or thing to a room (or into a thing), as @teleport does; gives nothing.",
    example: { think: "[tel(me,create(Hall,10,r))][name(here)]", gives: "Hall" },
    more: "@teleport's rules: you may move yourself, what you control and what is in a place " +
      "you control, to a place you control or one set jump_ok whose teleport lock it passes " +
      "(staff: anything anywhere); <room> home sends each to its own home, asking only " +
      "that you may move it. Switches: q, quietly (the rooms are not told); l, the " +
      "object is a list. A refusal tells you why and moves nothing; a guest gets " +
      "#-1 PERMISSION DENIED.",
  }, (ev, f, args) => {
    const switches = (args[2] ?? "").toLowerCase();
    const quiet = switches.includes("q");
    const names = switches.includes("l") ? splitList(args[0], " ") : [args[0]];
    // MUX's HOME: each object goes to its own home.
    const dest = args[1].trim().toLowerCase() === HOME
      ? HOME
      : matchThing(ev.ports.world, f.executor, args[1]);
    for (const name of names) {
      // Each move is a step of work: a list of 2,000 took 300 ms past the deadline in one call.
      if (!ev.tickNow()) break;
      const id = matchThing(ev.ports.world, f.executor, name);
      if (!found(id)) {
        tell(ev, f, "I don't see that here.");
        continue;
      }
      if (dest !== HOME && !found(dest)) {
        tell(ev, f, "No match.");
        break;
      }
      const r = ev.ports.changes.teleport(f.executor, id, dest, quiet, ev.request.chain);
      if (typeof r !== "string") return refused(ev, f, r, "");
      if (r) tell(ev, f, r);
    }
    return "";
  }),
  define("link", 2, 2, {
    family: "effects",
    args: "link(<object>, <room>)",
    summary:
      "Links an exit to a room, or sets a player's or thing's home, as @link does; gives nothing.",
    example: { think: "[link(box,create(Hall,10,r))][name(home(box))]", gives: "Hall" },
    more: "@link's rules: builders only; you must control the object, and the room must let " +
      "you link to it (its link lock; staff link anywhere). You are told what @link says; a " +
      "refusal tells you why and changes nothing; one who may not use @link gets " +
      "#-1 PERMISSION DENIED.",
  }, (ev, f, args) => {
    const w = ev.ports.world;
    const id = matchThing(w, f.executor, args[0]);
    const dest = matchThing(w, f.executor, args[1]);
    // The port asks who may link first (MUX's check of the command), then what is named.
    const r = ev.ports.changes.link(f.executor, found(id) ? id : "", found(dest) ? dest : "");
    if (typeof r !== "string") return refused(ev, f, r, "");
    tell(ev, f, r);
    return "";
  }),
  define("wipe", 1, 1, {
    family: "effects",
    args: "wipe(<object>[/<pattern>])",
    summary:
      "Clears the object's attributes matching the wildcard pattern (all without one), as @wipe does; gives nothing.",
    example: {
      setup: ["&TEMP_A me=1", "&TEMP_B me=2", "&KEEP me=3"],
      think: "[wipe(me/temp_*)][lattr(me/*_*)]",
      gives: "",
    },
    more: "@wipe's rules: you must control the object; attributes you may not change " +
      "(locked, wizard) are left, and you are told so. You are told what @wipe says (Wiped.).",
  }, (ev, f, args) => {
    const slash = args[0].indexOf("/");
    const ref = slash < 0 ? args[0] : args[0].slice(0, slash);
    const id = matchThing(ev.ports.world, f.executor, ref);
    if (!found(id)) {
      tell(ev, f, "I don't see that here.");
      return "";
    }
    const pattern = slash < 0 ? "*" : args[0].slice(slash + 1).trim() || "*";
    tell(ev, f, ev.ports.attributes.wipe(f.executor, id, pattern));
    return "";
  }),
];
