/**
 * Connections and their statistics, as TinyMUX 2.12 has them: `connlast()`, `connleft()`,
 * `connmax()`, `connnum()`, `connrecord()`, `conntotal()` over what the engine keeps of each
 * player's connections (src/world/conninfo.ts), and `host()`, `ports()`, `lports()`, `height()`,
 * `terminfo()`, `colordepth()`, `cmds()` and `poll()` over the hub's connections. A port is the
 * hub's connection number (docs/softcode.md, "Connections").
 */
import { define } from "./define.ts";
import type { Frame, FunctionDef } from "../types.ts";
import type { Evaluation } from "../eval.ts";
import type { SoftSession } from "../ports.ts";
import { dbrefId } from "../match.ts";
import { isRational, toInt } from "../numbers.ts";
import { typeOf } from "../../world/objects.ts";
import { connInfoOf } from "../../world/conninfo.ts";

const ref = (id: string) => `#${id}`;

/**
 * The object MUX's lookup_player finds: `me` (the executor, whatever it is), a player's dbref,
 * a player's name or alias (a leading `*` is dropped), or the one connected player, not hidden
 * from the executor, whose name begins with it.
 */
function lookupPlayer(ev: Evaluation, f: Frame, word: string): string | null {
  const name = word.trim().replace(/^\*+/, "");
  if (name.toLowerCase() === "me") return f.executor;
  if (name.startsWith("#")) {
    const id = dbrefId(name);
    const o = id ? ev.object(id) : null;
    return o && typeOf(o) === "player" ? o.id : null;
  }
  if (!name) return null;
  const named = ev.ports.world.playerByName(name);
  if (named) return named;
  const me = ev.object(f.executor);
  const low = name.toLowerCase();
  let hit: string | null = null;
  for (const id of ev.ports.presence.online()) {
    const p = ev.object(id);
    if (!p || !me || ev.ports.access.hiddenFrom(me, p)) continue;
    if (!p.name.toLowerCase().startsWith(low)) continue;
    if (hit) return null;
    hit = id;
  }
  return hit;
}

/** The connection a number names (MUX reads a rational as a port: 12.5 is port 12). */
function byPort(ev: Evaluation, word: string): SoftSession | null {
  return ev.ports.presence.session(toInt(word));
}

/**
 * A player's connections as the executor may know of them: none for a player hidden from it
 * (dark), as conn() and idle() answer, so no figure tells that it is on.
 */
function seenSessions(ev: Evaluation, f: Frame, id: string): readonly SoftSession[] {
  return hidden(ev, f, id) ? [] : ev.ports.presence.sessions(id);
}

/** A player's connection that typed last (MUX's find_least_idle), or null offline or hidden. */
function leastIdle(ev: Evaluation, f: Frame, id: string): SoftSession | null {
  let best: SoftSession | null = null;
  for (const s of seenSessions(ev, f, id)) {
    if (!best || s.lastInput > best.lastInput) best = s;
  }
  return best;
}

/** True when the executor is staff (MUX's Wizard and Wizard_Who). */
function staff(ev: Evaluation, f: Frame): boolean {
  return ev.isStaff(f.executor);
}

/** True when `id` is a player hidden from the executor (dark, for who cannot see it). */
function hidden(ev: Evaluation, f: Frame, id: string): boolean {
  const me = ev.object(f.executor), p = ev.object(id);
  return !!me && !!p && ev.ports.access.hiddenFrom(me, p);
}

/** Seconds since the player's oldest connection connected, or 0 offline or hidden. */
function current(ev: Evaluation, f: Frame, id: string): number {
  return hidden(ev, f, id) ? 0 : Math.max(0, ev.ports.presence.connectedSeconds(id));
}

/** One of the statistics functions: a player's figure, or `#-1 PLAYER NOT FOUND`. */
function statistic(
  name: string,
  summary: string,
  gives: string,
  figure: (ev: Evaluation, f: Frame, id: string) => number,
): FunctionDef<Evaluation> {
  return define(name, 1, 1, {
    family: "database",
    args: `${name}(<player>)`,
    summary,
    example: { think: `${name}(me)`, gives, varies: true },
  }, (ev, f, args) => {
    const id = lookupPlayer(ev, f, args[0]);
    return id && ev.object(id) ? String(figure(ev, f, id)) : "#-1 PLAYER NOT FOUND";
  });
}

/** The connection functions. */
export const connectionFunctions: FunctionDef<Evaluation>[] = [
  statistic(
    "connlast",
    "How many seconds the player's last session lasted.",
    "0",
    (ev, _f, id) => connInfoOf(ev.object(id)!).last,
  ),
  statistic(
    "connleft",
    "When the player last disconnected, in seconds since 1970 (0: never).",
    "0",
    (ev, _f, id) => connInfoOf(ev.object(id)!).left,
  ),
  statistic(
    "connmax",
    "The player's longest session in seconds, the current one included.",
    "60",
    (ev, f, id) => Math.max(connInfoOf(ev.object(id)!).longest, current(ev, f, id)),
  ),
  statistic(
    "connnum",
    "How many connections the player has had, the current ones included.",
    "1",
    (ev, f, id) => connInfoOf(ev.object(id)!).connects + seenSessions(ev, f, id).length,
  ),
  statistic(
    "conntotal",
    "How many seconds the player has been connected in all, the current session included.",
    "60",
    (ev, f, id) => connInfoOf(ev.object(id)!).total + current(ev, f, id),
  ),
  define("connrecord", 0, 0, {
    family: "game",
    args: "connrecord()",
    summary: "The most connections logged in at once since the game began.",
    example: { think: "connrecord()", gives: "1", varies: true },
  }, (ev) => String(ev.ports.presence.record())),
  define("host", 1, 1, {
    family: "database",
    args: "host(<player>|<port>)",
    summary: "The address a player (its newest connection) or a port connects from (staff).",
    example: { think: "host(me)", gives: "127.0.0.1", varies: true },
  }, (ev, f, args) => {
    if (!staff(ev, f)) return "#-1 PERMISSION DENIED";
    if (isRational(args[0])) return byPort(ev, args[0])?.host ?? "#-1 NOT AN ACTIVE PORT";
    const id = lookupPlayer(ev, f, args[0]);
    if (!id) return "#-1 PLAYER DOES NOT EXIST";
    return ev.ports.presence.sessions(id)[0]?.host ?? "#-1 NOT A CONNECTED PLAYER";
  }),
  define("ports", 1, 1, {
    family: "database",
    args: "ports(<player>)",
    summary: "The ports of a player's connections, the newest first (yours, or staff: anyone's).",
    example: { think: "ports(*Alice)", gives: "102", varies: true },
  }, (ev, f, args) => {
    const id = lookupPlayer(ev, f, args[0]);
    if (!id || !ev.object(id)) return "#-1 NO MATCH";
    if (id !== f.executor && !staff(ev, f)) return "#-1 PERMISSION DENIED";
    return ev.ports.presence.sessions(id).map((s) => s.port).join(" ");
  }),
  define("lports", 0, 0, {
    family: "database",
    args: "lports()",
    summary: "Each connected player's dbref and port, as #<dbref>:<port> (staff).",
    example: { think: "lports()", gives: "#1:101 #2:102", varies: true },
  }, (ev, f) => {
    const out: string[] = [];
    for (const id of ev.ports.presence.online()) {
      if (hidden(ev, f, id)) continue;
      for (const s of ev.ports.presence.sessions(id)) out.push(`${ref(id)}:${s.port}`);
    }
    return out.join(" ");
  }, { staff: true }),
  define("height", 1, 1, {
    family: "database",
    args: "height(<player>|<port>)",
    summary: "The height of a player's (or a port's) screen in lines, as its client said (24).",
    example: { think: "height(me)", gives: "24" },
  }, (ev, f, args) => {
    if (isRational(args[0])) return String(byPort(ev, args[0])?.height ?? 24);
    const id = lookupPlayer(ev, f, args[0]);
    return String((id && leastIdle(ev, f, id)?.height) || 24);
  }),
  define("colordepth", 1, 1, {
    family: "database",
    args: "colordepth(<player>|<port>)",
    summary:
      "Colour bits a player's (or a port's) client is shown with: 0, 4 (16 colours), 8 (256) or 24.",
    example: { think: "colordepth(me)", gives: "4", varies: true },
  }, (ev, f, args) => {
    if (isRational(args[0])) return String(byPort(ev, args[0])?.colourDepth ?? 0);
    const id = lookupPlayer(ev, f, args[0]);
    return String((id && leastIdle(ev, f, id)?.colourDepth) || 0);
  }),
  // MUX 2.12 takes everything as one argument, commas and all (`terminfo(a,b)` asks of "a,b").
  define("terminfo", 1, 100, {
    family: "database",
    args: "terminfo(<player>|<port>)",
    summary: "A connection's client: its terminal type (or unknown, web, websocket), then " +
      "telnet for a telnet client, and unicode.",
    more: "By port: your own connections, or staff: anyone's. By player: anyone not hidden.",
    example: { think: "terminfo(me)", gives: "unknown telnet unicode", varies: true },
  }, (ev, f, args) => {
    let s: SoftSession | null;
    if (isRational(args[0])) {
      s = byPort(ev, args[0]);
      if (s && s.player !== f.executor && !staff(ev, f)) return "#-1 PERMISSION DENIED";
    } else {
      const id = lookupPlayer(ev, f, args[0]);
      if (id && hidden(ev, f, id)) return "#-1 NOT CONNECTED";
      s = id ? ev.ports.presence.sessions(id)[0] ?? null : null;
    }
    if (!s) return "#-1 NOT CONNECTED";
    if (s.kind === "telnet") return `${s.terminal || "unknown"} telnet unicode`;
    return s.kind === "web" ? "web unicode" : "websocket unicode";
  }, { parse: 1 }),
  define("cmds", 1, 1, {
    family: "database",
    args: "cmds(<player>|<port>)",
    summary: "Commands a connected player (all its connections) or a port has run, or -1.",
    more: "Yours, or of what you control; staff: anyone's.",
    example: { think: "cmds(me)", gives: "0", varies: true },
  }, (ev, f, args) => {
    if (isRational(args[0])) {
      const s = byPort(ev, args[0]);
      return s && (s.player === f.executor || staff(ev, f)) ? String(s.commands) : "-1";
    }
    const id = lookupPlayer(ev, f, args[0]);
    const me = ev.object(f.executor), p = id ? ev.object(id) : null;
    const sessions = id ? ev.ports.presence.sessions(id) : [];
    if (!me || !p || !sessions.length) return "-1";
    if (!staff(ev, f) && !ev.ports.access.controls(me, p)) return "-1";
    return String(sessions.reduce((n, s) => n + s.commands, 0));
  }),
  define("poll", 0, 0, {
    family: "game",
    args: "poll()",
    summary: "The header of the doing column of who (@doing/header, MUX's @poll).",
    example: { think: "poll()", gives: "Doing" },
  }, (ev) => ev.ports.presence.poll()),
];
