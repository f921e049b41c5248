/**
 * Softcode's `mail()`, in TinyMUX 2.12's four forms, over the mailboxes in memory (mirror.ts):
 * a message number is its place in the inbox, oldest first, as `@mail` lists it. This engine's
 * mail has no cleared state: the third count is always 0.
 */
import { hasFlag, isStaff, type PluginFunctionSpec } from "../../src/plugins/mod.ts";
import type { MailMirror } from "./mirror.ts";

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
      if (!mirror) return "#-1 MAIL IS NOT HELD IN MEMORY ON THIS GAME";
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
