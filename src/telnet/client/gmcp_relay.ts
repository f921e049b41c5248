/**
 * The GMCP a telnet player's hub session turns into: `Char.Name` from the session frame,
 * `Room.Info` from room data, a message's own GMCP form (a plugin's mapping, built by the
 * engine) passed on with its colour codes rendered, and the client name from `Core.Hello`.
 */
import { renderText, stripColour } from "../../text/colour.ts";
import { isGmcpPackage } from "../../text/gmcp_package.ts";
import { compassShort } from "../../text/compass.ts";

/** Deepest nesting of a GMCP payload whose strings are rendered; deeper values go as they are. */
const MAX_RENDER_DEPTH = 8;

/** Most exits listed in one `Room.Info`. */
const MAX_ROOM_EXITS = 100;

/** Longest name, fullname or level sent in `Char`, in characters. */
const MAX_CHAR_FIELD = 200;

/** The `Char.Name` and `Char.Status` payloads from a hub `char` frame's data; null if unusable. */
export function charInfo(
  data: Record<string, unknown>,
): { name: { name: string; fullname: string }; status: Record<string, string> } | null {
  if (typeof data.name !== "string" || data.name === "") return null;
  const field = (v: unknown) => stripColour(String(v ?? "")).slice(0, MAX_CHAR_FIELD);
  const name = field(data.name);
  const fullname = field(data.fullname) || name;
  return { name: { name, fullname }, status: { name, fullname, level: field(data.level) } };
}

/** The `Room.Info` payload: IRE's fields, as mappers read them. */
export interface RoomInfo {
  num: number | string;
  name: string;
  area: string;
  environment: string;
  /** Grid coordinates, only when a builder set them. */
  coords?: { x: number; y: number; z: number };
  exits: Record<string, number | string>;
}

/**
 * The `Room.Info` payload from a hub `room` frame's data. An exit that is a compass direction
 * (by its name or an alias: `North;n`, `Out;o;out`) is listed under the short direction mappers
 * know (`n`, `ne`, ..., `u`, `d`, `in`, `out`); any other under its name. The first exit of a
 * key wins.
 */
export function roomInfo(data: Record<string, unknown>): RoomInfo {
  const exits: Record<string, number | string> = {};
  if (Array.isArray(data.exits)) {
    for (const e of data.exits.slice(0, MAX_ROOM_EXITS)) {
      if (typeof e !== "object" || e === null) continue;
      const x = e as Record<string, unknown>;
      if (typeof x.name !== "string") continue;
      const key = exitDirection(x.name, x.aliases) ?? stripColour(x.name);
      if (!Object.hasOwn(exits, key)) exits[key] = roomNum(x.to);
    }
  }
  const info: RoomInfo = {
    num: roomNum(data.id),
    name: stripColour(String(data.name ?? "")),
    area: typeof data.area === "string" ? data.area : "",
    environment: typeof data.environment === "string" ? data.environment : "",
    exits,
  };
  const c = data.coords as Record<string, unknown> | null | undefined;
  if (c && Number.isInteger(c.x) && Number.isInteger(c.y) && Number.isInteger(c.z)) {
    info.coords = { x: c.x as number, y: c.y as number, z: c.z as number };
  }
  return info;
}

/** The short compass direction of an exit's name or first compass alias, else null. */
function exitDirection(name: string, aliases: unknown): string | null {
  const own = compassShort(stripColour(name));
  if (own !== null || !Array.isArray(aliases)) return own;
  for (const a of aliases.slice(0, 10)) {
    const d = typeof a === "string" ? compassShort(a) : null;
    if (d !== null) return d;
  }
  return null;
}

/** The `Room.WrongDir` payload from an error frame that names a failed move, else null. */
export function wrongDir(data: Record<string, unknown>): string | null {
  const dir = data.wrongDir;
  return typeof dir === "string" && dir !== "" ? stripColour(dir).slice(0, 64) : null;
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
