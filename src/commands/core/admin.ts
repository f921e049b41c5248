/**
 * Staff commands on players and ownership: @set, @boot, @toad,
 * @newpassword, @resettoken, @chown, @moniker. Each action writes its security-log entry.
 */
import type { CommandSdk, CommandSpec } from "../types.ts";
import type { DbObject } from "../../world/types.ts";
import type { SecurityEvent } from "../../auth/security_log.ts";
import { changeOwnPassword, endSessions, type OwnPasswordDeps } from "../../auth/revoke.ts";
import { controls, mayActOn } from "../../world/access.ts";
import { ownerOf } from "../../world/control.ts";
import { FLAG_LEVELS_TABLE } from "../../world/flag_levels.ts";
import {
  canonicalFlag,
  flagChangeProblem,
  hasFlag,
  isStaff,
  UNKNOWN_FLAG,
} from "../../world/flags.ts";
import { monikerSpells } from "../../world/names.ts";
import { passwordProblem } from "../../auth/passwords.ts";
import { stripColour } from "../../text/colour.ts";
import { CommandError } from "../errors.ts";
import { findPlayer, orSay } from "../target.ts";
import { needConnection } from "../sdk.ts";
import { normalizeId } from "../../world/ids.ts";
import { repairObject } from "../../world/repair.ts";
import { NotFoundError } from "../../errors.ts";
import { setAttributeFlagForm, setAttributeForm, splitObjAttr } from "./attributes.ts";
import { actionAttr } from "../did_it.ts";
import { type EarsPorts, tellEars } from "../../world/ears.ts";
import { hearer } from "../move.ts";

/** admin, wizard or superuser (all at level 9 or more). */
const STAFF_LOCK = "admin+";
const FLAG_RE = /^[a-z0-9_-]{1,32}$/i;
/** Longest moniker, colour codes included. */
const MAX_MONIKER = 200;

function log(u: CommandSdk, event: SecurityEvent, target: string | null, detail?: string) {
  void u.engine.securityLog.write(event, {
    actor: u.me.id,
    target,
    ip: u.conn?.ip ?? null,
    detail,
  });
}

/** What ending a player's sessions needs: the engine's accounts and tokens, and who is online. */
function sessionControl(u: CommandSdk): OwnPasswordDeps {
  const { accounts, loginFailures, accountFailures, securityLog, tokens } = u.engine;
  return { accounts, loginFailures, accountFailures, securityLog, tokens, presence: u.presence };
}

function outranked(target: DbObject): CommandError {
  return new CommandError(`Permission denied: ${target.name} is staff of your rank or higher.`);
}

function needRhs(u: CommandSdk, usage: string): string {
  if (u.cmd.rhs === null || !u.cmd.lhs) throw new CommandError(`Usage: ${usage}`);
  return u.cmd.rhs;
}

/** A rank flag (builder, admin, ...), which staff set by rank rather than by control. */
function isPermissionFlag(flag: string): boolean {
  return Object.hasOwn(FLAG_LEVELS_TABLE, flag);
}

/**
 * `@set`'s flag words as MUX's flag_set reads them: separated by spaces, each `[!]<flag>`, a `!`
 * standing apart from its flag or alone (`! dark`, `!`). The line's length bounds their number.
 */
function flagWords(rhs: string): { clear: boolean; word: string }[] {
  const words: { clear: boolean; word: string }[] = [];
  const parts = rhs.trim().split(/\s+/);
  for (let i = 0; i < parts.length; i++) {
    let word = parts[i];
    const clear = word.startsWith("!");
    if (clear) word = word.slice(1) || (parts[i + 1] !== undefined ? parts[++i] : "");
    words.push({ clear, word });
  }
  return words;
}

/** Why one flag word of `@set` may not change `target` (MUX's words where it has them), or null. */
function flagProblem(
  u: CommandSdk,
  target: DbObject,
  word: string,
  clear: boolean,
  controlled: boolean,
): string | null {
  if (!word) return clear ? "You must specify a flag to clear." : "You must specify a flag to set.";
  const flag = canonicalFlag(word);
  if (!FLAG_RE.test(flag)) return UNKNOWN_FLAG;
  const permission = isPermissionFlag(flag);
  const problem = flagChangeProblem(u.me.flags, flag, target.flags);
  if (problem) {
    if (permission) log(u, "ADMIN_SET_FLAG", target.id, `refused ${clear ? "!" : ""}${flag}`);
    return problem;
  }
  if (permission) {
    if (!target.flags.includes("player")) return `Only players can have the ${flag} flag.`;
    if (!mayActOn(u.me, target)) return outranked(target).message;
    return null;
  }
  if (!controlled) return "Permission denied.";
  if (flag === "inherit" && !isStaff(u.me.flags) && ownerOf(u.me) !== ownerOf(target)) {
    // Control through a zone is not ownership: inherit would lend the owner's powers to
    // code the zone's controller writes (docs/softcode.md, "Zones").
    return "Only the owner may set or clear inherit.";
  }
  return null;
}

/** What telling of ears (MUX's handle_ears) reads, from a command. */
function earsPorts(u: CommandSdk): EarsPorts {
  return {
    deliver: u.deliver,
    world: () => u.objects.world,
    sexOf: (id) => actionAttr(u, id, "SEX")?.value ?? "",
  };
}

/** The admin family. */
export const commands: CommandSpec[] = [
  {
    name: "@set",
    category: "Admin",
    help: `@set <target>=<flag> [<flag>...]     sets flags ("Set." for each)
@set <target>=!<flag>                clears it ("Cleared.")
@set <target>=<attribute>:<value>    sets an attribute (as &<attribute>; empty clears it)
@set <target>/<attribute>=[!]<flag>  sets or clears a flag of an attribute

Permission flags: superuser cannot be set in-game; admin and wizard are set by the
superuser; storyteller and builder by an admin. Other flags can be set by whoever controls
the object: dark, haven, opaque, quiet, safe, sticky, transparent, unfindable, ic, ooc, halt
(or halted), monitor (on a player: staff), no_command, visual, parent_ok, inherit (only a
player, or an object that has inherit), puppet, enter_ok, auditorium, jump_ok, open_ok (see
'help @lock'). Attribute flags: visual, hidden (staff), wizard (staff),
locked, no_command, no_inherit, no_name, no_parse, regexp, case, trace, html.

Examples:
  @set Bob=builder
  @set Bob=!builder
  @set lantern=dark
  @set me=finger:Tall and quiet.
  @set me/finger=visual`,
    async exec(u) {
      if (!u.cmd.lhs) throw new CommandError("Usage: @set <target>=[!]<flag>");
      const rhs = u.cmd.rhs ?? "";
      // MUX's attribute forms: <obj>/<attr>=[!]<flag>, and <obj>=<attr>:<value> (no flag
      // name holds a colon).
      const { obj: objRef, attr } = splitObjAttr(u.cmd.lhs);
      if (attr !== null) return await setAttributeFlagForm(u, objRef, attr, rhs);
      if (rhs.includes(":")) return await setAttributeForm(u, u.cmd.lhs, rhs);
      const target = await u.target(u.cmd.lhs);
      const words = flagWords(rhs);
      const controlled = controls(u.me, target, u.locks);
      // MUX asks control before it reads a flag (match_controlled); a permission flag is the
      // exception here, since staff rank, not control, decides it (and says why it refuses).
      if (!controlled && !words.some((w) => isPermissionFlag(canonicalFlag(w.word)))) {
        throw new CommandError("Permission denied.");
      }
      const flags = [...target.flags];
      const replies: string[] = [];
      const changed: { flag: string; clear: boolean }[] = [];
      for (const { clear, word } of words) {
        const problem = flagProblem(u, target, word, clear, controlled);
        if (problem) {
          replies.push(problem);
          continue;
        }
        const flag = canonicalFlag(word);
        // MUX answers a flag already as asked like any other change (`Cleared.`): installers
        // clear HALT and NO_COMMAND on objects they just made, and expect no complaint.
        if (hasFlag(flags, flag) === clear) {
          if (clear) flags.splice(flags.findIndex((f) => f.toLowerCase() === flag), 1);
          else flags.push(flag);
          changed.push({ flag, clear });
        }
        // MUX's Quiet(player), asked after the change: `@set me=quiet` is itself quiet.
        if (!hasFlag(target.id === u.me.id ? flags : u.me.flags, "quiet")) {
          replies.push(clear ? "Cleared." : "Set.");
        }
      }
      if (changed.length > 0) {
        // MUX's fh_hear_bit, before the answers: a thing that comes to hear (`puppet`, `monitor`
        // with a `^-listen`), or stops, says so; a player's flags do not (MUX's Hearer() of one
        // is its connection).
        const could = hearer(u, target);
        const after = await u.objects.update(target.id, (o) => {
          for (const { flag, clear } of changed) {
            o.flags = clear ? o.flags.filter((f) => f.toLowerCase() !== flag) : [...o.flags, flag];
          }
        });
        if (!hasFlag(after.flags, "player") && hearer(u, after) !== could) {
          tellEars(earsPorts(u), after, !could);
        }
      }
      if (replies.length > 0) u.send(replies.join("\n"));
      for (const { flag, clear } of changed) {
        log(u, "ADMIN_SET_FLAG", target.id, `${clear ? "!" : ""}${flag}`);
        if (isPermissionFlag(flag) && target.id !== u.me.id) {
          u.deliver.toPlayer(target.id, {
            msg: `${u.me.name} ${clear ? "removed the" : "gave you the"} ${flag} flag${
              clear ? " from you" : ""
            }.`,
          });
        }
      }
    },
  },
  {
    name: "@boot",
    lock: STAFF_LOCK,
    category: "Admin",
    help: `@boot <player>

Disconnects every connection of a player and ends its sessions: no saved token of theirs
works any more, so they must log in again with their password. Admin, wizard or superuser.`,
    async exec(u) {
      const target = await findPlayer(u, u.me, u.cmd.args);
      if (target.id === u.me.id) throw new CommandError("You can't boot yourself.");
      if (!mayActOn(u.me, target)) throw outranked(target);
      if (!u.presence.isOnline(target.id)) {
        throw new CommandError(`${target.name} is not connected.`);
      }
      log(u, "ADMIN_BOOT", target.id);
      // Its tokens end too: a booted player's client cannot resume, nor mint a new token.
      await endSessions(sessionControl(u), target.id, `You have been booted by ${u.me.name}.`);
      u.send(`You booted ${target.name}.`);
    },
  },
  {
    name: "@toad",
    lock: STAFF_LOCK,
    category: "Admin",
    help: `@toad <player>

Turns a player into a plain thing: the player flag and permission flags go, the login
is removed (the name becomes free) and every connection is closed. The toad stays where
it was, owned by you. Never works on the superuser. Admin, wizard or superuser.`,
    async exec(u) {
      const target = await findPlayer(u, u.me, u.cmd.args);
      if (hasFlag(target.flags, "superuser")) {
        throw new CommandError("The superuser cannot be toaded.");
      }
      if (target.id === u.me.id) throw new CommandError("You can't toad yourself.");
      if (!mayActOn(u.me, target)) throw outranked(target);
      // The login first: from here on the player cannot log in again, nor use a token.
      await u.engine.accounts.removeLogin(target.id);
      await u.objects.update(target.id, (o) => {
        o.flags = [
          ...o.flags.filter((f) => f !== "player" && !Object.hasOwn(FLAG_LEVELS_TABLE, f)),
          "thing",
        ];
        o.owner = u.me.id;
      });
      log(u, "ADMIN_TOAD", target.id);
      u.presence.disconnect(target.id, `You have been turned into a toad by ${u.me.name}.`);
      u.send(`You turned ${target.name} into a toad.`);
    },
  },
  {
    name: "@newpassword",
    lock: STAFF_LOCK,
    category: "Admin",
    help: `@newpassword <player>=<password>

Sets a player's password directly (8 to 512 characters). Every session of the player ends:
their connections close and no saved token of theirs works any more. Your own password
(@newpassword me=<password>) ends your other sessions; this one goes on. Admin, wizard or
superuser.`,
    async exec(u) {
      const password = needRhs(u, "@newpassword <player>=<password>");
      const target = await findPlayer(u, u.me, u.cmd.lhs);
      if (!mayActOn(u.me, target)) throw outranked(target);
      const problem = passwordProblem(password);
      if (problem) throw new CommandError(`That password won't do: ${problem}.`);
      if (target.id === u.me.id) {
        await changeOwnPassword(sessionControl(u), needConnection(u), password, null);
      } else {
        await u.engine.accounts.setPassword(target.id, password);
        u.engine.accountFailures.release(target.id);
        u.presence.disconnect(target.id, `Your password has been changed by ${u.me.name}.`);
      }
      log(u, "ADMIN_NEWPASSWORD", target.id);
      u.send(`Password for ${target.name} changed.`);
    },
  },
  {
    name: "@resettoken",
    lock: STAFF_LOCK,
    category: "Admin",
    help: `@resettoken <player>

Creates a one-hour, single-use password reset token for a player and shows it to you
alone. The player submits it with a new password to POST /api/v1/auth/reset-password.
Admin, wizard or superuser.`,
    async exec(u) {
      const target = await findPlayer(u, u.me, u.cmd.args);
      if (!mayActOn(u.me, target)) throw outranked(target);
      const token = await u.engine.accounts.issueResetToken(target.id, u.me.id);
      log(u, "ADMIN_RESETTOKEN", target.id);
      // The token goes to the asking connection only, never to the room or other sessions.
      needConnection(u).send({
        msg: `Reset token for ${target.name} (valid for one hour, single use): ${token}`,
        data: { type: "resettoken", player: { id: target.id, name: target.name }, token },
      });
    },
  },
  {
    name: "@chown",
    lock: STAFF_LOCK,
    category: "Admin",
    help: `@chown <object>=<player>

Gives an object to another owner. Players always own themselves. Admin, wizard or
superuser.

Example:
  @chown lantern=Bob`,
    async exec(u) {
      const who = needRhs(u, "@chown <object>=<player>");
      // MUX's do_chown's words for what matches nothing.
      const obj = await orSay(u.target(u.cmd.lhs), "You don't have that!");
      if (obj.flags.includes("player")) throw new CommandError("Players always own themselves.");
      const owner = await u.players.find(who.trim(), u.me);
      if (!owner) throw new CommandError("I couldn't find that player.");
      if (obj.owner === owner.id) throw new CommandError(`${owner.name} already owns that.`);
      await u.objects.update(obj.id, (o) => {
        o.owner = owner.id;
      });
      log(u, "ADMIN_CHOWN", obj.id, `#${obj.owner || "?"} -> #${owner.id}`);
      u.send(`${obj.name}(#${obj.id}) now belongs to ${owner.name}.`);
    },
  },
  {
    name: "@moniker",
    lock: STAFF_LOCK,
    category: "Admin",
    help: `@moniker <player>=<colour-coded name>

Sets the colour-coded display name shown in speech, poses and who. It must spell the
player's name (colour codes aside); an empty value clears it. Admin, wizard or superuser.

Example:
  @moniker Bob=%crB%cyo%cgb%cn`,
    async exec(u) {
      const moniker = needRhs(u, "@moniker <player>=<display name>");
      const target = await findPlayer(u, u.me, u.cmd.lhs);
      if (moniker.length > MAX_MONIKER) {
        throw new CommandError(`Monikers must be ${MAX_MONIKER} characters or fewer.`);
      }
      if (moniker && !monikerSpells(moniker, target.name)) {
        throw new CommandError(
          `A moniker must spell the name '${target.name}' (colour codes aside).`,
        );
      }
      await u.objects.update(target.id, (o) => {
        if (moniker) o.data.moniker = moniker;
        else delete o.data.moniker;
      });
      log(u, "ADMIN_MONIKER", target.id, moniker ? stripColour(moniker) : "cleared");
      u.send(
        moniker
          ? `Moniker for ${target.name} set to: ${moniker}%cn`
          : `Moniker for ${target.name} cleared.`,
      );
    },
  },
  {
    name: "@repair",
    lock: STAFF_LOCK,
    category: "Admin",
    help: `@repair <#dbref>

Rebuilds an object whose stored record can no longer be read (the server log names it:
"unreadable value at ["obj","12"]"). Such an object is skipped everywhere: it is not in
its room, lookups do not find it, and a player in that state cannot log in. @repair
writes a minimal readable record from what the indexes still know - its name (in lower
case), flags, location, owner and an exit's destination - so it shows up again and
@destroy, @toad, @name, @set and @teleport work on it. Its description and other data
are lost. An object that reads fine is left alone. Admin, wizard or superuser.

Example:
  @repair #12`,
    async exec(u) {
      const arg = u.cmd.args.trim();
      const id = arg.startsWith("#") ? normalizeId(arg) : null;
      if (!id) throw new CommandError("Usage: @repair <#dbref>");
      let r;
      try {
        r = await repairObject({ objects: u.objects, securityLog: u.engine.securityLog }, id, {
          actor: u.me.id,
          ip: u.conn?.ip ?? null,
        });
      } catch (e) {
        if (e instanceof NotFoundError) throw new CommandError(`There is no object #${id}.`);
        throw e;
      }
      if (!r.object) return u.send(`#${id} reads fine; there is nothing to repair.`);
      u.send(
        `Repaired: ${r.detail}. Its description and data were lost; @name, @describe, ` +
          `@destroy or @toad it as it needs.`,
      );
    },
  },
];
