/** `who`: who is connected, for how long, and how long idle. */
import type { CommandSpec } from "../types.ts";
import { visibleOnline } from "../../hub/online.ts";
import { padVisible } from "../../text/colour.ts";
import { clampWidth, onFor, shortDuration } from "../format.ts";
import { displayName } from "../../world/players.ts";

/** The who family. */
export const commands: CommandSpec[] = [
  {
    name: "who",
    category: "Information",
    help: `who

Lists the connected players with how long they have been on and how long they have been
idle.`,
    exec(u) {
      const now = Date.now();
      // Everything comes from the hub's memory: who costs no database read per player.
      const rows = [];
      for (const p of visibleOnline(u.hub, u.me)) {
        let since = now, last = 0;
        for (const c of u.hub.connections(p.id)) {
          since = Math.min(since, c.connectedAt);
          last = Math.max(last, c.lastInput);
        }
        rows.push({ p, on: now - since, idle: now - (last || now) });
      }
      const w = clampWidth(u.conn.width);
      const nameW = Math.max(10, Math.min(40, w - 18));
      const line = (name: string, on: string, idle: string) =>
        `${padVisible(name, nameW)} ${padVisible(on, 10, "right")} ${padVisible(idle, 5, "right")}`;
      const out = [`%ch${line("Player Name", "On For", "Idle")}%cn`];
      for (const r of rows) out.push(line(displayName(r.p), onFor(r.on), shortDuration(r.idle)));
      const n = rows.length;
      out.push(`${n} player${n === 1 ? "" : "s"} connected.`);
      u.send(out.join("\n"), {
        type: "who",
        players: rows.map((r) => ({
          id: r.p.id,
          name: r.p.name,
          moniker: displayName(r.p),
          onFor: Math.floor(r.on / 1000),
          idle: Math.floor(r.idle / 1000),
        })),
      });
    },
  },
];
