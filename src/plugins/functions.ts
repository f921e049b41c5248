/**
 * Softcode functions a plugin adds (`mail()` over the mail plugin's store): the plugin gives plain
 * code over its own data, the engine wraps it as a function of the evaluator's one table and takes
 * it out when the plugin unloads. The code runs inside an evaluation, synchronously, so what it
 * reads must already be in memory.
 */
import type { DbObject } from "../world/types.ts";
import type { FunctionDef, FunctionHelp } from "../softcode/types.ts";
import type { Evaluation } from "../softcode/eval.ts";
import { withInheritedRank } from "../world/inherited_rank.ts";
import { found, matchThing } from "../softcode/match.ts";

/** A softcode function of a plugin's. */
export interface PluginFunctionSpec {
  /** Its name (a letter, then letters, digits or `_`); a built-in's or another's is refused. */
  name: string;
  minArgs: number;
  maxArgs: number;
  /** Its help, as built-ins' reads (`help mail()` shows it). */
  help: FunctionHelp;
  /** Answers a call (synchronously); `args` are evaluated. */
  call(call: PluginCall, args: string[]): string;
}

/** What a plugin function's code is given besides its arguments. */
export interface PluginCall {
  /**
   * The object whose code calls it, with the rank it acts with (an `inherit` object of a staff
   * member's counts as staff).
   */
  caller: DbObject;
  /** The player a word names as the caller sees it (`*name`, a name, an alias, `#dbref`, `me`). */
  player(ref: string): DbObject | null;
  /**
   * The object a word names as the caller sees it, as built-in functions match (`me`, `here`,
   * `#dbref`, `*player`, a name of what it carries, what is in its room, or a player's name).
   */
  target(ref: string): DbObject | null;
  /** Tells the caller (what it hears: a player, a puppet's owner), now or later. */
  tell(msg: string): void;
}

/** What a context needs of the evaluator's function table. */
export interface FunctionHost {
  get(upperName: string): FunctionDef | undefined;
  add(...defs: FunctionDef[]): void;
  remove(name: string): boolean;
}

const NAME_RE = /^[A-Za-z][A-Za-z0-9_]{0,62}$/;

/** The table's form of a plugin's function; throws a TypeError naming what is wrong. */
export function pluginFunction(spec: PluginFunctionSpec, owner: string): FunctionDef<Evaluation> {
  if (!spec || typeof spec.name !== "string" || !NAME_RE.test(spec.name)) {
    throw new TypeError(`plugin function: bad name '${String(spec?.name).slice(0, 64)}'`);
  }
  const min = spec.minArgs, max = spec.maxArgs;
  if (!Number.isInteger(min) || !Number.isInteger(max) || min < 0 || max < min || max > 100) {
    throw new TypeError(`plugin function ${spec.name}(): bad argument counts`);
  }
  if (typeof spec.call !== "function") {
    throw new TypeError(`plugin function ${spec.name}(): call must be a function`);
  }
  const name = spec.name.toUpperCase();
  const call = spec.call;
  return {
    name,
    minArgs: min,
    maxArgs: max,
    parseArgs: 100,
    lazy: false,
    help: spec.help,
    impl: (ev, frame, args) => {
      const me = ev.object(frame.executor);
      if (!me) return "#-1 NOT FOUND";
      const world = ev.ports.world;
      const player = (ref: string) => {
        const word = String(ref).trim();
        const id = world.playerByName(word.replace(/^\*/, "")) ??
          matchThing(world, me.id, word);
        const o = world.object(id);
        return o && o.flags.includes("player") ? o : null;
      };
      const target = (ref: string) => {
        const id = matchThing(world, me.id, String(ref));
        return found(id) ? world.object(id) : null;
      };
      const delivery = ev.ports.delivery;
      const tell = (msg: string) => delivery.toObject(me.id, msg);
      try {
        const out = call({ caller: withInheritedRank(world, me), player, target, tell }, args);
        return typeof out === "string" ? out : String(out ?? "");
      } catch (e) {
        // A plugin's fault ends in an error text, never an exception through the evaluator.
        console.error(`plugin ${owner}: ${name.toLowerCase()}() failed:`, e);
        return `#-1 FUNCTION (${name}) FAILED`;
      }
    },
  };
}
