/**
 * Building commands (builder or higher): `@dig`, `@open`, `@link`, `@unlink`,
 * `@destroy`, `@create`; and `@teleport` (anyone, under MUX's rules). `@lock` and `@unlock` are
 * core commands (src/commands/core/locks.ts).
 */
import {
  BUILDER_LOCK,
  CommandError,
  type CommandSdk,
  type CommandSpec,
  confirm,
  type DbObject,
  homeRefusal,
  linkedSaid,
  nameWithRef,
  parseExitSpec,
  required,
  teleported,
  teleportRefusal,
  teleportRefusalSaid,
} from "../../src/plugins/mod.ts";
import type { Builder } from "./store.ts";

/**
 * What opening an exit says (MUX's open_exit): "Opened.", then "Linked." when it leads
 * somewhere, or that the destination's link lock left it unlinked.
 */
function opened(exit: DbObject, linking: boolean): string {
  if (!linking) return "Opened.";
  return exit.data.destination ? "Opened.\nLinked." : "Opened.\nYou can't link to there.";
}

/**
 * What `@destroy` and `destroy()` tell the actor: what went with the object, or (null: a room not
 * yet confirmed) how to confirm, by `confirm` or by repeating `again` within a minute.
 */
export function destroyedSaid(
  target: DbObject,
  r: { moved: number; unlinked: number } | null,
  confirm: string,
  again: string,
): string {
  if (!r) {
    return `Destroying ${nameWithRef(target)} cannot be undone. Type ${confirm} ` +
      `(or repeat ${again} within a minute) to go ahead.`;
  }
  return `Destroyed ${nameWithRef(target)}.` +
    (r.moved ? ` ${r.moved} object(s) sent home.` : "") +
    (r.unlinked ? ` ${r.unlinked} exit(s) that led here unlinked.` : "");
}

/** The building commands over a Builder. */
export function buildingCommands(b: Builder): CommandSpec[] {
  const here = (u: CommandSdk) => {
    if (!u.here) throw new CommandError("You are not in a room.");
    return u.here;
  };
  return [
    {
      name: "@dig",
      lock: BUILDER_LOCK,
      switches: ["teleport"],
      category: "building",
      help: `@dig <room>[=<exit to>[,<exit back>]]

Creates a room you own. With exit names, also opens an exit from here to the new room and
one back. Exit names may carry aliases after semicolons. /teleport takes you there.

Example:
  @dig Garden=North;n,South;s

In TinTin++, type \\; for each semicolon: @dig Garden=North\\;n,South\\;s
(see 'help clients').`,
      async exec(u) {
        const name = u.cmd.lhs.trim();
        if (!name) throw new CommandError("Dig what?");
        const [toRaw, backRaw] = (u.cmd.rhs ?? "").split(",").map((s) => s.trim());
        const to = toRaw ? parseExitSpec(toRaw) : null;
        const back = backRaw ? parseExitSpec(backRaw) : null;
        const from = to || back ? here(u) : u.here;
        // Refusals come before the room exists, so a failed @dig leaves nothing behind.
        if (to) await b.checkExit(u.me, from!, to);
        const room = await b.room(u.me, name);
        // MUX's do_dig: the room, then each exit as @open says it.
        const lines = [`${room.name} created as room #${room.id}.`];
        if (to) lines.push(opened(await b.exit(u.me, from!, to, room), true));
        if (back) lines.push(opened(await b.exit(u.me, room, back, from!), true));
        u.send(lines.join("\n"), { type: "dig", room: { id: room.id, name: room.name } });
        if (u.cmd.switches.includes("teleport")) await b.move(u.me, room, u.width);
      },
    },
    {
      name: "@open",
      lock: BUILDER_LOCK,
      category: "building",
      help: `@open <exit>[=<room>]

Opens an exit from this room, leading to a room (#dbref, 'here' or a unique room name). Without
a room the exit is unlinked until you @link it.

Example:
  @open Door;d=#12

In TinTin++, type \\; for the semicolon: @open Door\\;d=#12 (see 'help clients').`,
      async exec(u) {
        if (!u.cmd.lhs.trim()) throw new CommandError("Open where?");
        const spec = parseExitSpec(u.cmd.lhs);
        const dest = u.cmd.rhs ? await b.findRoom(u.cmd.rhs, u.here) : null;
        const exit = await b.exit(u.me, here(u), spec, dest);
        u.send(opened(exit, dest !== null));
      },
    },
    {
      name: "@link",
      lock: BUILDER_LOCK,
      category: "building",
      help: `@link <exit>=<room>      sets where an exit leads
@link <thing or player>=<room>   sets its home`,
      async exec(u) {
        const target = await u.target(required(u.cmd.lhs, "@link <object>=<room>"));
        const room = await b.findRoom(required(u.cmd.rhs, "@link <object>=<room>"), u.here);
        // MUX's words for a new home name the old one (homeOf: the starting room when unset).
        const old = target.flags.includes("exit") ? null : await b.home(target).catch(() => null);
        confirm(u, linkedSaid(await b.link(u.me, target, room), old, room));
      },
    },
    {
      name: "@unlink",
      lock: BUILDER_LOCK,
      category: "building",
      help: "@unlink <exit> makes an exit lead nowhere.",
      async exec(u) {
        const target = await u.target(required(u.cmd.args, "@unlink <exit>"));
        await b.unlink(u.me, target);
        confirm(u, "Unlinked.");
      },
    },
    {
      name: "@create",
      lock: BUILDER_LOCK,
      category: "building",
      help: `@create <name>[=<cost>]

Makes a thing you own and carry. As in TinyMUX, what follows = is the cost in coins; this game
keeps no coins, so a cost is accepted (a whole number) and has no effect.

Example:
  @create Sword Parent=10`,
      async exec(u) {
        const usage = "@create <name>[=<cost>]";
        const cost = u.cmd.rhs?.trim() ?? "";
        if (cost && !/^\d{1,9}$/.test(cost)) {
          throw new CommandError(`The cost must be a whole number of coins. Usage: ${usage}`);
        }
        const name = (u.cmd.rhs === null ? u.cmd.args : u.cmd.lhs).trim();
        if (!name) throw new CommandError("Create what?");
        const thing = await b.thing(u.me, name);
        // MUX's words, without a full stop as MUX has them.
        u.send(`${thing.name} created as object #${thing.id}`, {
          type: "create",
          thing: { id: thing.id, name: thing.name },
        });
      },
    },
    {
      name: "@destroy",
      aliases: ["@nuke", "@recycle"],
      lock: BUILDER_LOCK,
      switches: ["confirm", "override"],
      category: "building",
      help: `@destroy[/confirm][/override] <object>

Destroys something you control. Players and the starting room cannot be destroyed. Something
set safe needs /override (as in TinyMUX). A room needs /confirm (or the same @destroy again
within a minute); its exits go with it, exits elsewhere that led to it are unlinked, and the
players and things in it are sent home (as in TinyMUX).`,
      async exec(u) {
        const target = await u.target(required(u.cmd.args, "@destroy <object>"));
        const sw = u.cmd.switches;
        const r = await b.destroy(u.me, target, sw.includes("confirm"), sw.includes("override"));
        u.send(destroyedSaid(target, r, `@destroy/confirm ${u.cmd.args.trim()}`, "the command"));
      },
    },
    {
      name: "@teleport",
      aliases: ["@tel"],
      // MUX's rules decide (teleportRefusal, which tel() shares): anyone may teleport what they
      // control.
      lock: "connected",
      category: "building",
      help: `@teleport <place>              takes you there
@teleport <target>=<place>     sends a player or thing there
@teleport <target>=home        sends it to its home
@teleport <exit>=<room>        makes the exit lead out of that room instead

As in TinyMUX: you may teleport yourself, what you control, and what is in a place you control
(staff: anything), to a room or thing you control or one set jump_ok whose teleport lock
(@lock/teleport) the one teleported passes (staff: anywhere); a thing also into a player's
hands (@tel <thing>=me), by the same rule. Whoever is refused is told the
place's @tfail (else "You can't teleport there!"), the others there its @otfail, and the place
runs its @atfail. Leaving is checked too: the place teleported out of, and each container
around it up to the room, must let the one teleported pass its telout lock (@lock/telout), else
@tofail, @otofail and @atofail of the place left. Sending something home (its home room, else
the starting room) asks only that you may move it: no lock of its home or of where it is; what
is home already stays there. An exit you control (or one leading out of a room you control) goes
to a room you control, or to a jump_ok one where you may open exits (open_ok, its open lock);
where it leads does not change. You are told "Teleported." of what you send somewhere else.`,
      async exec(u) {
        const hasTarget = u.cmd.rhs !== null;
        const target = hasTarget
          ? await u.target(required(u.cmd.lhs, "@teleport <target>=<place>"))
          : u.me;
        const to = required(hasTarget ? u.cmd.rhs : u.cmd.args, "@teleport [<target>=]<place>");
        // MUX's HOME: the target goes to its own home, under the rule of going home.
        const home = to.trim().toLowerCase() === "home";
        const room = home
          ? await b.home(target)
          : await b.findDestination(to, u.here, (ref) => u.target(ref));
        const self = target.id === u.me.id;
        const reads = await b.teleportReads(target, room);
        const refused = home
          ? homeRefusal(u.me, target, room, reads)
          : teleportRefusal(u.me, target, room, reads);
        if (refused) {
          const { told, act } = teleportRefusalSaid(refused, room, self);
          if (!act) throw new CommandError(told);
          if (told) u.send(told);
          u.didIt(target, act.place, target.location, act.verb);
          return;
        }
        // Sent home when home already: as MUX, it went home (nothing moves, nobody is told; it
        // sees its room again).
        const width = self ? u.width : undefined;
        const stays = home && target.location === room.id;
        if (stays) await b.showRoom(target, room, width);
        const moved = stays ? target : await b.move(target, room, width);
        const told = teleported(u.me, moved, home);
        if (told) u.send(told);
      },
    },
  ];
}
