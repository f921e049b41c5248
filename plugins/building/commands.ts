/**
 * Building commands (builder or higher): `@dig`, `@open`, `@link`, `@unlink`,
 * `@destroy`, `@create`; `@lock`/`@unlock` (anyone, on what they control); and `@teleport` for
 * staff.
 */
import {
  BUILDER_LOCK,
  CommandError,
  type CommandSdk,
  type CommandSpec,
  type DbObject,
  type Delivery,
  exitName,
  LOCK_TYPE_NAMES,
  lockTypeNamed,
  parseExitSpec,
  type PluginWorld,
  settableLock,
  TELEPORT_LOCK,
} from "../../src/plugins/mod.ts";
import type { Builder } from "./store.ts";

function ref(o: DbObject): string {
  return `${o.flags.includes("exit") ? exitName(o) : o.name}(#${o.id})`;
}

function need(value: string | null | undefined, usage: string): string {
  if (value === null || value === undefined || !value.trim()) {
    throw new CommandError(`Usage: ${usage}`);
  }
  return value.trim();
}

/** Every name a lock type goes by, as `@lock/<switch>` takes them. */
const LOCK_SWITCHES = Object.values(LOCK_TYPE_NAMES).flat();

/**
 * The object and lock type of `@lock`/`@unlock`: MUX's switch (`@lock/use obj`), or the part
 * after the last slash when it names a lock type (`@lock obj/use`, the engine's older form).
 */
function objectAndType(u: CommandSdk, lhs: string): [string, string] {
  const sw = u.cmd.switches[0];
  if (sw) return [lhs.trim(), lockTypeNamed(sw) ?? sw];
  const m = /^(.*?)\/([a-z]+)$/i.exec(lhs.trim());
  return m ? [m[1].trim(), m[2].toLowerCase()] : [lhs.trim(), "basic"];
}

/** The building commands over a Builder. */
export function buildingCommands(
  b: Builder,
  world: PluginWorld,
  deliver: Delivery,
): CommandSpec[] {
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
        const usage = "@dig <room>[=<exit to>[,<exit back>]]";
        const name = need(u.cmd.lhs, usage);
        const [toRaw, backRaw] = (u.cmd.rhs ?? "").split(",").map((s) => s.trim());
        const to = toRaw ? parseExitSpec(toRaw) : null;
        const back = backRaw ? parseExitSpec(backRaw) : null;
        const from = to || back ? here(u) : u.here;
        // Refusals come before the room exists, so a failed @dig leaves nothing behind.
        if (to) await b.checkExit(u.me, from!, to);
        const room = await b.room(u.me, name);
        const lines = [`Room ${ref(room)} dug.`];
        if (to) {
          lines.push(`Exit ${ref(await b.exit(u.me, from!, to, room))} opened to ${room.name}.`);
        }
        if (back) {
          lines.push(
            `Exit ${ref(await b.exit(u.me, room, back, from!))} opened back to ${from!.name}.`,
          );
        }
        u.send(lines.join("\n"), { type: "dig", room: { id: room.id, name: room.name } });
        if (u.cmd.switches.includes("teleport")) {
          await b.move(u.me, room);
          const view = await world.look(u.me, room, u.width);
          u.send(view.msg, view.data);
        }
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
        const spec = parseExitSpec(need(u.cmd.lhs, "@open <exit>[=<room>]"));
        const dest = u.cmd.rhs ? await b.findRoom(u.cmd.rhs, u.here) : null;
        const exit = await b.exit(u.me, here(u), spec, dest);
        u.send(`Exit ${ref(exit)} opened${dest ? ` to ${dest.name}` : " (unlinked)"}.`);
      },
    },
    {
      name: "@link",
      lock: BUILDER_LOCK,
      category: "building",
      help: `@link <exit>=<room>      sets where an exit leads
@link <thing or player>=<room>   sets its home`,
      async exec(u) {
        const target = await u.target(need(u.cmd.lhs, "@link <object>=<room>"));
        const room = await b.findRoom(need(u.cmd.rhs, "@link <object>=<room>"), u.here);
        const linked = await b.link(u.me, target, room);
        u.send(
          linked.flags.includes("exit")
            ? `${ref(linked)} now leads to ${room.name}.`
            : `Home of ${ref(linked)} set to ${room.name}.`,
        );
      },
    },
    {
      name: "@unlink",
      lock: BUILDER_LOCK,
      category: "building",
      help: "@unlink <exit> makes an exit lead nowhere.",
      async exec(u) {
        const target = await u.target(need(u.cmd.args, "@unlink <exit>"));
        const done = await b.unlink(u.me, target);
        u.send(`${ref(done)} unlinked.`);
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
        const name = need(u.cmd.rhs === null ? u.cmd.args : u.cmd.lhs, usage);
        const thing = await b.thing(u.me, name);
        u.send(`Created ${ref(thing)}.`, {
          type: "create",
          thing: { id: thing.id, name: thing.name },
        });
      },
    },
    {
      name: "@destroy",
      aliases: ["@nuke", "@recycle"],
      lock: BUILDER_LOCK,
      switches: ["confirm"],
      category: "building",
      help: `@destroy[/confirm] <object>

Destroys something you control. Players and the starting room cannot be destroyed, nor a room
with players in it. A room needs /confirm (or the same @destroy again within a minute); its
exits go with it, exits elsewhere that led to it are unlinked, and the things in it are sent
home.`,
      async exec(u) {
        const target = await u.target(need(u.cmd.args, "@destroy <object>"));
        const r = await b.destroy(u.me, target, u.cmd.switches.includes("confirm"));
        if (!r) {
          return u.send(
            `Destroying ${
              ref(target)
            } cannot be undone. Type @destroy/confirm ${u.cmd.args.trim()} ` +
              "(or repeat the command within a minute) to go ahead.",
          );
        }
        u.send(
          `Destroyed ${ref(target)}.` + (r.moved ? ` ${r.moved} object(s) sent home.` : "") +
            (r.unlinked ? ` ${r.unlinked} exit(s) that led here unlinked.` : ""),
        );
      },
    },
    {
      name: "@lock",
      // As in MUX, anyone may lock what they control (a player's page lock, say).
      lock: "connected",
      switches: LOCK_SWITCHES,
      category: "building",
      help: `@lock[/<type>] <object>=<key>
@lock <object>/<type>=<key>

Locks an object: only those who pass the key may use it that way. The types, as in TinyMUX
(each also takes MUX's name, e.g. /uselock, /tportlock):
  basic (default)  who may go through an exit or pick up a thing
  enter            who may enter a room (a room with one is private in scene locations)
  use              who may use the object's $-commands
  page             who may page a player        give     who may give the object away
  receive          what a player may be given   drop     who may drop the object
  parent           who may @parent to an object with parent_ok
  teleport, telout, leave, link, speech, open, mail, getfrom, visible, user

Keys (see 'help locks'):
  <object>          is or carries it: me, here, *player, a name, #dbref
  =<object>         is it               +<object>   carries it
  $<object>         has its owner       @<object>[/<type>]   passes its lock
  <attr>:<pattern>  the attribute matches (wildcards; =attr: only the actor, +attr: what it carries)
  <attr>/<value>    the object's attribute, evaluated with you as %#, gives the value
  builder, dark...  has the flag;  builder+  at least a builder;  connected
Combine with & (and), | (or), ! (not) and ( ). Names become dbrefs when the lock is set.

Examples:
  @lock north=builder+
  @lock/use bbpocket=me
  @lock here/enter=#12|admin
  @lock vault=+Gold Key & !$*Mallory`,
      async exec(u) {
        const usage = "@lock[/<type>] <object>=<key>";
        if (u.cmd.rhs === null) {
          // MUX's `@lock <object>/<attribute>` locks an attribute: here that is @set's flag.
          const m = /^(.+)\/([^/]+)$/.exec(u.cmd.args.trim());
          if (m && !lockTypeNamed(m[2])) {
            throw new CommandError(
              `To lock an attribute, type: @set ${m[1].trim()}/${m[2].trim()}=locked`,
            );
          }
          throw new CommandError(`Usage: ${usage}`);
        }
        const [objRef, type] = objectAndType(u, need(u.cmd.lhs, usage));
        const obj = await u.target(objRef);
        const key = await settableLock(u, need(u.cmd.rhs, usage));
        const done = await b.lock(u.me, obj, type, key);
        const t = lockTypeNamed(type) ?? type;
        u.send(`Locked ${ref(done)} (${t}): ${done.data.locks?.[t]}`);
      },
    },
    {
      name: "@unlock",
      lock: "connected",
      switches: LOCK_SWITCHES,
      category: "building",
      help:
        "@unlock[/<type>] <object> removes a lock (default type: basic); @unlock <object>/<type> too.",
      async exec(u) {
        const [objRef, type] = objectAndType(u, need(u.cmd.args, "@unlock[/<type>] <object>"));
        const obj = await u.target(objRef);
        const done = await b.lock(u.me, obj, type, null);
        u.send(`Unlocked ${ref(done)} (${lockTypeNamed(type) ?? type}).`);
      },
    },
    {
      name: "@teleport",
      aliases: ["@tel"],
      lock: TELEPORT_LOCK,
      category: "building",
      help: `@teleport <room>             takes you to a room
@teleport <target>=<room>    sends a player or thing there (staff)`,
      async exec(u) {
        const hasTarget = u.cmd.rhs !== null;
        const target = hasTarget
          ? await u.target(need(u.cmd.lhs, "@teleport <target>=<room>"))
          : u.me;
        const room = await b.findDestination(
          need(hasTarget ? u.cmd.rhs : u.cmd.args, "@teleport [<target>=]<room>"),
          u.here,
          (ref) => u.target(ref),
        );
        const moved = await b.move(target, room);
        if (moved.flags.includes("player")) {
          deliver.toPlayer(moved.id, await world.look(moved, room));
        }
        if (moved.id !== u.me.id) u.send(`Teleported ${ref(moved)} to ${room.name}.`);
      },
    },
  ];
}
