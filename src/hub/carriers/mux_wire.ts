/**
 * The wire format of the one link between the telnet sidecar and the hub (docs/protocol.md,
 * "The sidecar link"). A link message is a run of records, each
 * `<type> <session ids> <payload length>\n<payload>`: ids are decimal, comma-separated; the
 * length counts UTF-16 units, so the payload (a hub frame, JSON) is carried as it is, never
 * escaped again. Shared by both ends; pure.
 *
 * Types: `o` open a session (payload: the query a WebSocket URL would carry, such as
 * `client=telnet&token=...&resume=1`), `a` the hub took it, `d` data (to every listed session:
 * a room's telnet players cross the link once), `c` close (payload `<code> <reason>`), `u` the
 * lines the hub had read and not run when it closed the session for a restart (payload: a JSON
 * list of strings, oldest first), just before that session's `c`.
 */

/** One record of a link message. */
export interface MuxRecord {
  type: "o" | "a" | "d" | "c" | "u";
  ids: number[];
  payload: string;
}

/** Longest list of sessions one record may name. */
export const MAX_RECORD_IDS = 100_000;

/** Most lines a `u` record may hand back, and the longest of them (a typed line's own cap). */
export const MAX_UNREAD_LINES = 200;
const MAX_UNREAD_LINE = 8192;

const TYPES = new Set(["o", "a", "d", "c", "u"]);

/** Most digits in a session id. */
const ID_DIGITS = 10;

/**
 * The session ids of a record header's `text`: decimal, comma-separated, no leading zero, at most
 * {@linkcode ID_DIGITS} digits and {@linkcode MAX_RECORD_IDS} of them; null when malformed. One
 * pass over the characters: a room's fan-out names every listener, and a split, a regular
 * expression per id and a map cost ~1.6 µs per id (1.6 ms per message to 1,000 players).
 */
function readIds(text: string): number[] | null {
  const ids: number[] = [];
  if (text === "") return ids;
  let n = 0;
  let digits = 0;
  for (let i = 0; i <= text.length; i++) {
    const c = i === text.length ? 0x2c /* , */ : text.charCodeAt(i);
    if (c === 0x2c) {
      if (digits === 0 || ids.length === MAX_RECORD_IDS) return null;
      ids.push(n);
      n = 0;
      digits = 0;
    } else if (c >= 0x30 && c <= 0x39) {
      if ((digits === 0 && c === 0x30) || ++digits > ID_DIGITS) return null;
      n = n * 10 + (c - 0x30);
    } else {
      return null;
    }
  }
  return ids;
}

/** One record as text. */
export function encodeRecord(
  type: MuxRecord["type"],
  ids: readonly number[],
  payload = "",
): string {
  return `${type} ${ids.join(",")} ${payload.length}\n${payload}`;
}

/** Close record payload. */
export function closePayload(code: number, reason: string): string {
  return `${code} ${reason}`;
}

/** Reads a close record's payload. */
export function readClose(payload: string): { code: number; reason: string } {
  const space = payload.indexOf(" ");
  const code = Number(space === -1 ? payload : payload.slice(0, space));
  return {
    code: Number.isInteger(code) && code >= 1000 && code <= 4999 ? code : 1000,
    reason: space === -1 ? "" : payload.slice(space + 1),
  };
}

/** A `u` record's payload. */
export function unreadPayload(lines: readonly string[]): string {
  return JSON.stringify(lines);
}

/**
 * Reads a `u` record's payload: a list of at most {@linkcode MAX_UNREAD_LINES} strings of at most
 * 8 KiB each; null when it is anything else (the record is then refused whole).
 */
export function readUnread(payload: string): string[] | null {
  let lines: unknown;
  try {
    lines = JSON.parse(payload);
  } catch {
    return null;
  }
  const ok = Array.isArray(lines) && lines.length <= MAX_UNREAD_LINES &&
    lines.every((l) => typeof l === "string" && l.length <= MAX_UNREAD_LINE);
  return ok ? lines as string[] : null;
}

/**
 * The records of one link message. A record that is malformed or cut short ends the message:
 * the records before it stand, `error` says what was wrong with the rest.
 */
export function decodeRecords(text: string): { records: MuxRecord[]; error: string | null } {
  const records: MuxRecord[] = [];
  let at = 0;
  while (at < text.length) {
    const nl = text.indexOf("\n", at);
    if (nl === -1 || nl - at > 1_200_000) return { records, error: "record header without end" };
    const head = text.slice(at, nl).split(" ");
    if (head.length !== 3 || !TYPES.has(head[0])) return { records, error: "bad record header" };
    const length = Number(head[2]);
    if (!/^[0-9]{1,9}$/.test(head[2]) || nl + 1 + length > text.length) {
      return { records, error: "record cut short" };
    }
    const ids = readIds(head[1]);
    if (ids === null) return { records, error: "bad session id" };
    records.push({
      type: head[0] as MuxRecord["type"],
      ids,
      payload: text.slice(nl + 1, nl + 1 + length),
    });
    at = nl + 1 + length;
  }
  return { records, error: null };
}
