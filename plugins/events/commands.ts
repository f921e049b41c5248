/**
 * In-game commands of the events plugin: players browse and RSVP (`+event`, `+event/list`,
 * `/view`, `/rsvp`, `/unrsvp`); staff create, edit, cancel, delete and set the status. Dates
 * are read and shown in the game's time zone.
 */
import {
  CommandError,
  type CommandSdk,
  type CommandSpec,
  isStaff,
  padVisible,
  ValidationError,
} from "../../src/plugins/mod.ts";
import { type EventService, label } from "./service.ts";
import { endOf, type EventChanges, type RsvpStatus } from "./types.ts";
import { parseDate } from "./time.ts";
import * as check from "./validate.ts";

/** Events shown per `+event/list` page. */
const PER_PAGE = 20;

const PLAYER_SWITCHES = ["list", "view", "rsvp", "unrsvp"];
const STAFF_SWITCHES = ["create", "edit", "cancel", "delete", "status"];

/** The `+event` command. */
export function eventCommands(svc: EventService): CommandSpec[] {
  return [{
    name: "+event",
    aliases: ["+events"],
    guests: ["", "list", "view"],
    switches: [...PLAYER_SWITCHES, ...STAFF_SWITCHES],
    category: "events",
    help: "+event/list, +event/view <#>, +event/rsvp <#>[=attending|maybe|decline], " +
      "+event/unrsvp <#>; staff: +event/create, /edit, /cancel, /delete, /status. " +
      "See 'help events'.",
    async exec(u) {
      const sw = u.cmd.switches[0] ?? (/^#?\d+$/.test(u.cmd.args.trim()) ? "view" : "list");
      if (STAFF_SWITCHES.includes(sw) && !isStaff(u.me.flags)) {
        throw new CommandError("Only staff can do that.");
      }
      try {
        await run(svc, u, sw);
      } catch (e) {
        // Store and rule errors carry player-ready messages; map them to command errors.
        if (e instanceof Error && "status" in e && !(e instanceof CommandError)) {
          throw new CommandError(e.message);
        }
        throw e;
      }
    },
  }];
}

async function run(svc: EventService, u: CommandSdk, sw: string): Promise<void> {
  switch (sw) {
    case "list":
      return await list(svc, u);
    case "view":
      return await viewOne(svc, u);
    case "rsvp": {
      const ev = await svc.byNumber(
        num(u.cmd.lhs, "+event/rsvp <#>[=attending|maybe|decline]"),
        u.me,
        true,
      );
      const status = rsvpWord(u.cmd.rhs);
      await svc.rsvp(ev, u.me, status);
      return u.send(`You RSVP ${status} to ${label(ev)}.`);
    }
    case "unrsvp": {
      const ev = await svc.byNumber(num(u.cmd.args, "+event/unrsvp <#>"), u.me, true);
      await svc.unrsvp(ev, u.me);
      return u.send(`You withdraw your RSVP to ${label(ev)}.`);
    }
    case "create":
      return await create(svc, u);
    case "edit":
      return await edit(svc, u);
    case "cancel": {
      const ev = await svc.byNumber(num(u.cmd.args, "+event/cancel <#>"), u.me);
      if (ev.status === "cancelled") throw new CommandError(`${label(ev)} is already cancelled.`);
      await svc.update(ev.id, { status: "cancelled" });
      return u.send(`${label(ev)} is cancelled.`);
    }
    case "delete": {
      const ev = await svc.byNumber(num(u.cmd.args, "+event/delete <#>"), u.me);
      await svc.remove(ev.id);
      return u.send(`${label(ev)} is deleted, with its RSVPs.`);
    }
    case "status": {
      const usage = "+event/status <#>=upcoming|active|completed|cancelled";
      const ev = await svc.byNumber(num(u.cmd.lhs, usage), u.me);
      if (!u.cmd.rhs) throw new CommandError(`Usage: ${usage}`);
      const after = await svc.update(ev.id, { status: check.status(u.cmd.rhs) });
      return u.send(`${label(ev)} is now ${after.status}.`);
    }
  }
}

async function list(svc: EventService, u: CommandSdk): Promise<void> {
  const arg = u.cmd.args.trim();
  if (arg && !/^[1-9]\d{0,4}$/.test(arg)) throw new CommandError("Usage: +event/list [<page>]");
  const n = arg ? Number(arg) : 1;
  const events = await svc.store.list("open", { limit: PER_PAGE + 1, offset: (n - 1) * PER_PAGE });
  if (!events.length) {
    return u.send(n === 1 ? "No upcoming events." : `No events on page ${n}.`);
  }
  const shown = events.slice(0, PER_PAGE);
  const [views, mine] = await Promise.all([
    svc.views(shown),
    svc.store.mine(shown.map((e) => e.id), u.me.id),
  ]);
  const rows = views.map((ev, i) => {
    const seats = ev.maxAttendees
      ? `${ev.rsvpCounts.attending}/${ev.maxAttendees}`
      : `${ev.rsvpCounts.attending}`;
    return `${padVisible(`#${ev.number}`, 5)} ${padVisible(ev.title, 28)} ${
      padVisible(svc.when(ev.startTime), 25)
    } ${padVisible(ev.status, 8)} ${padVisible(seats, 9, "right")}  ${mine[i]?.status ?? ""}`;
  });
  u.send(
    [
      `%ch${padVisible("#", 5)} ${padVisible("Event", 28)} ${padVisible("Starts", 25)} ${
        padVisible("Status", 8)
      } ${padVisible("Attending", 9, "right")}  You%cn`,
      ...rows,
      ...(events.length > PER_PAGE ? [`More: +event/list ${n + 1}`] : []),
      `Times are ${svc.zone}. +event/view <#> for details, +event/rsvp <#> to attend.`,
    ].join("\n"),
    {
      type: "events",
      // The list's rows, not whole events: descriptions are read one event at a time.
      events: views.map(({ description: _d, ...rest }, i) => ({
        ...rest,
        mine: mine[i]?.status ?? null,
      })),
    },
  );
}

async function viewOne(svc: EventService, u: CommandSdk): Promise<void> {
  const ev = await svc.byNumber(num(u.cmd.args, "+event/view <#>"), u.me);
  const d = await svc.detail(ev);
  const by = (s: string) => d.rsvps.filter((r) => r.status === s).map((r) => r.name);
  const seats = d.maxAttendees
    ? `${d.rsvpCounts.attending} of ${d.maxAttendees}`
    : `${d.rsvpCounts.attending}`;
  const lines = [
    `%ch${label(d)}%cn  [${d.status}]`,
    `Starts:    ${svc.when(d.startTime)}`,
    `Ends:      ${svc.when(endOf(d))}${d.endTime === null ? " (3 hours after the start)" : ""}`,
    ...(d.location ? [`Location:  ${d.location}`] : []),
    ...(d.tags.length ? [`Tags:      ${d.tags.join(", ")}`] : []),
    `Organizer: ${d.createdByName}`,
    `Attending: ${seats}${by("attending").length ? ` (${by("attending").join(", ")})` : ""}`,
    ...(by("maybe").length ? [`Maybe:     ${by("maybe").join(", ")}`] : []),
    ...(by("declined").length ? [`Declined:  ${by("declined").join(", ")}`] : []),
    "",
    d.description || "(no description)",
  ];
  u.send(lines.join("\n"), { type: "event", event: d });
}

async function create(svc: EventService, u: CommandSdk): Promise<void> {
  const usage = "Usage: +event/create <title>=<date>[ <HH:MM>]/<description> " +
    "(date: YYYY-MM-DD, today, tomorrow or a weekday)";
  const title = u.cmd.lhs;
  if (!title || u.cmd.rhs === null) throw new CommandError(usage);
  const slash = u.cmd.rhs.indexOf("/");
  const dateText = (slash === -1 ? u.cmd.rhs : u.cmd.rhs.slice(0, slash)).trim();
  const description = slash === -1 ? "" : u.cmd.rhs.slice(slash + 1).trim();
  const startTime = date(svc, dateText);
  const input = {
    title: check.text(title, "title", check.MAX_TITLE, true),
    description: check.text(description, "description", check.MAX_DESCRIPTION, false),
    startTime,
  };
  const ev = await svc.create(input, u.me);
  u.send(`Event ${label(ev)} created for ${svc.when(ev.startTime)}.`);
}

async function edit(svc: EventService, u: CommandSdk): Promise<void> {
  const usage = "Usage: +event/edit <#>/<field>=<value> (fields: title, description, location, " +
    "startTime, endTime, tags, maxAttendees, status)";
  const m = /^#?(\d+)\s*\/\s*([a-z]+)$/i.exec(u.cmd.lhs);
  if (!m || u.cmd.rhs === null) throw new CommandError(usage);
  const ev = await svc.byNumber(Number(m[1]), u.me);
  const field = check.EDIT_FIELDS.find((f) => f.toLowerCase() === m[2].toLowerCase());
  if (!field) throw new CommandError(usage);
  const value = u.cmd.rhs;
  const changes: EventChanges = {};
  switch (field) {
    case "title":
      changes.title = check.text(value, "title", check.MAX_TITLE, true);
      break;
    case "description":
      changes.description = check.text(value, "description", check.MAX_DESCRIPTION, false);
      break;
    case "location":
      changes.location = check.text(value, "location", check.MAX_LOCATION, false);
      break;
    case "startTime":
      changes.startTime = date(svc, value);
      break;
    case "endTime":
      changes.endTime = /^(|none|clear)$/i.test(value.trim()) ? null : date(svc, value);
      break;
    case "tags":
      changes.tags = check.tags(value);
      break;
    case "maxAttendees":
      changes.maxAttendees = check.maxAttendees(value);
      break;
    case "status":
      changes.status = check.status(value);
      break;
  }
  const after = await svc.update(ev.id, changes);
  const shown = field === "startTime" || (field === "endTime" && after.endTime !== null)
    ? svc.when(after[field] as number)
    : Array.isArray(after[field])
    ? (after[field] as string[]).join(", ")
    : String(after[field] ?? "(none)");
  // A time moved into the past is allowed (a record kept straight), but said out loud.
  const time = field === "startTime" ? after.startTime : field === "endTime" ? after.endTime : null;
  const past = time !== null && time < svc.now() ? " Note: that time is in the past." : "";
  u.send(`${label(after)}: ${field} set to ${shown || "(empty)"}.${past}`);
}

/** A date in the game's zone, or a clear refusal. */
function date(svc: EventService, text: string): number {
  const ms = parseDate(text, svc.zone, svc.now());
  if (ms === null) {
    throw new ValidationError(
      `'${text.slice(0, 40)}' is not a date: use YYYY-MM-DD, today, tomorrow or a weekday, ` +
        `with an optional HH:MM (${svc.zone}).`,
    );
  }
  return check.time(ms, "the date");
}

/** An event number (`3` or `#3`), or the usage. */
function num(text: string, usage: string): number {
  const m = /^#?(\d{1,9})$/.exec(text.trim());
  if (!m) throw new CommandError(`Usage: ${usage}`);
  return Number(m[1]);
}

/** An RSVP word; `decline` is the command's word for `declined`. */
function rsvpWord(text: string | null): RsvpStatus {
  const w = (text ?? "attending").trim().toLowerCase();
  if (w === "" || w === "attending" || w === "attend" || w === "yes") return "attending";
  if (w === "maybe") return "maybe";
  if (w === "decline" || w === "declined" || w === "no") return "declined";
  throw new CommandError("RSVP with attending, maybe or decline.");
}
