/**
 * Lists kept split (src/softcode/split_lists.ts): a kept split is the one splitInert gives for
 * the same text, whatever was split between, and iter() over a list that changed never sees
 * the old one's items.
 */
import assert from "node:assert/strict";
import { SplitLists } from "./split_lists.ts";
import { splitInert } from "./template.ts";
import { testSoftcode } from "./_test_world.ts";

Deno.test("split lists: a kept split is splitInert's for the same text, through evictions", () => {
  const lists = new SplitLists(4);
  const words = ["a", "bb", "c#", "##", "d[e]", "f", "  ", "g%h", "é", "\t"];
  let seed = 47;
  const next = (n: number) => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) >>> 12) % n;
  // A pool of texts longer and shorter than the kept minimum, some equal but made anew.
  const pool: string[] = [];
  for (let i = 0; i < 12; i++) {
    let s = "";
    for (let j = 0, n = 5 + next(60); j < n; j++) s += words[next(words.length)] + " ";
    pool.push(s);
  }
  for (let i = 0; i < 5_000; i++) {
    const base = pool[next(pool.length)];
    // The same text as a different string half the time (as lwho() makes it each line).
    const s = next(2) ? base : [...base].join("");
    const got = lists.get(s);
    const want = splitInert(s);
    assert.deepEqual(got.items, want.items, JSON.stringify(s));
    assert.equal(got.inert, want.inert, JSON.stringify(s));
  }
});

Deno.test("split lists: iter() over a list that changed see the new items", () => {
  const t = testSoftcode();
  const long = (w: string) => Array.from({ length: 40 }, (_, i) => `${w}${i}`).join(" ");
  t.world.set(t.wiz, "L", long("a"));
  const first = t.run("[iter(get(me/L),strlen(##))]");
  assert.equal(first, Array.from({ length: 40 }, (_, i) => String(String(i).length + 1)).join(" "));
  assert.equal(t.run("[iter(get(me/L),##,,|)]"), long("a").replaceAll(" ", "|"));
  // Written again (the same length, other items): the next loop has the new items.
  t.world.set(t.wiz, "L", long("b"));
  assert.equal(t.run("[iter(get(me/L),##,,|)]"), long("b").replaceAll(" ", "|"));
  // One item made live (a bracket): no longer run from the template, evaluated as MUX would.
  t.world.set(t.wiz, "L", long("c") + " [add(1,2)]");
  assert.equal(t.run("[last(iter(get(me/L),##))]"), "3");
  // A loop cut short by the output limit leaves the kept split whole for the next loop.
  const small = testSoftcode({ outputLength: 201 });
  small.world.set(small.wiz, "L", long("d"));
  const cut = small.run("[iter(get(me/L),##xy)]");
  assert.equal(cut, long("d").replaceAll(" ", "xy ").slice(0, 200));
  assert.equal(small.run("[words(iter(get(me/L),x))]"), "40");
});
