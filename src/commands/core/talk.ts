/** Talking: say, pose, semipose, @emit, whisper, page (think is with the softcode commands). */
import { lockOf } from "../../world/locks.ts";
import { actionAttr, evaluateAs } from "../did_it.ts";
import type { CommandSdk, CommandSpec } from "../types.ts";
import type { ObjectHead } from "../../world/types.ts";
import type { OutboundData } from "../../hub/types.ts";
import type { SpeechKind } from "../../plugins/hooks.ts";
import { hasFlag, isStaff } from "../../world/flags.ts";
import { ownerOf } from "../../world/control.ts";
import { CommandError } from "../errors.ts";
import { joinList } from "../format.ts";
import { quote } from "../target.ts";
import { displayName, splitNames } from "../../world/players.ts";

/** Most recipients of one page. */
const MAX_PAGE_TARGETS = 20;

/**
 * Counts a page against `game.pagesPerMinute` of the player who pays for it (the pager, or the
 * player owning a thing: MUX's Owner()); staff are not held. Throws when it is spent. Typed lines
 * have the hub's budget, but a queue runs as fast as the CPU allows: `@dolist lnum(99)=page ...`
 * typed ten times a second put a thousand pages a second before up to 20 players each.
 */
async function pageRate(u: CommandSdk): Promise<void> {
  const max = u.engine.config.value.game.pagesPerMinute;
  if (!(max > 0)) return;
  const id = ownerOf(u.me);
  const payer = id === u.me.id ? u.me : await u.objects.get(id);
  if (payer && isStaff(payer.flags)) return;
  const wait = u.rates.take(`page\u0000${id}`, max);
  if (wait > 0) {
    throw new CommandError(
      `You are paging too fast: at most ${max} pages a minute (try again in ${
        Math.ceil(wait / 1000)
      } s).`,
    );
  }
}

function from(me: ObjectHead) {
  return { id: me.id, name: me.name, moniker: displayName(me) };
}

function inRoom(u: CommandSdk): string {
  if (!u.here) throw new CommandError("There is no one here to hear you.");
  return u.here.id;
}

/**
 * The place `say`, `pose` and `@emit` speak in, when the actor may speak there: in a place set
 * `auditorium`, only who passes its speech lock (MUX's sp_ok).
 */
function speakingIn(u: CommandSdk): string {
  const id = inRoom(u);
  const here = u.here!;
  if (hasFlag(here.flags, "auditorium") && !u.passes(lockOf(here, "speech"), id)) {
    throw new CommandError("Sorry, you may not speak in this place.");
  }
  return id;
}

/**
 * Speech in a room, the one place it happens: the room hears `msg` (but `exclude`), then
 * plugins hear of it on `room:speech` (scenes log it).
 */
function speak(
  u: CommandSdk,
  roomId: string,
  kind: SpeechKind,
  msg: string,
  data: OutboundData,
  exclude: readonly string[] = [],
): void {
  u.emitRoom(roomId, msg, exclude, data);
  void u.events.emit("room:speech", {
    actorId: u.me.id,
    actorName: u.me.name,
    roomId,
    // What was said as the room shows it (evaluated where the game evaluates player text).
    text: typeof data.text === "string" ? data.text : u.cmd.args,
    kind,
    msg,
  });
}

/**
 * MUX's page_return: `target`'s AWAY, IDLE or REJECT attribute (by `tag`), evaluated as the target
 * with the pager as enactor, is told to the pager as "<tag> message from <target>: <text>" and
 * the target is told it went; without the attribute the pager is told `dflt` (if any). An
 * attribute that evaluates to nothing says nothing.
 */
function pageReturn(u: CommandSdk, target: ObjectHead, tag: string, dflt: string | null): void {
  const a = actionAttr(u, target.id, tag.toUpperCase());
  if (!a) {
    if (dflt) u.send(dflt);
    return;
  }
  const text = evaluateAs(u, target.id, u.me.id, a.value);
  if (!text) return;
  u.send(`${tag} message from ${displayName(target)}: ${text}`);
  const now = new Date();
  const at = `${now.getHours()}:${String(now.getMinutes()).padStart(2, "0")}`;
  u.deliver.toPlayer(target.id, { msg: `[${at}] ${tag} message sent to ${displayName(u.me)}.` });
}

/** Seconds since the player last typed on its least idle connection (MUX's fetch_idle). */
function idleSeconds(u: CommandSdk, id: string): number {
  const last = u.presence.lastInput(id);
  return last === null ? 0 : Math.max(0, Math.floor((Date.now() - last) / 1000));
}

/**
 * Finds page recipients: the exact name of a connected player (from the hub's memory), else
 * any player by name, alias or dbref (one batched read for the whole list, so an offline one
 * is reported as such), else a unique prefix of a connected player's name.
 */
async function recipients(u: CommandSdk, list: string): Promise<ObjectHead[]> {
  const names = splitNames(list);
  if (!names.length) throw new CommandError("Page whom? Usage: page <player>=<message>");
  if (names.length > MAX_PAGE_TARGETS) {
    throw new CommandError(`You can page at most ${MAX_PAGE_TARGETS} players at once.`);
  }
  const lowerOf = (n: string) => n.replace(/^\*/, "").toLowerCase();
  // An exact name is found in the hub's index: no walk over every connected player.
  const exact = names.map((n) => u.presence.playerCardByName(lowerOf(n)) ?? null);
  let online: ObjectHead[] | null = null;
  // Only the names not found in memory are read, all in one batch.
  const { each } = await u.players.findMany(names.map((n, i) => exact[i] ? "" : n), u.me);
  const out: ObjectHead[] = [];
  for (const [i, n] of names.entries()) {
    const lower = lowerOf(n);
    let p: ObjectHead | null = exact[i] ?? each[i];
    if (!p && lower && n.length <= 64) {
      // A prefix (an abbreviated name nobody has in full) is the one case that walks them.
      online ??= u.presence.onlinePlayers().map((id) => u.presence.playerCard(id)).filter((c) =>
        !!c
      );
      const hits = online.filter((o) => o.name.toLowerCase().startsWith(lower));
      if (hits.length > 1) {
        throw new CommandError(
          `I don't know which one you mean: ${hits.slice(0, 10).map((o) => o.name).join(", ")}.`,
        );
      }
      p = hits[0] ?? null;
    }
    if (!p || !p.flags.includes("player")) {
      throw new CommandError(`I don't recognize a player named '${quote(n)}'.`);
    }
    if (!out.some((o) => o.id === p!.id)) out.push(p);
  }
  return out;
}

/**
 * Finds whisper recipients: players in the actor's room, by name, alias or dbref (one batched
 * read), else by a unique prefix of the name of a connected player in the room. Someone known
 * but elsewhere, or not connected, is refused by name, as page does.
 */
async function nearby(u: CommandSdk, roomId: string, list: string): Promise<ObjectHead[]> {
  const names = splitNames(list);
  if (!names.length) throw new CommandError("Whisper to whom? Usage: whisper <player>=<message>");
  if (names.length > MAX_PAGE_TARGETS) {
    throw new CommandError(`You can whisper to at most ${MAX_PAGE_TARGETS} players at once.`);
  }
  const { each } = await u.players.findMany(names, u.me);
  let present: ObjectHead[] | null = null;
  const out: ObjectHead[] = [];
  for (const [i, n] of names.entries()) {
    let p: ObjectHead | null = each[i];
    if (!p && n.length <= 64) {
      present ??= u.presence.playersIn(roomId).map((id) => u.presence.playerCard(id)).filter((c) =>
        !!c
      );
      const lower = n.toLowerCase();
      const hits = present.filter((o) => o.name.toLowerCase().startsWith(lower));
      if (hits.length > 1) {
        throw new CommandError(
          `I don't know which one you mean: ${hits.slice(0, 10).map((o) => o.name).join(", ")}.`,
        );
      }
      p = hits[0] ?? null;
    }
    if (!p || !p.flags.includes("player")) {
      throw new CommandError(`I don't recognize a player named '${quote(n)}'.`);
    }
    if (p.id === u.me.id) throw new CommandError("You can't whisper to yourself.");
    if (!u.presence.isOnline(p.id)) throw new CommandError(`${p.name} is not connected.`);
    if (u.presence.roomOf(p.id) !== roomId) throw new CommandError(`${p.name} is not here.`);
    if (!out.some((o) => o.id === p!.id)) out.push(p);
  }
  return out;
}

/** The talk family. */
export const commands: CommandSpec[] = [
  {
    name: "say",
    guests: true,
    category: "Communication",
    help: `say <message>   or   "<message>

Says something to everyone in the room.

Softcode ([functions], %-substitutions) in the text you type is evaluated only on games that
turn on softcode.evaluatePlayerText; otherwise it shows as typed. An object's queued or forced
line is always evaluated, as on MUX. See 'help think'.

Example:
  say Hello there!
  "Hello there!`,
    exec(u) {
      if (!u.cmd.args.trim()) throw new CommandError("Say what?");
      const room = speakingIn(u);
      const text = u.playerText(u.cmd.args);
      const data = { type: "say", from: from(u.me), text };
      u.send(`You say, "${text}%cn"`, data);
      speak(u, room, "say", `${displayName(u.me)} says, "${text}%cn"`, data, [u.me.id]);
    },
  },
  {
    name: "pose",
    guests: true,
    category: "Communication",
    help: `pose <action>   or   :<action>

Shows your name followed by the action to everyone in the room.

Softcode ([functions], %-substitutions) in the text you type is evaluated only on games that
turn on softcode.evaluatePlayerText; otherwise it shows as typed. An object's queued or forced
line is always evaluated, as on MUX. See 'help think'.

Example:
  :waves.        (everyone sees: Alice waves.)`,
    exec(u) {
      if (!u.cmd.args.trim()) throw new CommandError("Pose what?");
      const room = speakingIn(u);
      const text = u.playerText(u.cmd.args);
      const msg = `${displayName(u.me)} ${text}`;
      speak(u, room, "pose", msg, { type: "pose", from: from(u.me), text });
    },
  },
  {
    name: "semipose",
    guests: true,
    category: "Communication",
    help: `semipose <text>   or   ;<text>

Like pose, but with no space after your name.

Softcode ([functions], %-substitutions) in the text you type is evaluated only on games that
turn on softcode.evaluatePlayerText; otherwise it shows as typed. An object's queued or forced
line is always evaluated, as on MUX. See 'help think'.

Example:
  ;'s cat purrs.   (everyone sees: Alice's cat purrs.)

In TinTin++, type \\; for the semicolon (see 'help clients').`,
    exec(u) {
      if (!u.cmd.args.trim()) throw new CommandError("Pose what?");
      const room = speakingIn(u);
      const text = u.playerText(u.cmd.args);
      const msg = `${displayName(u.me)}${text}`;
      const data = { type: "pose", from: from(u.me), text, semipose: true };
      speak(u, room, "semipose", msg, data);
    },
  },
  {
    name: "@emit",
    category: "Communication",
    help: `@emit <text>   or   \\<text>

Shows the text, without your name, to everyone in the room.

Softcode ([functions], %-substitutions) in the text you type is evaluated only on games that
turn on softcode.evaluatePlayerText; otherwise it shows as typed. An object's queued or forced
line is always evaluated, as on MUX. See 'help think'.

Example:
  @emit The wind howls through the trees.`,
    exec(u) {
      if (!u.cmd.args.trim()) throw new CommandError("Emit what?");
      const room = speakingIn(u);
      const text = u.playerText(u.cmd.args);
      speak(u, room, "emit", text, { type: "emit", from: from(u.me), text });
    },
  },
  {
    name: "whisper",
    aliases: ["w"],
    guests: true,
    category: "Communication",
    help: `whisper <player>[,<player>...]=<message>
whisper <player>=:<pose>      (or ;<pose>)

Says something privately to players in the same room; nobody else in the room hears it, nor
that you whispered.

Softcode ([functions], %-substitutions) in the text you type is evaluated only on games that
turn on softcode.evaluatePlayerText; otherwise it shows as typed. An object's queued or forced
line is always evaluated, as on MUX. See 'help think'.

Examples:
  whisper Bob=Meet me outside.          (Bob sees: Alice whispers "Meet me outside.")
  whisper Bob,Carol=:winks.             (they see: You sense Alice winks.)`,
    async exec(u) {
      if (u.cmd.rhs === null) throw new CommandError("Usage: whisper <player>=<message>");
      if (!u.cmd.rhs.trim()) throw new CommandError("Whisper what?");
      const raw = u.playerText(u.cmd.rhs);
      const to = await nearby(u, inRoom(u), u.cmd.lhs);
      // `"` marks a plain whisper, as in MUX; `:` and `;` make it a pose.
      const pose = raw.startsWith(":") || raw.startsWith(";");
      const text = raw.startsWith('"') ? raw.slice(1) : raw;
      const body = raw.startsWith(":") ? ` ${raw.slice(1).trimStart()}` : raw.slice(1);
      const me = displayName(u.me);
      const names = joinList(to.map((p) => p.name));
      const data = {
        type: "whisper",
        from: from(u.me),
        to: to.map((p) => ({ id: p.id, name: p.name })),
        text: pose ? body.trim() : text,
        pose,
      };
      u.deliver.toPlayers(to.map((p) => p.id), {
        msg: pose ? `You sense ${me}${body}%cn` : `${me} whispers "${text}%cn"`,
        data,
      });
      u.send(
        pose
          ? `${names} ${to.length === 1 ? "senses" : "sense"} "${me}${body}%cn"`
          : `You whisper "${text}%cn" to ${names}.`,
        data,
      );
    },
  },
  {
    name: "page",
    aliases: ["p"],
    guests: true,
    category: "Communication",
    help: `page <player>[ <player>...]=<message>
page <player>=:<pose>

Sends a private message to connected players anywhere in the game (at most 20 a page).
A player and their objects may send game.pagesPerMinute pages a minute (60 unless the
game sets otherwise; staff are not held).

Softcode ([functions], %-substitutions) in the text you type is evaluated only on games that
turn on softcode.evaluatePlayerText; otherwise it shows as typed. An object's queued or forced
line is always evaluated, as on MUX. See 'help think'.

Examples:
  page Bob=Are you free for a scene?
  page Bob=:waves from across town.`,
    async exec(u) {
      if (u.cmd.rhs === null) throw new CommandError("Usage: page <player>=<message>");
      if (!u.cmd.rhs.trim()) throw new CommandError("Page what?");
      const text = u.playerText(u.cmd.rhs);
      const targets = await recipients(u, u.cmd.lhs);
      const offline = targets.filter((p) => !u.presence.isOnline(p.id));
      // MUX: a haven player, or one whose page lock the pager fails, takes no pages. (The
      // recipients may be the hub's cards, which hold no locks: the record is read for them.)
      const haven: typeof targets = [];
      for (const p of targets) {
        if (offline.includes(p)) continue;
        const lock = hasFlag(p.flags, "haven")
          ? null
          : lockOf(await u.objects.get(p.id) ?? p, "page");
        if (lock === null || !u.passes(lock, p.id)) haven.push(p);
      }
      const to = targets.filter((p) => !offline.includes(p) && !haven.includes(p));
      for (const p of offline) pageReturn(u, p, "Away", `${p.name} is not connected.`);
      for (const p of haven) pageReturn(u, p, "Reject", `${p.name} is not accepting pages.`);
      if (!to.length) return;
      await pageRate(u);
      const pose = text.startsWith(":") || text.startsWith(";");
      const body = text.startsWith(":") ? ` ${text.slice(1).trimStart()}` : text.slice(1);
      const me = displayName(u.me);
      const data = {
        type: "page",
        from: from(u.me),
        to: to.map((p) => ({ id: p.id, name: p.name })),
        text: pose ? body.trim() : text,
        pose,
      };
      // MUX's words (do_page): several recipients are named to each, in parentheses.
      const group = to.length > 1 ? `(${to.map((p) => p.name).join(", ")})` : "";
      const msg = pose
        ? group ? `From afar, to ${group}: ${me}${body}%cn` : `From afar, ${me}${body}%cn`
        : group
        ? `To ${group}, ${me} pages: ${text}%cn`
        : `${me} pages: ${text}%cn`;
      for (const p of to) u.deliver.toPlayer(p.id, { msg, data });
      // MUX: each recipient's @idle answers once it has been idle its IDLETIMEOUT (default 0).
      for (const p of to) {
        const timeout = Number(actionAttr(u, p.id, "IDLETIMEOUT")?.value ?? 0) || 0;
        if (idleSeconds(u, p.id) >= timeout) pageReturn(u, p, "Idle", null);
      }
      const names = group || to[0].name;
      u.send(
        pose
          ? `Long distance to ${names}: ${me}${body}%cn`
          : `You paged ${names} with '${text}%cn'`,
        data,
      );
    },
  },
];
