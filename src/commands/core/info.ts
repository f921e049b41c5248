/**
 * What the game tells of itself, as MUX's commands tell it: `@list <option>` (do_list), read from
 * the engine's own tables (the command registry, the function table, the flags), so it is always
 * what the game runs; `version`; `@stats`, counts of objects from the world's indexes (no scan).
 */
import type { CommandSdk, CommandSpec } from "../types.ts";
import type { CommandInfo } from "../../engine_admin.ts";
import { guestMay } from "../dispatch.ts";
import { isGuest, isStaff, knownFlags } from "../../world/flags.ts";
import { objectCounts } from "../../world/stats.ts";
import type { WorldReader } from "../../world/live_world.ts";
import { controls } from "../../world/control.ts";
import { VERSION_TEXT } from "../../version.ts";
import { CommandError } from "../errors.ts";
import { masterRoomId } from "../../softcode/programs/mod.ts";
import { counted } from "../../text/plural.ts";

/** MUX's line of counts by type: the whole world's (`owner` null) or an owner's. */
function statsLine(world: WorldReader, owner: string | null): string {
  const n = objectCounts(world, owner);
  // Destroyed objects leave nothing behind here: MUX's garbage is always 0.
  return `${n.total} objects = ${n.rooms} rooms, ${n.exits} exits, ${n.things} things, ` +
    `${n.players} players. (0 garbage)`;
}

/** May the actor run `c` (its lock, and for a guest what guests may)? */
function mayRun(u: CommandSdk, c: CommandInfo): boolean {
  const lock = c.lock ?? "connected";
  if (lock !== "connected" && !u.passes(lock)) return false;
  return !isGuest(u.me.flags) || guestMay(c, []);
}

/** The commands the actor may run, by name (a `name/switch` registration is its command's). */
function runnable(u: CommandSdk): CommandInfo[] {
  return u.engine.commands.list()
    .filter((c) => !c.name.includes("/") && mayRun(u, c))
    .sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

/** `@list`'s options, in MUX's words and alphabetical order, with what each shows. */
const OPTIONS: Readonly<Record<string, (u: CommandSdk) => string[]>> = {
  commands: (u) => ["Commands: " + runnable(u).map((c) => c.name).join(" ")],
  costs: (u) => {
    const { game, softcode } = u.engine.config.value;
    return [
      "Nothing costs money here: building, @search and queued commands are free.",
      game.objectQuota > 0
        ? `A player may own at most ${game.objectQuota} rooms, things and exits (staff: any).`
        : "A player may own any number of rooms, things and exits.",
      softcode.attributeQuotaBytes > 0
        ? `A player's attributes may take at most ${softcode.attributeQuotaBytes} bytes (staff: any).`
        : "A player's attributes may take any number of bytes.",
    ];
  },
  flags: () => ["Flags: " + knownFlags().join(" ")],
  functions: (u) => {
    const user = new Set(u.engine.userFunctions.list().map((f) => f.name));
    const staff = isStaff(u.me.flags);
    const builtin = u.softcode.functions.names().filter((n) =>
      !user.has(n) && (staff || !u.softcode.functions.get(n)?.staff)
    );
    return [`Functions: ${builtin.join(" ")}`, `User-Functions: ${[...user].join(" ")}`];
  },
  options: (u) => {
    const { game, server, softcode, queue } = u.engine.config.value;
    const master = masterRoomId(softcode.masterRoom);
    return [
      `Players may have at most ${queue.playerLimit} commands in the queue at one time ` +
      `(staff: ${queue.staffLimit}).`,
      game.maxPlayers > 0
        ? `There may be at most ${game.maxPlayers} players logged in at once.`
        : "There is no limit to the players logged in at once.",
      `Timeouts: Idle...${game.idleTimeout}  Connect...${server.loginTimeout}`,
      `New characters: Room...#${game.startingRoom}  Guests...${game.guestEnabled ? "on" : "off"}`,
      `Misc: Master_room...#${master || -1}`,
      `Limits: Function_invocation...${softcode.functionInvocations}  ` +
      `Function_recursion...${softcode.recursionDepth}  Output...${softcode.outputLength}  ` +
      `Evaluation...${softcode.evaluationMs} ms`,
      softcode.evaluatePlayerText
        ? "What players say, pose, page and emit is evaluated as softcode."
        : "What players say, pose, page and emit is shown as typed, not evaluated.",
    ];
  },
  switches: (u) =>
    runnable(u).filter((c) => c.switches?.length).map((c) => `${c.name}: ${c.switches!.join(" ")}`),
};

/** The commands. */
export const commands: CommandSpec[] = [
  {
    name: "@list",
    guests: true,
    category: "Information",
    help: `@list <option>

Lists what the game itself knows, read from its own tables (as TinyMUX's @list):
  commands   the built-in commands you may use (not $-commands nor exits)
  costs      what building and owning cost (no money here: the quotas)
  flags      the flags objects may carry
  functions  the softcode functions you may call, then the game's own (@function)
  options    the game's limits: the queue, players, timeouts, softcode's budgets
  switches   the commands that take switches, with them

An option may be shortened to what tells it apart (@list fu). See also: @listen.`,
    exec(u) {
      const word = u.cmd.args.trim().toLowerCase();
      const names = Object.keys(OPTIONS);
      const hits = word ? names.filter((n) => n.startsWith(word)) : [];
      if (hits.length !== 1) {
        u.send(`Unknown option.  Use one of: ${names.join(" ")}`);
        return;
      }
      u.send(OPTIONS[hits[0]](u).join("\n"));
    },
  },
  {
    name: "version",
    aliases: ["@version"],
    guests: true,
    category: "Information",
    help: `version

Shows the server's version, in TinyMUX's form (what the version() function gives).`,
    exec(u) {
      u.send(VERSION_TEXT);
    },
  },
  {
    name: "@stats",
    switches: ["all", "me"],
    guests: true,
    category: "Information",
    help: `@stats               how many objects the game holds
@stats/all           the same by type: rooms, exits, things, players
@stats/me            what you own, by type
@stats <player>      what a player owns, by type (yours, or staff: anyone's)

As in TinyMUX, read from the game's indexes.`,
    async exec(u) {
      const world = u.objects.world;
      if (!world) throw new CommandError("The game's counts are kept only in its own memory.");
      const name = u.cmd.args.trim();
      const all = u.cmd.switches.includes("all"), me = u.cmd.switches.includes("me");
      if ((all ? 1 : 0) + (me ? 1 : 0) + (name ? 1 : 0) > 1) {
        throw new CommandError("Illegal combination of switches.");
      }
      if (all) return u.send(statsLine(world, null));
      if (!me && !name) {
        const total = objectCounts(world, null).total;
        return u.send(
          `The universe contains ${counted(total, "object")} ` +
            `(next free is #${u.objects.nextId()}).`,
        );
      }
      const owner = me ? u.me.owner || u.me.id : (await u.players.find(name, u.me))?.id;
      if (!owner) throw new CommandError("Not found.");
      const player = world.object(owner);
      if (!player) throw new CommandError("Not found.");
      // MUX's get_stats: one's own, else Stat_Any (staff).
      if (!isStaff(u.me.flags) && !controls(u.me, player, u.locks)) {
        throw new CommandError("Permission denied.");
      }
      u.send(statsLine(world, owner));
    },
  },
];
