/**
 * The GMCP a telnet player's hub session turns into: `Char.Name` from the session frame,
 * `Room.Info` from room data, a message's own GMCP form (a plugin's mapping, built by the
 * engine) passed on with its colour codes rendered, and the client name from `Core.Hello`.
 */
import { renderText, stripColour } from "../../text/colour.ts";
import { isGmcpPackage } from "../../text/gmcp_package.ts";

/** Deepest nesting of a GMCP payload whose strings are rendered; deeper values go as they are. */
const MAX_RENDER_DEPTH = 8;

/** Most exits listed in one `Room.Info`. */
const MAX_ROOM_EXITS = 100;

/** The `Char.Name` payload for a logged-in player. */
export function charName(name: string): { name: string; fullname: string } {
  return { name, fullname: name };
}

/** The `Room.Info` payload (IRE, as mappers expect) from a hub `room` frame's data. */
export function roomInfo(
  data: Record<string, unknown>,
): { num: number | string; name: string; exits: Record<string, number | string> } {
  // Exit name → number of the room it leads to.
  const exits: Record<string, number | string> = {};
  if (Array.isArray(data.exits)) {
    for (const e of data.exits.slice(0, MAX_ROOM_EXITS)) {
      if (typeof e !== "object" || e === null) continue;
      const x = e as Record<string, unknown>;
      if (typeof x.name === "string") exits[stripColour(x.name)] = roomNum(x.to);
    }
  }
  return { num: roomNum(data.id), name: stripColour(String(data.name ?? "")), exits };
}

/**
 * A message's GMCP form as the engine built it (`[package, payload]`), ready to send: colour
 * codes in its strings rendered like message text; null when it is not a usable one.
 */
export function forwardedGmcp(gmcp: unknown, colour: boolean): [string, unknown] | null {
  if (!Array.isArray(gmcp) || typeof gmcp[0] !== "string") return null;
  const [pkg, payload] = gmcp;
  if (!isGmcpPackage(pkg)) return null;
  return [pkg, renderStrings(payload, colour, 0)];
}

/** The client's name from a `Core.Hello` message (at most 64 characters), else null. */
export function helloClient(pkg: string, data: unknown): string | null {
  if (pkg.toLowerCase() !== "core.hello" || typeof data !== "object" || data === null) return null;
  const client = (data as Record<string, unknown>).client;
  return typeof client === "string" && client.length > 0 ? client.slice(0, 64) : null;
}

/** A GMCP payload with colour codes in its strings rendered (ANSI, or none without colour). */
function renderStrings(v: unknown, colour: boolean, depth: number): unknown {
  if (typeof v === "string") return renderText(v, colour);
  if (typeof v !== "object" || v === null || depth >= MAX_RENDER_DEPTH) return v;
  if (Array.isArray(v)) return v.map((x) => renderStrings(x, colour, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[k] = renderStrings(x, colour, depth + 1);
  return out;
}

/** A room id as GMCP shows it: a number when it is one, else the text ("" when missing). */
function roomNum(id: unknown): number | string {
  const s = typeof id === "string" || typeof id === "number" ? String(id) : "";
  return /^\d{1,15}$/.test(s) ? Number(s) : s;
}
