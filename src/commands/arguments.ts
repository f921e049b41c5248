/**
 * MUX's evaluation of built-in commands' arguments, before the command runs (TinyMUX's
 * process_cmdent): the part before `=` of a two-part command is always evaluated; the rest, or a
 * one-part command's argument, is evaluated when the command is an interpreted one (`@lock`,
 * `@create`, `@name`...) or when the line did not come from a player typing it (a queued action,
 * `@force`, a `$-command`). So `@lock [v(JOB_VC)]=me` typed by a wizard locks the object the
 * attribute names, and `&DB %#=[num(me)]` in an action list stores a dbref, while
 * `&CMD obj=$+cmd:@pemit %#=hi` typed keeps its code as typed. Commands that read their own
 * arguments (think, @pemit, the queue's commands) are not listed here.
 */
import type { ParsedLine } from "./parser.ts";
import { EV } from "../softcode/mod.ts";
import { splitEquals } from "./core/softcode.ts";

/** Flags a command's arguments are evaluated with (MUX's process_cmdent). */
const ARG_FLAGS = EV.EVAL | EV.STRIP_CURLY | EV.FCHECK | EV.TOP;

/** How a command's arguments are evaluated: every part, or the part before `=`. */
export type ArgEvaluation = "all" | "lhs";

/**
 * MUX's calling sequences for the built-in commands installers use: `all` is MUX's CS_INTERP,
 * `lhs` a two-part command without it (its right side evaluated only when queued). The action
 * attributes' setters (`@succ`, `@desc`...) are MUX's `@set` in another form.
 */
const EVALUATES: ReadonlyMap<string, ArgEvaluation> = new Map([
  ...[
    "@boot",
    "@chown",
    "@chzone",
    "@clone",
    "@cpattr",
    "@create",
    "@destroy",
    "@dig",
    "@function",
    "@halt",
    "@link",
    "@lock",
    "@name",
    "@open",
    "@teleport",
    "@unlink",
    "@unlock",
    "@wipe",
  ].map((n) => [n, "all"] as const),
  ...[
    "&",
    "@set",
    "@parent",
    "@edit",
    "@mvattr",
    "@power",
    "@describe",
    "@idesc",
    "@odesc",
    "@adesc",
    "@succ",
    "@osucc",
    "@asucc",
    "@fail",
    "@ofail",
    "@afail",
    "@drop",
    "@odrop",
    "@adrop",
    "@enter",
    "@oenter",
    "@aenter",
    "@oxenter",
    "@leave",
    "@oleave",
    "@aleave",
    "@oxleave",
    "@efail",
    "@oefail",
    "@aefail",
    "@lfail",
    "@olfail",
    "@alfail",
    "@gfail",
    "@ogfail",
    "@agfail",
    "@rfail",
    "@orfail",
    "@arfail",
    "@tfail",
    "@otfail",
    "@atfail",
    "@tofail",
    "@otofail",
    "@atofail",
    "@move",
    "@omove",
    "@amove",
    "@aconnect",
    "@adisconnect",
    "@startup",
    "@listen",
    "@ahear",
    "@amhear",
    "@aahear",
    "@inprefix",
    "@sex",
    "@away",
    "@idle",
    "@reject",
    "@va",
  ].map((n) => [n, "lhs"] as const),
]);

/** How the command called `name` has its arguments evaluated, or null when it reads its own. */
export function argEvaluation(name: string): ArgEvaluation | null {
  return EVALUATES.get(name) ?? null;
}

/**
 * The line as the command sees it after MUX's evaluation: `by.evaluate` reads softcode as the actor
 * does; `queued` when no player typed the line (then the right side is evaluated too).
 */
export function evaluatedLine(
  cmd: ParsedLine,
  how: ArgEvaluation,
  queued: boolean,
  by: { evaluate(text: string, flags: number): string },
): ParsedLine {
  const { lhs, rhs } = splitEquals(cmd.args);
  const left = by.evaluate(lhs, ARG_FLAGS).trim();
  if (rhs === null) return { ...cmd, args: left, lhs: left, rhs: null };
  const right = how === "all" || queued ? by.evaluate(rhs, ARG_FLAGS).trim() : rhs;
  return { ...cmd, args: `${left}=${right}`, lhs: left, rhs: right };
}
