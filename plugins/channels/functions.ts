/**
 * TinyMUX 2.12's comsys functions over this plugin's channels, registered with
 * `ctx.functions.add`: `channels()`, `cwho()`, `cemit()`, `chanobj()`, `comalias()` and
 * `comtitle()`. They read the memberships the store keeps in memory; `cemit()` sends through the
 * service's `emit`, the code path of `@cemit`. How MUX's comsys maps onto these channels is in
 * docs/softcode.md ("Channels and mail").
 */
import {
  EngineError,
  ForbiddenError,
  isStaff,
  NotFoundError,
  type PluginFunctionSpec,
  toWire,
} from "../../src/plugins/mod.ts";
import type { ChannelService } from "./service.ts";

/** The most text a listing gives (MUX's LBUF): a huge channel's list stops there. */
const MAX_OUT = 8000;

/** Words joined by spaces, stopping before the text would pass MAX_OUT. */
function bounded(words: Iterable<string>): string {
  let out = "";
  for (const w of words) {
    if (out.length + w.length + 1 > MAX_OUT) break;
    out = out ? `${out} ${w}` : w;
  }
  return out;
}

/** The six comsys functions, for `ctx.functions.add`. */
export function channelFunctions(svc: ChannelService): PluginFunctionSpec[] {
  return [
    {
      name: "channels",
      minArgs: 0,
      maxArgs: 1,
      help: {
        family: "game",
        args: "channels([<player>|all])",
        summary: "The channels you can see; with a player, only the ones that player made.",
        more: "Hidden channels are listed to their members and staff only. 'all' (or nothing) " +
          "lists every channel you can see, by name.",
        example: { think: "channels()", gives: "" },
      },
      call({ caller, player }, args) {
        const who = (args[0] ?? "").trim();
        let maker: string | null = null;
        if (who !== "" && who.toLowerCase() !== "all") {
          const p = player(who);
          if (!p) return "#-1 PLAYER NOT FOUND";
          maker = p.id;
        }
        return bounded(
          svc.visible(caller).filter((ch) => maker === null || ch.createdBy === maker)
            .map((ch) => ch.name),
        );
      },
    },
    {
      name: "cwho",
      minArgs: 1,
      maxArgs: 2,
      help: {
        family: "game",
        args: "cwho(<channel>[, on|off|all])",
        summary: "Dbrefs of a channel's members: on (the default) those connected, all every one.",
        more: "Staff only. Nobody is 'off' a channel here (leaving it " +
          "is the only way off), so off gives an empty list.",
        example: { think: "cwho(Nope)", gives: "#-1 CHANNEL NOT FOUND" },
      },
      call({ caller }, args) {
        const ch = svc.known(caller, args[0]);
        if (!ch) return "#-1 CHANNEL NOT FOUND";
        if (!svc.controls(ch, caller)) return "#-1 PERMISSION DENIED";
        const select = (args[1] ?? "").trim().toLowerCase();
        if (select === "off") return "";
        const ids = select === "all" ? svc.memberIds(ch) : svc.online(ch);
        return bounded(ids.map((id) => `#${id}`));
      },
    },
    {
      name: "cemit",
      minArgs: 2,
      maxArgs: 2,
      help: {
        family: "effects",
        args: "cemit(<channel>, <message>)",
        summary: "Sends a message to a channel's members after its header, as @cemit does.",
        more: "Staff only; it gives nothing, or an error value.",
        example: { think: "cemit(Nope,Hello)", gives: "#-1 CHANNEL NOT FOUND" },
      },
      call({ caller }, args) {
        try {
          svc.emit(caller, args[0], toWire(args[1]), true);
          return "";
        } catch (e) {
          if (e instanceof NotFoundError) return "#-1 CHANNEL NOT FOUND";
          if (e instanceof ForbiddenError) return "#-1 PERMISSION DENIED";
          if (e instanceof EngineError) return `#-1 ${e.message.toUpperCase().replace(/\.$/, "")}`;
          throw e;
        }
      },
    },
    {
      name: "chanobj",
      minArgs: 1,
      maxArgs: 1,
      help: {
        family: "game",
        args: "chanobj(<channel>)",
        summary: "A channel's object: always #-1 here, where channels have none (staff only).",
        example: { think: "chanobj(Nope)", gives: "#-1 CHANNEL NOT FOUND" },
      },
      call({ caller }, args) {
        if (!isStaff(caller.flags)) return "#-1 PERMISSION DENIED";
        return svc.byName(args[0]) ? "#-1" : "#-1 CHANNEL NOT FOUND";
      },
    },
    {
      name: "comalias",
      minArgs: 2,
      maxArgs: 2,
      help: {
        family: "game",
        args: "comalias(<player>, <channel>)",
        summary: "The alias a player talks on a channel with.",
        more: "Your own, or your owner's from an inherit object; staff ask anyone's.",
        example: { think: "comalias(me,Nope)", gives: "#-1 CHANNEL DOES NOT EXIST" },
      },
      call({ caller, player }, args) {
        const p = player(args[0]);
        if (!p) return "#-1 OBJECT DOES NOT EXIST";
        const ch = svc.known(caller, args[1]);
        if (!ch) return "#-1 CHANNEL DOES NOT EXIST";
        const inherits = caller.flags.includes("inherit") && caller.owner === p.id;
        if (!isStaff(caller.flags) && caller.id !== p.id && !inherits) {
          return "#-1 PERMISSION DENIED";
        }
        return svc.aliasOf(ch, p.id) ?? "#-1 OBJECT NOT ON THAT CHANNEL";
      },
    },
    {
      name: "comtitle",
      minArgs: 2,
      maxArgs: 2,
      help: {
        family: "game",
        args: "comtitle(<player>, <channel>)",
        summary: "A player's title on a channel: empty for a member, as titles are not kept here.",
        more: "Members of the channel and staff may ask.",
        example: { think: "comtitle(me,Nope)", gives: "#-1 CHANNEL DOES NOT EXIST" },
      },
      call({ caller, player }, args) {
        const p = player(args[0]);
        if (!p) return "#-1 OBJECT DOES NOT EXIST";
        const ch = svc.known(caller, args[1]);
        if (!ch) return "#-1 CHANNEL DOES NOT EXIST";
        if (!isStaff(caller.flags) && !svc.isMember(ch, caller.id)) {
          return "#-1 PERMISSION DENIED";
        }
        return svc.isMember(ch, p.id) ? "" : "#-1 OBJECT NOT ON THAT CHANNEL";
      },
    },
  ];
}
