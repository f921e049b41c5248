/**
 * Telnet byte streams: option negotiation (every verb, known and unknown options),
 * subnegotiations (NAWS, TTYPE, CHARSET, GMCP, MSSP, MCCP2; short, unterminated, huge),
 * doubled IACs, partial lines, bare CR/LF/NUL, invalid UTF-8 and command lines.
 */
import type { Rng } from "./rng.ts";
import { fuzzString, INVALID_UTF8, jsonValue } from "./values.ts";

const IAC = 255, DONT = 254, DO = 253, WONT = 252, WILL = 251, SB = 250, SE = 240;
const MCCP2 = 86;
const OPTS = [0, 1, 3, 24, 31, 42, 69, 70, MCCP2, 91, 201, 200, 255, 254];
/**
 * Options for a stream whose output is read to the end: without MCCP2, because the test client
 * cannot follow compression that stops mid-stream (the raw cases, read by no one, keep it).
 */
const READ_OPTS = OPTS.filter((o) => o !== MCCP2);

/** One chunk of bytes to write, with how it was made. */
export interface TelnetCase {
  bytes: Uint8Array;
  label: string;
  /** True when the chunk ends inside a line or sequence on purpose. */
  partial: boolean;
}

const enc = new TextEncoder();

function cat(...parts: (number | number[] | Uint8Array | string)[]): Uint8Array {
  const out: number[] = [];
  for (const p of parts) {
    if (typeof p === "number") out.push(p);
    // A loop, not push(...bytes): a generated string can be longer than the call stack allows
    // arguments (seed 175950781 made one).
    else for (const b of typeof p === "string" ? enc.encode(p) : p) out.push(b);
  }
  return Uint8Array.from(out);
}

function negotiation(rng: Rng, opts: readonly number[]): Uint8Array {
  return cat(IAC, rng.pick([DO, DONT, WILL, WONT]), rng.pick(opts));
}

function subneg(rng: Rng, opts: readonly number[]): { bytes: Uint8Array; partial: boolean } {
  const opt = rng.pick(opts);
  const payload: Uint8Array = rng.weighted<Uint8Array>([
    [2, () => rng.bytes(rng.int(0, 12))],
    [1, () => cat(rng.int(0, 255), rng.int(0, 255), rng.int(0, 255), rng.int(0, 255))],
    [1, () => cat(0, fuzzString(rng))],
    [
      1,
      () =>
        cat(rng.pick(["Core.Hello ", "Char.Login ", "Core.Supports.Set ", "x "]), jsonValue(rng)),
    ],
    [1, () => rng.bytes(rng.pick([1000, 5000, 70_000]))],
    [1, () => cat(1, "UTF-8", 2, ";", "x".repeat(rng.int(0, 300)))],
  ]);
  // IAC inside a subnegotiation must be doubled; leave some undoubled on purpose.
  const body = rng.chance(0.7)
    ? [...payload].flatMap((b) => (b === IAC ? [IAC, IAC] : [b]))
    : [...payload];
  const end = rng.weighted<number[]>([[8, () => [IAC, SE]], [1, () => [SE]], [1, () => []]]);
  return { bytes: cat(IAC, SB, opt, body, end), partial: end.length === 0 };
}

/**
 * One telnet chunk. `line` builds a command line (from the WebSocket generator); `withMccp`
 * lets negotiation touch MCCP2 (for streams nobody reads back).
 */
export function telnetCase(rng: Rng, line: () => string, withMccp = false): TelnetCase {
  const opts = withMccp ? OPTS : READ_OPTS;
  return rng.weighted<TelnetCase>([
    [6, () => ({ bytes: cat(line(), "\r\n"), label: "line", partial: false })],
    [2, () => {
      const n = rng.int(1, 6);
      const parts: Uint8Array[] = [];
      for (let i = 0; i < n; i++) parts.push(negotiation(rng, opts));
      return { bytes: cat(...parts), label: "negotiation", partial: false };
    }],
    [3, () => {
      const s = subneg(rng, opts);
      return { bytes: s.bytes, label: "subnegotiation", partial: s.partial };
    }],
    [1, () => ({ bytes: cat(IAC, IAC, "ÿ", IAC, rng.int(0, 255)), label: "iac", partial: false })],
    [2, () => {
      const l = enc.encode(line());
      const cut = rng.int(0, l.length);
      return { bytes: l.subarray(0, cut), label: "partial line", partial: true };
    }],
    [1, () => ({
      bytes: cat(
        rng.pick(["\r", "\n", "\r\r\n", "\n\r", "\0", "\r\0", "\x08\x7f", "\x1b[A"]),
        line(),
        "\r\n",
      ),
      label: "line ends",
      partial: false,
    })],
    [2, () => ({
      bytes: cat(
        "say ",
        rng.pick(INVALID_UTF8),
        fuzzString(rng).replace(/[\r\n]/g, ""),
        rng.pick(INVALID_UTF8),
        "\r\n",
      ),
      label: "invalid utf-8",
      partial: false,
    })],
    [
      1,
      () => ({
        bytes: cat("x".repeat(rng.pick([8193, 20_000, 70_000])), "\r\n"),
        label: "long line",
        partial: false,
      }),
    ],
    [1, () => ({ bytes: rng.bytes(rng.int(1, 200)), label: "random bytes", partial: true })],
  ]);
}

/** Hex of the first bytes of a chunk, for the report. */
export function hexPreview(b: Uint8Array, max = 96): string {
  const shown = [...b.subarray(0, max)].map((x) => x.toString(16).padStart(2, "0")).join(" ");
  return b.length > max ? `${shown} ... (${b.length} bytes)` : shown;
}
