/**
 * Channel commands: staff's `@chancreate`, `@chandestroy`, `@chanset`; players'
 * `+chan/join|leave|list|who|history`, MUX-style `addcom`/`delcom`/`comlist`, and
 * talking with `<alias> <message>` or `+<channel> <message>`.
 */
import {
  CommandError,
  type CommandSdk,
  type CommandSpec,
  isStaff,
  padVisible,
  type PluginWorld,
} from "../../src/plugins/mod.ts";
import { type ChannelService, closed } from "./service.ts";
import type { Channel } from "./store.ts";

const STAFF = "admin+";

/** Escapes text for a regular expression. */
function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
}

/** The fixed channel commands. */
export function channelCommands(
  svc: ChannelService,
  world: Pick<PluginWorld, "getMany">,
): CommandSpec[] {
  const list = (u: CommandSdk) => {
    const chans = svc.visible(u.me);
    if (!chans.length) return u.send("There are no channels.");
    const rows = chans.map((ch) => {
      const alias = svc.aliasOf(ch, u.me.id);
      const flags = `${ch.hidden ? "H" : "-"}${ch.lock ? "L" : "-"}${ch.masking ? "M" : "-"}`;
      return `${padVisible(ch.name, 20)} ${padVisible(alias ?? "", 8)} ${
        padVisible(String(svc.memberCount(ch)), 7, "right")
      }  ${flags}  ${closed(ch.header)}`;
    });
    u.send(
      [
        `%ch${padVisible("Channel", 20)} ${padVisible("Alias", 8)} ${
          padVisible("Members", 7, "right")
        }  Flg  Header%cn`,
        ...rows,
        "Flags: H hidden, L locked, M masked. Join with +chan/join <name>[=<alias>].",
      ].join("\n"),
      {
        type: "channels",
        channels: chans.map((ch) => ({
          name: ch.name,
          header: ch.header,
          members: svc.memberCount(ch),
          alias: svc.aliasOf(ch, u.me.id) ?? null,
        })),
      },
    );
  };
  const join = async (u: CommandSdk, name: string, alias?: string) => {
    if (!name.trim()) throw new CommandError("Usage: +chan/join <channel>[=<alias>]");
    const { ch, alias: a } = await svc.join(u.me, name, alias);
    u.send(`You join ${ch.name} with the alias '${a}'. Talk with: ${a} <message>`);
  };
  const leave = async (u: CommandSdk, ref: string) => {
    if (!ref.trim()) throw new CommandError("Usage: +chan/leave <channel or alias>");
    const ch = await svc.leave(u.me, ref);
    u.send(`You leave ${ch.name}.`);
  };
  return [
    {
      name: "+chan",
      guests: true,
      aliases: ["+channel", "@channel"],
      switches: ["join", "leave", "list", "who", "history"],
      category: "channels",
      help: "+chan/join <name>[=<alias>], +chan/leave <name>, +chan/list, +chan/who <name>, " +
        "+chan/history <name>[=<count>]; talk with <alias> <message>. See 'help channels'.",
      async exec(u) {
        const sw = u.cmd.switches[0] ?? (u.cmd.args.trim() ? "join" : "list");
        if (sw === "list") return list(u);
        if (sw === "join") return await join(u, u.cmd.lhs, u.cmd.rhs ?? undefined);
        if (sw === "leave") return await leave(u, u.cmd.args);
        const ch = svc.resolve(u.me.id, u.cmd.lhs);
        const staff = isStaff(u.me.flags);
        if (!ch || (ch.hidden && !staff && !svc.isMember(ch, u.me.id))) {
          throw new CommandError(`There is no channel called ${u.cmd.lhs.slice(0, 40)}.`);
        }
        if (sw === "who") return await whoOn(u, svc, world, ch);
        // history
        if (ch.lock && !staff && !svc.isMember(ch, u.me.id)) {
          throw new CommandError("Only members may read this channel's history.");
        }
        await recall(u, svc, ch, u.cmd.rhs);
      },
    },
    {
      name: "addcom",
      guests: true,
      category: "channels",
      help: "addcom <alias>=<channel> joins a channel under an alias.",
      async exec(u) {
        if (u.cmd.rhs === null) throw new CommandError("Usage: addcom <alias>=<channel>");
        await join(u, u.cmd.rhs, u.cmd.lhs);
      },
    },
    {
      name: "delcom",
      guests: true,
      category: "channels",
      help: "delcom <alias> leaves the channel of that alias.",
      async exec(u) {
        await leave(u, u.cmd.args);
      },
    },
    {
      name: "comlist",
      guests: true,
      category: "channels",
      help: "comlist lists channels and your aliases.",
      exec: list,
    },
    {
      name: "@chancreate",
      lock: STAFF,
      switches: ["hidden", "lock"],
      category: "channels",
      help:
        "@chancreate[/hidden] <name>[=<header>] or @chancreate/lock <name>=<lock> creates a channel.",
      async exec(u) {
        const name = u.cmd.lhs;
        if (!name) throw new CommandError("Usage: @chancreate <name>[=<header>]");
        const locked = u.cmd.switches.includes("lock");
        const ch = await svc.create(u.me, name, {
          header: locked ? undefined : u.cmd.rhs ?? undefined,
          lock: locked ? u.cmd.rhs ?? "" : undefined,
          hidden: u.cmd.switches.includes("hidden"),
        });
        u.send(
          `Channel ${ch.name} created with header '${ch.header}%cn'.` +
            (ch.lock ? ` Lock: ${ch.lock}.` : "") + (ch.hidden ? " It is hidden." : ""),
        );
      },
    },
    {
      name: "@chandestroy",
      lock: STAFF,
      category: "channels",
      help: "@chandestroy <name> destroys a channel, its memberships and its history.",
      async exec(u) {
        if (!u.cmd.args.trim()) throw new CommandError("Usage: @chandestroy <name>");
        const ch = await svc.destroy(u.cmd.args);
        u.send(`Channel ${ch.name} destroyed.`);
      },
    },
    {
      name: "@chanset",
      lock: STAFF,
      category: "channels",
      help: "@chanset <name>/header|lock|hidden|masking=<value> changes a channel setting.",
      async exec(u) {
        const m = /^([^/=]+)\/([a-z]+)$/i.exec(u.cmd.lhs);
        if (!m || u.cmd.rhs === null) {
          throw new CommandError("Usage: @chanset <name>/header|lock|hidden|masking=<value>");
        }
        const ch = await svc.set(m[1], m[2], u.cmd.rhs, u.me);
        const prop = m[2].toLowerCase() === "mask" ? "masking" : m[2].toLowerCase();
        const shown = prop === "header"
          ? `'${ch.header}%cn'`
          : prop === "lock"
          ? (ch.lock ? `'${ch.lock}'` : "none")
          : (ch[prop as "hidden" | "masking"] ? "yes" : "no");
        u.send(`${ch.name}: ${prop} is now ${shown}.`);
      },
    },
    {
      name: "@cemit",
      switches: ["noheader"],
      category: "channels",
      help: "@cemit[/noheader] <channel>=<message> sends a message to a channel's members " +
        "(staff).",
      exec(u) {
        if (!u.cmd.lhs.trim() || u.cmd.rhs === null) {
          throw new CommandError("Usage: @cemit[/noheader] <channel>=<message>");
        }
        svc.emit(u.me, u.cmd.lhs, u.cmd.rhs, !u.cmd.switches.includes("noheader"));
      },
    },
  ];
}

/** `+chan/who` and `<alias> who`: the channel's members who are online. */
async function whoOn(
  u: CommandSdk,
  svc: ChannelService,
  world: Pick<PluginWorld, "getMany">,
  ch: Channel,
): Promise<void> {
  if (ch.masking && !isStaff(u.me.flags)) {
    throw new CommandError(`${ch.name} is masked; its members are hidden.`);
  }
  const players = await world.getMany(svc.online(ch));
  const names = players.map((p) => p.name).sort();
  u.send(
    names.length
      ? `On ${ch.name} (${names.length} online): ${names.join(", ")}`
      : `Nobody on ${ch.name} is online.`,
    {
      type: "chanwho",
      channel: ch.name,
      online: players.map((p) => ({ id: p.id, name: p.name })),
    },
  );
}

/** A history line as it was heard: `Ann: hi`, a pose `Ann waves`, a semipose `Ann's ...`. */
function spoken(sender: string, message: string, kind: string): string {
  if (kind === "pose") return `${sender} ${message}`;
  if (kind === "semipose") return `${sender}${message}`;
  return `${sender}: ${message}`;
}

/** `+chan/history` and `<alias> last [<n>]`: the channel's last lines (10 unless told). */
async function recall(
  u: CommandSdk,
  svc: ChannelService,
  ch: Channel,
  count: string | null,
): Promise<void> {
  if (ch.lock && !isStaff(u.me.flags) && !svc.isMember(ch, u.me.id)) {
    throw new CommandError("Only members may read this channel's history.");
  }
  const n = count?.trim() ? Number(count) : 10;
  if (!Number.isInteger(n) || n < 1) {
    throw new CommandError("The count must be a whole number.");
  }
  const entries = await svc.history(u.me, ch, { limit: Math.min(n, 100), offset: 0 });
  if (!entries.length) return u.send(`${ch.name} has no history yet.`);
  u.send(
    [
      `%chRecent messages on ${ch.name}:%cn`,
      ...entries.map((e) =>
        `[${new Date(e.timestamp).toISOString().slice(0, 16).replace("T", " ")}] ${
          spoken(e.sender, e.message, e.kind)
        }`
      ),
    ].join("\n"),
  );
}

/**
 * The talk commands, rebuilt whenever aliases or channel names change: one
 * pattern over every alias in use (`pub Hello`, `pub :waves`), which takes a line
 * only from a player who has that alias, and one over every channel name
 * (`+public Hello`). Patterns name only words in use, so other lines never reach them.
 */
export function talkCommands(
  svc: ChannelService,
  world: Pick<PluginWorld, "getMany">,
): CommandSpec[] {
  const aliases = svc.store.aliasUse;
  const names = [...svc.store.channels.values()].map((c) => c.name.toLowerCase());
  const out: CommandSpec[] = [];
  if (aliases.size) {
    out.push({
      name: "+chan-talk",
      guests: true,
      pattern: new RegExp(
        `^(${[...aliases.keys()].sort().map(escapeRe).join("|")})(?:\\s+([\\s\\S]*))?$`,
        "i",
      ),
      category: "channels",
      // Aliases are per player: another player's alias must not hide a command prefix
      // (`exa me` for examine) from everyone else.
      accepts: (me, [alias]) => !!svc.store.aliases.get(me.id)?.has(alias.toLowerCase()),
      async exec(u) {
        const alias = u.args[0].toLowerCase();
        const lower = svc.store.aliases.get(u.me.id)?.get(alias);
        const ch = lower ? svc.store.channels.get(lower) : undefined;
        if (!ch) throw new CommandError("Huh? Type 'help' for help.");
        await say(u, svc, world, ch, u.args[1] ?? "");
      },
    });
  }
  if (names.length) {
    out.push({
      name: "+chan-name-talk",
      guests: true,
      pattern: new RegExp(
        `^\\+(${names.sort().map(escapeRe).join("|")})(?:\\s+([\\s\\S]*))?$`,
        "i",
      ),
      category: "channels",
      // Only a member's line: anyone else's `+staff` goes on to the softcode `$-commands` (a
      // game's SGP +staff), as MUX's per-player channel aliases leave other lines alone.
      accepts: (me, [name]) => {
        const ch = svc.byName(name);
        return !!ch && svc.isMember(ch, me.id);
      },
      async exec(u) {
        const ch = svc.byName(u.args[0]);
        if (!ch || !svc.isMember(ch, u.me.id)) {
          throw new CommandError(`You are not on a channel called ${u.args[0]}.`);
        }
        await say(u, svc, world, ch, u.args[1] ?? "");
      },
    });
  }
  return out;
}

/**
 * A line on a channel: MUX's words first (`pub who` lists who is on, `pub last 5` recalls the
 * last lines, `pub on` and `pub off`), then talk.
 */
async function say(
  u: CommandSdk,
  svc: ChannelService,
  world: Pick<PluginWorld, "getMany">,
  ch: Channel,
  text: string,
) {
  const t = text.trim().toLowerCase();
  if (t === "who") return await whoOn(u, svc, world, ch);
  const last = /^last(?:\s+(\S+))?$/.exec(t);
  if (last) return await recall(u, svc, ch, last[1] ?? null);
  if (t === "on" || t === "off") {
    // `pub on` / `pub off` are common muscle memory from other servers.
    throw new CommandError(
      t === "on" ? `You are already on ${ch.name}.` : `Use +chan/leave ${ch.name} to leave it.`,
    );
  }
  // Evaluated as softcode only where the game turns it on (softcode.evaluatePlayerText).
  await svc.talk(u.me, ch, text.trim() ? u.playerText(text) : text);
}
