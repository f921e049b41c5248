import assert from "node:assert/strict";
import {
  indentContinuations,
  padVisible,
  renderAnsi,
  renderPlain,
  renderText,
  stripColour,
  visibleLength,
  wrapText,
} from "./colour.ts";

const E = "\x1b[";

Deno.test("renderAnsi: plain text is unchanged", () => {
  assert.equal(renderAnsi("hello world"), "hello world");
  assert.equal(renderAnsi(""), "");
});

Deno.test("renderAnsi: foreground colours", () => {
  const letters = "xrgybmcw";
  for (let i = 0; i < letters.length; i++) {
    assert.equal(renderAnsi(`%c${letters[i]}a%cn`), `${E}${30 + i}ma${E}0m`);
  }
});

Deno.test("renderAnsi: background colours are upper case", () => {
  const letters = "XRGYBMCW";
  for (let i = 0; i < letters.length; i++) {
    assert.equal(renderAnsi(`%c${letters[i]}a%cn`), `${E}${40 + i}ma${E}0m`);
  }
});

Deno.test("renderAnsi: highlight and reset", () => {
  assert.equal(renderAnsi("%ch%crBold red%cn plain"), `${E}1m${E}31mBold red${E}0m plain`);
});

Deno.test("renderAnsi: appends a reset when colour is left on", () => {
  assert.equal(renderAnsi("%crred"), `${E}31mred${E}0m`);
  assert.equal(renderAnsi("%cr%cnx%ch"), `${E}31m${E}0mx${E}1m${E}0m`);
  assert.equal(renderAnsi("%crred%cn"), `${E}31mred${E}0m`);
});

Deno.test("renderAnsi: a reset with no colour on is dropped, one that closes a colour is kept", () => {
  assert.equal(renderAnsi("%cnplain"), "plain");
  assert.equal(renderAnsi('Bob says, "hi%cn"'), 'Bob says, "hi"');
  assert.equal(renderAnsi("%cn%cnplain%cn"), "plain");
  assert.equal(renderAnsi('Bob says, "%crhi%cn"'), `Bob says, "${E}31mhi${E}0m"`);
  assert.equal(renderAnsi("%ch%cnA%cnB"), `${E}1m${E}0mAB`);
  assert.equal(renderAnsi("%cr"), `${E}31m${E}0m`);
});

Deno.test("renderAnsi, renderPlain: text ending with a %cn renders as the full scan does", () => {
  // t + "%cn" (taken without a scan when nothing before it needs rendering) against
  // t + "%cn%b" (always scanned), less the space the %b gives.
  const parts = [
    "a",
    "Bob says, ",
    '"',
    "%",
    "%%",
    "%c",
    "%cr",
    "%ch",
    "%cn",
    "\x07",
    "é",
    " ",
    "%r",
    "\n",
  ];
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) % parts.length;
  for (let i = 0; i < 3000; i++) {
    let t = "";
    for (let k = i % 7; k > 0; k--) t += parts[next()];
    for (const render of [renderAnsi, (x: string) => renderAnsi(x, 256), renderPlain]) {
      assert.equal(render(t + "%cn"), render(t + "%cn%b").slice(0, -1), JSON.stringify(t));
    }
  }
  assert.equal(renderPlain('Ann says, "hi%cn"'), 'Ann says, "hi"');
  assert.equal(renderAnsi('Ann says, "hi%cn"'), 'Ann says, "hi"');
  assert.equal(renderAnsi("a%%cn"), "a%cn");
  assert.equal(renderAnsi("a\x07b%cn"), "ab");
});

Deno.test("renderAnsi, renderPlain: text with one %cn anywhere renders as the full scan does", () => {
  // t + "%cn" + u (taken without a scan when nothing else in it needs rendering) against
  // "%cn" + t + "%cn" + u (always scanned: two resets; the first, with no colour on, is dropped).
  const parts = [
    "a",
    "Bob says, ",
    '"',
    "%",
    "%%",
    "%c",
    "%cr",
    "%ch",
    "%cn",
    "\x07",
    "é",
    " ",
    "%r",
  ];
  let seed = 11;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) % parts.length;
  const some = (n: number) => Array.from({ length: n }, () => parts[next()]).join("");
  for (let i = 0; i < 3000; i++) {
    const t = some(i % 5), u = some((i >> 3) % 4);
    for (const render of [renderAnsi, (x: string) => renderAnsi(x, 256), renderPlain]) {
      assert.equal(render(t + "%cn" + u), render("%cn" + t + "%cn" + u), JSON.stringify([t, u]));
    }
  }
  assert.equal(renderAnsi('Bob says, "50%%cn"'), 'Bob says, "50%cn"');
  assert.equal(renderAnsi('a%cn"%crb'), `a"${E}31mb${E}0m`);
});

Deno.test("renderAnsi: %r %t %b %%", () => {
  assert.equal(renderAnsi("a%rb%Rc"), "a\nb\nc");
  assert.equal(renderAnsi("a%tb"), "a\tb");
  assert.equal(renderAnsi("a%bb"), "a b");
  assert.equal(renderAnsi("100%%"), "100%");
});

Deno.test("renderAnsi: %% escapes a colour code", () => {
  assert.equal(renderAnsi("%%cr"), "%cr");
  assert.equal(renderAnsi("%%%cr"), `%${E}31m${E}0m`);
});

Deno.test("renderAnsi: unknown sequences are left as-is", () => {
  assert.equal(renderAnsi("%cq %cz %n %0 %"), "%cq %cz %n %0 %");
  assert.equal(renderAnsi("%c"), "%c");
  assert.equal(renderAnsi("%cN %cH"), "%cN %cH");
  assert.equal(renderAnsi("%c%cr"), `%c${E}31m${E}0m`);
});

Deno.test("renderAnsi: raw escapes in the text are dropped", () => {
  assert.equal(renderAnsi(`${E}2J${E}31mx`), "x");
  // Other controls (BEL, a lone CR that would rewrite the line) and bidi overrides go too.
  assert.equal(renderAnsi("a\x1b]0;title\x07b"), "a]0;titleb");
  assert.equal(renderAnsi("fake\rWiz pages: hi"), "fakeWiz pages: hi");
  assert.equal(renderAnsi("a\u202Eb\u2066c\td"), "abc\td");
  assert.equal(renderAnsi("a\u009b2Jb"), "a2Jb");
  assert.equal(renderAnsi("%cr\x1b[x"), `${E}31m${E}0m`);
  assert.equal(renderAnsi("%cr\x1b["), `${E}31m[${E}0m`);
});

Deno.test("stripColour: removes codes and translates the rest", () => {
  assert.equal(stripColour("%ch%crRed%cn and %cBblue bg%cn"), "Red and blue bg");
  assert.equal(stripColour("a%rb%tc%bd%%"), "a\nb\tc d%");
  assert.equal(stripColour("%cq"), "%cq");
  assert.equal(stripColour("%%cr"), "%cr");
});

Deno.test("stripColour: strips raw ANSI escapes", () => {
  assert.equal(stripColour(`${E}1;31mhi${E}0m ${E}2J`), "hi ");
  // An incomplete escape is not an escape: only complete CSI sequences go.
  assert.equal(stripColour(`${E}31`), `${E}31`);
});

Deno.test("stripColour: round trip through renderAnsi", () => {
  const text = "%ch%cgGreen%cn %cRon red%cn";
  assert.equal(stripColour(renderAnsi(text)), stripColour(text));
});

Deno.test("visibleLength: counts visible characters", () => {
  assert.equal(visibleLength(""), 0);
  assert.equal(visibleLength("%ch%crabc%cn"), 3);
  assert.equal(visibleLength("a%bb%%"), 4);
  assert.equal(visibleLength("a%rb"), 3);
  assert.equal(visibleLength(`${E}31mab${E}0m`), 2);
  assert.equal(visibleLength("%cq"), 3);
});

Deno.test("visibleLength: astral characters count once", () => {
  assert.equal(visibleLength("😀a"), 2);
  assert.equal(visibleLength("%cr😀%cn"), 1);
});

Deno.test("padVisible: pads by visible length, keeping codes", () => {
  assert.equal(padVisible("%crab%cn", 5), "%crab%cn   ");
  assert.equal(padVisible("%crab%cn", 5, "left"), "%crab%cn   ");
  assert.equal(padVisible("%crab%cn", 5, "right"), "   %crab%cn");
  assert.equal(padVisible("%crab%cn", 5, "center"), " %crab%cn  ");
  assert.equal(padVisible("ab", 6, "center"), "  ab  ");
  assert.equal(padVisible("ab", 2), "ab");
});

Deno.test("padVisible: truncates by visible length", () => {
  assert.equal(padVisible("abcdef", 3), "abc");
  assert.equal(padVisible("abcdef", 3, "right"), "abc");
  assert.equal(padVisible("%chab%cncdef", 3), "%chab%cnc");
  assert.equal(padVisible("a%%bcd", 2), "a%%");
  assert.equal(padVisible("😀😀😀", 2), "😀😀");
});

Deno.test("padVisible: truncation closes an open colour", () => {
  assert.equal(padVisible("%crabcdef%cn", 3), "%crabc%cn");
  assert.equal(padVisible("%crab%cncdef", 3), "%crab%cnc");
  assert.equal(padVisible(`${E}31mabcdef`, 2), `${E}31mab%cn`);
});

Deno.test("padVisible: odd widths never throw", () => {
  assert.equal(padVisible("abc", 0), "");
  assert.equal(padVisible("abc", -4), "");
  assert.equal(padVisible("abc", Number.NaN), "");
  assert.equal(padVisible("abc", 2.7), "ab");
  assert.equal(padVisible("abc", Infinity), "abc");
  assert.equal(padVisible("", 1e12).length, 65_536);
  assert.equal(padVisible("%cn", 0), "%cn");
});

Deno.test("padVisible: unknown align behaves as left", () => {
  assert.equal(padVisible("a", 3, "middle" as unknown as "left"), "a  ");
});

Deno.test("wrapText: short text is unchanged", () => {
  assert.equal(wrapText("hello world", 80), "hello world");
  assert.equal(wrapText("", 80), "");
});

Deno.test("wrapText: wraps at spaces", () => {
  assert.equal(
    wrapText("the quick brown fox jumps over the lazy dog", 15),
    "the quick brown\nfox jumps over\nthe lazy dog",
  );
});

Deno.test("wrapText: a word exactly filling the line fits", () => {
  assert.equal(wrapText("aaaaaaaaaa bbbbbbbbbb", 10), "aaaaaaaaaa\nbbbbbbbbbb");
  assert.equal(wrapText("aaaa bbbbb", 10), "aaaa bbbbb");
});

Deno.test("wrapText: width below 10 is treated as 10", () => {
  assert.equal(wrapText("aaaaa bbbbb ccccc", 3), "aaaaa\nbbbbb\nccccc");
  assert.equal(wrapText("aaaaa bbbb ccccc", Number.NaN), "aaaaa bbbb\nccccc");
});

Deno.test("wrapText: long words are hard-split", () => {
  assert.equal(wrapText("x".repeat(25), 10), "xxxxxxxxxx\nxxxxxxxxxx\nxxxxx");
  assert.equal(wrapText("ab " + "x".repeat(12) + " cd", 10), "ab\nxxxxxxxxxx\nxx cd");
  assert.equal(wrapText("x".repeat(20), 10), "xxxxxxxxxx\nxxxxxxxxxx");
});

Deno.test("wrapText: codes take no width and are kept", () => {
  assert.equal(
    wrapText("%cr1234567890%cn %ch12345%cn", 10),
    "%cr1234567890%cn\n%ch12345%cn",
  );
  assert.equal(wrapText("%ch" + "a".repeat(10) + "%cn", 10), "%ch" + "a".repeat(10) + "%cn");
});

Deno.test("wrapText: codes inside a dropped gap are kept", () => {
  assert.equal(wrapText("aaaaaaaaaa %cr bbb", 10), "aaaaaaaaaa\n%crbbb");
  assert.equal(wrapText("abc %cn", 10), "abc%cn");
});

Deno.test("wrapText: existing line breaks are kept as written", () => {
  assert.equal(wrapText("one\ntwo%rthree", 10), "one\ntwo%rthree");
  assert.equal(wrapText("aaaaaa bbbbbb\ncc", 10), "aaaaaa\nbbbbbb\ncc");
  assert.equal(wrapText("a\n\nb", 10), "a\n\nb");
});

Deno.test("wrapText: spaces inside a line are kept, trailing spaces dropped", () => {
  assert.equal(wrapText("a   b", 10), "a   b");
  assert.equal(wrapText("a   \nb  ", 10), "a\nb");
});

Deno.test("wrapText: indentation survives when it fits", () => {
  assert.equal(wrapText("  indented text here", 10), "  indented\ntext here");
  assert.equal(wrapText(" ".repeat(8) + "abcdef", 10), "abcdef");
});

Deno.test("wrapText: %b is not a break point", () => {
  assert.equal(wrapText("aaaa%bbbbbbbbb", 10), "aaaa%bbbbbb\nbbb");
  assert.equal(visibleLength("aaaa%bbbbbb"), 10);
});

Deno.test("wrapText: every output line fits the width", () => {
  const words = [];
  for (let i = 0; i < 500; i++) words.push("%cr" + "w".repeat(1 + (i * 7) % 23) + "%cn");
  const wrapped = wrapText(words.join(" "), 17);
  for (const line of wrapped.split("\n")) assert.ok(visibleLength(line) <= 17, line);
  assert.equal(
    stripColour(wrapped).replace(/\s+/g, ""),
    stripColour(words.join("")),
  );
});

Deno.test("all functions survive 100,000-character inputs", () => {
  const texts = [
    "x".repeat(100_000),
    " ".repeat(100_000),
    "%".repeat(100_000),
    "%c".repeat(50_000),
    "%cr".repeat(33_000),
    "\x1b[".repeat(50_000),
    "a ".repeat(50_000),
    "\n".repeat(100_000),
    "😀".repeat(50_000),
  ];
  for (const t of texts) {
    renderAnsi(t);
    stripColour(t);
    visibleLength(t);
    padVisible(t, 80);
    padVisible(t, 200_000);
    wrapText(t, 78);
  }
  assert.equal(visibleLength("%cr".repeat(33_000)), 0);
  assert.equal(wrapText(" ".repeat(100_000) + "a", 78), "a");
});

Deno.test("non-string input never throws", () => {
  const bad = null as unknown as string;
  assert.equal(renderAnsi(bad), "");
  assert.equal(stripColour(bad), "");
  assert.equal(visibleLength(bad), 0);
  assert.equal(padVisible(bad, 2), "  ");
  assert.equal(wrapText(bad, 20), "");
});

Deno.test("renderPlain: codes translated without any escape; controls dropped", () => {
  assert.equal(renderPlain("%ch%crRed%cn a%rb%tc%bd%%"), "Red a\nb\tc d%");
  assert.equal(renderPlain(`x${E}31my\x07\u202Ez`), "xyz");
  assert.equal(renderText("%crR%cn", false), "R");
  assert.equal(renderText("%crR%cn", true), `${E}31mR${E}0m`);
});

Deno.test("indentContinuations: every line break of the text is followed by the indent", () => {
  assert.equal(indentContinuations("plain", "  "), "plain");
  assert.equal(indentContinuations("a%rb%Rc\nd", "  "), "a%r  b%R  c\n  d");
  assert.equal(indentContinuations("100%%r sure", "  "), "100%%r sure");
  assert.equal(stripColour(indentContinuations("A%r%cr[fake] Wiz", "  ")), "A\n  [fake] Wiz");
});

Deno.test("colour: text with nothing to render comes back as it is, in both renderers", () => {
  for (const t of ["", "plain words", "tab\there", "two\nlines", "naïve café 😀", "a > b & c"]) {
    assert.equal(renderAnsi(t), t);
    assert.equal(renderPlain(t), t);
  }
  // Anything the scan changes still goes through it.
  assert.equal(renderPlain("a%rb"), "a\nb");
  assert.equal(renderPlain("bell\x07"), "bell");
  assert.equal(renderAnsi("x\u202ey"), "xy");
  assert.equal(renderAnsi("%ch!"), "\x1b[1m!\x1b[0m");
});

Deno.test("renderAnsi: MUX's %x and %X forms, underline, flash and inverse", () => {
  assert.equal(renderAnsi("%xrred%xn"), `${E}31mred${E}0m`);
  assert.equal(renderAnsi("%XBbg%cn"), `${E}44mbg${E}0m`);
  assert.equal(renderAnsi("%cuu%cff%cii"), `${E}4mu${E}5mf${E}7mi${E}0m`);
  assert.equal(renderAnsi("%xq %x"), "%xq %x");
});

Deno.test("renderAnsi: RGB colours are reduced to what the client shows", () => {
  assert.equal(renderAnsi("%x<#ff8040>o", 16777216), `${E}38;2;255;128;64mo${E}0m`);
  assert.equal(renderAnsi("%x<#ff8040>o", 256), `${E}38;5;209mo${E}0m`);
  assert.equal(renderAnsi("%X<0 0 255>o", 256), `${E}48;5;21mo${E}0m`);
  assert.equal(renderAnsi("%x<#ff5555>o", 16), `${E}91mo${E}0m`);
  assert.equal(renderAnsi("%x<#ff0000>o", 16), `${E}31mo${E}0m`);
  assert.equal(renderAnsi("%x<#bb0000>o"), `${E}31mo${E}0m`);
  assert.equal(renderAnsi("%x<#ff8040>o", 0), "o");
  assert.equal(renderText("%x<#ff8040>o", false), "o");
  assert.equal(renderText("%x<#ff8040>o", 256), `${E}38;5;209mo${E}0m`);
  // Not a colour: left as typed.
  assert.equal(renderAnsi("%x<300 0 0>o %x<#12>"), "%x<300 0 0>o %x<#12>");
});

Deno.test("colour codes of every form are zero width", () => {
  assert.equal(visibleLength("%x<#ff8040>ab%xuc%cn"), 3);
  assert.equal(stripColour("%X<1 2 3>ab%xic"), "abc");
  assert.equal(padVisible("%x<#ff0000>abcdef", 3), "%x<#ff0000>abc%cn");
});
