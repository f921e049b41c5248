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
