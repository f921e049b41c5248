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
import { inEmitReach, TOO_FAR } from "../../world/reach.ts";

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

/** True when `target` is in reach of the actor's emits (src/world/reach.ts). */
function inReach(u: CommandSdk, id: string): boolean {
  const ports = u.softcode.ports;
  const target = ports.world.object(id);
  return !!target && inEmitReach(u.me, target, (a, t) => ports.access.controls(a, t));
}

/**
 * The targets of an emit, as TinyMUX 2.12 reads them for @pemit, @remit and @oemit: a list of
 * names or dbrefs separated by spaces or commas, each matched as the actor sees it, each object
 * once. What names nothing, or several, goes into `errors` (MUX's `Emit error(s):` line, which
 * comes after the emits). The line's length bounds the list.
 */
function emitTargets(u: CommandSdk, list: string): { ids: string[]; errors: string | null } {
  const world = u.softcode.ports.world;
  const ids: string[] = [];
  const bad: string[] = [];
  for (const name of list.split(/[\s,]+/)) {
    if (!name) continue;
    const r = matchThing(world, u.me.id, name);
    if (r === AMBIGUOUS) bad.push(`${name} (ambiguous)`);
    else if (!found(r)) bad.push(`${name} (unknown)`);
    else if (!ids.includes(r)) ids.push(r);
  }
  return { ids, errors: bad.length ? `Emit error(s): ${bad.join(", ")}` : null };
}

/**
 * The `<what>=<message>` of an emit, both sides evaluated (the message only when
 * `evaluateMessage`);
 * null when either comes out empty, which MUX answers with silence (softcode often emits nothing).
 */
function emitLine(u: CommandSdk, usage: string, evaluateMessage = true) {
  const { lhs, rhs } = splitEquals(u.cmd.args);
  if (rhs === null || !lhs) throw new CommandError(`Usage: ${usage}`);
  const list = evaluate(u, lhs, ARG_FLAGS);
  // Unevaluated text goes out as typed too: its %r and %xr are shown, not read by the renderer.
  const message = evaluateMessage ? evaluate(u, rhs, ARG_FLAGS) : rhs;
  if (!list.trim() || !message) return null;
  return { list, message: toWire(message) };
}

/** @pemit and @npemit: `evaluateMessage` false for @npemit and /noeval. */
function pemit(u: CommandSdk, evaluateMessage: boolean): void {
  const line = emitLine(u, "@pemit <what>=<message>", evaluateMessage);
  if (!line) return;
  const sc = u.softcode;
  const contents = u.cmd.switches.includes("contents");
  const { ids, errors } = emitTargets(u, line.list);
  for (const r of ids) {
    if (!inReach(u, r)) {
      u.send(TOO_FAR);
      continue;
    }
    if (contents) {
      // As @remit: the room the actor is in, or what it controls.
      if (r !== u.me.location && !sc.ports.access.controls(u.me, sc.ports.world.object(r)!)) {
        u.send("Permission denied.");
        continue;
      }
      sc.ports.delivery.toRoom(r, line.message, [], u.me.id);
    } else {
      sc.ports.delivery.tell(r, line.message, u.me.id);
    }
  }
  if (errors) u.send(errors);
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
is one or more names or dbrefs, separated by spaces or commas, as in TinyMUX 2.12; each must be
near you (here, carried, or this room) or something you control. What names nothing is
answered after the emits: Emit error(s): Nobody (unknown). Both sides are evaluated as
softcode (MUX's rules), unless /noeval is given for the message; an empty message is not sent.

Switches:
  /list       accepted for MUX compatibility (<what> is always a list)
  /contents   everyone inside <what> (the room you are in, or one you control)
  /noeval     the message is not evaluated
  /object     accepted for MUX compatibility (targets are objects already)

Examples:
  @pemit me=[add(2,2)]
  @pemit Alice Bob=The lights go out.`,
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

Shows <message> to everyone in <room>: the room you are in, or one you control (several rooms
may be named, separated by spaces or commas, as for @pemit). Both sides are evaluated as
softcode.

Example:
  @remit here=The floor shakes.`,
    exec(u) {
      const sc = u.softcode;
      const line = emitLine(u, "@remit <room>=<message>");
      if (!line) return;
      const { ids, errors } = emitTargets(u, line.list);
      for (const id of ids) {
        // As MUX (@remit is its @pemit/contents): out of reach first, then not permitted.
        if (!inReach(u, id)) {
          u.send(TOO_FAR);
          continue;
        }
        if (id !== u.me.location && !sc.ports.access.controls(u.me, sc.ports.world.object(id)!)) {
          u.send("Permission denied.");
          continue;
        }
        sc.ports.delivery.toRoom(id, line.message, [], u.me.id);
      }
      if (errors) u.send(errors);
    },
  },
  {
    name: "@oemit",
    category: "Softcode",
    help: `@oemit <object>=<message>

Shows <message> to everyone in <object>'s location except <object>. The object must be near
you or yours. Several objects may be named, separated by spaces or commas: the room of the
first hears it, except all of them (MUX's rule). Both sides are evaluated as softcode.

Example:
  @oemit Bob=Bob doesn't see this, but the room does.`,
    exec(u) {
      const line = emitLine(u, "@oemit <object>=<message>");
      if (!line) return;
      const { ids, errors } = emitTargets(u, line.list);
      // MUX's do_pemit_list: the room of the first target hears it, except every target.
      if (ids.length > 0) {
        const target = u.softcode.ports.world.object(ids[0])!;
        if (!inReach(u, ids[0])) u.send(TOO_FAR);
        else if (target.location) {
          u.softcode.ports.delivery.toRoom(target.location, line.message, ids, u.me.id);
        }
      }
      if (errors) u.send(errors);
    },
  },
];
