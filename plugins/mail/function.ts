/**
 * Softcode's `mail()`, in TinyMUX 2.12's four forms, and `mailfrom()`, `mailsize()` and
 * `mailsubj()`, over the mailboxes in memory (mirror.ts): a message number is its place in the
 * inbox, oldest first, as `@mail` lists it. This engine's mail has no cleared state (the third
 * count is always 0) and no folders: the inbox is the folder MUX's functions read.
 */
import {
  type DbObject,
  hasFlag,
  isStaff,
  type PluginCall,
  type PluginFunctionSpec,
} from "../../src/plugins/mod.ts";
import type { MailMirror, MirroredMail } from "./mirror.ts";

const NOT_HELD = "#-1 MAIL IS NOT HELD IN MEMORY ON THIS GAME";

const INTEGER = /^\s*[+-]?\d+\s*$/;

/** `mail()` for `ctx.functions.add`; `mirror` null: mailboxes are not held (a shared database). */
export function mailFunction(mirror: MailMirror | null): PluginFunctionSpec {
  return {
    name: "mail",
    minArgs: 0,
    maxArgs: 2,
    help: {
      family: "game",
      args: "mail([<player>][, <message #>])",
      summary: "Mail: mail() counts your messages; mail(<#>) is your message <#>; " +
        "mail(<player>) gives read, unread and cleared counts; mail(<player>, <#>) that message.",
      more: "Numbers are as @mail lists them, oldest first. Staff may count another player's " +
        "mail; only the superuser may read another's messages.",
      example: { think: "mail()", gives: "0" },
    },
    call({ caller, player }, args) {
      if (!mirror) return NOT_HELD;
      const first = (args[0] ?? "").trim();
      if (args.length === 0 || (args.length === 1 && first === "")) {
        return String(mirror.box(caller.id).length);
      }
      let whose = caller;
      let num: number;
      if (args.length === 1 && !INTEGER.test(first)) {
        const p = player(first);
        if (!p) return "#-1 NO SUCH PLAYER";
        if (p.id !== caller.id && !isStaff(caller.flags)) return "#-1 PERMISSION DENIED";
        const box = mirror.box(p.id);
        const read = box.filter((m) => m.read).length;
        return `${read} ${box.length - read} 0`;
      } else if (args.length === 1) {
        num = parseInt(first, 10);
      } else {
        const p = player(first);
        if (!p) return "#-1 NO SUCH PLAYER";
        if (p.id !== caller.id && !hasFlag(caller.flags, "superuser")) {
          return "#-1 PERMISSION DENIED";
        }
        whose = p;
        num = INTEGER.test(args[1]) ? parseInt(args[1], 10) : 0;
      }
      if (num < 1 || !whose.flags.includes("player")) return "#-1 NO SUCH MESSAGE";
      return mirror.box(whose.id)[num - 1]?.body ?? "#-1 NO SUCH MESSAGE";
    },
  };
}

/** A number as MUX's atol reads it: leading digits after a sign, 0 when there are none. */
function atol(text: string): number {
  const n = parseInt(String(text ?? "").trim(), 10);
  return Number.isFinite(n) ? n : 0;
}

/**
 * The message `mailfrom()` and `mailsubj()` ask for: `(<#>)` of the caller's box, or
 * `(<player>, <#>)` of a player's own box or, for staff, anyone's (MUX's Wizard rule).
 */
function message(
  mirror: MailMirror,
  { caller, player }: PluginCall,
  args: string[],
): MirroredMail | string {
  let whose: DbObject = caller;
  if (args.length > 1) {
    const p = player(args[0]);
    if (!p) return "#-1 NO SUCH PLAYER";
    if (p.id !== caller.id && !isStaff(caller.flags)) return "#-1 PERMISSION DENIED";
    whose = p;
  }
  const num = atol(args[args.length - 1]);
  if (num < 1 || !whose.flags.includes("player")) return "#-1 NO SUCH MESSAGE";
  return mirror.box(whose.id)[num - 1] ?? "#-1 NO SUCH MESSAGE";
}

/** `mailfrom()`, `mailsize()` and `mailsubj()` for `ctx.functions.add`. */
export function mailDetailFunctions(mirror: MailMirror | null): PluginFunctionSpec[] {
  return [
    {
      name: "mailfrom",
      minArgs: 1,
      maxArgs: 2,
      help: {
        family: "game",
        args: "mailfrom([<player>, ]<message #>)",
        summary: "The dbref of who sent a message of your mailbox (or, for staff, a player's).",
        example: { think: "mailfrom(1)", gives: "#-1 NO SUCH MESSAGE" },
      },
      call(c, args) {
        if (!mirror) return NOT_HELD;
        const m = message(mirror, c, args);
        return typeof m === "string" ? m : m.fromId ? `#${m.fromId}` : "#-1 NO SUCH MESSAGE";
      },
    },
    {
      name: "mailsubj",
      minArgs: 1,
      maxArgs: 2,
      help: {
        family: "game",
        args: "mailsubj([<player>, ]<message #>)",
        summary: "The subject of a message of your mailbox (or, for staff, a player's).",
        example: { think: "mailsubj(1)", gives: "#-1 NO SUCH MESSAGE" },
      },
      call(c, args) {
        if (!mirror) return NOT_HELD;
        const m = message(mirror, c, args);
        return typeof m === "string" ? m : m.subject;
      },
    },
    {
      name: "mailsize",
      minArgs: 1,
      maxArgs: 1,
      help: {
        family: "game",
        args: "mailsize(<player>)",
        summary: "The size of a player's mailbox: the bytes of its messages' texts, " +
          "2 more for each, as MUX counts.",
        more: "Your own, or, for staff, anyone's.",
        example: { think: "mailsize(me)", gives: "0" },
      },
      call({ caller, player }, args) {
        if (!mirror) return NOT_HELD;
        const p = player(args[0]);
        if (!p) return "#-1 NO SUCH PLAYER";
        if (p.id !== caller.id && !isStaff(caller.flags)) return "#-1 PERMISSION DENIED";
        const enc = new TextEncoder();
        let size = 0;
        for (const m of mirror.box(p.id)) size += enc.encode(m.body).length + 2;
        return String(size);
      },
    },
  ];
}
