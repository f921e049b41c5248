import { assert, assertEquals, assertMatch } from "../../tests/assert.ts";
import { cutToFit } from "./output_dropped.ts";

Deno.test("cutToFit: a text that fits is itself", () => {
  assertEquals(cutToFit("short", () => true), "short");
});

Deno.test("cutToFit: a long text is cut at a line break and says how much was cut", () => {
  const msg = Array.from({ length: 1000 }, (_, i) => `line ${i}`).join("\n");
  const cut = cutToFit(msg, (t) => t.length <= 3000);
  assert(cut.length <= 3000, `${cut.length}`);
  const lines = cut.split("\n");
  assertMatch(lines.at(-1)!, /^%ch%cr\[\d+ more characters of this output were cut/);
  // Whole lines kept, in order.
  lines.slice(0, -1).forEach((l, i) => assertEquals(l, `line ${i}`));
  const kept = lines.slice(0, -1).join("\n").length;
  assertMatch(lines.at(-1)!, new RegExp(`\\[${msg.length - kept} more`));
});

Deno.test("cutToFit: nothing that fits leaves the notice alone", () => {
  assertMatch(cutToFit("x".repeat(100), (t) => !t.startsWith("x")), /^%ch%cr\[100 more/);
});
