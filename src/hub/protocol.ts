/**
 * The hub's wire protocol (docs/protocol.md): inbound frames become command
 * lines or control frames; outbound messages become ANSI text or JSON frames.
 * Pure functions, so fan-out can encode a message once per client kind.
 */
import { sanitizeLine } from "../commands/parser.ts";
import { MAX_LINE, overMaxLine } from "../commands/limits.ts";
import { indentContinuations, renderText } from "../text/colour.ts";
import { utf8Length } from "../text/utf8.ts";
import { isGmcpPackage } from "../text/gmcp_package.ts";
import type { GmcpMap } from "./gmcp_map.ts";
import type { ClientKind, Outbound } from "./types.ts";

/** Largest inbound frame accepted, in bytes; a larger one closes the connection. */
export const MAX_FRAME_BYTES = 64 * 1024;

/** Screen width bounds (columns) a client may set. */
export const MIN_WIDTH = 20;
/** Upper bound of the screen width. */
export const MAX_WIDTH = 250;

/** Screen height bounds (rows) a client may set. */
export const MIN_HEIGHT = 5;
/** Upper bound of the screen height. */
export const MAX_HEIGHT = 500;

/** An inbound frame, decoded. */
export type InboundFrame =
  | {
    kind: "lines";
    lines: string[];
    tooLong: number;
    /** The client's id for this frame (`ack`), answered once the frame is read. */
    ack?: number | string;
  }
  | { kind: "auth"; token: string; resume: boolean }
  | { kind: "window"; width: number | null; height: number | null }
  | {
    kind: "client";
    ip: string | null;
    ttype: string | null;
    /** When the telnet client connected (ms since epoch), kept across engine restarts. */
    connectedAt: number | null;
    /** When that player last typed a line (ms since epoch). */
    lastInput: number | null;
    /** Colours the terminal shows (0, 16, 256 or 16777216), when the sidecar says. */
    colourDepth?: number | null;
  }
  | { kind: "ping"; id: number | string | null }
  /** A GMCP message a telnet client sent (a plugin's package), passed on by the sidecar. */
  | { kind: "gmcp"; package: string; data: unknown }
  /** GMCP is on for this client with the packages it announced (null: every one), or off. */
  | { kind: "gmcp-supports"; state: { supports: string[] | null } | null }
  /** Answered once everything sent before it has run (queued behind earlier commands). */
  | { kind: "sync"; id: number | string | null }
  | { kind: "bad"; error: string };

/** The client kind named by a `client=` query value (default `plain`). */
export function clientKind(value: string | null): ClientKind {
  return value === "web" || value === "telnet" ? value : "plain";
}

/** True when a text frame is over the size cap (checked before any parsing). */
export function textTooLarge(data: string): boolean {
  // Every UTF-16 unit is at most 3 UTF-8 bytes, so short frames need no count.
  if (data.length * 3 <= MAX_FRAME_BYTES) return false;
  if (data.length > MAX_FRAME_BYTES) return true;
  return utf8Length(data, MAX_FRAME_BYTES) > MAX_FRAME_BYTES;
}

/**
 * The text of a binary frame (some clients send their lines that way), or null when it is
 * not valid UTF-8. Call it after the size check.
 */
export function binaryText(data: ArrayBuffer): string | null {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(data);
  } catch {
    return null;
  }
}

/**
 * Splits a frame's text into sanitized, non-empty command lines. Lines over
 * MAX_LINE are counted in `tooLong` and left out: running a cut-off command
 * could store a truncated text the player never meant.
 */
export function linesOf(text: string): { kind: "lines"; lines: string[]; tooLong: number } {
  const lines: string[] = [];
  let tooLong = 0;
  // A telnet player's line never holds a break: no regular expression and no split for it.
  const parts = text.includes("\n") || text.includes("\r") ? text.split(/\r\n|\r|\n/) : [text];
  for (const part of parts) {
    const line = commandLine(part);
    if (line === TOO_LONG) tooLong++;
    else if (line !== null) lines.push(line);
  }
  return { kind: "lines", lines, tooLong };
}

/** What `commandLine` gives for a line over MAX_LINE. */
export const TOO_LONG: unique symbol = Symbol("too long");

/**
 * One line (no line break in it) as `linesOf` takes it: sanitized, TOO_LONG over MAX_LINE, null
 * when nothing is left to run.
 */
export function commandLine(part: string): string | null | typeof TOO_LONG {
  const line = sanitizeLine(part, MAX_LINE + 1);
  if (overMaxLine(line)) return TOO_LONG;
  return line.trim() === "" ? null : line;
}

function clampInt(v: unknown, min: number, max: number): number | null {
  if (typeof v !== "number" || !Number.isFinite(v)) return null;
  return Math.min(max, Math.max(min, Math.round(v)));
}

function shortString(v: unknown, max: number): string | null {
  return typeof v === "string" && v.length > 0 && v.length <= max ? v : null;
}

function finite(v: unknown): number | null {
  return typeof v === "number" && Number.isFinite(v) ? v : null;
}

/** A ping's or sync's `id` or a frame's `ack`, echoed back: a finite number or a string of up to 64. */
function pingId(v: unknown): number | string | null {
  if (typeof v === "number") return Number.isFinite(v) ? v : null;
  return shortString(v, 64);
}

/** A client's announced GMCP packages (lower-cased names, at most 64), or null for "all". */
function supportsList(v: unknown): string[] | null {
  if (!Array.isArray(v)) return null;
  return v.slice(0, MAX_GMCP_SUPPORTS)
    .filter((m): m is string => typeof m === "string" && isGmcpPackage(m))
    .map((m) => m.toLowerCase());
}

/** Most GMCP packages a client's announced list keeps (as the telnet client keeps them). */
const MAX_GMCP_SUPPORTS = 64;

/**
 * Decodes a text frame (already size-checked). A frame whose first non-blank
 * character is `{` is a JSON frame; anything else is command text.
 */
export function parseFrame(data: string): InboundFrame {
  if (data.trimStart()[0] !== "{") return linesOf(data);
  let obj: unknown;
  try {
    obj = JSON.parse(data);
  } catch {
    return { kind: "bad", error: "Invalid JSON frame." };
  }
  if (typeof obj !== "object" || obj === null || Array.isArray(obj)) {
    return { kind: "bad", error: "Invalid JSON frame." };
  }
  const f = obj as Record<string, unknown>;
  const type = f.type;
  if (type === undefined || type === "msg" || type === "command") {
    if (typeof f.msg !== "string") {
      return { kind: "bad", error: 'A JSON frame needs a string "msg" or a known "type".' };
    }
    const ack = pingId(f.ack);
    return ack === null ? linesOf(f.msg) : { ...linesOf(f.msg), ack };
  }
  switch (type) {
    case "auth": {
      const token = shortString(f.token, 4096);
      if (!token) return { kind: "bad", error: 'An auth frame needs a "token".' };
      return { kind: "auth", token, resume: f.resume === true };
    }
    case "window":
      return {
        kind: "window",
        width: clampInt(f.width, MIN_WIDTH, MAX_WIDTH),
        height: clampInt(f.height, MIN_HEIGHT, MAX_HEIGHT),
      };
    case "client":
      return {
        kind: "client",
        ip: shortString(f.ip, 64),
        ttype: shortString(f.ttype, 64),
        connectedAt: finite(f.connectedAt),
        lastInput: finite(f.lastInput),
        ...(f.colourDepth === undefined ? {} : { colourDepth: finite(f.colourDepth) }),
      };
    case "ping":
      return { kind: "ping", id: pingId(f.id) };
    case "sync":
      return { kind: "sync", id: pingId(f.id) };
    case "gmcp":
      if (typeof f.package !== "string" || !isGmcpPackage(f.package)) {
        return { kind: "bad", error: 'A gmcp frame needs a "package" name.' };
      }
      return { kind: "gmcp", package: f.package, data: f.data ?? null };
    case "gmcp-supports":
      return {
        kind: "gmcp-supports",
        state: f.off === true ? null : { supports: supportsList(f.supports) },
      };
    default:
      return {
        kind: "bad",
        error: `Unknown frame type ${JSON.stringify(String(type).slice(0, 32))}.`,
      };
  }
}

/**
 * Plain-text form: colour codes as ANSI (or dropped when `colour` is false), CRLF line ends;
 * null when there is no text.
 */
export function encodePlain(out: Outbound, colour = true): string | null {
  if (!out.msg) return null;
  return renderText(out.msg, colour).replace(/\r?\n/g, "\r\n") + "\r\n";
}

/** JSON form for `web` and `telnet` clients: `{"msg": ..., "data": {...}}`. */
export function encodeJson(out: Outbound): string {
  return JSON.stringify({ msg: out.msg, data: out.data ?? {} });
}

/**
 * Messages that carry what a player wrote (`data.type`): say, pose and semipose, @emit, page,
 * whisper and channel lines. Whatever sends them, their line breaks are marked here.
 */
export const SPEECH_TYPES: ReadonlySet<string> = new Set([
  "say",
  "pose",
  "emit",
  "page",
  "whisper",
  "channel",
]);

/** What follows each line break inside speech (docs/commands.md, "Spoofing"). */
export const CONTINUATION_INDENT = "  ";

/**
 * The message as recipients get it: in speech, every line after the first starts indented, so
 * `say A%r[fake] Wiz pages: hi` cannot show a line that passes for a page. A game message never
 * starts with a space, so an indented line always continues the message above it.
 */
export function markSpeech(out: Outbound): Outbound {
  const type = out.data?.type;
  if (type === undefined || !SPEECH_TYPES.has(type)) return out;
  const msg = indentContinuations(out.msg, CONTINUATION_INDENT);
  return msg === out.msg ? out : { ...out, msg };
}

/**
 * A frame's parts as a telnet client in this process reads them: the text, the data, its type
 * ("" when none) and the GMCP form (src/telnet/client/hub_frames.ts, HubFrame).
 */
export interface TelnetParts {
  readonly msg: string;
  readonly data: Record<string, unknown>;
  readonly type: string;
  readonly gmcp: unknown;
}

/**
 * One outbound message, encoded lazily and at most once per form (for fan-out): ANSI text with
 * or without colour for plain clients, JSON for `web`, and JSON with the message's GMCP form
 * (`gmcp: [package, payload]`, when a plugin mapped its type) for telnet clients.
 */
export class EncodedFrame {
  #plain: string | null | undefined;
  #mono: string | null | undefined;
  #json: string | undefined;
  #telnet: string | undefined;
  #parts: TelnetParts | undefined;
  readonly #gmcp: GmcpMap | null;
  /** The message as sent (speech marked, see markSpeech). */
  readonly out: Outbound;

  constructor(out: Outbound, gmcp: GmcpMap | null = null) {
    this.out = markSpeech(out);
    this.#gmcp = gmcp;
  }

  /**
   * The frame text for a client kind, or null when that kind gets nothing. `colour` matters
   * only to plain clients (JSON clients get the codes and render them themselves).
   */
  for(kind: ClientKind, colour = true): string | null {
    if (kind === "plain") {
      if (!colour) {
        if (this.#mono === undefined) this.#mono = encodePlain(this.out, false);
        return this.#mono;
      }
      if (this.#plain === undefined) this.#plain = encodePlain(this.out);
      return this.#plain;
    }
    if (kind === "telnet" && this.#gmcp !== null) return this.#telnet ??= this.#telnetJson();
    this.#json ??= encodeJson(this.out);
    return this.#json;
  }

  /**
   * The parts a telnet client reads (the telnet players the engine serves get the frame itself,
   * not its JSON): made once, shared by everyone it goes to, never to be changed.
   */
  telnetParts(): TelnetParts {
    if (this.#parts === undefined) {
      const data = (this.out.data ?? {}) as Record<string, unknown>;
      const map = this.#gmcp;
      const gmcp = map !== null && this.out.data && map.has(this.out.data.type)
        ? map.apply(this.out.data, this.out.msg)
        : null;
      const type = typeof data.type === "string" ? data.type : "";
      this.#parts = { msg: this.out.msg, data, type, gmcp: gmcp ?? undefined };
    }
    return this.#parts;
  }

  #telnetJson(): string {
    // The GMCP form is built once, whether the frame goes out as text or as its parts.
    const { gmcp } = this.telnetParts();
    if (gmcp === undefined) return this.#json ??= encodeJson(this.out);
    return JSON.stringify({ msg: this.out.msg, data: this.out.data, gmcp });
  }
}
