/**
 * The messages of the handoff channel between the telnet sidecar and the engine (docs/telnet.md,
 * "Who holds a telnet socket"): a Unix SOCK_SEQPACKET connection (src/telnet/handoff/unix_fds.ts), one
 * JSON object per message, the players' socket descriptors attached to the messages that hand
 * them over. Shared by both ends; pure.
 *
 * ```
 * sidecar → engine  hello  {v, nonce, startedAt}          on connect
 * engine → sidecar  auth   {v, mac}                       HMAC-SHA256(secret, nonce), hex
 * sidecar → engine  open   {sessions: [{sid, ip, waited, state}]} + one descriptor each
 * engine → sidecar  state  {sessions: [{sid, state}]}     what a new engine would resume from
 * engine → sidecar  end    {sids}                         those players are gone: close them
 * engine → sidecar  bye    {restart}                      the engine is going; states are final
 * engine → sidecar  keep   {sessions: [{state}]} + one descriptor each
 *                                                          players it serves that this sidecar
 *                                                          does not hold (it was restarted)
 * sidecar → engine  kept   {sids}                         their ids, in the same order
 * ```
 */
import { createHash } from "node:crypto";
import type { ColourMode } from "../../text/colour_mode.ts";
import type { ClientState } from "../client/telnet_client.ts";
import type { TelnetSessionState } from "../protocol/session.ts";
import type { PendingLogin } from "../client/password_prompt.ts";
import type { SessionPlayer } from "../client/hub_session.ts";
import { MAX_FDS_PER_MESSAGE } from "./unix_fds.ts";
import { MAX_SUPPORTED } from "../client/gmcp_supports.ts";
import { MAX_GMCP_PACKAGE } from "../../text/gmcp_package.ts";
import { MAX_OUTPUT_AFFIX } from "../../text/output_affix.ts";
import { DEFAULT_LIMITS } from "../client/limits.ts";
import { utf8Length } from "../../text/utf8.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });

/** Version of the channel's messages; a peer speaking another is refused. */
export const HANDOFF_VERSION = 1;

/** A session as the sidecar hands it over. */
export interface OpenSession {
  /** The sidecar's id of the session (unique for the sidecar's life). */
  sid: number;
  /** The player's address. */
  ip: string;
  /** The player was told the game is starting and waited for it (no engine took it yet). */
  waited: boolean;
  /** The state of the engine that served it last, or null: a new connection. */
  state: ClientState | null;
}

/** One message of the channel. */
export type HandoffMessage =
  | { t: "hello"; v: number; nonce: string; startedAt: number }
  | { t: "auth"; v: number; mac: string }
  | { t: "open"; sessions: OpenSession[] }
  | { t: "state"; sessions: { sid: number; state: ClientState }[] }
  | { t: "end"; sids: number[] }
  | { t: "bye"; restart: boolean }
  | { t: "keep"; sessions: { state: ClientState }[] }
  | { t: "kept"; sids: number[] };

/**
 * Most typed lines a state carries: as many as a client keeps waiting (a paste of up to 1,000
 * lines), so a state the engine made is always one this reader takes.
 */
const MAX_KEPT_LINES = DEFAULT_LIMITS.maxBufferedLines;

/** Most sessions one `state` or `end` message lists. */
export const MAX_LISTED = 10_000;

/** Largest message this channel sends (the channel's own limit is 64 KiB). */
export const MAX_HANDOFF_MESSAGE = 60 * 1024;

/**
 * The channel's address: a name in Linux's abstract socket namespace derived from the shared
 * secret, so a sidecar and an engine started apart find each other with nothing more than the
 * secret they already share, and two games on one machine never meet. It says nothing about
 * the secret, and the name alone earns nothing (the engine proves the secret; both ends check
 * the other runs as the same user).
 */
export function handoffName(secret: string): string {
  const digest = createHash("sha256").update("ursamu-telnet-handoff\0" + secret).digest("hex");
  return `ursamu-telnet-${digest.slice(0, 32)}`;
}

/**
 * JSON `items` (already encoded) as messages `prefix + items joined by commas + suffix`, each at
 * most {@linkcode MAX_HANDOFF_MESSAGE} bytes (an item larger than that alone is dropped: no
 * state of ours comes near it).
 */
export function packMessages(
  prefix: string,
  items: readonly string[],
  suffix: string,
): Uint8Array[] {
  const out: Uint8Array[] = [];
  const room = MAX_HANDOFF_MESSAGE - prefix.length - suffix.length;
  let batch: string[] = [];
  let size = 0;
  for (const item of items) {
    const bytes = encoder.encode(item).length + 1;
    if (bytes > room) continue;
    if (size + bytes > room) {
      out.push(encoder.encode(prefix + batch.join(",") + suffix));
      batch = [];
      size = 0;
    }
    batch.push(item);
    size += bytes;
  }
  if (batch.length > 0) out.push(encoder.encode(prefix + batch.join(",") + suffix));
  return out;
}

/** One message of {@linkcode packWithFds}: its bytes, its descriptors, the entries it carries. */
export interface FdMessage<T> {
  bytes: Uint8Array;
  fds: number[];
  of: T[];
}

/**
 * Entries that each go with one descriptor (a player's socket), as few messages as the size
 * limit and the descriptors a message may carry allow, in order; each names the entries it
 * carries, so a caller knows which went when a send fails.
 */
export function packWithFds<T>(
  prefix: string,
  entries: readonly { item: string; fd: number; of: T }[],
  suffix: string,
): FdMessage<T>[] {
  const out: FdMessage<T>[] = [];
  const room = MAX_HANDOFF_MESSAGE - prefix.length - suffix.length;
  let items: string[] = [];
  let fds: number[] = [];
  let of: T[] = [];
  let size = 0;
  const flush = () => {
    if (items.length === 0) return;
    out.push({ bytes: encoder.encode(prefix + items.join(",") + suffix), fds, of });
    items = [];
    fds = [];
    of = [];
    size = 0;
  };
  for (const e of entries) {
    const bytes = encoder.encode(e.item).length + 1;
    if (size + bytes > room || fds.length === MAX_FDS_PER_MESSAGE) flush();
    items.push(e.item);
    fds.push(e.fd);
    of.push(e.of);
    size += bytes;
  }
  flush();
  return out;
}

/**
 * Most bytes of one session's state on the channel: a message's room less what the message and the
 * session's other fields (sid, address) take.
 */
export const MAX_STATE_BYTES = MAX_HANDOFF_MESSAGE - 1024;

/**
 * The state as JSON, cut to what one message carries: the waiting lines that do not fit are left
 * out, the last first, then a partial line. A paste still waiting may hold 256 KiB (the client's
 * `maxBufferedBytes`); whole, its state fit no message and was dropped, so a restart resumed the
 * player from an older state, or logged them out when there was none.
 */
export function stateJson(state: ClientState, room = MAX_STATE_BYTES): string {
  const whole = JSON.stringify(state);
  if (utf8Length(whole, room + 1) <= room) return whole;
  const size = (x: unknown) => utf8Length(JSON.stringify(x));
  const bare = { ...state, lines: [] };
  let used = size(bare);
  const lines: string[] = [];
  for (const line of state.lines) {
    const bytes = size(line) + 1;
    if (used + bytes > room) break;
    lines.push(line);
    used += bytes;
  }
  if (used <= room) return JSON.stringify({ ...state, lines });
  return JSON.stringify({ ...bare, telnet: { ...state.telnet, pending: "" } });
}

/** A message as bytes. */
export function encodeMessage(m: HandoffMessage): Uint8Array {
  return encoder.encode(JSON.stringify(m));
}

/** Reads a message; null when it is not one (wrong shape, bad JSON or UTF-8). */
export function decodeMessage(bytes: Uint8Array): HandoffMessage | null {
  let raw: unknown;
  try {
    raw = JSON.parse(decoder.decode(bytes));
  } catch {
    return null;
  }
  if (!isObject(raw)) return null;
  switch (raw.t) {
    case "hello":
      return int(raw.v) && str(raw.nonce, 128) && int(raw.startedAt)
        ? { t: "hello", v: raw.v, nonce: raw.nonce, startedAt: raw.startedAt }
        : null;
    case "auth":
      return int(raw.v) && str(raw.mac, 128) ? { t: "auth", v: raw.v, mac: raw.mac } : null;
    case "open": {
      if (!Array.isArray(raw.sessions) || raw.sessions.length > MAX_LISTED) return null;
      const sessions: OpenSession[] = [];
      for (const s of raw.sessions) {
        if (!isObject(s) || !sid(s.sid) || !str(s.ip, 64) || typeof s.waited !== "boolean") {
          return null;
        }
        const state = s.state === null ? null : readClientState(s.state);
        if (state === null && s.state !== null) return null;
        sessions.push({ sid: s.sid, ip: s.ip, waited: s.waited, state });
      }
      return { t: "open", sessions };
    }
    case "state": {
      if (!Array.isArray(raw.sessions) || raw.sessions.length > MAX_LISTED) return null;
      const sessions: { sid: number; state: ClientState }[] = [];
      // One session's bad state costs only that session: the message carries up to a hundred
      // players' logins, and refusing it whole lost them all at the next restart.
      for (const s of raw.sessions) {
        const state = isObject(s) && sid(s.sid) ? readClientState(s.state) : null;
        if (state !== null) sessions.push({ sid: s.sid as number, state });
      }
      return { t: "state", sessions };
    }
    case "end":
      return Array.isArray(raw.sids) && raw.sids.length <= MAX_LISTED && raw.sids.every(sid)
        ? { t: "end", sids: raw.sids }
        : null;
    case "bye":
      return typeof raw.restart === "boolean" ? { t: "bye", restart: raw.restart } : null;
    case "keep": {
      if (!Array.isArray(raw.sessions) || raw.sessions.length > MAX_LISTED) return null;
      const sessions: { state: ClientState }[] = [];
      for (const s of raw.sessions) {
        const state = isObject(s) ? readClientState(s.state) : null;
        if (state === null) return null;
        sessions.push({ state });
      }
      return { t: "keep", sessions };
    }
    case "kept":
      return Array.isArray(raw.sids) && raw.sids.length <= MAX_LISTED && raw.sids.every(sid)
        ? { t: "kept", sids: raw.sids }
        : null;
  }
  return null;
}

/** A client state from the other process, checked field by field; null when malformed. */
export function readClientState(x: unknown): ClientState | null {
  if (!isObject(x)) return null;
  const telnet = readTelnetState(x.telnet);
  const player = x.player === null ? null : readPlayer(x.player);
  const password = x.password === null ? null : readPending(x.password);
  if (
    telnet === null || (player === null && x.player !== null) ||
    (password === null && x.password !== null) || !str(x.ip, 64) || !int(x.connectedAt) ||
    !int(x.lastInput) || !(x.token === null || str(x.token, 4096)) ||
    !COLOUR_MODES.has(x.colourMode as string) || typeof x.colour !== "boolean" ||
    !(x.gmcpClient === null || str(x.gmcpClient, 64)) || !gmcpModules(x.gmcpSupports) ||
    !int(x.errors) ||
    !Array.isArray(x.lines) || x.lines.length > MAX_KEPT_LINES ||
    !x.lines.every((l) => str(l, 8192))
  ) return null;
  return {
    ip: x.ip,
    connectedAt: x.connectedAt,
    lastInput: x.lastInput,
    token: x.token as string | null,
    player,
    colourMode: x.colourMode as ColourMode,
    colour: x.colour,
    gmcpClient: x.gmcpClient as string | null,
    // Absent in the state of a process from before Core.Supports: it had announced nothing.
    gmcpSupports: (x.gmcpSupports ?? null) as string[] | null,
    errors: x.errors,
    telnet,
    lines: x.lines as string[],
    password,
    // Absent in the state of a process from before it kept them: none set.
    affixes: readAffixes(x.affixes),
  };
}

/** OUTPUTPREFIX and OUTPUTSUFFIX as a state carries them (bad or absent: none). */
function readAffixes(x: unknown): { prefix: string; suffix: string } {
  const ok = (v: unknown) => typeof v === "string" && v.length <= MAX_OUTPUT_AFFIX ? v : "";
  return isObject(x) ? { prefix: ok(x.prefix), suffix: ok(x.suffix) } : { prefix: "", suffix: "" };
}

const COLOUR_MODES: ReadonlySet<string> = new Set(["auto", "on", "off"]);

/** A client's announced GMCP modules as a state carries them: absent, null, or a short list. */
function gmcpModules(x: unknown): boolean {
  return x === undefined || x === null ||
    (Array.isArray(x) && x.length <= MAX_SUPPORTED && x.every((m) => str(m, MAX_GMCP_PACKAGE)));
}

function readTelnetState(x: unknown): TelnetSessionState | null {
  if (!isObject(x)) return null;
  const options = x.options;
  if (
    !Array.isArray(options) || options.length > 512 ||
    !options.every((o) =>
      Array.isArray(o) && o.length === 2 && int(o[0]) && o[0] < 512 && int(o[1]) && o[1] < 256
    ) ||
    !(x.width === null || int(x.width)) || !(x.height === null || int(x.height)) ||
    !Array.isArray(x.ttypes) || x.ttypes.length > 8 || !x.ttypes.every((t) => str(t, 64)) ||
    !int(x.ttypeRequests) || !int(x.ttypeReplies) || !(x.mtts === null || int(x.mtts)) ||
    !(x.charset === null || str(x.charset, 64)) || typeof x.charsetRequested !== "boolean" ||
    typeof x.charsetPending !== "boolean" || typeof x.compressing !== "boolean" ||
    !str(x.pending, 8192)
  ) return null;
  return {
    options: options as [number, number][],
    width: x.width as number | null,
    height: x.height as number | null,
    ttypes: x.ttypes as string[],
    ttypeRequests: x.ttypeRequests,
    ttypeReplies: x.ttypeReplies,
    mtts: x.mtts as number | null,
    charset: x.charset as string | null,
    charsetRequested: x.charsetRequested,
    charsetPending: x.charsetPending,
    compressing: x.compressing,
    pending: x.pending,
  };
}

function readPlayer(x: unknown): SessionPlayer | null {
  return isObject(x) && str(x.id, 64) && str(x.name, 256) ? { id: x.id, name: x.name } : null;
}

function readPending(x: unknown): PendingLogin | null {
  return isObject(x) && str(x.verb, 16) && str(x.name, 256) ? { verb: x.verb, name: x.name } : null;
}

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

function str(x: unknown, max: number): x is string {
  return typeof x === "string" && x.length <= max;
}

function int(x: unknown): x is number {
  return typeof x === "number" && Number.isSafeInteger(x) && x >= 0;
}

function sid(x: unknown): x is number {
  return int(x) && x > 0;
}
