import assert from "node:assert/strict";
import * as s from "./schema.ts";
import { ValidationError } from "../errors.ts";

/** The message a parse refuses with. */
function refusal(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    assert(e instanceof ValidationError, `a ValidationError, not ${e}`);
    return e.message;
  }
  throw new Error("not refused");
}

Deno.test("schema: text checks and describes with the house messages", () => {
  const t = s.text(5, { oneLine: true });
  assert.deepEqual(t.json, { type: "string", maxLength: 5, minLength: 1 });
  assert.equal(t.parse(" a\nb ", "title"), "a b");
  assert.equal(t.parse("😀😀😀😀😀", "title"), "😀😀😀😀😀", "code points, as players count");
  assert.equal(refusal(() => t.parse(5, "title")), "title must be a string");
  assert.equal(refusal(() => t.parse("  ", "title")), "title is required");
  assert.equal(refusal(() => t.parse("abcdef", "title")), "title must be 5 characters or fewer");
  const empty = s.text(5, { empty: true });
  assert.equal(empty.parse(undefined, "x"), "");
  assert.equal(empty.parse(null, "x"), "");
  assert.equal(empty.json.minLength, undefined);
  const one = s.text(5, { invalid: "text is required" });
  assert.equal(refusal(() => one.parse(5, "text")), "text is required");
  assert.equal(refusal(() => one.parse("", "text")), "text is required");
});

Deno.test("schema: words, booleans, whole numbers, null", () => {
  const w = s.oneOf(["low", "high"], { loose: true });
  assert.deepEqual(w.json, { type: "string", enum: ["low", "high"] });
  assert.equal(w.parse(" HIGH ", "p"), "high");
  assert.equal(refusal(() => w.parse("mid", "p")), "p must be one of low, high");
  assert.equal(refusal(() => s.oneOf(["a"]).parse(" a", "p")), "p must be one of a");
  assert.equal(refusal(() => s.bool().parse("yes", "private")), "private must be true or false");
  const n = s.int({ min: 0, max: 9 });
  assert.equal(n.parse(3, "n"), 3);
  assert.equal(refusal(() => n.parse(3.5, "n")), "n must be a whole number from 0 to 9");
  assert.deepEqual(s.nullable(n).json, {
    anyOf: [{ type: "integer", minimum: 0, maximum: 9 }, { type: "null" }],
  });
  assert.equal(s.nullable(n).parse(null, "n"), null);
});

Deno.test("schema: an object checks its fields in order; only, present, aliases", () => {
  const o = s.object({
    name: s.text(10),
    kind: s.optional(s.oneOf(["a", "b"])),
    where: s.custom({ type: "string" }, (v) => {
      if (typeof v !== "string") throw new ValidationError("where is required");
      return v;
    }),
  }, { aliases: { place: "where" } });
  assert.deepEqual(o.parse({ name: "x", place: "#1" }, "body"), { name: "x", where: "#1" });
  assert.deepEqual(o.parse({ name: "x", where: null, place: "#2" }, "body").where, "#2");
  assert.equal(refusal(() => o.parse({ kind: "z" }, "body")), "name is required", "in order");
  assert.equal(
    refusal(() => o.parse({ name: "x", kind: "z" }, "body")),
    "kind must be one of a, b",
  );
  assert.deepEqual(o.json.required, ["name", "where"]);
  assert.deepEqual(Object.keys(o.json.properties as object), ["name", "kind", "where", "place"]);
  const change = s.object({ a: s.optional(s.text(3)), b: s.optional(s.text(3)) }, {
    only: true,
    listed: ["b", "a"],
  });
  assert.equal(refusal(() => change.parse({}, "body")), "nothing to change; allowed: b, a");
  assert.equal(refusal(() => change.parse({ c: 1 }, "body")), "unknown field 'c'; allowed: b, a");
  assert.equal(change.json.additionalProperties, false);
  const need = s.object({ x: s.optional(s.text(3)), y: s.text(3) }, { present: ["y"], only: true });
  assert.equal(refusal(() => need.parse({ z: 1 }, "body")), "y is required", "before only");
  assert.equal(refusal(() => s.object({}).parse([], "body")), "body must be an object");
});

Deno.test("schema: later passes the value through; arrays are bounded", () => {
  const l = s.later(s.text(3));
  assert.deepEqual(l.json, { type: "string", maxLength: 3, minLength: 1 });
  assert.equal(l.parse(42, "x"), 42);
  const a = s.arrayOf(s.text(3), 2);
  assert.deepEqual(a.parse(["a", "b"], "tags"), ["a", "b"]);
  assert.equal(refusal(() => a.parse(["a", "b", "c"], "tags")), "tags may hold at most 2 items");
  assert.equal(refusal(() => a.parse("a", "tags")), "tags must be an array");
  assert.equal(refusal(() => a.parse([5], "tags")), "tags[0] must be a string");
});
