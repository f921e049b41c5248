import assert from "node:assert/strict";
import { LineSplitter, parseFrame } from "./protocol.ts";
import { importProblem } from "./imports.ts";

const bytes = (s: string) => new TextEncoder().encode(s);

Deno.test("script protocol: lines are framed across chunks and bounded", () => {
  const s = new LineSplitter(16);
  assert.deepEqual(s.push(bytes('{"a":1}\n{"b"')), ['{"a":1}']);
  assert.deepEqual(s.push(bytes(":2}\n\n")), ['{"b":2}', ""]);
  // A line over the limit is refused before it is assembled, even when it comes in pieces.
  assert.throws(() => s.push(bytes("x".repeat(10))) && s.push(bytes("y".repeat(10))), RangeError);
  assert.equal(parseFrame("[1]"), null);
  assert.equal(parseFrame("nope"), null);
  assert.deepEqual(parseFrame('{"t":"ready"}'), { t: "ready" });
});

Deno.test("script imports: only `import type` passes", () => {
  assert.equal(
    importProblem(`import type { X } from "./sdk.d.ts";\nexport default () => {};`),
    null,
  );
  assert.equal(
    importProblem(`/// <reference path="./sdk.d.ts" />\nexport default () => {};`),
    null,
  );
  assert.equal(importProblem(`// import x from "y";\nexport default () => {};`), null);
  for (
    const src of [
      `import x from "../../src/engine.ts";`,
      `import { a, type B } from "./other.ts";`,
      `import "./side_effect.ts";`,
      `export * from "./other.ts";`,
      `export { a } from "npm:hono";`,
      `export default async () => await import("./other.ts");`,
    ]
  ) assert.ok(importProblem(src), src);
});
