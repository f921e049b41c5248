import assert from "node:assert/strict";
import { parseLine, sanitizeLine } from "./parser.ts";

Deno.test("parseLine: empty and whitespace-only lines give null", () => {
  assert.equal(parseLine(""), null);
  assert.equal(parseLine("   "), null);
  assert.equal(parseLine("\r\n"), null);
  assert.equal(parseLine(" \t \r\n"), null);
});

Deno.test("parseLine: plain command with no args", () => {
  assert.deepEqual(parseLine("look"), {
    raw: "look",
    name: "look",
    switches: [],
    args: "",
    lhs: "",
    rhs: null,
  });
});

Deno.test("parseLine: trailing CR/LF is trimmed from raw and args", () => {
  const p = parseLine("look here  \r\n");
  assert.equal(p?.raw, "look here");
  assert.equal(p?.args, "here");
});

Deno.test("parseLine: name is lower-cased, args keep their case", () => {
  const p = parseLine("LOOK Big Sword");
  assert.equal(p?.name, "look");
  assert.equal(p?.args, "Big Sword");
});

Deno.test("parseLine: the command word ends at any whitespace \\s knows, ASCII or not", () => {
  const cases: [string, string, string][] = [
    ["look\tme", "look", "me"],
    ["look\u00a0me", "look", "me"],
    ["été\u3000vite", "été", "vite"],
    ["é x", "é", "x"],
    ["ÉTÉ", "été", ""],
    ["say\u2028hi", "say", "hi"],
  ];
  for (const [line, name, args] of cases) {
    const p = parseLine(line);
    assert.equal(p?.name, name, JSON.stringify(line));
    assert.equal(p?.args, args, JSON.stringify(line));
  }
});

Deno.test("parseLine: leading whitespace before the command is ignored", () => {
  const p = parseLine("   look me");
  assert.equal(p?.name, "look");
  assert.equal(p?.args, "me");
  assert.equal(p?.raw, "   look me");
});

Deno.test("parseLine: prefixes stay part of the name", () => {
  assert.equal(parseLine("@set me=builder")?.name, "@set");
  assert.equal(parseLine("+job 12")?.name, "+job");
});

Deno.test("parseLine: lhs and rhs split on the first =", () => {
  const p = parseLine("@set  me = builder ");
  assert.equal(p?.args, "me = builder");
  assert.equal(p?.lhs, "me");
  assert.equal(p?.rhs, "builder");

  const q = parseLine("@desc me=a=b");
  assert.equal(q?.lhs, "me");
  assert.equal(q?.rhs, "a=b");
});

Deno.test("parseLine: empty rhs is an empty string, not null", () => {
  const p = parseLine("@set me=");
  assert.equal(p?.lhs, "me");
  assert.equal(p?.rhs, "");
});

Deno.test("parseLine: no = gives whole args as lhs and null rhs", () => {
  const p = parseLine("+job 12");
  assert.equal(p?.lhs, "12");
  assert.equal(p?.rhs, null);
});

Deno.test("parseLine: single switch", () => {
  const p = parseLine("@chancreate/hidden Foo");
  assert.equal(p?.name, "@chancreate");
  assert.deepEqual(p?.switches, ["hidden"]);
  assert.equal(p?.args, "Foo");
});

Deno.test("parseLine: switch with = in args", () => {
  const p = parseLine("@chanset/header Pub=x");
  assert.equal(p?.name, "@chanset");
  assert.deepEqual(p?.switches, ["header"]);
  assert.equal(p?.lhs, "Pub");
  assert.equal(p?.rhs, "x");
});

Deno.test("parseLine: multiple switches are lower-cased", () => {
  const p = parseLine("+JOB/Assign/Quiet_1/a-b 12=Bob");
  assert.equal(p?.name, "+job");
  assert.deepEqual(p?.switches, ["assign", "quiet_1", "a-b"]);
  assert.equal(p?.lhs, "12");
  assert.equal(p?.rhs, "Bob");
});

Deno.test("parseLine: switch with no args", () => {
  const p = parseLine("@reload/config");
  assert.equal(p?.name, "@reload");
  assert.deepEqual(p?.switches, ["config"]);
  assert.equal(p?.args, "");
});

Deno.test("parseLine: slashes after the command word belong to args", () => {
  const p = parseLine("@chanset Pub/header=Hello");
  assert.equal(p?.name, "@chanset");
  assert.deepEqual(p?.switches, []);
  assert.equal(p?.lhs, "Pub/header");
  assert.equal(p?.rhs, "Hello");
});

Deno.test("parseLine: malformed switches leave the word whole", () => {
  for (const word of ["look/", "look//x", "look/a.b", "look/a/", "/foo", "look/ä"]) {
    const p = parseLine(`${word} arg`);
    assert.equal(p?.name, word.toLowerCase(), word);
    assert.deepEqual(p?.switches, [], word);
    assert.equal(p?.args, "arg", word);
  }
});

Deno.test("parseLine: command word ends at a tab too", () => {
  const p = parseLine("page\tBob=hi");
  assert.equal(p?.name, "page");
  assert.equal(p?.lhs, "Bob");
});

Deno.test('parseLine: " shortcut is say with the rest verbatim', () => {
  const p = parseLine('"Hello there');
  assert.equal(p?.name, "say");
  assert.deepEqual(p?.switches, []);
  assert.equal(p?.args, "Hello there");
  assert.equal(parseLine('" spaced')?.args, " spaced");
  assert.equal(parseLine('"')?.args, "");
});

Deno.test("parseLine: say shortcut still splits lhs/rhs for callers that want it", () => {
  const p = parseLine('"a=b');
  assert.equal(p?.args, "a=b");
  assert.equal(p?.lhs, "a");
  assert.equal(p?.rhs, "b");
});

Deno.test("parseLine: : shortcut is pose with one leading space stripped", () => {
  assert.equal(parseLine(":waves")?.name, "pose");
  assert.equal(parseLine(":waves")?.args, "waves");
  assert.equal(parseLine(": waves")?.args, "waves");
  assert.equal(parseLine(":  waves")?.args, " waves");
  assert.equal(parseLine(":")?.args, "");
});

Deno.test("parseLine: ; shortcut is semipose with nothing stripped", () => {
  const p = parseLine(";'s cat purrs");
  assert.equal(p?.name, "semipose");
  assert.equal(p?.args, "'s cat purrs");
  assert.equal(parseLine("; x")?.args, " x");
});

Deno.test("parseLine: backslash shortcut is @emit (one or two backslashes)", () => {
  assert.equal(parseLine("\\\\The wind howls.")?.name, "@emit");
  assert.equal(parseLine("\\\\The wind howls.")?.args, "The wind howls.");
  assert.equal(parseLine("\\The wind howls.")?.name, "@emit");
  assert.equal(parseLine("\\The wind howls.")?.args, "The wind howls.");
});

Deno.test("parseLine: & is attribute-set syntax", () => {
  const p = parseLine("&FINGER me=Tall and dark");
  assert.equal(p?.name, "&");
  assert.equal(p?.args, "FINGER me=Tall and dark");
  assert.equal(p?.lhs, "FINGER me");
  assert.equal(p?.rhs, "Tall and dark");
});

Deno.test("parseLine: shortcut after leading whitespace still applies", () => {
  assert.equal(parseLine('  "hi')?.name, "say");
});

Deno.test("parseLine: = inside the command word is not a split", () => {
  const p = parseLine("look=foo");
  assert.equal(p?.name, "look=foo");
  assert.equal(p?.rhs, null);
});

Deno.test("parseLine: huge lines parse without throwing", () => {
  const big = "x".repeat(100_000);
  assert.equal(parseLine(big)?.name, big);
  assert.equal(parseLine(`say ${big}`)?.args.length, 100_000);
  assert.equal(parseLine(`@x/${"a/".repeat(50_000)}b y`)?.switches.length, 50_001);
  assert.deepEqual(parseLine(`@x/${"/".repeat(100_000)} y`)?.switches, []);
  assert.equal(parseLine("=".repeat(100_000))?.rhs, null);
  assert.equal(parseLine(`a ${"=".repeat(100_000)}`)?.rhs, "=".repeat(99_999));
  assert.equal(parseLine(" ".repeat(100_000) + "a")?.name, "a");
  assert.equal(parseLine("a" + " ".repeat(100_000) + "b")?.args, "b");
});

Deno.test("parseLine: non-string input gives null instead of throwing", () => {
  assert.equal(parseLine(undefined as unknown as string), null);
  assert.equal(parseLine(42 as unknown as string), null);
});

Deno.test("sanitizeLine: leaves ordinary text alone", () => {
  assert.equal(sanitizeLine("say Hello, world!", 100), "say Hello, world!");
  assert.equal(sanitizeLine("  indented", 100), "  indented");
});

Deno.test("sanitizeLine: drops control characters and DEL", () => {
  assert.equal(sanitizeLine("a\x00b\x07c\x08d\x7fe", 100), "abcde");
  assert.equal(sanitizeLine("a\r\nb", 100), "ab");
});

Deno.test("sanitizeLine: drops C1 controls", () => {
  assert.equal(sanitizeLine("a\u009b31mb\u0085c", 100), "a31mbc");
});

Deno.test("sanitizeLine: tab becomes a space", () => {
  assert.equal(sanitizeLine("a\tb", 100), "a b");
});

Deno.test("sanitizeLine: removes ANSI CSI sequences", () => {
  assert.equal(sanitizeLine("\x1b[31mred\x1b[0m plain", 100), "red plain");
  assert.equal(sanitizeLine("\x1b[1;31;40mx\x1b[K\x1b[2J\x1b[?25l", 100), "x");
  assert.equal(sanitizeLine("\x1b[mx", 100), "x");
});

Deno.test("sanitizeLine: an incomplete escape only loses the ESC", () => {
  assert.equal(sanitizeLine("a\x1b[31", 100), "a[31");
  assert.equal(sanitizeLine("a\x1bb", 100), "ab");
  assert.equal(sanitizeLine("a\x1b", 100), "a");
  assert.equal(sanitizeLine("a\x1b[3\x1b[31mb", 100), "a[3b");
});

Deno.test("sanitizeLine: trims trailing whitespace only", () => {
  assert.equal(sanitizeLine("  hi  \t \r\n", 100), "  hi");
});

Deno.test("sanitizeLine: truncates to maxLength code points", () => {
  assert.equal(sanitizeLine("abcdef", 3), "abc");
  assert.equal(sanitizeLine("abc", 3), "abc");
  assert.equal(sanitizeLine("abc", 0), "");
  assert.equal(sanitizeLine("abc", -5), "");
  assert.equal(sanitizeLine("abc", Number.NaN), "");
  assert.equal(sanitizeLine("abcdef", 2.9), "ab");
  assert.equal(sanitizeLine("abc", Infinity), "abc");
});

Deno.test("sanitizeLine: truncation never splits a surrogate pair", () => {
  assert.equal(sanitizeLine("😀😀😀", 2), "😀😀");
  assert.equal(sanitizeLine("a😀b", 2), "a😀");
  // A lone surrogate is no character: it is dropped and does not count.
  assert.equal(sanitizeLine("\ud800ab", 2), "ab");
});

Deno.test("sanitizeLine: removed characters do not count toward the limit", () => {
  assert.equal(sanitizeLine("\x1b[31ma\x00b\x1b[0mc", 3), "abc");
});

Deno.test("sanitizeLine: truncation then trailing trim", () => {
  assert.equal(sanitizeLine("ab   cd", 4), "ab");
});

Deno.test("sanitizeLine: handles 100,000-character lines", () => {
  const big = "\x1b[".repeat(50_000);
  assert.equal(sanitizeLine(big, 1_000_000), "[".repeat(50_000));
  const mixed = "a\x00".repeat(50_000);
  assert.equal(sanitizeLine(mixed, 1_000_000), "a".repeat(50_000));
  assert.equal(sanitizeLine("x".repeat(100_000), 4000).length, 4000);
});

Deno.test("sanitizeLine: non-string input gives an empty string", () => {
  assert.equal(sanitizeLine(null as unknown as string, 10), "");
});

Deno.test("sanitizeLine then parseLine round trip", () => {
  const p = parseLine(sanitizeLine("\x1b[1m@SET\x1b[0m me=builder\r\n", 4000));
  assert.equal(p?.name, "@set");
  assert.equal(p?.rhs, "builder");
});
