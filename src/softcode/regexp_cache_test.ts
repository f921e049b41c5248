import { assert, assertEquals, assertMatch } from "../../tests/assert.ts";
import { RE2JS } from "re2js";
import { estimatedSize, RegexpCache } from "./regexp_cache.ts";

const PATTERNS = [
  "^(\\d+)d(\\d+)$",
  "(.+)=(.+)",
  "^[A-Za-z ]+$",
  "(?i)^(\\w{3,20})\\s+(.*)$",
  "^(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})$",
  "[[:alpha:]]+|[^\\]x]{2,}",
  "(?P<name>[a-z]+)@(?:[a-z]+\\.)+[a-z]{2,6}",
  "(?:a|aa|aaa|aaaa|aaaaa|b){1000}c",
  "[a-z]{300}[0-9]",
  "((a{10}){10}){10}",
  "x{5,}",
];

Deno.test("regexp cache: the estimate is near the compiled program, never far below it", () => {
  for (const p of PATTERNS) {
    const size = RE2JS.compile(p).programSize();
    const est = estimatedSize(p);
    assert(est * 2 >= size, `${p}: estimated ${est}, compiles to ${size}`);
    assert(est <= 2 * size + 10, `${p}: estimated ${est}, far above ${size}`);
  }
});

Deno.test("regexp cache: a program over the limit is refused, the usual patterns compile", () => {
  let max = 200;
  const cache = new RegexpCache(() => max);
  for (const p of PATTERNS.slice(0, 7)) assert(typeof cache.compile(p, false) !== "string", p);
  assertMatch(
    cache.compile("(?:a|aa|aaa|aaaa|aaaaa|b){1000}c", false) as string,
    /^#-1 REGEXP ERROR pattern too complex \(over 200 instructions\)$/,
  );
  // Near the limit, the compiled size decides: [a-z]{150} compiles (about 153), {250} does not.
  assert(typeof cache.compile("[a-z]{150}", false) !== "string");
  assertMatch(cache.compile("[a-z]{250}", false) as string, /too complex/);
  // A lower limit counts for a pattern compiled before it.
  max = 100;
  assertMatch(cache.compile("[a-z]{150}", false) as string, /too complex/);
  assertEquals(typeof cache.compile("(.+)=(.+)", true), "object");
  assertMatch(cache.compile("(a", false) as string, /^#-1 REGEXP ERROR missing closing \)/);
});
