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

/** Letter after `%c` → SGR escape. Lower case is foreground, upper case background. */
const COLOUR_CODES: Readonly<Record<string, string>> = Object.freeze(Object.fromEntries([
  ["n", RESET],
  ["h", `${ESC}[1m`],
  ...["x", "r", "g", "y", "b", "m", "c", "w"].flatMap((letter, i): [string, string][] => [
    [letter, `${ESC}[${30 + i}m`],
    [letter.toUpperCase(), `${ESC}[${40 + i}m`],
  ]),
]));

/**
 * What a piece of text is:
 * - `code`: a `%c?` colour code (zero width); value is its SGR escape
 * - `raw`: a raw ANSI CSI escape already in the text (zero width)
 * - `char`: one visible character; value is what it shows as (`%b` → " ", `%%` → "%")
 * - `nl`: a line break (`%r`, `%R` or "\n"); value is "\n"
 */
type PieceKind = "code" | "raw" | "char" | "nl";

/** Receives each piece in order; returning false stops the scan. */
type Visitor = (kind: PieceKind, src: string, value: string) => boolean | void;

function scan(text: string, visit: Visitor): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    let kind: PieceKind = "char";
    let len = 1;
    let value: string | undefined;
    if (c === 0x25 /* % */ && i + 1 < n) {
      const d = text[i + 1];
      if (d === "c" && i + 2 < n) {
        const letter = text[i + 2];
        if (Object.hasOwn(COLOUR_CODES, letter)) {
          value = COLOUR_CODES[letter];
          kind = "code";
          len = 3;
        }
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
    if (visit(kind, src, value ?? src) === false) return;
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

function asText(text: unknown): string {
  return typeof text === "string" ? text : "";
}

/**
 * Converts colour codes to ANSI SGR escapes, closing with a reset if colour was left on.
 * Raw escapes already in the text are dropped: only escapes we generate reach a terminal.
 * A `%cn` with no colour on is dropped too: every rendered text closes its own colour, so
 * the reset would change nothing, and `say`'s guard (`"hi%cn"`) then costs plain speech nothing.
 */
export function renderAnsi(text: string): string {
  if (typeof text === "string" && !NEEDS_RENDERING.test(text)) return text;
  const out: string[] = [];
  let open = false;
  scan(asText(text), (kind, src, value) => {
    if (kind === "code") {
      if (value === RESET && !open) return;
      out.push(value);
      open = value !== RESET;
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
  if (typeof text === "string" && !NEEDS_RENDERING.test(text)) return text;
  const out: string[] = [];
  scan(asText(text), (kind, src, value) => {
    if ((kind === "char" || kind === "nl") && !isTerminalControl(src)) out.push(value);
  });
  return out.join("");
}

/** renderAnsi or renderPlain, as a connection's colour setting says. */
export function renderText(text: string, colour: boolean): string {
  return colour ? renderAnsi(text) : renderPlain(text);
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
