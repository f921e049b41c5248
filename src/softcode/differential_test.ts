/**
 * Differential test: each expression in testdata/mux212*.json (one file per family of
 * functions, each recorded from its testdata/mux_cases*.txt) was run on TinyMUX 2.12
 * (scripts/softcode_record_mux.ts); the evaluator must give the same text with the same
 * colours. Colour is compared per character (foreground, background, highlight, underline,
 * flash, inverse), so the two servers may spell the escapes differently.
 */
import assert from "node:assert/strict";
import { testSoftcode } from "./_test_world.ts";
import { isMarker, nearestPalette, PALETTE } from "./markup.ts";
import { renderAnsi } from "../text/colour.ts";

interface Recorded {
  setup: string[];
  cases: [string, string][];
}

const testdata = new URL("./testdata/", import.meta.url);
const files: { name: string; data: Recorded }[] = [];
for await (const e of Deno.readDir(testdata)) {
  if (!/^mux212.*\.json$/.test(e.name)) continue;
  files.push({
    name: e.name,
    data: JSON.parse(await Deno.readTextFile(new URL(e.name, testdata))),
  });
}
files.sort((a, b) => a.name.localeCompare(b.name));

/** Cases left out on purpose, each with the reason (docs/softcode.md lists the differences). */
const DIFFERENT: Record<string, string> = {
  "[lattr(me)]": "MUX lists its own built-in attributes (Created, Lastsite...)",
  "[round(2.675,2)]":
    "MUX's own strtod reads 2.675 one unit in the last place high (2.68, not 2.67)",
  "[add(2.2250738585072014e-308,0)] [add(-2.2250738585072014e-308,0)]":
    "MUX 2.12 answers 1.596672247627776E293 for the least normal double; here its neighbours: 0 (subnormal) and -2.225073858507202E-308",
  "[chr(-1)] [chr(1114112)] [chr(65.5)]":
    "MUX 2.12 answers a stale character for a code point out of range; here, an error",
  "[strmatch(héllo,h?llo)] [ucstr(ß)]":
    "MUX 2.12's wildcards match bytes (? is not é); here, characters",
  "[strip(héllo,é)] [wordpos(日本 語,4)]":
    "MUX 2.12's strip() and wordpos() count bytes of non-ASCII letters; here, characters",
  "[error()]": "error() answers the engine's own unknown-command message",
  "[art(ansi(r,apple))]":
    "MUX 2.12 reads the colour code as the word's first letter; here, colour is ignored",
  "[regmatch(abc,\\()]": "the error names the fault in RE2's words, not PCRE's",
  "[setq(10,x)]":
    "named registers (setq(10,...) names one) are allowed, as in later MUX and PennMUSH",
  "[digest(md5,abc)]":
    "digest() offers md5, sha256 and the other common digests (MUX without SSL: sha1 only)",
  "[setr(ab,x)]": "named registers are allowed (as [setq(10,x)] above)",
  "[setq(name,val)]-%q<name>-[r(name)]": "named registers are allowed (as [setq(10,x)] above)",
  "[r(abc)]": "named registers are allowed (as [setq(10,x)] above): an unset one is empty",
  "[null(iter(lnum(1,2000),setq(##,##)))]%q0|%q9|[r(10)]":
    "named registers are allowed (as [setq(10,x)] above): here 10 to 109 are set, then the cap",
  "[setq(n1,x)]|[r(n1)]": "named registers are allowed (as [setq(10,x)] above)",
  "[null(iter(lnum(1,200),setq(n##,##)))][r(n1)]|[r(n100)]|[r(n101)]|[setq(n200,x)]|[setq(n1,again)][r(n1)]":
    "named registers, at most 100 at once (2.12 has none): 1|100||#-1 TOO MANY REGISTERS|again",
  "[null(iter(lnum(1,200),setq(n##,##)))][setq(n1,)][setq(n150,in)][r(n150)]":
    "named registers, at most 100 at once: emptying one makes room for another (in)",
  "[set(me,CTL_S:value)]-[v(CTL_S)]":
    "MUX 2.12's set() tells the player Set.; here it sets quietly, as a function should",
  "[set(#-1,A:b)] [set(me,)]":
    "set() answers error values where MUX 2.12 answers #-1 or nothing and sends a notice",
  "[regmatchi(ABC,(a)(b))] [regmatchi(ABC,a(b))]":
    "MUX 2.12's PCRE misses a caseless match whose later required letter differs in case",
  "[regraballi(a B b,b,,-)]":
    "regraball() and regraballi() take PennMUSH's output separator as a fourth argument",
  "[error(1)]": "error() answers the engine's own unknown-command message",
  "[hastype(me,bogus)]": "MUX 2.12 writes a stray 0 after its #-1 NO SUCH TYPE",
  "[haspower(me,boot)] [haspower(me,bogus)]":
    "the engine has no separate powers: its staff hold every power a package asks for",
  "[bittype(me)]": "MUX's #1 is God (7); the test world's #1 is a wizard (5)",
  "[tel(me,#0)]-[loc(me)]":
    "MUX moves the wizard to the room it stands in and shows it; here, it is already there",
  "[tel(#-1,#0)]": "MUX 2.12 spells the apostrophe of I don't see that here. as U+2019",
  "[entrances(nobody)]": "MUX 2.12 spells the apostrophe of I don't see that here. as U+2019",
  "[link(nobody,here)]": "MUX 2.12 spells the apostrophe of I don't see that here. as U+2019",
  "[link(here,here)]": "rooms have no drop-to here: @link refuses a room, and link() says so",
  "[link(me,me)]":
    "the engine's @link names what is wrong (not a room) where MUX says Permission denied.",
  "[lock(me,x)]":
    "lock() takes later MUX's second argument, which sets the lock (2.12 only reads one)",
  "[lock()]": "lock() takes later MUX's second argument, so its count error says 1 OR 2",
  "[wipe(nobody)]": "wipe() says what @wipe says of an object it cannot find (MUX: No match.)",
  "[tel(me,me)]": "the engine's teleport refusals are worded as its @tel's",
  "[tel(me)] [tel(here,#0)]": "the engine's teleport refusals are worded as its @tel's",
  "[trigger(me/NOPE)] [trigger(#-1/A)]":
    "trigger() answers #-1 NO MATCH (its help says so) where MUX 2.12 tells the player No match.",
  "[stripaccents(ansi(r,é))]": "MUX 2.12 mangles a coloured accented letter (?e?)",
  "[matchall(a b a,a,,-)]":
    "matchall() takes PennMUSH's output separator as a fourth argument (MUX 2.12: three at most)",
  "[regraball(a b ab,b,,-)]":
    "regraball() and regraballi() take PennMUSH's output separator as a fourth argument",
  "[regrab(a b,\\()]": "the error names the fault in RE2's words, not PCRE's",
  "[tr(abc)] [tr(abc,a)]":
    "MUX 2.12's tr() with fewer than three arguments reads stale ones; here, the count is an error",
  "[timefmt($Y,0,x)]": "timefmt() takes a third argument, utc, as its help says (MUX: two at most)",
  "[sha1(ansi(r,abc))]":
    "MUX 2.12 hashes colour in its own internal code points; here, the text without colour",
  "[lwho(x)]": "connections have no port numbers here: lwho()'s argument is ignored",
  "[error(a,b)]": "error() answers the engine's own unknown-command message",
  "[bittype(#-1)]":
    "MUX 2.12 tells the player it sees no such thing and answers nothing; here, #-1",
};

interface Style {
  fg: number;
  bg: number;
  hi: boolean;
  ul: boolean;
  fl: boolean;
  inv: boolean;
}

const PLAIN: Style = { fg: -1, bg: -1, hi: false, ul: false, fl: false, inv: false };

function key(s: Style): string {
  return `${s.fg},${s.bg},${+s.hi}${+s.ul}${+s.fl}${+s.inv}`;
}

/** Runs of text with the style of each, from MUX's ANSI output. */
function fromAnsi(text: string): string {
  let st = { ...PLAIN };
  let out = "";
  let last = key(PLAIN);
  // deno-lint-ignore no-control-regex
  const parts = text.split(/(\x1b\[[0-9;]*m)/);
  for (const p of parts) {
    // deno-lint-ignore no-control-regex
    const m = /^\x1b\[([0-9;]*)m$/.exec(p);
    if (m) {
      const codes = m[1].split(";").map(Number);
      for (let i = 0; i < codes.length; i++) {
        const c = codes[i];
        if (c === 0) st = { ...PLAIN };
        else if (c === 1) st.hi = true;
        else if (c === 4) st.ul = true;
        else if (c === 5) st.fl = true;
        else if (c === 7) st.inv = true;
        else if (c >= 30 && c <= 37) st.fg = c - 30;
        else if (c >= 40 && c <= 47) st.bg = c - 40;
        else if (c === 38 && codes[i + 1] === 5) st.fg = codes[i += 2];
        else if (c === 48 && codes[i + 1] === 5) st.bg = codes[i += 2];
      }
      continue;
    }
    for (const ch of p) {
      const k = key(st);
      if (k !== last) out += `{${k}}`;
      last = k;
      out += ch;
    }
  }
  return out;
}

/** The same runs from the evaluator's output (markers), RGB reduced as MUX reduces it. */
function fromMarkup(text: string): string {
  let st = { ...PLAIN };
  let out = "";
  let last = key(PLAIN);
  for (let i = 0; i < text.length;) {
    const c = text.charCodeAt(i);
    if (isMarker(c)) {
      if (c === 0xfdd0) {
        const l = text[i + 1];
        if (l === "n") st = { ...PLAIN };
        else if (l === "h") st.hi = true;
        else if (l === "u") st.ul = true;
        else if (l === "f") st.fl = true;
        else if (l === "i") st.inv = true;
        i += 2;
      } else if (c === 0xfdd1 || c === 0xfdd2) {
        const n = text.charCodeAt(i + 1) - 0x100;
        if (c === 0xfdd1) st.fg = n;
        else st.bg = n;
        i += 2;
      } else {
        const [r, g, b] = [1, 2, 3].map((k) => text.charCodeAt(i + k) - 0x100);
        const n = nearestPalette(r, g, b);
        if (c === 0xfdd3) st.fg = n;
        else st.bg = n;
        i += 4;
      }
      continue;
    }
    const cp = text.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    const k = key(st);
    if (k !== last) out += `{${k}}`;
    last = k;
    out += ch;
    i += ch.length;
  }
  return out;
}

/**
 * The test world set up as the recording's setup commands set up MUX (`&ATTR me=value`, and
 * `@tel me=#0`: MUX's game starts its wizard elsewhere). As in MUX, Limbo is the wizard's
 * and is the wizard's home; the wizard is connected.
 */
function world(setup: string[]) {
  const t = testSoftcode();
  const limbo = t.world.objects.get(t.room)!, wiz = t.world.objects.get(t.wiz)!;
  t.world.objects.set(t.room, { ...limbo, owner: t.wiz });
  t.world.objects.set(t.wiz, { ...wiz, data: { ...wiz.data, home: t.room } });
  // The recorder is connected as the wizard.
  t.world.online.add(t.wiz);
  for (const cmd of setup) {
    if (cmd === "@tel me=#0") continue;
    const m = /^&(\S+) me=(.*)$/.exec(cmd);
    if (!m) throw new Error(`setup command not understood: ${cmd}`);
    t.world.set(t.wiz, m[1], m[2]);
  }
  return t;
}

Deno.test("softcode: palette is the 256 MUX colours", () => {
  assert.equal(PALETTE.length, 256);
});

for (const { name, data } of files) {
  Deno.test(`softcode: the evaluator answers as TinyMUX 2.12 does (${name})`, () => {
    const failures: string[] = [];
    let compared = 0;
    for (const [expr, expected] of data.cases) {
      if (expr in DIFFERENT) continue;
      const t = world(data.setup);
      const result = t.raw(expr);
      // What the wizard was told (pemit(), emit()...) comes before think's line, as in MUX,
      // and think says nothing of an empty result.
      const lines = t.world.sent.filter((m) => m.to === t.wiz)
        .map((m) => fromAnsi(renderAnsi(m.msg, 256)));
      if (result !== "" || !lines.length) lines.push(fromMarkup(result));
      const got = lines.join("\r\n");
      const want = fromAnsi(expected);
      compared++;
      if (got !== want) {
        failures.push(
          `${expr}\n    mux:  ${JSON.stringify(want)}\n    ours: ${JSON.stringify(got)}`,
        );
      }
    }
    if (failures.length) {
      throw new Error(`${failures.length} of ${compared} differ:\n${failures.join("\n")}`);
    }
  });
}
