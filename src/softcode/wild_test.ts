import { assertEquals } from "../../tests/assert.ts";
import { switchMatch, wildMatch } from "./wild.ts";
import { wildCapture } from "./wild_capture.ts";

Deno.test("wildMatch: MUX's wildcards, letters in any case, `\\` escapes", () => {
  const cases: [string, string, boolean][] = [
    ["*", "", true],
    ["", "", true],
    ["", "a", false],
    ["a*c", "ABBC", true],
    ["a?c", "abc", true],
    ["a?c", "ac", false],
    ["**b", "aab", true],
    ["a\\*", "a*", true],
    ["a\\*", "ab", false],
    ["a\\?", "a?", true],
    ["a\\", "a\\", true],
    ["\\\\", "\\", true],
    ["P*", "PLAYER", true],
    ["*x*y", "axbxcy", true],
    ["*x*y", "axbxcyz", false],
  ];
  for (const [p, t, want] of cases) assertEquals(wildMatch(p, t), want, `${p} on ${t}`);
  assertEquals(switchMatch("<5", "3"), true);
});

Deno.test("wildMatch agrees with the capturing matcher on generated patterns and texts", () => {
  // wild_capture.ts builds the pattern's units first; wildMatch reads the pattern in place.
  let seed = 12345;
  const rnd = (n: number) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return (seed >>> 8) % n;
  };
  const pick = (alphabet: string, max: number) => {
    let s = "";
    for (let i = rnd(max + 1); i > 0; i--) s += alphabet[rnd(alphabet.length)];
    return s;
  };
  for (let i = 0; i < 20_000; i++) {
    const p = pick("aAbB*?\\", 7);
    const t = pick("aAbB*?\\", 8);
    assertEquals(wildMatch(p, t), wildCapture(p, t) !== null, `${p} on ${t}`);
  }
});

Deno.test("wildMatch and wildCapture: a long match asks `more` as it goes and stops when told", () => {
  // 4,000 starts of up to 4,000 characters each: 16 million steps, about 100 ms.
  const text = "a".repeat(7999);
  const pattern = `*${"a".repeat(3999)}b`;
  let asked = 0;
  const more = () => ++asked < 3;
  assertEquals(wildMatch(pattern, text, more), false);
  assertEquals(asked, 3);
  asked = 0;
  assertEquals(wildCapture(pattern, text, more), null);
  assertEquals(asked, 3);
  // A match that finishes within the steps never asks, and answers as before.
  asked = 0;
  assertEquals(wildMatch("*b", "a".repeat(100) + "b", more), true);
  assertEquals(wildCapture("* b", "x b", more), ["x"]);
  assertEquals(switchMatch(pattern, text, () => false), false);
  assertEquals(asked, 0);
});
