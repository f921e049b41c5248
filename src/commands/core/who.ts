/** `who`, `@doing` and `+where`: who is connected, what they are doing, and where they are. */
import type { CommandSdk, CommandSpec } from "../types.ts";
import type { PlayerCard } from "../../hub/types.ts";
import { visibleOnline } from "../../hub/online.ts";
import { padVisible, stripColour, visibleLength, wrapText } from "../../text/colour.ts";
import { clampWidth, onFor, shortDuration } from "../format.ts";
import { displayName } from "../../world/players.ts";
import { hasFlag, isStaff } from "../../world/flags.ts";
import { CommandError } from "../errors.ts";
import { MAX_DOING } from "../limits.ts";
import { counted } from "../../text/plural.ts";
import { confirm } from "../confirm.ts";

/** The doing column's header until staff set one. */
export const DOING_HEADER = "Doing";
/** Narrowest doing column worth showing; a narrower screen drops the column. */
const MIN_DOING_WIDTH = 8;

/** A one-line `@doing` text or header, or a clear refusal. */
function doingText(raw: string, what: string): string {
  const text = raw.trim();
  if (/[\r\n]|%r/i.test(text)) throw new CommandError(`Your ${what} must be one line.`);
  if (visibleLength(text) > MAX_DOING) {
    throw new CommandError(`Your ${what} must be ${MAX_DOING} characters or fewer.`);
  }
  return text;
}

/** The doing column's header: staff's `@doing/header`, else `Doing` (from memory, no read). */
function doingHeader(u: CommandSdk): string {
  return u.engine.doingHeader.value || DOING_HEADER;
}

/** `@doing/header` and `@poll`: sets the doing column's header (staff), or clears it. */
async function setHeader(u: CommandSdk, raw: string): Promise<void> {
  if (!isStaff(u.me.flags)) throw new CommandError("Only staff can set the header.");
  const text = doingText(raw, "header");
  await u.engine.doingHeader.set(text || null);
  u.send(text ? `Poll set: ${text}%cn` : `Poll cleared: the header is Doing again.`);
}

/** True when `viewer` may learn where `p` is: not unfindable, or the viewer is staff or `p`. */
function findable(viewer: CommandSdk["me"], p: PlayerCard): boolean {
  return p.id === viewer.id || isStaff(viewer.flags) || !hasFlag(p.flags, "unfindable");
}

/** The who family. */
export const commands: CommandSpec[] = [
  {
    name: "who",
    guests: true,
    category: "Information",
    help: `who

Lists the connected players with how long they have been on, how long they have been
idle, and what they are doing (@doing).`,
    exec(u) {
      const now = Date.now();
      // Everything but the header comes from the hub's memory: no database read per player.
      const rows = [];
      for (const p of visibleOnline(u.presence, u.me)) {
        // The oldest connection and the least idle one, as idle() and conn() read them.
        const since = u.presence.connectedSince(p.id) ?? now;
        const last = u.presence.lastInput(p.id) ?? now;
        rows.push({ p, on: Math.max(0, now - since), idle: Math.max(0, now - last) });
      }
      const w = clampWidth(u.width);
      const nameW = Math.max(10, Math.min(24, w - 18));
      const doingW = w - nameW - 18 - 2;
      const doing = doingW >= MIN_DOING_WIDTH;
      const line = (name: string, on: string, idle: string, what: string) => {
        const base = `${padVisible(name, nameW)} ${padVisible(on, 10, "right")} ${
          padVisible(idle, 5, "right")
        }`;
        return doing && what ? `${base}  ${padVisible(what, doingW).trimEnd()}` : base;
      };
      const header = doing ? doingHeader(u) : "";
      const out = [`%ch${line("Player Name", "On For", "Idle", header)}%cn`];
      for (const r of rows) {
        out.push(line(displayName(r.p), onFor(r.on), shortDuration(r.idle), r.p.doing));
      }
      const n = rows.length;
      out.push(`${counted(n, "player")} connected.`);
      u.send(out.join("\n"), {
        type: "who",
        header: header || DOING_HEADER,
        players: rows.map((r) => ({
          id: r.p.id,
          name: r.p.name,
          moniker: displayName(r.p),
          onFor: Math.floor(r.on / 1000),
          idle: Math.floor(r.idle / 1000),
          doing: r.p.doing,
        })),
      });
    },
  },
  {
    name: "@doing",
    guests: true,
    switches: ["header", "poll"],
    category: "Information",
    help: `@doing <message>        sets what you are doing, shown beside your name in who
@doing                  clears it
@doing/poll             shows the doing column's header
@doing/header <text>    sets that header (staff; empty puts back 'Doing')

Colour codes are allowed; at most ${MAX_DOING} characters, one line. A narrow screen cuts
the message short in who. Your message stays until you change it.

Example:
  @doing Looking for a scene`,
    async exec(u) {
      const sw = u.cmd.switches[0];
      if (sw === "poll") return u.send(`Poll: ${doingHeader(u)}`);
      if (sw === "header") return await setHeader(u, u.cmd.args);
      const text = doingText(u.cmd.args, "doing message");
      await u.objects.update(u.me.id, (o) => {
        if (text) o.data.doing = text;
        else delete o.data.doing;
      });
      // MUX's word, set or cleared (who shows the text).
      confirm(u, "Set.");
    },
  },
  {
    name: "@poll",
    category: "Information",
    help: `@poll [<text>]

Sets the header of the doing column of who (staff), as @doing/header does; with no
text, puts back 'Doing'. Softcode reads it with poll().`,
    exec: (u) => setHeader(u, u.cmd.args),
  },
  {
    name: "+where",
    guests: true,
    category: "Information",
    help: `+where

Lists where the connected players are, by place. Players set unfindable (@set me=unfindable)
are left out, and so is everyone in a room set dark or unfindable; staff see them all, marked.`,
    async exec(u) {
      const staff = isStaff(u.me.flags);
      const players = visibleOnline(u.presence, u.me);
      const roomOf = new Map(players.map((p) => [p.id, u.presence.roomOf(p.id) ?? ""]));
      const roomIds = [...new Set(roomOf.values())].filter(Boolean);
      // One batched read for the distinct rooms; the players come from the hub's memory.
      const rooms = new Map((await u.objects.getMany(roomIds)).map((r) => [r.id, r]));
      const places = new Map<string, { name: string; hidden: boolean; who: PlayerCard[] }>();
      let unfindable = 0;
      for (const p of players) {
        const room = rooms.get(roomOf.get(p.id) ?? "");
        const hiddenRoom = !!room &&
          (hasFlag(room.flags, "dark") || hasFlag(room.flags, "unfindable"));
        const hiddenPlayer = !findable(u.me, p);
        const mine = p.id === u.me.id;
        if ((hiddenRoom && !staff && !mine) || hiddenPlayer) {
          unfindable++;
          continue;
        }
        const key = room?.id ?? "";
        const place = places.get(key) ??
          { name: room ? room.name : "Nowhere", hidden: hiddenRoom, who: [] };
        place.who.push(p);
        places.set(key, place);
      }
      const w = clampWidth(u.width);
      const placeW = Math.max(12, Math.min(30, Math.floor(w / 3)));
      const namesW = Math.max(10, w - placeW - 1);
      const out = [`%ch${padVisible("Location", placeW)} Players%cn`];
      const sorted = [...places.values()].sort((a, b) =>
        stripColour(a.name).localeCompare(stripColour(b.name))
      );
      for (const place of sorted) {
        const label = place.hidden ? `${place.name} (hidden)` : place.name;
        const names = place.who.map((p) =>
          `${displayName(p)}${hasFlag(p.flags, "unfindable") ? " (unfindable)" : ""}`
        );
        const [first, ...rest] = wrapText(names.join(", "), namesW).split("\n");
        out.push(`${padVisible(label, placeW)} ${first}`);
        for (const more of rest) out.push(`${" ".repeat(placeW)} ${more}`);
      }
      const shown = players.length - unfindable;
      out.push(
        `${counted(shown, "player")} in ${counted(sorted.length, "place")}${
          unfindable ? `; ${unfindable} unfindable` : ""
        }.`,
      );
      u.send(out.join("\n"), {
        type: "where",
        places: sorted.map((place) => ({
          name: place.name,
          hidden: place.hidden,
          players: place.who.map((p) => ({ id: p.id, name: p.name, moniker: displayName(p) })),
        })),
        unfindable,
      });
    },
  },
];
