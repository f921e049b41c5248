import { assert, assertEquals } from "../../tests/assert.ts";
import { RE2JS } from "re2js";
import {
  linearEngineAvailable,
  nativeRegexp,
  nativeSource,
  nextItemFound,
  wordRegexp,
  wordSource,
} from "./native_regexp.ts";
import { splitList } from "./list.ts";
import { RegexpCache } from "./regexp_cache.ts";
import { testSoftcode } from "./_test_world.ts";
import { OUR_V8_FLAGS, REGEXP_FLAGS } from "../supervisor/v8_flags.ts";

/** The engine runs with V8's regexp flags (src/supervisor/v8_flags.ts); so must these tests. */
function requireLinear(): void {
  assert(
    linearEngineAvailable(),
    "V8's linear regexp engine is off: run the tests as `deno task test` does, with " +
      `--v8-flags=${REGEXP_FLAGS.join(",")} (the engine's)`,
  );
}

Deno.test("native regexp: the test task runs with the engine's regexp flags", async () => {
  const tasks = JSON.parse(await Deno.readTextFile(new URL("../../deno.json", import.meta.url)))
    .tasks as Record<string, string>;
  const given = /--v8-flags=(\S+)/.exec(tasks.test)?.[1].split(",") ?? [];
  for (const f of REGEXP_FLAGS) assert(given.includes(f), `deno.json's test task lacks ${f}`);
  for (const f of REGEXP_FLAGS) assert(OUR_V8_FLAGS.engine.includes(f), f);
});

/** A small stream of numbers made the same way each run. */
function stream(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return (s >>> 8) % n;
  };
}

// Texts' characters: ASCII letters of both cases, the two letters outside ASCII that fold to
// ASCII ones (K, ſ), spaces of every kind JavaScript and RE2 disagree on, punctuation, digits.
const TEXT_CHARS = [
  ..."abkKsSxyzAB019_ .-[]\\^$*+?(){}|/",
  "\n",
  "\r",
  "\t",
  "\v",
  "\f",
  "\u00a0",
  "\u2028",
  "\u212a",
  "\u017f",
  "\u00e9",
  "\u00c9",
  "\u0130",
  "\u0131",
  "\ufeff",
];

// Pattern atoms: literals, escapes, classes (RE2's syntax, as softcode gives it).
const ATOMS = [
  "a",
  "b",
  "k",
  "K",
  "s",
  "x",
  "Z",
  "0",
  "_",
  " ",
  ".",
  "\\d",
  "\\D",
  "\\w",
  "\\W",
  "\\s",
  "\\S",
  "\\.",
  "\\\\",
  "\\n",
  "\\t",
  "\\x41",
  "\\-",
  "\\[",
  "\\]",
  "]",
  "}",
  "{",
  "\u00e9",
  "\u212a",
  "[abc]",
  "[^abc]",
  "[a-k]",
  "[^a-z]",
  "[]a]",
  "[^]a]",
  "[\\d_]",
  "[\\s.]",
  "[\\w-]",
  "[a\\-z]",
  "[-a]",
  "[a-]",
  "[K-s]",
  "[\u00e0-\u00ff]",
  "[[]",
  "[\\n\\t]",
  "\\b",
  "\\B",
  "^",
  "$",
  "\\A",
  "\\z",
];
const QUANTS = ["", "", "", "*", "+", "?", "*?", "+?", "??", "{2}", "{1,3}", "{0,}", "{2,}?"];

/** A random pattern of atoms, groups, alternations and repeats. */
function pattern(r: (n: number) => number, depth = 0): string {
  let s = "";
  const n = 1 + r(4);
  for (let i = 0; i < n; i++) {
    let atom: string;
    if (depth < 2 && r(5) === 0) {
      const open = ["(", "(?:", "(?P<g>", "(?<n>"][r(4)];
      atom = open + pattern(r, depth + 1) + (r(3) === 0 ? "|" + pattern(r, depth + 1) : "") + ")";
    } else atom = ATOMS[r(ATOMS.length)];
    s += atom + QUANTS[r(QUANTS.length)];
    if (r(8) === 0) s += "|";
  }
  return s;
}

function text(r: (n: number) => number): string {
  let s = "";
  for (let i = 0, n = r(9); i < n; i++) s += TEXT_CHARS[r(TEXT_CHARS.length)];
  return s;
}

/** RE2JS's compiled pattern, or null for one it refuses (generated patterns may be invalid). */
function re2(p: string, caseless: boolean): RE2JS | null {
  try {
    return RE2JS.compile(p, caseless ? RE2JS.CASE_INSENSITIVE : 0);
  } catch {
    return null;
  }
}

Deno.test("native regexp: V8's linear engine finds what RE2JS finds, on 6,000 generated patterns", () => {
  requireLinear();
  const r = stream(36);
  let translated = 0;
  let compared = 0;
  for (let i = 0; i < 6_000; i++) {
    const p = pattern(r);
    const caseless = r(3) === 0;
    const re = re2(p, caseless);
    if (re === null) continue;
    const native = nativeRegexp(p, caseless);
    if (native === null) continue;
    translated++;
    for (let j = 0; j < 12; j++) {
      const t = j === 0 ? "" : text(r);
      compared++;
      assertEquals(
        native.test(t),
        re.test(t),
        `${JSON.stringify(p)}${caseless ? " (caseless)" : ""} on ${JSON.stringify(t)}: ` +
          `V8 ${nativeSource(p, caseless)}`,
      );
    }
  }
  // Most generated patterns are in the subset translated.
  assert(translated > 3_000, `${translated} translated`);
  assert(compared > 36_000);
});

/** A space-separated list of generated texts: runs of spaces, sometimes at either end. */
function list(r: (n: number) => number): string {
  let s = r(4) === 0 ? " " : "";
  for (let i = 0, n = 1 + r(6); i < n; i++) s += (i ? " ".repeat(1 + r(2)) : "") + text(r);
  return s + (r(4) === 0 ? "  " : "");
}

Deno.test("native regexp: items matched in place in a list find what RE2JS finds in each item", () => {
  requireLinear();
  const r = stream(3636);
  // Thousands of evaluations by one player: no budget of the game's may cut a list short.
  const t = testSoftcode({ actorMs: 1e9, gameMs: 1e9, evaluationMs: 1e9 });
  let inPlace = 0;
  let compared = 0;
  for (let i = 0; i < 4_000; i++) {
    const p = pattern(r);
    const caseless = r(3) === 0;
    const re = re2(p, caseless);
    if (re === null) continue;
    const words = wordRegexp(p, caseless);
    if (words !== null) inPlace++;
    t.world.set(t.wiz, "PAT", p);
    // Patterns past the engine's program size answer that error, in place or not.
    const limited = typeof new RegexpCache(() => 200).finder(p, caseless) === "string";
    for (let j = 0; j < 4; j++) {
      const l = list(r);
      const items = splitList(l, " ");
      const want = items.filter((w) => re.test(w)).join("|");
      if (words !== null) {
        // The search itself, item after item.
        const end = l.replace(/ +$/, "").length;
        const got: string[] = [];
        for (let at = 0, s; (s = nextItemFound(" " + l, end, words, at)) >= 0;) {
          const stop = l.indexOf(" ", s) < 0 ? end : l.indexOf(" ", s);
          got.push(l.slice(s, stop));
          at = stop + 1;
        }
        compared++;
        assertEquals(
          got.join("|"),
          want,
          `${JSON.stringify(p)}${caseless ? " (caseless)" : ""} in ${JSON.stringify(l)}: ` +
            `V8 ${wordSource(p, caseless)}`,
        );
      }
      // And through regraball(), whichever way it matches.
      if (limited) continue;
      t.world.set(t.wiz, "LST", l);
      assertEquals(
        t.run(`[regraball${caseless ? "i" : ""}(v(LST),v(PAT),,|)]`),
        want,
        `regraball ${JSON.stringify(p)} in ${JSON.stringify(l)}`,
      );
    }
  }
  // Most generated patterns are matched in place.
  assert(inPlace > 1_500, `${inPlace} in place`);
  assert(compared > 6_000, `${compared} compared`);
});

Deno.test("native regexp: in place, anchors only at the ends and no item's match reaches the next", () => {
  requireLinear();
  assertEquals(wordSource("^(ka|lo)x$", false), "(?:ka|lo)x(?: |$)".replace(/[a-z]/g, hexOf));
  assertEquals(wordSource("x", false), "[^ ]*?(?:x)".replace("x", hexOf));
  assertEquals(wordSource("a$b", false), null);
  assertEquals(wordSource("^a|b", false), null);
  assertEquals(wordSource("a|b$", false), null);
  assertEquals(wordSource("(^a)", false), null);
  assertEquals(wordSource("a\\zb", false), null);
  const t = testSoftcode();
  // A class, a dot or a space that would match the space between items matches nothing there.
  assertEquals(t.run("[regraball(a b ab a.b,a.b)]"), "a.b");
  assertEquals(t.run("[regraball(a b ab,a\\\\sb)]"), "");
  assertEquals(t.run("[regraball(a b ab,a[^x]b)]"), "");
  assertEquals(t.run("[regraball(a b ab,a\\\\Wb)]"), "");
  assertEquals(t.run("[regraball(a b,a b)]"), "");
  assertEquals(t.run("[regraball(a b,a\\\\x20?b)]"), "");
  assertEquals(t.run("[regraball(  ab   ba b  ,b$)]"), "ab b");
  assertEquals(t.run("[regraball(  ab   ba b  ,^b)]"), "ba b");
  assertEquals(t.run("[regrab(xa ab b,^a|b$)]"), "ab");
  assertEquals(t.run("[regraball(a%tb ab,a\\\\sb)]"), "a\tb");
});

/** A lower-case letter as nativeSource spells it. */
function hexOf(c: string): string {
  return "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0");
}

Deno.test("native regexp: each letter and class caseless, against every character of the BMP", () => {
  requireLinear();
  const sources = [
    ..."abcdefghijklmnopqrstuvwxyzAKSZ09_-.",
    "\\w",
    "\\W",
    "[a-z]",
    "[^k]",
    "[^S-T]",
  ];
  for (const p of sources) {
    for (const caseless of [false, true]) {
      const native = nativeRegexp(`^${p}$`, caseless);
      const re = RE2JS.compile(`^${p}$`, caseless ? RE2JS.CASE_INSENSITIVE : 0);
      assert(native !== null, p);
      for (let c = 0; c < 0x10000; c++) {
        if (c >= 0xd800 && c <= 0xdfff) continue;
        const t = String.fromCharCode(c);
        if (native.test(t) !== re.test(t)) {
          throw new Error(`${p}${caseless ? " caseless" : ""} on U+${c.toString(16)}`);
        }
      }
    }
  }
});

Deno.test("native regexp: what is not translated stays with RE2JS", () => {
  requireLinear();
  for (
    const p of [
      "(?i)abc", // inline flags
      "(?s:.)",
      "\\pL", // Unicode classes
      "[[:alpha:]]",
      "\\Qa.b\\E",
      "[^\\d]x", // fine
      "[\\D]",
      "\\1",
      "\\x{263a}",
      "a++",
    ]
  ) {
    if (p === "[^\\d]x") assert(nativeRegexp(p, false) !== null, p);
    else assertEquals(nativeRegexp(p, false), null, p);
  }
  // Caseless beyond ASCII: RE2's folding there is its own.
  assertEquals(nativeRegexp("\u00e9", true), null);
  assert(nativeRegexp("\u00e9", false) !== null);
});

Deno.test("native regexp: hostile patterns take the native path and end (linear time)", () => {
  requireLinear();
  const long = "a".repeat(20_000) + "b";
  for (const p of ["^(a+)+$", "(a|aa)*c", "^(a|a?)+$", "(.*a){12}", "^(\\w+\\s?)*$", "(a*)*b$"]) {
    const native = nativeRegexp(p, false);
    assert(native !== null, `${p} should take the native path`);
    // A backtracking engine would not finish these in a lifetime.
    assertEquals(native.test(long), RE2JS.compile(p).test(long), p);
  }
  // Through the softcode functions that use it.
  const t = testSoftcode();
  t.world.set(t.wiz, "WORDS", Array.from({ length: 150 }, () => "a".repeat(40) + "!").join(" "));
  assertEquals(t.run("[regraball(v(WORDS),^(a+)+$)]"), "");
  assertEquals(t.run("[regraball(v(WORDS) aaa,^(a|aa)+$)]"), "aaa");
  assertEquals(t.run("[regrab(v(WORDS),(a*)*!$)]"), "a".repeat(40) + "!");
});

Deno.test("native regexp: the cache's finder gives RE2JS's answers with and without surrogates", () => {
  requireLinear();
  const cache = new RegexpCache(() => 200);
  const f = cache.finder("^(ka|lo|mi).*(an|el|o)$", false);
  assert(typeof f !== "string");
  assertEquals(f.found("kalo"), true);
  assertEquals(f.found("kalo", true), true);
  assertEquals(f.found("kalx"), false);
  // With a surrogate pair RE2JS answers: `.` is one code point there, two code units in V8's.
  const g = cache.finder("^.$", false);
  assert(typeof g !== "string");
  assertEquals(g.found("\u{1f600}"), true);
  assertEquals(g.found("ab"), false);
  // Errors and limits are RE2JS's, as before.
  assert(String(cache.finder("(a", false)).startsWith("#-1 REGEXP ERROR missing closing )"));
  assert(String(cache.finder("[a-z]{250}", false)).includes("too complex"));
});

Deno.test("native regexp: regraball(), regrab(), regrep() and until() give the same results", () => {
  const t = testSoftcode();
  assertEquals(t.run("[regraball(kalo mine lo. mi\u212a KA,^(ka|lo|mi).*(an|el|o)$)]"), "kalo");
  assertEquals(
    t.run("[regraballi(kalo mine lo. mi\u212a KA,^(ka|lo|mi))]"),
    "kalo mine lo. mi\u212a KA",
  );
  assertEquals(t.run("[regraball(a\u{1f600}b x,^a.b$)]"), "a\u{1f600}b");
  assertEquals(t.run("[regrabi(x SS y,^s+$)]"), "SS");
  t.world.set(t.wiz, "GREET", "Hello there");
  assertEquals(t.run("[regrep(me,*,^Hel+o\\\\s)]"), "GREET");
  t.world.set(t.wiz, "DBL", "mul(%0,2)");
  assertEquals(t.run("[until(dbl,dbl,1 2 3 4 5,^6$)]"), "2 4 6");
});
