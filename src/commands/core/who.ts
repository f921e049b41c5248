/** `who`: who is connected, for how long, and how long idle. */
import type { CommandSpec } from "../types.ts";
import { isStaff } from "../../world/flags.ts";
import { padVisible } from "../../text/colour.ts";
import { clampWidth, displayName, onFor, shortDuration } from "../format.ts";

/** The who family. */
export const commands: CommandSpec[] = [
  {
    name: "who",
    category: "Information",
    help: `who

Lists the connected players with how long they have been on and how long they have been
idle.`,
    async exec(u) {
      const now = Date.now();
      const staff = isStaff(u.me.flags);
      const players = (await u.services.objects.getMany(u.services.presence.ids()))
        .filter((p) => staff || p.id === u.me.id || !p.flags.includes("dark"));
      const rows = players.map((p) => {
        const conns = u.hub.connections(p.id);
        const info = u.services.presence.info(p.id);
        const since = conns.length
          ? Math.min(...conns.map((c) => c.connectedAt))
          : info?.since ?? now;
        const last = conns.length
          ? Math.max(...conns.map((c) => c.lastInput))
          : info?.lastActive ?? now;
        return { p, on: now - since, idle: now - last };
      });
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
