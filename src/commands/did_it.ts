/**
 * What an object's attributes make of an act done to it (MUX's `did_it`): a message to the actor
 * (`@succ`), one to the others where the actor stands (`@osucc`, after the actor's name), each
 * evaluated as the object with the actor as enactor (`%#`), and an action list the object runs
 * through the queue (`@asucc`). Looking, moving, getting and dropping all go through here
 * (docs/softcode.md, "Actions the engine fires").
 */
import type { DbObject } from "../world/types.ts";
import type { OutboundData } from "../hub/types.ts";
import type { CommandPorts, Verb } from "./types.ts";
import type { ActionQueue, QueueChain, QueueFrame, QueueRequest } from "../queue/types.ts";
import { inheritedAttr } from "../world/attributes/inherit.ts";
import { displayName } from "../world/players.ts";
import { TOP_FLAGS, toWire } from "../softcode/mod.ts";
import { tell } from "./tell.ts";

export type { Verb };

/**
 * What `didIt` needs: the evaluator, the attributes in memory, delivery, and the queue the
 * actions run through (null where an act runs none: a look shown by `tel()` or a plugin, which
 * has no line to count a runaway loop along). `frame` is the line's (`u.frame`), whose chain the
 * actions join, so an action that repeats the act is stopped as a runaway.
 */
export interface DidItPorts
  extends Pick<CommandPorts, "softcode" | "attributes" | "deliver" | "objects"> {
  queue: Pick<ActionQueue, "enqueue"> | null;
  frame?: Pick<QueueFrame, "chain">;
}

/**
 * The attribute `name` of `id` or its nearest parent (MUX's atr_pget), when it holds something,
 * else null (also with no world in memory: a shared KV Connect database evaluates nothing).
 */
export function actionAttr(
  p: Pick<DidItPorts, "attributes" | "softcode">,
  id: string,
  name: string,
) {
  if (!p.attributes.live) return null;
  const a = inheritedAttr(p.softcode.inherit, id, name)?.attr ?? null;
  return a && a.value !== "" ? a : null;
}

/**
 * `text` evaluated as `thing` with `actor` as enactor, in the evaluator's own form (what another
 * evaluation takes as an argument: a `@descformat`'s `%0`).
 */
export function evaluated(
  p: Pick<DidItPorts, "softcode">,
  thing: string,
  actor: string,
  text: string,
  args: readonly string[] = [],
): string {
  return p.softcode.evaluate(text, {
    executor: thing,
    enactor: actor,
    caller: actor,
    args,
    flags: TOP_FLAGS,
  });
}

/** `text` evaluated as `thing` with `actor` as enactor, ready to deliver. */
export function evaluateAs(
  p: Pick<DidItPorts, "softcode">,
  thing: string,
  actor: string,
  text: string,
  args: readonly string[] = [],
): string {
  return toWire(evaluated(p, thing, actor, text, args));
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
 * The others' message of an act, told to everyone in `where` but the actor and the thing (and
 * heard by the objects listening there, from the actor): the
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
  // Said by the actor, as MUX's notify_except2: the listening objects there hear it from it.
  const out = opts.data ? { msg, data: opts.data } : { msg };
  p.deliver.toRoom(where, out, [actor.id, thing.id], actor.id);
}

/** Queues `thing`'s action attribute `awhat` (when it has one) as `thing`, `actor` its enactor. */
export function runAction(
  p: DidItPorts,
  actor: DbObject,
  thing: DbObject,
  awhat: string | undefined,
  args: readonly string[] = [],
): void {
  if (!awhat || !p.queue) return;
  const a = actionAttr(p, thing.id, awhat);
  if (!a) return;
  // A refusal (the owner's quota, a halted object) is told to the owner by the queue.
  p.queue.enqueue({
    executor: thing.id,
    enactor: actor.id,
    caller: actor.id,
    action: a.value,
    args,
    chain: p.frame?.chain ?? null,
  });
}

/**
 * MUX's `did_it`: the actor is told `verb.what` (or `def`), the others where the actor stands
 * (`where`) `verb.owhat` (or `odef`), and the thing runs `verb.awhat`.
 */
export function didIt(
  p: DidItPorts,
  actor: DbObject,
  thing: DbObject,
  where: string | null | undefined,
  verb: Verb,
): void {
  const msg = messageOf(p, actor, thing, verb.what, verb.def ?? null, verb.args);
  // The actor hears it as MUX's notify has it (a puppet's owner hears its puppet's).
  if (msg !== null && msg !== "") tell(p, actor.id, verb.data ? { msg, data: verb.data } : { msg });
  tellOthers(p, actor, thing, where, verb.owhat, verb.odef ?? null, {
    args: verb.args,
    data: verb.odata,
  });
  runAction(p, actor, thing, verb.awhat, verb.args);
}

/**
 * MUX's `did_it` for an evaluation (softcode's `tel()` refused by a place): as `didIt`, the
 * thing's action queued in the evaluating line's `chain` (absent: the entry running now). The
 * ports are read when it runs (the evaluator among them is made after it).
 */
export function didItInChain(
  ports: () => Omit<DidItPorts, "queue" | "frame"> & { queue: Pick<ActionQueue, "enqueue"> },
) {
  return (
    actor: DbObject,
    thing: DbObject,
    where: string | null,
    verb: Verb,
    chain: QueueChain | null | undefined,
  ): void => {
    const p = ports();
    const queue = { enqueue: (req: QueueRequest) => p.queue.enqueue({ ...req, chain }) };
    didIt({ ...p, queue }, actor, thing, where, verb);
  };
}
