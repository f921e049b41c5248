/**
 * Formatting functions: padding and aligning text (with fill), columns and tables, joining
 * with spaces. Widths are counted in visible characters, colour kept.
 */
import { define, readsOnly } from "./define.ts";
import type { FunctionDef } from "../types.ts";
import { isSimple, sliceVisible, styled, styledSlicer, visibleLength } from "../markup.ts";
import type { Styled } from "../markup.ts";
import { isInteger, toInt } from "../numbers.ts";
import { sepOf, splitList, splitStyledList } from "../list.ts";
import { closeColour } from "../markup.ts";
import type { WorkBuffers } from "../buffers.ts";

const MAX = 100;

/** Longest padding cut from a fill's run (a line's width). */
const RUN = 80;

/** For each printable ASCII character (from the space), RUN of it: constant, made once. */
const FILL_RUNS: readonly string[] = Array.from(
  { length: 0x7f - 0x20 },
  (_, i) => String.fromCharCode(0x20 + i).repeat(RUN),
);

/** `s` padded or cut to `width` visible characters, aligned, with a fill string. */
export function justify(
  s: string,
  width: number,
  align: "l" | "r" | "c",
  fill = " ",
  cut = true,
): string {
  if (fill.length === 1 && isSimple(s) && isSimple(fill)) {
    // Plain text and a one-character fill (most calls): padding is repetition.
    const n = s.length;
    if (n >= width) return cut && n > width ? s.slice(0, width) : s;
    const gap = width - n;
    const c = fill.charCodeAt(0) - 0x20;
    if (c >= 0 && c < FILL_RUNS.length && gap <= RUN) {
      // A printable ASCII fill: the padding cut from its run, where padEnd() and repeat()
      // made their result through several strings (ljust(##,12,.) 115 bytes, this 59).
      const run = FILL_RUNS[c];
      if (align === "l") return s + run.slice(0, gap);
      if (align === "r") return run.slice(0, gap) + s;
      const left = gap >> 1;
      return run.slice(0, left) + s + run.slice(0, gap - left);
    }
    if (align === "l") return s.padEnd(width, fill);
    if (align === "r") return s.padStart(width, fill);
    const left = gap >> 1;
    return fill.repeat(left) + s + fill.repeat(gap - left);
  }
  const len = visibleLength(s);
  if (len >= width) return cut && len > width ? sliceVisible(s, 0, width) : s;
  // The text's colour ends before the padding, as MUX pads.
  s = closeColour(s);
  const gap = width - len;
  const f = fill === "" ? " " : fill;
  const flen = visibleLength(f);
  // A fill of several characters is laid from the start of the line (TinyMUX 2.12): the
  // character at column c is the fill's (c mod its length)-th, so ljust(abc,6,-=) is abc=-=.
  const pad = (n: number, at: number) => {
    if (n <= 0) return "";
    const off = at % flen;
    return sliceVisible(f.repeat(Math.ceil((n + off) / flen)), off, off + n);
  };
  if (align === "l") return s + pad(gap, len);
  if (align === "r") return pad(gap, 0) + s;
  const left = Math.floor(gap / 2);
  return pad(left, 0) + s + pad(gap - left, left + len);
}

/** The formatting family, before FORMAT_LEAVES are marked. */
const formatDefs: FunctionDef[] = [
  define("ljust", 2, 3, {
    family: "formatting",
    args: "ljust(<text>, <width>[, <fill>])",
    summary:
      "The text padded on the right to the width with the fill (a space by default); cut when longer.",
    example: { think: "ljust(abc,6,.)", gives: "abc..." },
  }, (_ev, _f, args) => justifyFn(args, "l")),
  define("rjust", 2, 3, {
    family: "formatting",
    args: "rjust(<text>, <width>[, <fill>])",
    summary: "The text padded on the left to the width; cut when longer.",
    example: { think: "rjust(42,5,0)", gives: "00042" },
  }, (_ev, _f, args) => justifyFn(args, "r")),
  define("center", 2, 3, {
    family: "formatting",
    args: "center(<text>, <width>[, <fill>])",
    summary: "The text centred in the width; cut when longer.",
    example: { think: "center(hi,6,*)", gives: "**hi**" },
  }, (_ev, _f, args) => justifyFn(args, "c")),
  define("wrap", 1, 8, {
    family: "formatting",
    args:
      "wrap(<text>[, <width>[, <justify>[, <left text>[, <right text>[, <hanging>[, <output separator>[, <first width>]]]]]]])",
    summary:
      "The text word-wrapped to lines of the width (78 when not given), each padded and justified (left, right or center), with borders and a hanging indent.",
    example: {
      think: "wrap(the quick brown fox,10,right,|,|)",
      gives: "| the quick|\n| brown fox|",
    },
  }, (ev, _f, args) => wrap(args, ev.lbuf)),
  define("lpad", 2, 3, {
    family: "formatting",
    args: "lpad(<text>, <width>[, <fill>])",
    summary: "ljust(), but a text longer than the width is left whole.",
    example: { think: "lpad(abc,6,.)|[lpad(abcdef,3)]", gives: "abc...|abcdef" },
  }, (_ev, _f, args) => justifyFn(args, "l", false)),
  define("rpad", 2, 3, {
    family: "formatting",
    args: "rpad(<text>, <width>[, <fill>])",
    summary: "rjust(), but a text longer than the width is left whole.",
    example: { think: "rpad(7,3,0)", gives: "007" },
  }, (_ev, _f, args) => justifyFn(args, "r", false)),
  define("cpad", 2, 3, {
    family: "formatting",
    args: "cpad(<text>, <width>[, <fill>])",
    summary: "center(), but a text longer than the width is left whole.",
    example: { think: "cpad(hi,6,*)", gives: "**hi**" },
  }, (_ev, _f, args) => justifyFn(args, "c", false)),
  define("cat", 0, MAX, {
    family: "formatting",
    args: "cat(<text>[, <text>...])",
    summary: "The texts joined with spaces.",
    example: { think: "cat(a,b,c)", gives: "a b c" },
  }, (_ev, _f, args) => args.join(" ")),
  define("align", 2, 100, {
    family: "formatting",
    args: "align(<widths>, <column>...[, <filler>[, <column separator>[, <row separator>]]])",
    summary: "Columns side by side, each word-wrapped to its width: <n left, >n right, -n centred.",
    example: { think: "align(5 >5,abc,def)", gives: "abc     def" },
  }, (_ev, _f, args) => align(args)),
  define("table", 1, 6, {
    family: "formatting",
    args:
      "table(<list>[, <field width>[, <line width>[, <delimiter>[, <output separator>[, <fill>]]]]])",
    summary: "The items in rows of fixed-width fields (10 wide in 78 by default).",
    example: { think: "table(aaaaa bbbbb ccccc ddddd,5,11)", gives: "aaaaa bbbbb\nccccc ddddd" },
  }, (ev, _f, args) => {
    // As MUX 2.12: the separator and delimiter are one character each (colour counts), and
    // checked before the widths.
    if (args[4] && [...args[4]].length !== 1) return "#-1 SEPARATOR MUST BE ONE CHARACTER";
    if (args[3] && [...args[3]].length !== 1) return "#-1 DELIMITER MUST BE ONE CHARACTER";
    // MUX: an empty width or line length is 0, out of range like a field wider than the line.
    const width = args.length > 1 ? toInt(args[1]) : 10;
    const line = args.length > 2 ? toInt(args[2]) : 78;
    if (line < 1 || line > ev.lbuf || width < 1 || width > line) return "#-1 OUT OF RANGE";
    const sep = sepOf(args[3]);
    if (typeof sep !== "string") return sep.error;
    const osep = args[4] === undefined || args[4] === "" ? " " : args[4][0];
    const pad = args[5] || " ";
    // As many fields as the line holds, not counting their separators (TinyMUX 2.12's count).
    const cols = Math.floor(line / width);
    const words = splitList(args[0], sep);
    const rows: string[] = [];
    for (let i = 0; i < words.length; i += cols) {
      const row = words.slice(i, i + cols);
      rows.push(
        row.map((w) => {
          if (isSimple(w)) {
            const cut = w.slice(0, width);
            return cut + padTo(pad, width - cut.length);
          }
          // Cut by visible characters; the colour ends with the field, before its padding.
          const cut = closeColour(sliceVisible(w, 0, width));
          return cut + padTo(pad, width - visibleLength(cut));
        }).join(osep),
      );
    }
    return rows.join("\r\n");
  }),
  define("columns", 2, 4, {
    family: "formatting",
    args: "columns(<list>, <width>[, <delimiter>[, <indent>]])",
    summary: "The items in columns of the width, as many as fit in 78 characters after the indent.",
    example: { think: "columns(a b c,4)", gives: "a   b   c   \n" },
  }, (ev, _f, args) => {
    const width = toInt(args[1]);
    if (width < 1 || width > 78) return "#-1 OUT OF RANGE";
    const sep = sepOf(args[2]);
    if (typeof sep !== "string") return sep.error;
    // TinyMUX 2.12: an indent out of 0-77 is 1; an indent and width wider than 78 are refused.
    let indent = toInt(args[3] ?? "0");
    if (indent < 0 || indent > 77) indent = 1;
    if (width + indent > 78) return "#-1 OUT OF RANGE";
    const per = Math.max(1, Math.floor((78 - indent) / width));
    return columnsPlain(args[0], width, sep, indent, per, ev.sc.buffers) ??
      columnsStyled(args[0], width, sep, indent, per);
  }),
];

/** The formatting functions whose code reads only their arguments (FunctionDef.reads "args"). */
const FORMAT_LEAVES = ["ljust", "rjust", "center"];

/** The formatting family. */
export const formatFunctions: FunctionDef[] = readsOnly(formatDefs, FORMAT_LEAVES, "args");

/** Largest columns() text made in the work buffer; a longer one is made the general way. */
const MAX_COLUMNS_BYTES = 65536;

/**
 * columns() of an ASCII list: the fields' bytes written into the engine's work buffer as the
 * list's text is walked and made a string once, where a string was made for each item, its cut
 * and its padding (20 KiB of garbage for 200 words). Null when an item is not ASCII (colour,
 * wide and astral characters are measured the general way), the delimiter holds a marker or
 * half a surrogate pair, or the text would pass MAX_COLUMNS_BYTES. The last field of a full
 * row is not padded (TinyMUX 2.12): no spaces before the break.
 */
function columnsPlain(
  s: string,
  width: number,
  sep: string,
  indent: number,
  per: number,
  buffers: WorkBuffers,
): string | null {
  if (!isSimple(sep)) return null;
  const n = s.length, spaced = sep === " ";
  if (n === 0) return "";
  // A field's most bytes: a line break, the indent, the field, the last line break.
  const most = width + indent + 4;
  let buf = buffers.bytes(n + most);
  let o = 0, k = 0;
  // Each turn takes one item, [i, j); every turn moves i on, to at most n + sep.length.
  for (let i = 0;;) {
    let j = i;
    if (spaced) {
      while (i < n && s.charCodeAt(i) === 0x20) i++;
      if (i >= n) break;
      for (j = i; j < n; j++) {
        const c = s.charCodeAt(j);
        if (c === 0x20) break;
        if (c > 0x7f) return null;
      }
    } else {
      if (i > n) break;
      j = s.indexOf(sep, i);
      if (j < 0) j = n;
      for (let q = i; q < j; q++) if (s.charCodeAt(q) > 0x7f) return null;
    }
    if (o + most > buf.length) {
      if (o + most > MAX_COLUMNS_BYTES) return null;
      // The buffer grows into a new one: what is written so far is copied over.
      const grown = buffers.bytes(2 * (o + most));
      grown.set(buf.subarray(0, o));
      buf = grown;
    }
    const col = k % per;
    if (col === 0) {
      if (k) {
        buf[o++] = 0x0d;
        buf[o++] = 0x0a;
      }
      for (let q = 0; q < indent; q++) buf[o++] = 0x20;
    }
    const end = j - i > width ? i + width : j;
    for (let q = i; q < end; q++) buf[o++] = s.charCodeAt(q);
    if (col !== per - 1) {
      for (let q = end - i; q < width; q++) buf[o++] = 0x20;
    }
    k++;
    i = spaced ? j : j + sep.length;
  }
  if (k === 0) return "";
  buf[o++] = 0x0d;
  buf[o++] = 0x0a;
  return buffers.ascii(o);
}

/**
 * columns() of any list: each item in the colour in force where it starts (as extract() takes
 * it), cut and padded by visible characters, the padding uncoloured (TinyMUX 2.12).
 */
function columnsStyled(
  s: string,
  width: number,
  sep: string,
  indent: number,
  per: number,
): string {
  const words = splitStyledList(s, sep);
  const ind = " ".repeat(indent);
  let out = "";
  for (let k = 0; k < words.length; k++) {
    const col = k % per;
    if (col === 0) out += k ? "\r\n" + ind : ind;
    const w = words[k];
    const len = visibleLength(w);
    if (len >= width) out += len > width ? sliceVisible(w, 0, width) : w;
    else out += col === per - 1 ? w : w + " ".repeat(width - len);
  }
  return words.length ? out + "\r\n" : "";
}

/** A styled text with each tab made spaces up to the next multiple of eight (wrap()'s tabs). */
function tabsExpanded(st: Styled): Styled {
  if (!st.chars.includes("\t")) return st;
  const chars: string[] = [], codes: string[] = [];
  st.chars.forEach((ch, i) => {
    if (ch !== "\t") {
      chars.push(ch);
      codes.push(st.codes[i]);
      return;
    }
    const n = 8 - (chars.length % 8);
    for (let k = 0; k < n; k++) {
      chars.push(" ");
      codes.push(k === 0 ? st.codes[i] : "");
    }
  });
  return { chars, codes, tail: st.tail };
}

/** Widest wrap() line (MUX refuses wider ones). */
const MAX_WRAP = 7999;

/**
 * MUX's wrap(): the text's words filled into lines of `width` (the first `width1`), each
 * justified and padded to its width, between `left` and `right`, later lines after `hanging`
 * spaces; `%r` starts a line, a word longer than a line is cut, a tab is spaces up to the next
 * multiple of 8, and runs of spaces are kept inside a line. Lines stop once the output is longer
 * than `limit`, which the result is cut to: 8,000 lines of a hanging indent of 7,999 were built
 * (128 MB, over a second in one call) to keep 8,000 characters of them.
 */
export function wrap(args: string[], limit = Infinity): string {
  // As MUX: no width, or an empty one, is 78.
  const width = args[1] === undefined || args[1] === "" ? 78 : toInt(args[1]);
  const first = args[7] === undefined || args[7].trim() === "" ? width : toInt(args[7]);
  if (width < 1 || width > MAX_WRAP || first < 1 || first > MAX_WRAP) return "#-1 OUT OF RANGE";
  const how = (args[2] ?? "").toLowerCase()[0] ?? "l";
  if (how !== "l" && how !== "r" && how !== "c") return "#-1 INVALID JUSTIFICATION SPECIFIED";
  const left = args[3] ?? "", right = args[4] ?? "";
  const hang = " ".repeat(Math.max(0, Math.min(MAX_WRAP, toInt(args[5] ?? "0"))));
  const osep = args[6] === undefined || args[6] === "" ? "\r\n" : args[6];
  const text = args[0].replace(/(?:\r\n|\n)$/, "");
  if (visibleLength(text) === 0) return "";
  const lines: string[] = [];
  let room = first;
  let length = 0;
  const push = (line: string) => {
    const at = lines.length;
    const full = (at ? hang : "") + left + justify(line, room, how, " ") + right;
    lines.push(full);
    length += full.length + (at ? osep.length : 0);
    room = width;
  };
  for (const para of text.split(/\r?\n/)) {
    if (length > limit) break;
    const st = tabsExpanded(styled(para));
    const chars = st.chars, n = chars.length;
    // A line's trailing spaces go (MUX justifies the line without them).
    // Lines are cut in order: the colour in force is carried from one to the next.
    const slice = styledSlicer(st);
    const cut = (a: number, b: number) => {
      while (b > a && chars[b - 1] === " ") b--;
      return slice(a, b);
    };
    if (n === 0) push("");
    // As MUX: spaces are kept as they are; a line ends at the space just past it, else at the
    // last space inside it that has more than spaces before it, else it is cut at its width;
    // the one space it ends at is dropped.
    for (let at = 0; at < n && length <= limit;) {
      const end = at + room;
      if (end >= n) {
        push(cut(at, n));
        break;
      }
      if (chars[end] === " ") {
        push(cut(at, end));
        at = end + 1;
        continue;
      }
      let sp = end - 1;
      while (sp > at && chars[sp] !== " ") sp--;
      let words = false;
      for (let i = at; i < sp && !words; i++) words = chars[i] !== " ";
      if (sp > at && words) {
        push(cut(at, sp));
        at = sp + 1;
      } else {
        push(cut(at, end));
        at = end;
      }
    }
  }
  return lines.join(osep);
}

function justifyFn(args: string[], align: "l" | "r" | "c", cut = true): string {
  // TinyMUX 2.12: a width that is not an integer, or 0, gives nothing; a negative one, or one
  // as long as the buffer, is out of range.
  if (!isInteger(args[1])) return "";
  const width = toInt(args[1]);
  if (width === 0) return "";
  if (width < 0 || width > 7999) return "#-1 OUT OF RANGE";
  return justify(args[0], width, align, args[2] || " ", cut);
}

/** Words of a text wrapped to `width` visible characters (long words cut). */
export function wrapLines(s: string, width: number): string[] {
  const out: string[] = [];
  for (const para of s.split(/\r?\n/)) {
    let line = "";
    for (const word of para.split(" ").filter((w) => w !== "")) {
      let w = word;
      const len = visibleLength(w);
      if (len > width) {
        if (line) {
          out.push(line);
          line = "";
        }
        // Cut in one walk, the colour carried from piece to piece: each piece's sliceVisible of
        // the rest made a long coloured word O(n²) (align(1,...) of 1,200 coloured characters).
        const slice = isSimple(word)
          ? (a: number, b: number) => word.slice(a, b)
          : styledSlicer(styled(word));
        let at = 0;
        for (; len - at > width; at += width) out.push(slice(at, at + width));
        w = slice(at, len);
      }
      if (!line) line = w;
      else if (visibleLength(line) + 1 + visibleLength(w) <= width) line += " " + w;
      else {
        out.push(line);
        line = w;
      }
    }
    out.push(line);
  }
  return out;
}

/**
 * PennMUSH's align() (TinyMUX 2.12 has none): columns of the given widths side by side, each
 * word-wrapped, `<` left (default), `>` right, `-` centred.
 */
function align(args: string[]): string {
  const specs = args[0].trim().split(/\s+/).filter((w) => w !== "");
  const n = specs.length;
  if (!n || args.length < n + 1 || args.length > n + 4) {
    return `#-1 FUNCTION (ALIGN) EXPECTS BETWEEN ${n + 1} AND ${n + 4} ARGUMENTS`;
  }
  const cols = specs.map((spec, i) => {
    const m = /^([<>-]?)(\d+)/.exec(spec);
    const width = m ? Math.min(Number(m[2]), 7999) : 0;
    const how = m?.[1] === ">" ? "r" : m?.[1] === "-" ? "c" : "l";
    return {
      width,
      how: how as "l" | "r" | "c",
      lines: width ? wrapLines(args[i + 1], width) : [],
    };
  });
  if (cols.some((c) => c.width < 1)) return "#-1 INVALID WIDTH";
  const filler = args[n + 1] || " ";
  const colsep = args[n + 2] ?? " ";
  const rowsep = args[n + 3] ?? "\r\n";
  const rows = Math.max(...cols.map((c) => c.lines.length));
  const out: string[] = [];
  for (let r = 0; r < rows; r++) {
    out.push(cols.map((c) => justify(c.lines[r] ?? "", c.width, c.how, filler)).join(colsep));
  }
  return out.join(rowsep);
}

function padTo(fill: string, n: number): string {
  if (n <= 0) return "";
  return fill.repeat(Math.ceil(n / fill.length)).slice(0, n);
}
