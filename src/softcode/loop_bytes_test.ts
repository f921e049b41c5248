/**
 * A loop's results written into the engine's byte buffers (functions/control.ts `loop`,
 * buffers.ts `enterLoop`): iter() gives what joining its results gives, for ASCII results and
 * for a result that is not ASCII at any place, through nested loops (each with its own buffer,
 * through u() too), separators of every kind, buffers grown, the output limit and loops past the
 * buffers' depth.
 */
import assert from "node:assert/strict";
import { testSoftcode } from "./_test_world.ts";

/** Items: ASCII words, with characters that are not ASCII at `odd` places (-1 for none). */
function items(count: number, odd: number, seed: number, long = false): string[] {
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const w = `w${(seed * 31 + i * 7) % 97}` + (long ? "x".repeat((i * 13) % 90) : "");
    out.push(i === odd ? w + (i % 2 ? "é" : "✓") : w);
  }
  return out;
}

Deno.test("loop bytes: iter() joins ASCII and other results as join() does, every separator", () => {
  const t = testSoftcode();
  const seps: [string, string][] = [["", " "], ["|", "|"], ["é", "é"], ["--", "--"], [
    "@@",
    "",
  ], ["%r", "\r\n"]];
  let seed = 1;
  for (const [arg, osep] of seps) {
    for (const count of [1, 2, 5, 40]) {
      for (const odd of [-1, 0, 1, Math.floor(count / 2), count - 1]) {
        for (const long of [false, true]) {
          const list = items(count, odd, seed++, long);
          const want = list.join(osep).slice(0, 7999);
          const got = t.raw(`[iter(${list.join(" ")},##,,${arg})]`);
          assert.equal(got, want, `${arg} ${count} ${odd} ${long}`);
        }
      }
    }
  }
});

Deno.test("loop bytes: nested loops keep their own text, through u() and a non-ASCII inner", () => {
  const t = testSoftcode();
  // Inner loops run inside every outer item; each inner one writes its own buffer. (MUX puts
  // the outer item in for every `##` of the body's text, so the inner ones read itext().)
  assert.equal(t.run("[iter(a b c,[iter(1 2,itext(0))]-##)]"), "1 2-a 1 2-b 1 2-c");
  assert.equal(t.run("[iter(a é c,[iter(1 ü,itext(0),,|)]-##,,/)]"), "1|ü-a/1|ü-é/1|ü-c");
  // A non-ASCII outer result after ASCII ones, inner loops after it still in their own.
  assert.equal(t.run("[iter(a b é d,##[iter(x y,itext(0))])]"), "ax y bx y éx y dx y");
  t.world.set(t.wiz, "F", "[iter(x y,%0##)]");
  assert.equal(t.run("[iter(a b,u(me/F,##),,|)]"), "ax ay|bx by");
  // Three levels, each item's text starting with its own item, so an inner loop writing over
  // its outer one's text shows.
  assert.equal(
    t.run("[iter(p q,[itext(0)]=[iter(1 2,[itext(0)]-[iter(x y,itext(0))],,:)],,;)]"),
    "p=1-x y:2-x y;q=1-x y:2-x y",
  );
  // Three levels, the middle one's results not ASCII from its second item.
  assert.equal(
    t.run("[iter(p q,[iter(1 é,[iter(k,itext(0))][itext(0)],,:)]##,,;)]"),
    "k1:kép;k1:kéq",
  );
  // Deeper than the buffers go (8): the innermost loops join their results.
  let body = "itext(0)";
  for (let i = 0; i < 11; i++) body = `[iter(a b,${body})]`;
  const words = Array.from({ length: 2 ** 11 }, (_, i) => i % 2 ? "b" : "a");
  assert.equal(t.run(body), words.join(" "));
  assert.equal(t.run("[iter(a b,##)]"), "a b");
});

Deno.test("loop bytes: the output limit cuts the text; the next loop starts clean", () => {
  const small = testSoftcode({ outputLength: 101 });
  const ascii = Array.from({ length: 60 }, (_, i) => `${i + 1}xxxxxxxx`).join(" ");
  assert.equal(small.raw("[iter(lnum(1,60),##xxxxxxxx)]"), ascii.slice(0, 100));
  const odd = Array.from({ length: 60 }, (_, i) => `${i + 1}x${i === 4 ? "é" : "x"}`).join(" ");
  assert.equal(small.raw("[iter(lnum(1,60),##x[if(eq(##,5),é,x)])]"), odd.slice(0, 100));
  // A short loop after long ones: nothing of theirs is left in its text.
  assert.equal(small.raw("[iter(a b,##)]"), "a b");
  assert.equal(small.raw("[iter(a,)]"), "");
  assert.equal(small.raw("[iter(a b c,)]"), "  ");
});
