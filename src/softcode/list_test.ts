/** Lists: extract()'s walk of a plain list against the colour-aware split of the whole list. */
import assert from "node:assert/strict";
import {
  countList,
  extractList,
  itemPosition,
  splitList,
  splitStyledList,
  splitTokens,
} from "./list.ts";
import {
  endState,
  M_ATTR,
  NORMAL,
  paletteMarker,
  slicesStyled,
  sliceStyled,
  styled,
  styledChars,
  withoutIdleResets,
} from "./markup.ts";

/** extract() as it was: every item split (colour kept), then the ones asked for joined. */
function reference(s: string, first: number, count: number, sep: string, osep: string): string {
  if (first < 1 || count < 1) return "";
  return splitStyledList(s, sep).slice(first - 1, first - 1 + count).join(osep);
}

// Pieces a list is made of: words, every delimiter below, runs of spaces, wide and astral
// characters, and colour markers (which the walk must leave to the colour-aware split when they
// come before the last item taken, and may ignore after it).
const PIECES = [
  "a",
  "bc",
  "word",
  " ",
  " ",
  "  ",
  "|",
  "::",
  ":",
  "ab",
  "日本",
  "é",
  "😀",
  "\uD83D",
  M_ATTR + "h",
  paletteMarker(1, false),
  NORMAL,
];
const SEPS = [" ", " ", "|", "::", ":", "ab", "a", "é", "😀", "\uD83D", "日", M_ATTR];
const OSEPS = [" ", "", "-", "|", "::", "😀"];

Deno.test("list: extractList() gives the whole-list split's answer on generated lists", () => {
  let seed = 48;
  // The high bits of a linear congruential stream: its low bits repeat in short cycles.
  const next = (n: number) => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) >>> 12) % n;
  let plain = 0;
  for (let t = 0; t < 40_000; t++) {
    const len = next(4) === 0 ? next(60) : next(14);
    // A quarter of the lists are plain: no marker anywhere; the rest may hold one anywhere.
    const pieces = next(4) === 0 ? PIECES.length - 3 : PIECES.length;
    let s = "";
    for (let i = 0; i < len; i++) s += PIECES[next(next(3) === 0 ? pieces : 4)];
    const sep = SEPS[next(SEPS.length)];
    const osep = next(3) === 0 ? sep : OSEPS[next(OSEPS.length)];
    const first = next(9) - 1;
    const count = next(5) === 0 ? 1e9 : next(9) - 1;
    if (!/[\uFDD0-\uFDD4]/.test(s)) plain++;
    assert.equal(
      extractList(s, first, count, sep, osep),
      reference(s, first, count, sep, osep),
      JSON.stringify({ s, first, count, sep, osep }),
    );
  }
  assert.ok(plain > 10_000, `${plain} plain lists`);
});

Deno.test("list: extractList() on edges: blank lists, ends, runs of spaces, colour", () => {
  const cases: [string, number, number, string, string, string][] = [
    ["", 1, 1, " ", " ", ""],
    ["   ", 1, 3, " ", " ", ""],
    ["", 1, 1, "|", "|", ""],
    ["|", 1, 2, "|", "-", "-"],
    ["  a   b  c ", 1, 3, " ", " ", "a b c"],
    ["  a   b  c ", 2, 1, " ", " ", "b"],
    ["a  b c d", 2, 2, " ", " ", "b c"],
    ["a b c", 3, 5, " ", "-", "c"],
    ["a b c", 4, 1, " ", " ", ""],
    ["a::b::c", 2, 2, "::", " ", "b c"],
    ["a:::b", 2, 1, "::", "::", ":b"],
    ["a b " + M_ATTR + "hc", 1, 2, " ", " ", "a b"],
    ["a " + M_ATTR + "hb c", 3, 1, " ", " ", M_ATTR + "hc" + NORMAL],
  ];
  for (const [s, first, count, sep, osep, want] of cases) {
    assert.equal(extractList(s, first, count, sep, osep), want, JSON.stringify(s));
    assert.equal(reference(s, first, count, sep, osep), want, JSON.stringify(s));
  }
});

Deno.test("list: countList() and itemPosition() give the split's answers on generated lists", () => {
  let seed = 51;
  const next = (n: number) => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) >>> 12) % n;
  // The words looked for: pieces, runs of them, and what no item is.
  const WORDS = ["", "a", "bc", "a bc", "word", "|", ":", "ab", "é", "\uD83D", "x"];
  let found = 0;
  for (let t = 0; t < 40_000; t++) {
    const len = next(4) === 0 ? next(40) : next(10);
    let s = "";
    for (let i = 0; i < len; i++) s += PIECES[next(next(3) === 0 ? PIECES.length : 7)];
    const sep = next(8) === 0 ? "" : SEPS[next(SEPS.length)];
    const items = splitList(s, sep);
    // A word taken from the list itself half the time, so most lists are searched to a hit.
    const word = next(2) === 0 && items.length
      ? items[next(items.length)]
      : WORDS[next(WORDS.length)];
    const at = JSON.stringify({ s, sep, word });
    assert.equal(countList(s, sep), items.length, at);
    // MUX's member(): an empty list is one empty item.
    assert.equal(itemPosition(s, sep, word), splitTokens(s, sep).indexOf(word) + 1, at);
    if (items.includes(word)) found++;
  }
  assert.ok(found > 15_000, `${found} words found`);
});

Deno.test("list: countList() and itemPosition() on edges", () => {
  assert.equal(countList("", " "), 0);
  assert.equal(countList("   ", " "), 0);
  assert.equal(countList("  a   b  c ", " "), 3);
  assert.equal(countList("", "|"), 0);
  assert.equal(countList("|", "|"), 2);
  assert.equal(countList("a:::b", "::"), 2);
  assert.equal(itemPosition("  a   b  c ", " ", "c"), 3);
  assert.equal(itemPosition("a b", " ", ""), 0);
  assert.equal(itemPosition("", " ", ""), 1);
  assert.equal(itemPosition("   ", " ", ""), 1);
  assert.equal(itemPosition("", "|", ""), 1);
  assert.equal(itemPosition("", " ", "a"), 0);
  assert.equal(itemPosition("a||b", "|", ""), 2);
  assert.equal(itemPosition("a:::b", "::", ":b"), 2);
  assert.equal(itemPosition("ab abc", " ", "abc"), 2);
  assert.equal(itemPosition("abc ab", " ", "ab"), 2);
});

/** withoutIdleResets() as first written: the colour read again from the last reset each time. */
function idleResetsReference(s: string): string {
  const st = styled(s);
  let out = "", codes = "", prev = "";
  for (let i = 0; i < st.chars.length; i++) {
    codes += st.codes[i];
    const state = endState(codes);
    if (state === "") codes = "";
    if (state !== prev) {
      if (state === "") out += NORMAL;
      else if (prev === "") out += state;
      else out += st.codes[i];
    }
    out += st.chars[i];
    prev = state;
  }
  return prev === "" ? out : out + NORMAL;
}

Deno.test("list: slicesStyled() gives sliceStyled()'s slices, the colour carried from one to the next", () => {
  let seed = 57;
  const next = (n: number) => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) >>> 12) % n;
  const colours = [
    M_ATTR + "h",
    M_ATTR + "u",
    M_ATTR + "i",
    NORMAL,
    paletteMarker(1, false),
    paletteMarker(4, true),
    paletteMarker(200, false),
  ];
  for (let t = 0; t < 20_000; t++) {
    let s = "";
    for (let i = next(40); i > 0; i--) {
      if (next(3) === 0) s += colours[next(colours.length)];
      s += "ab |é😀"[next(6)];
    }
    const st = styled(s);
    const n = st.chars.length;
    const ranges: [number, number][] = [];
    for (let at = 0; at <= n + 1 && ranges.length < 12;) {
      const a = at + next(4), b = a + next(6);
      ranges.push([a, b]);
      at = b;
    }
    assert.deepEqual(
      slicesStyled(st, ranges),
      ranges.map(([a, b]) => sliceStyled(st, a, b)),
      JSON.stringify({ s, ranges }),
    );
    assert.deepEqual(styledChars(st), st.chars.map((_, i) => sliceStyled(st, i, i + 1)), s);
    assert.equal(withoutIdleResets(s), idleResetsReference(s), s);
  }
});
