/**
 * The commands that always evaluate softcode, as MUX has them: think, @pemit (and /list,
 * /contents, /noeval), @npemit, @remit, @oemit. Output goes through the same delivery as every
 * command, in wire form (src/softcode/markup.ts), so what the evaluator made is shown once.
 */
import type { CommandSdk, CommandSpec } from "../types.ts";
import { CommandError } from "../errors.ts";
import { EV, TOP_FLAGS } from "../../softcode/mod.ts";
import { scanTo } from "../../softcode/scan.ts";
import { AMBIGUOUS, found, matchThing } from "../../softcode/match.ts";
import { toWire } from "../../softcode/markup.ts";

/** Flags a command's `=`-separated arguments are evaluated with (MUX's process_cmdent). */
const ARG_FLAGS = EV.EVAL | EV.STRIP_CURLY | EV.FCHECK | EV.TOP;

/** Splits `lhs=rhs` at the first `=` outside brackets, braces and parentheses (MUX's parse_to). */
export function splitEquals(args: string): { lhs: string; rhs: string | null } {
  const hit = scanTo(args, 0, 0x3d, -1);
  if (!hit) return { lhs: args.trim(), rhs: null };
  return { lhs: args.slice(0, hit.end).trim(), rhs: args.slice(hit.end + 1).trim() };
}

/** Evaluates text as the actor, for a command (with the line's `%#`, `%0`-`%9`, `%q`). */
function evaluate(u: CommandSdk, text: string, flags: number): string {
  return u.evaluate(text, flags);
}

/** True when `target` is in reach of the actor: here, carried, the room itself, or controlled. */
function inReach(u: CommandSdk, id: string): boolean {
  const world = u.softcode.ports.world;
  const target = world.object(id);
  if (!target) return false;
  if (id === u.me.id || id === u.me.location) return true;
  if (target.location === u.me.id || (u.me.location && target.location === u.me.location)) {
    return true;
  }
  return u.softcode.ports.access.controls(u.me, target);
}

/**
 * The `<what>=<message>` of @remit and @oemit: the target's id (MUX's errors when it names
 * nothing or several) and the message, both evaluated.
 */
function targetAndMessage(u: CommandSdk, usage: string, none: string) {
  const { lhs, rhs } = splitEquals(u.cmd.args);
  if (rhs === null || !lhs) throw new CommandError(`Usage: ${usage}`);
  const sc = u.softcode;
  const id = matchThing(sc.ports.world, u.me.id, evaluate(u, lhs, ARG_FLAGS));
  if (id === AMBIGUOUS) throw new CommandError("I don't know which one you mean!");
  if (!found(id)) throw new CommandError(none);
  return { id, target: sc.ports.world.object(id)!, message: evaluate(u, rhs, ARG_FLAGS) };
}

/** @pemit and @npemit: `evaluateMessage` false for @npemit and /noeval. */
function pemit(u: CommandSdk, evaluateMessage: boolean): void {
  const { lhs, rhs } = splitEquals(u.cmd.args);
  if (rhs === null || !lhs) throw new CommandError("Usage: @pemit <what>=<message>");
  const who = evaluate(u, lhs, ARG_FLAGS);
  // Unevaluated text goes out as typed too: its %r and %xr are shown, not read by the renderer.
  const msg = toWire(evaluateMessage ? evaluate(u, rhs, ARG_FLAGS) : rhs);
  const sc = u.softcode;
  const contents = u.cmd.switches.includes("contents");
  // MUX's list takes commas as well as spaces between names (`Bob, Carol`).
  const names = u.cmd.switches.includes("list")
    ? who.split(/[\s,]+/).filter((n) => n !== "")
    : [who];
  for (const name of names) {
    const r = matchThing(sc.ports.world, u.me.id, name);
    if (r === AMBIGUOUS) {
      u.send("I don't know who you mean!");
      continue;
    }
    if (!found(r)) {
      u.send("Emit to whom?");
      continue;
    }
    if (!inReach(u, r)) {
      u.send("You are too far away to do that.");
      continue;
    }
    const target = sc.ports.world.object(r)!;
    if (contents) {
      // As @remit: the room the actor is in, or what it controls.
      if (r !== u.me.location && !sc.ports.access.controls(u.me, target)) {
        u.send("Permission denied.");
        continue;
      }
      sc.ports.delivery.toRoom(r, msg, [], u.me.id);
    } else {
      sc.ports.delivery.toObject(r, msg);
    }
  }
}

/** The softcode commands. */
export const commands: CommandSpec[] = [
  {
    name: "@@",
    guests: true,
    category: "Softcode",
    help: `@@ <text>

Does nothing: a comment, as in MUX. Installers and action lists use it for notes
(\`@@ Creating the objects.\`); its text is not evaluated and nothing is shown.`,
    exec() {},
  },
  {
    name: "think",
    guests: true,
    category: "Softcode",
    help: `think <text>

Evaluates <text> as softcode and shows the result to you alone: functions in [brackets],
%-substitutions (%%n your name, %%r a new line, %%xr red...), colour. Always evaluated.

Examples:
  think [add(1,2)]            (you see: 3)
  think %%chBold%%cn and [ansi(r,red)].
  think [iter(a b c,[ucstr(##)])]`,
    exec(u) {
      const out = evaluate(u, u.cmd.args, TOP_FLAGS);
      u.send(toWire(out), { type: "think", text: u.cmd.args });
    },
  },
  {
    name: "@pemit",
    category: "Softcode",
    switches: ["list", "contents", "noeval", "object"],
    help: `@pemit[/switches] <what>=<message>

Shows <message> to <what> alone (a player, or the players in a room with /contents). <what>
must be near you (here, carried, or this room) or something you control. Both sides are
evaluated as softcode (MUX's rules), unless /noeval is given for the message.

Switches:
  /list       <what> is a list of targets separated by spaces or commas
  /contents   everyone inside <what> (the room you are in, or one you control)
  /noeval     the message is not evaluated
  /object     accepted for MUX compatibility (targets are objects already)

Examples:
  @pemit me=[add(2,2)]
  @pemit/list Alice Bob=The lights go out.`,
    exec(u) {
      pemit(u, !u.cmd.switches.includes("noeval"));
    },
  },
  {
    name: "@npemit",
    category: "Softcode",
    switches: ["list", "contents", "object"],
    help: `@npemit[/switches] <what>=<message>

Like @pemit, but <message> is sent exactly as typed, never evaluated (the target still is).

Example:
  @npemit me=This [stays] as it is.`,
    exec(u) {
      pemit(u, false);
    },
  },
  {
    name: "@remit",
    category: "Softcode",
    help: `@remit <room>=<message>

Shows <message> to everyone in <room>: the room you are in, or one you control. Both sides are
evaluated as softcode.

Example:
  @remit here=The floor shakes.`,
    exec(u) {
      const sc = u.softcode;
      const { id, target, message } = targetAndMessage(
        u,
        "@remit <room>=<message>",
        "Emit to whom?",
      );
      if (id !== u.me.location && !sc.ports.access.controls(u.me, target)) {
        throw new CommandError("Permission denied.");
      }
      sc.ports.delivery.toRoom(id, toWire(message), [], u.me.id);
    },
  },
  {
    name: "@oemit",
    category: "Softcode",
    help: `@oemit <object>=<message>

Shows <message> to everyone in <object>'s location except <object>. The object must be near
you or yours. Both sides are evaluated as softcode.

Example:
  @oemit Bob=Bob doesn't see this, but the room does.`,
    exec(u) {
      const { id, target, message } = targetAndMessage(
        u,
        "@oemit <object>=<message>",
        "Emit except to whom?",
      );
      if (!inReach(u, id)) throw new CommandError("You are too far away to do that.");
      if (!target.location) return;
      u.softcode.ports.delivery.toRoom(target.location, toWire(message), [id], u.me.id);
    },
  },
];
