/**
 * Formatting: columns()'s walk of a plain list against the colour-aware way, and ljust()'s
 * padding cut from a fill's run against padEnd(), on generated texts.
 */
import assert from "node:assert/strict";
import { builtinFunctions } from "./mod.ts";
import { splitStyledList } from "../list.ts";
import { WorkBuffers } from "../buffers.ts";
import { isSimple, M_ATTR, NORMAL, paletteMarker, sliceVisible, visibleLength } from "../markup.ts";
import { justify, wrap, wrapLines } from "./format.ts";

/** columns() by TinyMUX 2.12's rule, item by item from the colour-aware split. */
function reference(s: string, width: number, sep: string, indent: number): string {
  const per = Math.max(1, Math.floor((78 - indent) / width));
  const words = splitStyledList(s, sep);
  const rows: string[] = [];
  for (let k = 0; k < words.length; k += per) {
    const row = words.slice(k, k + per).map((w, c) => {
      const len = visibleLength(w);
      if (len > width) return sliceVisible(w, 0, width);
      return c === per - 1 ? w : w + " ".repeat(width - len);
    });
    rows.push(" ".repeat(indent) + row.join(""));
  }
  return rows.length ? rows.join("\r\n") + "\r\n" : "";
}

// Words, delimiters, runs of spaces, wide and astral characters, colour markers.
const PIECES = [
  "a",
  "bc",
  "wordy",
  "longerword",
  " ",
  "  ",
  "|",
  "::",
  "日本",
  "é",
  "😀",
  M_ATTR + "h",
  paletteMarker(1, false),
  NORMAL,
];
const SEPS = [" ", " ", "|", "::", "😀", "é"];

Deno.test("format: columns() gives the colour-aware answer on generated lists", () => {
  const columns = builtinFunctions().get("COLUMNS")!;
  // One engine's work buffers for every call, as the engine's calls share them.
  const ev = { sc: { buffers: new WorkBuffers() } } as never;
  let seed = 48;
  // The high bits of a linear congruential stream: its low bits repeat in short cycles.
  const next = (n: number) => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) >>> 12) % n;
  let plain = 0;
  for (let t = 0; t < 20_000; t++) {
    const len = next(4) === 0 ? next(80) : next(16);
    // Half the lists are plain (no marker, no astral character); the rest may hold them.
    const pieces = next(2) === 0 ? PIECES.length - 4 : PIECES.length;
    let s = "";
    for (let i = 0; i < len; i++) s += PIECES[next(next(3) === 0 ? pieces : 5)];
    const sep = SEPS[next(SEPS.length)];
    const width = 1 + next(next(4) === 0 ? 40 : 8);
    const indent = next(3) === 0 ? next(78 - width) : 0;
    if (!/[\uD800-\uDFFF\uFDD0-\uFDD4]/.test(s)) plain++;
    const args = [s, String(width), sep, String(indent)];
    assert.equal(
      columns.impl(ev, undefined as never, args),
      reference(s, width, sep, indent),
      JSON.stringify({ s, width, sep, indent }),
    );
  }
  assert.ok(plain > 8_000, `${plain} plain lists`);
  // Texts that outgrow the buffer as they are written (copied over) and past its limit.
  for (
    const [s, width] of [["ab ".repeat(3000), 30], ["|".repeat(1000), 78], ["x|".repeat(700), 60]]
  ) {
    for (const sep of [" ", "|"]) {
      const indent = width === 78 ? 0 : 3;
      const args = [s as string, String(width), sep, String(indent)];
      assert.equal(
        columns.impl(ev, undefined as never, args),
        reference(s as string, width as number, sep, indent),
        `${sep} ${width}`,
      );
    }
  }
});

/** ljust()'s, rjust()'s and center()'s plain way as it was: padEnd(), padStart(), repeat(). */
function justifyBefore(
  s: string,
  width: number,
  align: "l" | "r" | "c",
  fill: string,
  cut: boolean,
): string {
  if (fill.length !== 1 || !isSimple(s) || !isSimple(fill)) {
    return justify(s, width, align, fill, cut);
  }
  const n = s.length;
  if (n >= width) return cut && n > width ? s.slice(0, width) : s;
  if (align === "l") return s.padEnd(width, fill);
  if (align === "r") return s.padStart(width, fill);
  const gap = width - n;
  const left = gap >> 1;
  return fill.repeat(left) + s + fill.repeat(gap - left);
}

Deno.test("format: justify() cuts padding from a fill's run as padEnd() and repeat() made it", () => {
  const fills = [" ", ".", "~", "!", "\x1f", "\x7f", "é", "日", "😀", "-=", ""];
  const texts = ["", "a", "so", "abcdefgh", "日本", "é".repeat(20), "x".repeat(90), "a😀"];
  let seed = 12;
  const next = (n: number) => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) >>> 12) % n;
  for (let t = 0; t < 20_000; t++) {
    const s = texts[next(texts.length)].slice(0, next(95));
    const width = next(next(3) === 0 ? 120 : 16);
    const align = (["l", "r", "c"] as const)[next(3)];
    const fill = fills[next(fills.length)];
    const cut = next(4) !== 0;
    assert.equal(
      justify(s, width, align, fill, cut),
      justifyBefore(s, width, align, fill, cut),
      JSON.stringify({ s, width, align, fill, cut }),
    );
  }
});

Deno.test("format: wrap() stops once its output passes the limit it is cut to, with the same start", () => {
  // 7,999 one-character lines, each after a hanging indent of 7,999: 64 million characters
  // were built to keep the first 8,000.
  const args = ["a".repeat(7999), "1", "l", "", "", "7999"];
  const limit = 7999;
  const cut = wrap(args, limit);
  assert.ok(cut.length <= limit + 2 * (7999 + 2) + 2, `${cut.length} characters`);
  assert.ok(cut.length > limit);
  // The same start as without a limit, on a text small enough to wrap whole.
  for (const [text, width, hang] of [["a b c d e f g h", "3", "5"], ["x\ty z%rw", "2", "0"]]) {
    const whole = wrap([text.replace("%r", "\n"), width, "l", "<", ">", hang]);
    for (const n of [1, 7, 20, whole.length]) {
      const part = wrap([text.replace("%r", "\n"), width, "l", "<", ">", hang], n);
      assert.equal(part.slice(0, n), whole.slice(0, n));
    }
  }
});

/** wrapLines() as it was: each long word's rest sliced again for each piece. */
function wrapLinesBefore(s: string, width: number): string[] {
  const out: string[] = [];
  for (const para of s.split(/\r?\n/)) {
    let line = "";
    for (const word of para.split(" ").filter((w) => w !== "")) {
      let w = word;
      while (visibleLength(w) > width) {
        if (line) {
          out.push(line);
          line = "";
        }
        out.push(sliceVisible(w, 0, width));
        w = sliceVisible(w, width, visibleLength(w));
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

Deno.test("format: wrapLines() (align()) cuts long words as it did, colour and all", () => {
  let seed = 57;
  const next = (n: number) => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) >>> 12) % n;
  for (let t = 0; t < 20_000; t++) {
    let s = "";
    for (let i = next(4) === 0 ? next(80) : next(20); i > 0; i--) {
      s += next(6) === 0 ? " " : PIECES[next(PIECES.length)];
    }
    const width = 1 + next(next(3) === 0 ? 12 : 4);
    assert.deepEqual(wrapLines(s, width), wrapLinesBefore(s, width), JSON.stringify({ s, width }));
  }
});
