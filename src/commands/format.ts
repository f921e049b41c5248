/** Shared text helpers for command output: display names, lists, durations. */
import type { DbObject, ObjectHead } from "../world/types.ts";
import type { Cleared } from "../world/attributes/store.ts";
import { atLeast } from "../world/flags.ts";
import { controls } from "../world/access.ts";
import { wrapText } from "../text/colour.ts";
import { displayName } from "../world/players.ts";

import { exitName } from "../world/names.ts";
import { counted } from "../text/plural.ts";

export { exitName };

/** An object's name and dbref as builders' replies give it (`North(#12)`, an exit by its first name). */
export function nameWithRef(o: Pick<DbObject, "id" | "name" | "flags">): string {
  return `${o.flags.includes("exit") ? exitName(o) : o.name}(#${o.id})`;
}

/** Every name an object answers to, lower-cased: its name, `;` aliases and `data.aliases`. */
export function namesOf(obj: DbObject): string[] {
  const out = obj.name.split(";").map((s) => s.trim().toLowerCase()).filter(Boolean);
  const extra = obj.data?.aliases;
  if (Array.isArray(extra)) {
    for (const a of extra) if (typeof a === "string" && a.trim()) out.push(a.trim().toLowerCase());
  }
  return out;
}

/**
 * An exit's whole name as `examine` shows it, MUX's way: its name and every alias, `;`-separated
 * (`North;n;no`), the aliases of `@alias` included.
 */
export function exitFullName(obj: Pick<DbObject, "name" | "data">): string {
  const extra = Array.isArray(obj.data?.aliases)
    ? obj.data.aliases.filter((a): a is string => typeof a === "string" && !!a.trim())
    : [];
  return [obj.name, ...extra].join(";");
}

/** Name with its dbref when the viewer may see dbrefs (builders and up, or the controller). */
export function nameFor(viewer: ObjectHead, obj: ObjectHead): string {
  const base = obj.flags.includes("exit") ? exitName(obj) : displayName(obj);
  return withRef(viewer, obj, base);
}

/**
 * `nameFor` as `examine` shows names: an exit with all its aliases (`North;n;no(#12)`), as MUX
 * does, so a builder sees what the exit answers to.
 */
export function fullNameFor(viewer: ObjectHead, obj: DbObject): string {
  return obj.flags.includes("exit")
    ? withRef(viewer, obj, exitFullName(obj))
    : nameFor(viewer, obj);
}

function withRef(viewer: ObjectHead, obj: ObjectHead, base: string): string {
  return showsRefs(viewer, obj) ? `${base}%cn(#${obj.id})` : base;
}

/**
 * True when the viewer sees the dbref of `obj`: a builder, or whoever controls it. Names are
 * made without the world at hand, so control through a zone (which evaluates a lock) adds no
 * dbref here (docs/softcode.md, "Zones").
 */
export function showsRefs(viewer: ObjectHead, obj: ObjectHead): boolean {
  return atLeast(viewer.flags, "builder") || controls(viewer, obj, null);
}

/** `A, B and C` (or `A` / `A and B`). */
export function joinList(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/** A labelled, comma-separated list wrapped to the width. */
export function labelled(label: string, items: readonly string[], width: number): string {
  return wrapText(`%ch${label}:%cn ${items.join(", ")}`, width);
}

/** MUX's list under a heading, one name a line (`inventory`, `examine`'s `Contents:`). */
export function listed(heading: string, items: readonly string[]): string {
  return [heading, ...items].join("\n");
}

/** Compact time span for `who`'s idle column: `5s`, `3m`, `2h`, `4d`. */
export function shortDuration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86400) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86400)}d`;
}

/** Time online for `who`'s on-for column: `hh:mm`, or `Nd hh:mm` past a day. */
export function onFor(ms: number): string {
  const m = Math.max(0, Math.floor(ms / 60000));
  const days = Math.floor(m / 1440);
  const hh = String(Math.floor((m % 1440) / 60)).padStart(2, "0");
  const mm = String(m % 60).padStart(2, "0");
  return days ? `${days}d ${hh}:${mm}` : `${hh}:${mm}`;
}

/** Width to format to: the connection's, clamped to something readable. */
export function clampWidth(width: number): number {
  return Number.isFinite(width) ? Math.min(250, Math.max(20, Math.floor(width))) : 78;
}

/** What `@wipe` and `wipe()` tell the actor of what was cleared (MUX's `Wiped.`) and left. */
export function wipedSaid({ cleared, refused }: Cleared): string {
  if (!cleared.length && !refused.length) return "No matching attributes.";
  if (!refused.length) return "Wiped.";
  return `Wiped ${counted(cleared.length, "attribute")}; left ` +
    `${refused.length}: ${refused.slice(0, 10).map((r) => r.name).join(", ")}` +
    `${refused.length > 10 ? ", ..." : ""} (${refused[0].refusal.message})`;
}

/**
 * What `@link` and `link()` tell the actor (MUX's words): `Linked.` for an exit, else the change
 * of home, from `old` (null: none) to `dest`.
 */
export function linkedSaid(linked: DbObject, old: DbObject | null, dest: DbObject): string {
  if (linked.flags.includes("exit")) return "Linked.";
  return `Home of ${nameWithRef(linked)} changed from ${old ? nameWithRef(old) : "Nothing"} to ${
    nameWithRef(dest)
  }.`;
}
