/// <reference path="./sdk.d.ts" />
/**
 * +finger <player>: a player's profile (what they set with +finger/set, their description and
 * whether they are on). +finger/set <field>=<text> sets a field of your own.
 */

export const help = `+finger [<player>]
+finger/set <field>=[<text>]

Shows a player's profile: the fields they set, the start of their description, and whether
they are connected (and how long idle). Without a name, your own.
+finger/set sets one of your fields (fullname, position, timezone, rp, quote, or any other
word); an empty text removes it. Fields are attributes FINGER.<FIELD>, visual so anyone
may read them (&finger.quote me=... sets one too).

Examples:
  +finger Alice
  +finger/set timezone=UTC+1
  +finger/set quote=`;
export const switches = ["set"];
export const category = "Information";
/** Guests may use it to read (not /set). */
export const guests = [""];

const FIELD = /^[a-z][a-z0-9_-]{0,23}$/i;
const ORDER = ["fullname", "position", "timezone", "rp", "quote"];

function ago(s: number): string {
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86400) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86400)}d`;
}

export default async function finger(u: ScriptSdk): Promise<void> {
  if (u.cmd.switches.includes("set")) {
    const field = u.cmd.lhs.toLowerCase();
    if (!FIELD.test(field) || u.cmd.rhs === null) {
      return u.send("Usage: +finger/set <field>=[<text>] (field: a word of up to 24 letters)");
    }
    const text = u.cmd.rhs.slice(0, 400);
    await u.attr.set("me", `finger.${field}`, text || null);
    // Softcode and REST see profile fields as MUX games keep them: readable by anyone.
    if (text) await u.attr.flag("me", `finger.${field}`, "visual");
    return u.send(text ? `Finger field ${field} set.` : `Finger field ${field} cleared.`);
  }
  const p = await u.player(u.cmd.args.trim() || "me");
  const fields = (await u.attr.list(p.dbref, "FINGER.*"))
    .map((a) => [a.name.slice(7).toLowerCase(), a.value] as const)
    .sort(([a], [b]) =>
      (ORDER.indexOf(a) + 1 || 99) - (ORDER.indexOf(b) + 1 || 99) || a.localeCompare(b)
    );
  const bar = "%cb" + "=".repeat(60) + "%cn";
  const lines = [bar, `%ch${p.displayName}%cn (${p.dbref})`, bar];
  for (const [k, v] of fields) {
    lines.push(`%ch${(k[0].toUpperCase() + k.slice(1)).padEnd(12)}%cn ${v}`);
  }
  const desc = p.description.split("\n")[0];
  if (desc) lines.push(`%chDescription%cn  ${desc.length > 70 ? desc.slice(0, 67) + "..." : desc}`);
  lines.push(
    p.online
      ? `%cgOnline%cn for ${ago(p.onFor ?? 0)}, idle ${ago(p.idle ?? 0)}.`
      : "%crOffline.%cn",
    bar,
  );
  await u.send(lines.join("\n"), {
    type: "finger",
    player: { id: p.id, name: p.name, online: p.online },
    fields: Object.fromEntries(fields),
  });
}
