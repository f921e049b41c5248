/// <reference path="./sdk.d.ts" />
/**
 * +who: the connected players in a boxed table, staff marked, idle times shaded. Rename this
 * file to who.ts to make it replace the built-in `who` (staff keep @core/who).
 */

export const help = `+who

Lists the connected players in a table: name, how long on, how long idle; staff are marked
with a star. (A restyled who, written as a system script.)`;
export const category = "Information";
/** Guests may use it. */
export const guests = true;

const STAFF = ["superuser", "admin", "wizard"];

function dur(s: number): string {
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86400) return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
  return `${Math.floor(s / 86400)}d ${Math.floor((s % 86400) / 3600)}h`;
}

function pad(text: string, width: number): string {
  return text.length >= width ? text.slice(0, width) : text + " ".repeat(width - text.length);
}

export default async function who(u: ScriptSdk): Promise<void> {
  const players = await u.online();
  const rule = "%cc+" + "-".repeat(26) + "+" + "-".repeat(11) + "+" + "-".repeat(8) + "+%cn";
  // The last cell comes padded: its colour codes take no room on the screen.
  const row = (a: string, b: string, idle: string) =>
    `%cc|%cn ${pad(a, 24)} %cc|%cn ${pad(b, 9)} %cc|%cn ${idle} %cc|%cn`;
  const lines = [rule, row("Player", "On For", pad("Idle", 6)), rule];
  for (const p of players) {
    const star = p.flags.some((f) => STAFF.includes(f)) ? "*" : " ";
    const idle = pad(dur(p.idle), 6);
    lines.push(row(`${star}${p.name}`, dur(p.onFor), p.idle >= 600 ? `%cx${idle}%cn` : idle));
  }
  lines.push(rule, `${players.length} player${players.length === 1 ? "" : "s"} connected.`);
  await u.send(lines.join("\n"), {
    type: "who",
    players: players.map((p) => ({ id: p.id, name: p.name, onFor: p.onFor, idle: p.idle })),
  });
}
