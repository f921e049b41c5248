/**
 * What an emit may reach (TinyMUX 2.12's nearby_or_control, under its default
 * `pemit_far_players no` and `pemit_any_object no`): the actor itself, the place it stands in,
 * what stands there or it carries, and what it controls. `@pemit` and `pemit()` share it, so a
 * softcode call reaches no further than the command (docs/softcode.md, the emits).
 */
import type { DbObject } from "./types.ts";

/** True when `actor` may emit to `target`; `controls` is the game's control rule. */
export function inEmitReach(
  actor: DbObject,
  target: DbObject,
  controls: (actor: DbObject, target: DbObject) => boolean,
): boolean {
  if (target.id === actor.id || target.id === actor.location) return true;
  if (target.location === actor.id) return true;
  if (actor.location && target.location === actor.location) return true;
  return controls(actor, target);
}

/** What an actor out of reach is told (MUX's words). */
export const TOO_FAR = "You are too far away to do that.";
