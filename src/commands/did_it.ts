/**
 * What an object's attributes make of an act done to it (MUX's `did_it`): a message to the actor
 * (`@succ`) and one to the others where the actor stands (`@osucc`, after the actor's name),
 * each evaluated as the object with the actor as enactor (`%#`). Looking, moving, getting and dropping all go through here (docs/softcode.md, "Actions
 * the engine fires").
 */
import type { DbObject } from "../world/types.ts";
import type { OutboundData } from "../hub/types.ts";
import type { CommandPorts } from "./types.ts";
import { displayName } from "../world/players.ts";
import { TOP_FLAGS, toWire } from "../softcode/mod.ts";

/** What `didIt` needs: the evaluator, the attributes in memory, delivery. */
export type DidItPorts = Pick<CommandPorts, "softcode" | "attributes" | "deliver">;

/** The attributes of one act, MUX's triple, and what is said when they are unset. */
export interface Verb {
  /** Shown to the actor (`SUCC`). */
  what?: string;
  /** Shown to the actor when `what` is unset (null or absent: nothing). */
  def?: string | null;
  /** Shown to the others where the actor is (`OSUCC`), after the actor's name. */
  owhat?: string;
  /** Shown to the others when `owhat` is unset, after the actor's name. */
  odef?: string | null;
  /** `%0`-`%9` of the evaluations and the action. */
  args?: readonly string[];
  /** Data for web clients beside the actor's message and the others'. */
  data?: OutboundData;
  odata?: OutboundData;
}

/**
 * The attribute `name` of `id` whose value softcode runs, or null (none, or no world in memory:
 * a shared KV Connect database, where nothing is evaluated).
 */
export function actionAttr(p: Pick<DidItPorts, "attributes">, id: string, name: string) {
  if (!p.attributes.live) return null;
  const a = p.attributes.peek(id, name);
  return a && a.value !== "" ? a : null;
}

/** `text` evaluated as `thing` with `actor` as enactor, ready to deliver. */
export function evaluateAs(
  p: Pick<DidItPorts, "softcode">,
  thing: string,
  actor: string,
  text: string,
  args: readonly string[] = [],
): string {
  return toWire(
    p.softcode.evaluate(text, {
      executor: thing,
      enactor: actor,
      caller: actor,
      args,
      flags: TOP_FLAGS,
    }),
  );
}

/**
 * The actor's message of an act: `thing`'s attribute `what` evaluated, else `def` (null when
 * neither gives anything).
 */
export function messageOf(
  p: DidItPorts,
  actor: DbObject,
  thing: DbObject,
  what: string | undefined,
  def: string | null = null,
  args: readonly string[] = [],
): string | null {
  const a = what ? actionAttr(p, thing.id, what) : null;
  return a ? evaluateAs(p, thing.id, actor.id, a.value, args) : def;
}

/**
 * The others' message of an act, told to everyone in `where` but the actor and the thing: the
 * attribute `owhat` evaluated (after the actor's name unless the attribute is `no_name`), else
 * `odef` after the actor's name. An attribute that evaluates to nothing says nothing.
 */
export function tellOthers(
  p: DidItPorts,
  actor: DbObject,
  thing: DbObject,
  where: string | null | undefined,
  owhat: string | undefined,
  odef: string | null = null,
  opts: { args?: readonly string[]; data?: OutboundData } = {},
): void {
  if (!where) return;
  const a = owhat ? actionAttr(p, thing.id, owhat) : null;
  let msg: string;
  if (a) {
    const text = evaluateAs(p, thing.id, actor.id, a.value, opts.args);
    if (text === "") return;
    msg = a.flags.includes("no_name") ? text : `${displayName(actor)} ${text}`;
  } else if (odef) {
    msg = `${displayName(actor)} ${odef}`;
  } else {
    return;
  }
  p.deliver.toRoom(where, opts.data ? { msg, data: opts.data } : { msg }, [actor.id, thing.id]);
}

/**
 * MUX's `did_it`: the actor is told `verb.what` (or `def`), the others where the actor stands
 * (`where`) `verb.owhat` (or `odef`).
 */
export function didIt(
  p: DidItPorts,
  actor: DbObject,
  thing: DbObject,
  where: string | null | undefined,
  verb: Verb,
): void {
  const msg = messageOf(p, actor, thing, verb.what, verb.def ?? null, verb.args);
  if (msg !== null && msg !== "") {
    p.deliver.toPlayer(actor.id, verb.data ? { msg, data: verb.data } : { msg });
  }
  tellOthers(p, actor, thing, where, verb.owhat, verb.odef ?? null, {
    args: verb.args,
    data: verb.odata,
  });
}
