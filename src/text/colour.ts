/**
 * MUSH colour codes (`%ch`, `%cr`, `%cR`, ...) and the layout helpers that must count only
 * visible characters.
 *
 * Every function here is a single linear pass over the text and never throws: they run on
 * player-written text (poses, names, descriptions) on every send.
 *
 * Widths are counted in code points, so an astral character (emoji) is one column.
 */

const ESC = "\x1b";
const RESET = `${ESC}[0m`;

/**
 * How many colours a client shows: none, the 16 ANSI colours, xterm's 256, or any RGB
 * (src/text/colour_mode.ts decides for telnet; the browser shows every RGB colour).
 */
export type ColourDepth = 0 | 16 | 256 | 16777216;

const BASIC = "xrgybmcw";

/**
 * A colour code once read: `n` normal, `h` highlight, `u` underline, `f` flash, `i` inverse,
 * or a colour (`fg`/`bg`) that is a basic index 0–7 or an RGB value.
 */
export type ColourCode =
  | { kind: "n" | "h" | "u" | "f" | "i" }
  | { kind: "fg" | "bg"; index: number; rgb: null }
  | { kind: "fg" | "bg"; index: -1; rgb: readonly [number, number, number] };

/**
 * Reads the MUX colour code at `i` (`%c` or `%x` with a letter, `%x<#rrggbb>`, `%X<R G B>`):
 * the code and its length, or null. Lower-case colour letters are foreground, upper-case
 * background; in the `<...>` forms the case of `x`/`c` decides.
 */
export function readColourCode(text: string, i: number): { code: ColourCode; len: number } | null {
  const kind = text[i + 1];
  if (kind !== "c" && kind !== "x" && kind !== "C" && kind !== "X") return null;
  const letter = text[i + 2];
  if (letter === undefined) return null;
  if (letter === "<") {
    const close = text.indexOf(">", i + 3);
    if (close < 0 || close - i > 20) return null;
    const rgb = parseRgbSpec(text.slice(i + 3, close));
    if (!rgb) return null;
    const bg = kind === "C" || kind === "X";
    return { code: { kind: bg ? "bg" : "fg", index: -1, rgb }, len: close + 1 - i };
  }
  if (letter === "n" || letter === "h" || letter === "u" || letter === "f" || letter === "i") {
    return { code: { kind: letter }, len: 3 };
  }
  const fg = BASIC.indexOf(letter);
  if (fg >= 0) return { code: { kind: "fg", index: fg, rgb: null }, len: 3 };
  const bg = BASIC.toUpperCase().indexOf(letter);
  if (bg >= 0) return { code: { kind: "bg", index: bg, rgb: null }, len: 3 };
  return null;
}

/** `#RRGGBB` or `R G B` (0–255 each), as MUX writes RGB colours; null otherwise. */
function parseRgbSpec(spec: string): [number, number, number] | null {
  if (/^#[0-9a-fA-F]{6}$/.test(spec)) {
    const n = parseInt(spec.slice(1), 16);
    return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  }
  const m = /^(\d{1,3}) (\d{1,3}) (\d{1,3})$/.exec(spec);
  if (!m) return null;
  const v = [Number(m[1]), Number(m[2]), Number(m[3])];
  return v.every((x) => x <= 255) ? v as [number, number, number] : null;
}

/** The xterm colour cube and grey ramp (entries 16–255), and the 16 system colours. */
function paletteRgb(n: number): [number, number, number] {
  if (n < 16) {
    const v = n < 8 ? 0xbb : 0xff, lo = n < 8 ? 0 : 0x55;
    return [n & 1 ? v : lo, n & 2 ? v : lo, n & 4 ? v : lo];
  }
  if (n < 232) {
    const level = [0, 95, 135, 175, 215, 255];
    const c = n - 16;
    return [level[Math.floor(c / 36)], level[Math.floor(c / 6) % 6], level[c % 6]];
  }
  const g = 8 + 10 * (n - 232);
  return [g, g, g];
}

/** The palette entry (of the first `size`) nearest an RGB colour, as the eye weighs it. */
export function nearestColour(rgb: readonly number[], size: 16 | 256): number {
  let best = 0, bestD = Infinity;
  for (let n = 0; n < size; n++) {
    const p = paletteRgb(n);
    const dr = rgb[0] - p[0], dg = rgb[1] - p[1], db = rgb[2] - p[2];
    const y = 0.299 * dr + 0.587 * dg + 0.114 * db;
    const u = -0.169 * dr - 0.331 * dg + 0.5 * db;
    const v = 0.5 * dr - 0.419 * dg - 0.081 * db;
    const d = 4 * y * y + u * u + v * v;
    if (d < bestD) {
      bestD = d;
      best = n;
    }
  }
  return best;
}

/** The SGR escape of a code for a client of `depth` colours ("" when it shows none). */
export function sgrOf(code: ColourCode, depth: ColourDepth): string {
  if (depth === 0) return "";
  switch (code.kind) {
    case "n":
      return RESET;
    case "h":
      return `${ESC}[1m`;
    case "u":
      return `${ESC}[4m`;
    case "f":
      return `${ESC}[5m`;
    case "i":
      return `${ESC}[7m`;
  }
  const base = code.kind === "fg" ? 30 : 40;
  if (code.rgb === null) return `${ESC}[${base + code.index}m`;
  const [r, g, b] = code.rgb;
  if (depth === 16777216) return `${ESC}[${base + 8};2;${r};${g};${b}m`;
  if (depth === 256) return `${ESC}[${base + 8};5;${nearestColour(code.rgb, 256)}m`;
  const n = nearestColour(code.rgb, 16);
  return n < 8 ? `${ESC}[${base + n}m` : `${ESC}[${base + 60 + n - 8}m`;
}

/**
 * What a piece of text is:
 * - `code`: a colour code (zero width); value is its 16-colour SGR escape
 * - `raw`: a raw ANSI CSI escape already in the text (zero width)
 * - `char`: one visible character; value is what it shows as (`%b` → " ", `%%` → "%")
 * - `nl`: a line break (`%r`, `%R` or "\n"); value is "\n"
 */
type PieceKind = "code" | "raw" | "char" | "nl";

/** Receives each piece in order (`code` set for colour codes); returning false stops. */
type Visitor = (kind: PieceKind, src: string, value: string, code?: ColourCode) => boolean | void;

function scan(text: string, visit: Visitor): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    let kind: PieceKind = "char";
    let len = 1;
    let value: string | undefined;
    let code: ColourCode | undefined;
    if (c === 0x25 /* % */ && i + 1 < n) {
      const d = text[i + 1];
      const read = readColourCode(text, i);
      if (read) {
        code = read.code;
        kind = "code";
        len = read.len;
        value = sgrOf(code, 16);
      } else if (d === "r" || d === "R") {
        kind = "nl";
        len = 2;
        value = "\n";
      } else if (d === "t" || d === "T") {
        len = 2;
        value = "\t";
      } else if (d === "b" || d === "B") {
        len = 2;
        value = " ";
      } else if (d === "%") {
        len = 2;
        value = "%";
      }
      // Anything else (`%n`, unknown `%cq`, ...) falls through as a literal "%" so the rest
      // of the sequence stays visible and untouched.
    } else if (c === 0x1b && text.charCodeAt(i + 1) === 0x5b /* [ */) {
      const end = csiEnd(text, i);
      if (end > 0) {
        kind = "raw";
        len = end - i;
      }
    } else if (c === 0x0a) {
      kind = "nl";
    } else if (
      c >= 0xd800 && c <= 0xdbff && i + 1 < n &&
      text.charCodeAt(i + 1) >= 0xdc00 && text.charCodeAt(i + 1) <= 0xdfff
    ) {
      len = 2;
    }
    const src = text.slice(i, i + len);
    if (visit(kind, src, value ?? src, code) === false) return;
    i += len;
  }
}

/** Index just past a complete CSI sequence starting at `i`, or -1 when it is incomplete. */
function csiEnd(text: string, i: number): number {
  let j = i + 2;
  while (j < text.length) {
    const d = text.charCodeAt(j);
    if (d < 0x20 || d > 0x3f) break;
    j++;
  }
  const final = text.charCodeAt(j);
  return final >= 0x40 && final <= 0x7e ? j + 1 : -1;
}

// Input is sanitised (src/text/sanitize.ts), but text stored before that, or written by code,
// may still hold a control character (a lone CR rewrites the line on screen; U+009B is a
// one-character CSI on some terminals) or a bidi override: none may reach a terminal.
function isTerminalControl(src: string): boolean {
  const c = src.charCodeAt(0);
  return (c < 0x20 && c !== 0x09 && c !== 0x0a) || (c >= 0x7f && c <= 0x9f) ||
    (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
}

/**
 * What the renderers change: a `%` sequence, an escape, a control character, a bidi override.
 * Text without any (most lines players type and read) renders as itself, without a scan.
 */
// deno-lint-ignore no-control-regex
const NEEDS_RENDERING = /[%\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;

/**
 * Text whose only sequence to render is one `%cn` (`say`'s, `pose`'s and `page`'s guard on plain
 * speech: `Bob says, "hi%cn"`): the text without it, which is what the scan makes of it (a reset
 * with no colour on is dropped), without a piece and a call per character; null for anything
 * else.
 */
function plainAroundReset(text: string): string | null {
  const at = text.indexOf("%cn");
  if (at < 0) return null;
  const before = text.slice(0, at), after = text.slice(at + 3);
  return NEEDS_RENDERING.test(before) || NEEDS_RENDERING.test(after) ? null : before + after;
}

function asText(text: unknown): string {
  return typeof text === "string" ? text : "";
}

/**
 * Converts colour codes to ANSI SGR escapes for a client of `depth` colours (default the 16
 * ANSI colours: 256-colour and RGB codes are reduced to the nearest), closing with a reset if
 * colour was left on. Raw escapes already in the text are dropped: only escapes we generate
 * reach a terminal. A `%cn` with no colour on is dropped too: every rendered text closes its
 * own colour, so the reset would change nothing, and `say`'s guard (`"hi%cn"`) then costs
 * plain speech nothing.
 */
export function renderAnsi(text: string, depth: ColourDepth = 16): string {
  if (typeof text === "string") {
    if (!NEEDS_RENDERING.test(text)) return text;
    const plain = plainAroundReset(text);
    if (plain !== null) return plain;
  }
  if (depth === 0) return renderPlain(text);
  const out: string[] = [];
  let open = false;
  scan(asText(text), (kind, src, value, code) => {
    if (kind === "code") {
      const reset = code!.kind === "n";
      if (reset && !open) return;
      out.push(depth === 16 ? value : sgrOf(code!, depth));
      open = !reset;
    } else if (kind !== "raw" && !isTerminalControl(src)) {
      out.push(value);
    }
  });
  if (open) out.push(RESET);
  return out.join("");
}

/**
 * Renders for a terminal without colour: like renderAnsi (codes translated, controls and raw
 * escapes dropped) but with no SGR escape at all.
 */
export function renderPlain(text: string): string {
  if (typeof text === "string") {
    if (!NEEDS_RENDERING.test(text)) return text;
    const plain = plainAroundReset(text);
    if (plain !== null) return plain;
  }
  const out: string[] = [];
  scan(asText(text), (kind, src, value) => {
    if ((kind === "char" || kind === "nl") && !isTerminalControl(src)) out.push(value);
  });
  return out.join("");
}

/**
 * renderAnsi or renderPlain, as a connection's colour setting says: `true` is the 16 ANSI
 * colours, a number the colours its client shows.
 */
export function renderText(text: string, colour: boolean | ColourDepth): string {
  const depth: ColourDepth = colour === true ? 16 : colour === false ? 0 : colour;
  return depth ? renderAnsi(text, depth) : renderPlain(text);
}

/**
 * Puts `indent` after every line break (`%r`, `%R`, "\n") of the text, leaving the rest as it
 * is: continuation lines of a player's speech start indented, so they cannot pass for a new
 * message (a page, a channel line) from someone else.
 */
export function indentContinuations(text: string, indent: string): string {
  const src = asText(text);
  if (!/%[rR]|\n/.test(src)) return src;
  const out: string[] = [];
  scan(src, (kind, piece) => {
    out.push(piece);
    if (kind === "nl") out.push(indent);
  });
  return out.join("");
}

/** Removes colour codes and raw ANSI escapes; `%r`, `%t`, `%b` and `%%` are still translated. */
export function stripColour(text: string): string {
  const out: string[] = [];
  scan(asText(text), (kind, _src, value) => {
    if (kind === "char" || kind === "nl") out.push(value);
  });
  return out.join("");
}

/** Number of visible characters (code points) once colour is stripped. */
export function visibleLength(text: string): number {
  let count = 0;
  scan(asText(text), (kind) => {
    if (kind === "char" || kind === "nl") count++;
  });
  return count;
}

/** Largest width padVisible will pad to, so a bogus width cannot allocate gigabytes. */
const MAX_PAD_WIDTH = 65_536;

/**
 * Pads with spaces, or truncates, to exactly `width` visible characters, keeping colour codes.
 * A truncated text that ends inside a colour gets a `%cn` so the colour does not bleed on.
 */
export function padVisible(
  text: string,
  width: number,
  align: "left" | "right" | "center" = "left",
): string {
  const src = asText(text);
  if (width === Infinity) return src;
  const w = Number.isNaN(width) ? 0 : Math.min(MAX_PAD_WIDTH, Math.max(0, Math.floor(width)));
  const len = visibleLength(src);
  if (len <= w) {
    const gap = w - len;
    if (align === "right") return " ".repeat(gap) + src;
    if (align === "center") {
      const left = Math.floor(gap / 2);
      return " ".repeat(left) + src + " ".repeat(gap - left);
    }
    return src + " ".repeat(gap);
  }
  if (w === 0) return "";
  const out: string[] = [];
  let count = 0;
  let open = false;
  scan(src, (kind, piece, value) => {
    out.push(piece);
    if (kind === "code") {
      open = value !== RESET;
    } else if (kind === "raw") {
      if (piece.endsWith("m")) open = piece !== RESET && piece !== `${ESC}[m`;
    } else if (++count >= w) {
      return false;
    }
  });
  if (open) out.push("%cn");
  return out.join("");
}

/**
 * Word-wraps to `width` columns (at least 10), counting only visible characters.
 *
 * Existing line breaks (`\n`, `%r`) are kept as written; new breaks are "\n". Only a plain
 * space is a break opportunity (`%b` is a non-breaking space). Spaces at a new break are
 * dropped, as are trailing spaces on a line; colour codes are never dropped. A word wider
 * than the line is hard-split.
 */
export function wrapText(text: string, width: number): string {
  const w = Number.isNaN(width) ? 10 : Math.max(10, Math.floor(width));
  const out: string[] = [];
  let col = 0;
  let lineStart = true; // no word of the current source line placed yet
  // The run of spaces (and the codes inside it) since the last word. Pieces are joined, never
  // spread into push(), because a spread of 100k arguments overflows the stack.
  let gapSpaces = 0;
  let gapRaw: string[] = [];
  let gapCodes: string[] = [];
  // The word being collected: pieces with their widths (0 for codes, 1 for characters).
  let word: string[] = [];
  let wordWidths: number[] = [];
  let wordWidth = 0;

  const resetGap = () => {
    gapSpaces = 0;
    gapRaw = [];
    gapCodes = [];
  };

  const flushWord = () => {
    if (word.length === 0) return;
    if (lineStart) {
      // Indentation survives when the first word still fits after it.
      if (gapSpaces + wordWidth <= w) {
        out.push(gapRaw.join(""));
        col = gapSpaces;
      } else {
        out.push(gapCodes.join(""));
      }
      lineStart = false;
    } else if (col + gapSpaces + wordWidth <= w) {
      out.push(gapRaw.join(""));
      col += gapSpaces;
    } else {
      // Codes from the dropped gap open the new line, where they take effect.
      out.push("\n", gapCodes.join(""));
      col = 0;
    }
    for (let k = 0; k < word.length; k++) {
      if (wordWidths[k] > 0) {
        if (col >= w) {
          out.push("\n");
          col = 0;
        }
        col++;
      }
      out.push(word[k]);
    }
    resetGap();
    word = [];
    wordWidths = [];
    wordWidth = 0;
  };

  const endLine = () => {
    flushWord();
    out.push(gapCodes.join(""));
    resetGap();
  };

  scan(asText(text), (kind, src) => {
    if (kind === "nl") {
      endLine();
      out.push(src);
      col = 0;
      lineStart = true;
    } else if (kind === "char" && src === " ") {
      flushWord();
      gapSpaces++;
      gapRaw.push(src);
    } else if (kind === "char") {
      word.push(src);
      wordWidths.push(1);
      wordWidth++;
    } else if (word.length > 0) {
      word.push(src);
      wordWidths.push(0);
    } else {
      gapRaw.push(src);
      gapCodes.push(src);
    }
  });
  endLine();
  return out.join("");
}
