/**
 * The queue commands, with TinyMUX 2.12's semantics (docs/softcode.md, "The queue"): @trigger,
 * @force, @wait, @notify, @drain, @halt, @ps, @switch, @select, @dolist, @if/@ifelse, @break
 * and @assert. Action lists are kept as typed (braces stripped around them) and run later by
 * the queue, as the object whose list it is, with the line's `%0`-`%9` and registers.
 */
import type { CommandSdk, CommandSpec } from "../types.ts";
import type { DbObject } from "../../world/types.ts";
import { CommandError } from "../errors.ts";
import { EV, toWire } from "../../softcode/mod.ts";
import { scanTo } from "../../softcode/scan.ts";
import { AMBIGUOUS, found, matchThing } from "../../softcode/match.ts";
import { isReal, toReal, truthy } from "../../softcode/numbers.ts";
import { switchMatch } from "../../softcode/wild.ts";
import { upperAscii } from "../../softcode/compile.ts";
import { controls } from "../../world/control.ts";
import { isStaff } from "../../world/flags.ts";
import { ownerOf, type QueueListing } from "../../queue/queue.ts";
import type { QueueRequest, SemaphoreRef } from "../../queue/types.ts";
import { splitEquals } from "./softcode.ts";
import { inheritedAttr } from "../../world/attributes/inherit.ts";
import { tell } from "../sdk.ts";

/** Flags a command's evaluated arguments use (MUX's process_cmdent). */
const ARG_FLAGS = EV.EVAL | EV.STRIP_CURLY | EV.FCHECK | EV.TOP;

const COMMA = 0x2c;
const SPACE = 0x20;
const DENIED = "Permission denied.";
const SEMAPHORE = "SEMAPHORE";
/** Most entries `@ps` lists in each part (the totals count them all). */
const PS_MAX = 200;
/** Longest command text `@ps` shows of an entry. */
const PS_WIDTH = 60;

/** An action list as MUX keeps it: one level of braces around the whole removed. */
export function stripAround(text: string): string {
  const t = text.trim();
  return t.startsWith("{") && closesAtEnd(t) ? t.slice(1, -1) : t;
}

/** True when the `{` at 0 is closed by the last character. */
function closesAtEnd(t: string): boolean {
  let level = 0;
  for (let i = 0; i < t.length; i++) {
    const c = t[i];
    if (c === "%" || c === "\\") {
      i++;
      continue;
    }
    if (c === "{") level++;
    else if (c === "}" && --level === 0) return i === t.length - 1;
  }
  return false;
}

/** The comma-separated arguments of MUX's CS_ARGV, each as typed (braces kept). */
export function splitArgv(text: string): string[] {
  const out: string[] = [];
  let pos = 0;
  for (;;) {
    const hit = scanTo(text, pos, COMMA, -1);
    out.push(text.slice(pos, hit ? hit.end : text.length).trim());
    if (!hit) return out;
    pos = hit.end + 1;
  }
}

/**
 * The items of @dolist's list as MUX splits them: at each `delim` outside braces and brackets,
 * runs of it skipped, each item's braces around it removed.
 */
export function dolistItems(list: string, delim: string): string[] {
  const code = delim.charCodeAt(0);
  const out: string[] = [];
  let pos = 0;
  while (pos < list.length) {
    while (list[pos] === delim) pos++;
    if (pos >= list.length) break;
    const hit = scanTo(list, pos, code, -1);
    const end = hit ? hit.end : list.length;
    out.push(stripAround(list.slice(pos, end)));
    pos = end + 1;
  }
  return out;
}

/** An object named in a command, as the actor sees it, or a clear error. */
function matchObject(u: CommandSdk, name: string): DbObject {
  const world = u.softcode.ports.world;
  const id = matchThing(world, u.me.id, name);
  if (id === AMBIGUOUS) throw new CommandError("I don't know which one you mean!");
  const obj = found(id) ? world.object(id) : null;
  if (!obj) throw new CommandError("I don't see that here.");
  return obj;
}

/** True when the actor may use `obj`'s semaphores: it controls it, or `obj` is link_ok. */
function maySemaphore(u: CommandSdk, obj: DbObject): boolean {
  return controls(u.me, obj, u.locks) || obj.flags.includes("link_ok");
}

/** An attribute's value with parents (MUX's atr_pget), or null. */
function actionOf(u: CommandSdk, id: string, name: string): string | null {
  return inheritedAttr(u.softcode.inherit, id, name)?.attr.value ?? null;
}

/** Queues an action list from this line (its chain, arguments and registers by default). */
function enqueue(u: CommandSdk, req: Partial<QueueRequest> & { action: string }): number | null {
  const r = u.queue.enqueue({
    executor: u.me.id,
    enactor: u.frame.enactor,
    caller: u.frame.caller,
    args: u.frame.args,
    regs: u.frame.regs,
    chain: u.frame.chain,
    ...req,
  });
  if ("pid" in r) return r.pid;
  if (r.told !== ownerOf(u.me)) u.send(r.refused);
  return null;
}

/**
 * Runs an action list now (`/now`, `/inline`) as `executor` with the line's registers, or says
 * why not. A `@break` inside stops it without stopping the line around it; answers whether it
 * broke (so `@dolist/now` stops its turns, as MUX's does).
 */
async function runNow(
  u: CommandSdk,
  executor: string,
  action: string,
  frame: Partial<Pick<CommandSdk["frame"], "enactor" | "caller" | "args">> = {},
): Promise<boolean> {
  const inner = {
    enactor: frame.enactor ?? u.frame.enactor,
    caller: frame.caller ?? u.frame.caller,
    args: frame.args ?? u.frame.args,
    regs: u.frame.regs,
    chain: u.frame.chain,
    broken: false,
    depth: u.frame.depth + 1,
    inline: u.frame.inline,
  };
  const stopped = await u.queue.runInline(executor, action, inner);
  if (stopped === null) return inner.broken;
  // The line around it stops too; told to the owner (the object deepest in seldom hears).
  u.frame.broken = true;
  if (!u.frame.inline.told) {
    u.frame.inline.told = true;
    tell(u, ownerOf(u.me), { msg: stopped });
  }
  return true;
}

/** MUX's `quiet` flag: the object is not told "Triggered.", "Notified." and the like. */
function quiet(o: DbObject): boolean {
  return o.flags.includes("quiet");
}

/** `/now` is for staff, as MUX's wizard-only switch. */
function wantsNow(u: CommandSdk): boolean {
  if (!u.cmd.switches.includes("now")) return false;
  if (!isStaff(u.me.flags)) throw new CommandError(`${u.cmd.name}/now is for staff. ${DENIED}`);
  return true;
}

/** `<obj>[/<attr>]` of @notify and @drain: the semaphore named. */
function semaphoreOf(u: CommandSdk, ref: string): { obj: DbObject; sem: SemaphoreRef } {
  const at = ref.indexOf("/");
  const obj = matchObject(u, at < 0 ? ref : ref.slice(0, at));
  if (!maySemaphore(u, obj)) throw new CommandError(DENIED);
  const attr = semaphoreAttr(u, obj, at < 0 ? "" : ref.slice(at + 1).trim());
  return { obj, sem: { object: obj.id, attr } };
}

/**
 * The attribute a semaphore of `obj` keeps its count in: `name` (upper case), else SEMAPHORE.
 * Its count is written there as the object, so naming another attribute needs control, as MUX
 * asks Set_attr of it: past `link_ok` anyone could otherwise overwrite the object's DESC or its
 * `$-commands` with a count, or fill its owner's attribute quota with names.
 */
function semaphoreAttr(u: CommandSdk, obj: DbObject, name: string): string {
  const attr = upperAscii(name) || SEMAPHORE;
  if (!/^[A-Z0-9_.\-~`!@$^&*+|?<>']{1,64}$/.test(attr)) {
    throw new CommandError("Invalid attribute.");
  }
  if (attr !== SEMAPHORE && !controls(u.me, obj, u.locks)) throw new CommandError(DENIED);
  return attr;
}

/** `@wait`'s time: seconds from now, or from the epoch with /until. */
function waitSeconds(u: CommandSdk, text: string): number {
  const n = toReal(text);
  if (!u.cmd.switches.includes("until")) return n;
  return n - Date.now() / 1000;
}

/** A name and dbref as @ps shows them. */
function shown(u: CommandSdk, id: string): string {
  const o = u.softcode.ports.world.object(id);
  return o ? `${o.name}(#${o.id})` : `#${id}`;
}

/** One @ps line. */
function psLine(u: CommandSdk, e: QueueListing, long: boolean): string {
  const wait = e.waitSeconds === null ? "" : `[${e.waitSeconds}]`;
  const sem = e.semaphore
    ? `[#${e.semaphore.object}${e.semaphore.attr === SEMAPHORE ? "" : "/" + e.semaphore.attr}]`
    : "";
  // Shown as queued: a % in the command is not read as colour.
  const cut = e.action.length > PS_WIDTH ? e.action.slice(0, PS_WIDTH) + "..." : e.action;
  let line = `[${e.pid}]${sem}${wait}${shown(u, e.executor)}:${toWire(cut)}`;
  if (long) {
    const args = e.args.map((a, i) => `%%${i}='${toWire(a)}'`).join(" ");
    line += `\n    Enactor: ${shown(u, e.enactor)}${args ? `  Arguments: ${args}` : ""}`;
  }
  return line;
}

/** The queue commands. */
export const commands: CommandSpec[] = [
  {
    name: "@trigger",
    aliases: ["@tr"],
    category: "Softcode",
    switches: ["quiet", "notify", "now"],
    help: `@trigger[/<switch>] <object>/<attribute>[=<arg0>[,<arg1>]...]

Runs the action list stored in <attribute> of <object> (or of its parents) as that object,
with you as the enactor (%#) and the arguments as %0 to %9. The list is queued: it runs
after the command you typed, in the order things were queued. You must control <object>.

Switches:
  /quiet    no "Triggered." message
  /notify   @notify <object> once the list has run
  /now      run the list at once, inside this command (staff)

Examples:
  &greet box=@emit Hello, %0!;@emit Welcome to [name(here)].
  @trigger box/greet=Alice`,
    async exec(u) {
      const { lhs, rhs } = splitEquals(u.cmd.args);
      const ref = u.evaluate(lhs, ARG_FLAGS);
      const at = ref.indexOf("/");
      if (at < 1) throw new CommandError("Usage: @trigger <object>/<attribute>[=<args>]");
      const obj = matchObject(u, ref.slice(0, at));
      if (!controls(u.me, obj, u.locks)) throw new CommandError(DENIED);
      const action = actionOf(u, obj.id, upperAscii(ref.slice(at + 1).trim()));
      if (action === null) throw new CommandError("No match.");
      // No `=` is one empty argument, as MUX's argument list (%+ is 1).
      const args = rhs === null ? [""] : splitArgv(rhs).map((a) => u.evaluate(a, ARG_FLAGS));
      if (wantsNow(u)) {
        await runNow(u, obj.id, action, { enactor: u.me.id, caller: u.me.id, args });
      } else {
        const pid = enqueue(u, {
          executor: obj.id,
          enactor: u.me.id,
          caller: u.me.id,
          action,
          args,
        });
        if (pid === null) return;
        if (u.cmd.switches.includes("notify")) {
          enqueue(u, { action: `@notify/quiet #${obj.id}` });
        }
      }
      if (!u.cmd.switches.includes("quiet") && !quiet(u.me)) u.send("Triggered.");
    },
  },
  {
    name: "@force",
    category: "Softcode",
    switches: ["now"],
    help: `@force <object>=<command>

Makes <object> run <command> as if it had typed it, with you as the enactor (%#). The
command is evaluated by you first, then queued for <object>. You must control <object>:
your own objects, but a player (even your own character) only from an object with the
inherit flag, or by staff. A line #<dbref> <command> is short for @force #<dbref>=<command>
(MUX's), so #12 say Hello! makes #12 say it.

Switches:
  /now   run it at once, inside this command (staff)

Examples:
  @force box=say Hello!
  #12 say Hello!
  @force box={@emit One;@emit Two}`,
    async exec(u) {
      const { lhs, rhs } = splitEquals(u.cmd.args);
      if (rhs === null || !lhs) throw new CommandError("Usage: @force <object>=<command>");
      const obj = matchObject(u, u.evaluate(lhs, ARG_FLAGS));
      if (!controls(u.me, obj, u.locks)) throw new CommandError(DENIED);
      const action = u.evaluate(rhs, ARG_FLAGS);
      if (wantsNow(u)) await runNow(u, obj.id, action, { enactor: u.me.id });
      else enqueue(u, { executor: obj.id, enactor: u.me.id, action });
    },
  },
  {
    name: "@wait",
    category: "Softcode",
    switches: ["until"],
    help: `@wait[/until] <seconds>=<action list>
@wait <object>[/<seconds>]=<action list>
@wait <object>/<attribute>=<action list>

Runs <action list> later: after <seconds> (fractions allowed; with /until, at that time in
seconds since 1970), or when <object>'s semaphore is notified (@notify), or after <seconds>
if it is not notified first. Waits of a second or more are kept across @reboot and a full
stop and run once; shorter ones (@wait 0= is common, to order output) are kept in memory.
Waiting on an object's semaphore needs control of it (or its link_ok flag); naming an
attribute other than SEMAPHORE needs control.

Examples:
  @wait 5=say Five seconds later.
  @wait me=say Notified!
  @wait box/30=say Notified, or thirty seconds passed.`,
    exec(u) {
      const { lhs, rhs } = splitEquals(u.cmd.args);
      if (rhs === null || !lhs) throw new CommandError("Usage: @wait <seconds>=<action list>");
      const event = u.evaluate(lhs, ARG_FLAGS).trim();
      const action = stripAround(rhs);
      if (isReal(event)) {
        enqueue(u, { action, delay: Math.max(0, waitSeconds(u, event)) });
        return;
      }
      const at = event.indexOf("/");
      const obj = matchObject(u, at < 0 ? event : event.slice(0, at));
      if (!maySemaphore(u, obj)) throw new CommandError(DENIED);
      const rest = at < 0 ? "" : event.slice(at + 1).trim();
      let attr = SEMAPHORE;
      let delay = 0;
      if (isReal(rest)) delay = Math.max(0, waitSeconds(u, rest));
      else if (rest) attr = semaphoreAttr(u, obj, rest);
      // A wait on a semaphore with no timeout stays in memory (MUX's semaphores do too).
      enqueue(u, { action, delay, semaphore: { object: obj.id, attr } });
    },
  },
  {
    name: "@notify",
    category: "Softcode",
    switches: ["all", "first", "quiet"],
    help: `@notify[/<switch>] <object>[/<attribute>][=<count>]

Notifies <object>'s semaphore: the first <count> (default 1) action lists waiting on it
(@wait <object>=...) run. Notified more often than there are waiters, the next @waits on it
run at once until the count is used up. You must control <object> (or it is link_ok; then
only its SEMAPHORE attribute).

Switches:
  /first   the first <count> waiters (the default)
  /all     every waiter, and the count starts again from zero
  /quiet   no "Notified." message

Example:
  @wait me=say Go!
  @notify me`,
    exec(u) {
      const { lhs, rhs } = splitEquals(u.cmd.args);
      if (!lhs) throw new CommandError("Usage: @notify <object>[/<attribute>][=<count>]");
      const { obj, sem } = semaphoreOf(u, u.evaluate(lhs, ARG_FLAGS));
      const countText = rhs === null ? "" : u.evaluate(rhs, ARG_FLAGS).trim();
      const count = countText ? Math.floor(toReal(countText)) : 1;
      if (!(count > 0)) return;
      u.queue.notify(sem, { count, all: u.cmd.switches.includes("all") });
      if (!u.cmd.switches.includes("quiet") && !quiet(obj) && !quiet(u.me)) u.send("Notified.");
    },
  },
  {
    name: "@drain",
    category: "Softcode",
    help: `@drain <object>[/<attribute>]

Discards every action list waiting on <object>'s semaphore and resets its count. You must
control <object> (or it is link_ok; then only its SEMAPHORE attribute).

Example:
  @drain me`,
    exec(u) {
      const ref = u.evaluate(splitEquals(u.cmd.args).lhs, ARG_FLAGS);
      if (!ref) throw new CommandError("Usage: @drain <object>[/<attribute>]");
      const { sem } = semaphoreOf(u, ref);
      u.queue.notify(sem, { drain: true });
      if (!quiet(u.me)) u.send("Drained.");
    },
  },
  {
    name: "@halt",
    category: "Softcode",
    switches: ["all", "pid"],
    help: `@halt [<object>]
@halt/pid <pid>
@halt/all

Stops queued action lists at once: with no <object>, everything your objects have queued
(an object halting itself: its own); a player: everything that player's objects have
queued; any other object: what it has queued. The action list running now stops after its
current command. Waits on a semaphore an object holds are not affected (see @drain).

Switches:
  /pid   one entry, by the number @ps shows
  /all   every entry of every player (staff)

Example:
  @halt
  @halt box`,
    exec(u) {
      const arg = u.evaluate(u.cmd.args, ARG_FLAGS).trim();
      const staff = isStaff(u.me.flags);
      const report = (n: number) => {
        if (quiet(u.me)) return;
        tell(u, ownerOf(u.me), { msg: `${n} queue entr${n === 1 ? "y" : "ies"} removed.` });
      };
      if (u.cmd.switches.includes("pid")) {
        const pid = Number(arg);
        if (!Number.isInteger(pid) || pid <= 0) throw new CommandError("Usage: @halt/pid <pid>");
        const world = u.softcode.ports.world;
        const ok = u.queue.haltPid(pid, (e) => {
          const o = world.object(e.executor);
          return staff || (!!o && controls(u.me, o, u.locks)) || e.owner === ownerOf(u.me);
        });
        if (!ok) throw new CommandError("No such queue entry of yours.");
        return report(1);
      }
      if (u.cmd.switches.includes("all")) {
        if (!staff) throw new CommandError(DENIED);
        if (arg) throw new CommandError("Can't specify a target and /all");
        return report(u.queue.halt({}));
      }
      if (!arg) {
        const me = u.me;
        return report(
          u.queue.halt(me.flags.includes("player") ? { owner: ownerOf(me) } : { object: me.id }),
        );
      }
      const obj = matchObject(u, arg);
      if (!staff && !controls(u.me, obj, u.locks)) throw new CommandError(DENIED);
      report(
        u.queue.halt(obj.flags.includes("player") ? { owner: obj.id } : { object: obj.id }),
      );
    },
  },
  {
    name: "@ps",
    category: "Softcode",
    switches: ["all", "summary", "long", "brief"],
    help: `@ps[/<switch>] [<object>]

Lists the action lists waiting in the queue: yours (everything your objects queued), or one
<object>'s. Each line shows the entry's number (for @halt/pid), the semaphore it waits on
[#dbref], the seconds left for a timed wait [12], the object and the command.

Switches:
  /brief     the default
  /long      also the enactor and arguments of each
  /summary   only the totals
  /all       every player's entries (staff)

Example:
  @ps
  @ps/long box`,
    exec(u) {
      const arg = u.evaluate(u.cmd.args, ARG_FLAGS).trim();
      const sw = u.cmd.switches;
      const staff = isStaff(u.me.flags);
      if (sw.includes("all") && !staff) throw new CommandError(DENIED);
      let want: (e: QueueListing) => boolean;
      if (arg) {
        const obj = matchObject(u, arg);
        if (!staff && !controls(u.me, obj, u.locks)) throw new CommandError(DENIED);
        want = obj.flags.includes("player")
          ? (e) => e.owner === obj.id
          : (e) => e.executor === obj.id;
      } else if (sw.includes("all")) {
        want = () => true;
      } else {
        const owner = ownerOf(u.me);
        want = (e) => e.owner === owner;
      }
      const all = u.queue.list();
      const mine = all.filter(want);
      const lines: string[] = [];
      const groups: [string, (e: QueueListing) => boolean][] = [
        ["Queue", (e) => e.where === "ready" || e.where === "running"],
        ["Wait Queue", (e) => e.where === "timed"],
        ["Semaphore Queue", (e) => e.where === "semaphore"],
      ];
      const totals: string[] = [];
      for (const [title, of] of groups) {
        const shownHere = mine.filter(of);
        totals.push(`${title}...[${shownHere.length}/${all.filter(of).length}]`);
        if (sw.includes("summary")) continue;
        lines.push(`${title}:`);
        for (const e of shownHere.slice(0, PS_MAX)) lines.push(psLine(u, e, sw.includes("long")));
        if (shownHere.length > PS_MAX) lines.push(`...and ${shownHere.length - PS_MAX} more.`);
      }
      lines.push(`Totals: ${totals.join("  ")}`);
      if (!arg && !sw.includes("all")) {
        const owner = ownerOf(u.me);
        lines.push(`Your limit: ${u.queue.waitingFor(owner)} of ${u.queue.quotaFor(owner)}.`);
      }
      u.send(lines.join("\n"));
    },
  },
  {
    name: "@switch",
    category: "Softcode",
    switches: ["all", "first", "notify", "now"],
    help: `@switch[/<switch>] <string>=<pattern1>,<action1>[,<pattern2>,<action2>]...[,<default>]

Compares <string> (evaluated) with each pattern (evaluated; wildcards * and ?, or <n and >n
to compare numbers) and queues the action list of every pattern that matches, or <default>
when none does. #$ in an action list stands for <string>. Put an action list with commas
or semicolons in braces: {@emit One;@emit Two}.

Switches:
  /all      every matching action list (the default for @switch)
  /first    only the first that matches (what @select does)
  /notify   @notify the object once the lists have run
  /now      run the lists at once, inside this command (staff)

Example:
  @switch [rand(3)]=0,say Zero.,1,{say One;say Still one.},say Two.`,
    exec(u) {
      return switchCommand(u, u.cmd.switches.includes("first"));
    },
  },
  {
    name: "@select",
    category: "Softcode",
    switches: ["all", "first", "notify", "now"],
    help: `@select[/<switch>] <string>=<pattern1>,<action1>[,<pattern2>,<action2>]...[,<default>]

@switch that runs only the first matching action list (@switch/first); /all makes it run
every match. See help @switch.

Example:
  @select %0=>10,say Big.,>5,say Medium.,say Small.`,
    exec(u) {
      return switchCommand(u, !u.cmd.switches.includes("all"));
    },
  },
  {
    name: "@dolist",
    category: "Softcode",
    switches: ["delimit", "space", "notify", "now"],
    help: `@dolist[/<switch>] [<delimiter>] <list>=<action list>

Queues <action list> once for each item of <list> (evaluated; items separated by spaces),
with ## replaced by the item and #@ by its position (from 1). The items together must fit
your queue limit (see @ps); a longer list is refused whole, with nothing queued.

Switches:
  /delimit  the first character of <list> is the delimiter, then a space, then the list
  /space    items separated by spaces (the default)
  /notify   @notify the object once every item has run
  /now      run each item at once, inside this command (staff)

Examples:
  @dolist [lcon(here)]=@pemit ##=Hello, [name(##)].
  @dolist/delimit , red,green,blue=say Colour #@: ##`,
    async exec(u) {
      const { lhs, rhs } = splitEquals(u.cmd.args);
      if (rhs === null) throw new CommandError("Usage: @dolist <list>=<action list>");
      let list = u.evaluate(lhs, ARG_FLAGS);
      let delim = " ";
      if (u.cmd.switches.includes("delimit")) {
        const hit = scanTo(list, 0, SPACE, -1);
        const given = stripAround(list.slice(0, hit ? hit.end : list.length));
        if (given.length > 1) throw new CommandError("The delimiter must be a single character!");
        delim = given || " ";
        list = hit ? list.slice(hit.end + 1) : "";
      }
      const items = dolistItems(list, delim);
      if (!items.length) {
        throw new CommandError("That's terrific, but what should I do with the list?");
      }
      const action = stripAround(rhs);
      const now = wantsNow(u);
      const owner = ownerOf(u.me);
      const room = u.queue.quotaFor(owner) - u.queue.waitingFor(owner);
      if (!now && items.length > room) {
        throw new CommandError(
          `@dolist: ${items.length} items would pass your queue limit ` +
            `(${u.queue.quotaFor(owner)} entries, ${room} free). Nothing was queued.`,
        );
      }
      for (let i = 0; i < items.length; i++) {
        const one = action.replaceAll("##", items[i]).replaceAll("#@", String(i + 1));
        if (now) {
          if (await runNow(u, u.me.id, one)) break;
        } else if (enqueue(u, { action: one }) === null) return;
      }
      if (u.cmd.switches.includes("notify") && !now) {
        enqueue(u, { action: `@notify/quiet #${u.me.id}` });
      }
    },
  },
  {
    name: "@if",
    aliases: ["@ifelse"],
    category: "Softcode",
    help: `@if <condition>=<if true>[,<if false>]
@ifelse <condition>=<if true>[,<if false>]

Queues <if true> when <condition> (evaluated) is true: a number other than 0, a dbref
other than #-1, or other text that is not blank; else <if false>, when given.

Example:
  @if [gt(%0,10)]=say Big.,say Small.`,
    exec(u) {
      const { lhs, rhs } = splitEquals(u.cmd.args);
      if (rhs === null) throw new CommandError("Usage: @if <condition>=<if true>[,<if false>]");
      const branches = splitArgv(rhs).map(stripAround);
      const chosen = truthy(u.evaluate(lhs, ARG_FLAGS)) ? branches[0] : branches[1];
      if (chosen) enqueue(u, { action: chosen });
    },
  },
  {
    name: "@break",
    category: "Softcode",
    switches: ["inline", "queued"],
    help: `@break[/<switch>] <condition>[=<action list>]

In an action list, stops the commands after it when <condition> is true (see @if for what
is true). What earlier commands queued still runs. With <action list>, that runs instead of
the rest: queued (the default), or at once with /inline.

Example:
  &check box=@break [not(%0)]=say Nothing to do.;say Working on %0.`,
    exec(u) {
      return breakCommand(u, true);
    },
  },
  {
    name: "@assert",
    category: "Softcode",
    switches: ["inline", "queued"],
    help: `@assert[/<switch>] <condition>[=<action list>]

In an action list, stops the commands after it when <condition> is false (@break's
opposite). With <action list>, that runs instead of the rest: queued (the default), or at
once with /inline.

Example:
  &pay box=@assert [gte(%0,1)]=say Pay at least 1.;say Thank you.`,
    exec(u) {
      return breakCommand(u, false);
    },
  },
];

/** @switch and @select: queue (or run) the action list of each match, or the default. */
async function switchCommand(u: CommandSdk, firstOnly: boolean): Promise<void> {
  const { lhs, rhs } = splitEquals(u.cmd.args);
  if (rhs === null) throw new CommandError(`Usage: ${u.cmd.name} <string>=<pattern>,<action>...`);
  const value = u.evaluate(lhs, ARG_FLAGS);
  const parts = splitArgv(rhs);
  const now = wantsNow(u);
  const chosen: string[] = [];
  let i = 0;
  // Matching is paid for as the line's evaluation is: one case of an 8,000-character value can
  // take 200 ms, and a line holds hundreds of cases.
  u.softcode.metered({ executor: u.me.id, enactor: u.me.id }, (more) => {
    for (; i + 1 < parts.length; i += 2) {
      if (switchMatch(u.evaluate(parts[i], ARG_FLAGS), value, more)) {
        chosen.push(parts[i + 1]);
        if (firstOnly) break;
      }
    }
  });
  if (!chosen.length && i < parts.length && parts.length % 2 === 1) {
    chosen.push(parts[parts.length - 1]);
  }
  for (const raw of chosen) {
    const action = stripAround(raw).replaceAll("#$", value);
    if (now) {
      if (await runNow(u, u.me.id, action) && u.frame.broken) return;
    } else if (enqueue(u, { action }) === null) return;
  }
  if (u.cmd.switches.includes("notify") && !now) {
    enqueue(u, { action: `@notify/quiet #${u.me.id}` });
  }
}

/** @break (`when` true) and @assert (`when` false). */
async function breakCommand(u: CommandSdk, when: boolean): Promise<void> {
  const { lhs, rhs } = splitEquals(u.cmd.args);
  if (truthy(u.evaluate(lhs, ARG_FLAGS)) !== when) return;
  u.frame.broken = true;
  if (rhs === null || !rhs.trim()) return;
  const action = stripAround(rhs);
  if (u.cmd.switches.includes("inline")) await runNow(u, u.me.id, action);
  else enqueue(u, { action });
}
