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

function dur(s: number): string {
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86400) return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
  return `${Math.floor(s / 86400)}d ${Math.floor((s % 86400) / 3600)}h`;
}

function pad(text: string, width: number): string {
  return text.length >= width ? text.slice(0, width) : text + " ".repeat(width - text.length);
}

const RULE = "%cc+" + "-".repeat(26) + "+" + "-".repeat(11) + "+" + "-".repeat(8) + "+%cn";

// The last cell comes padded: its colour codes take no room on the screen.
function row(a: string, b: string, idle: string): string {
  return `%cc|%cn ${pad(a, 24)} %cc|%cn ${pad(b, 9)} %cc|%cn ${idle} %cc|%cn`;
}

export default async function who(u: ScriptSdk): Promise<void> {
  // u.who(): what a listing needs, one row per player ([id, name, onFor, idle, staff]).
  const rows = await u.who();
  const lines = [RULE, row("Player", "On For", pad("Idle", 6)), RULE];
  const players: { id: string; name: string; onFor: number; idle: number }[] = [];
  for (let i = 0; i < rows.length; i++) {
    // Read by index: destructuring goes through QuickJS's iterator protocol, a call per field.
    const r = rows[i], name = r[1], onFor = r[2], idle = r[3];
    const shown = pad(dur(idle), 6);
    lines.push(
      row(`${r[4] ? "*" : " "}${name}`, dur(onFor), idle >= 600 ? `%cx${shown}%cn` : shown),
    );
    players.push({ id: r[0], name, onFor, idle });
  }
  lines.push(RULE, `${rows.length} player${rows.length === 1 ? "" : "s"} connected.`);
  await u.send(lines.join("\n"), { type: "who", players });
}
