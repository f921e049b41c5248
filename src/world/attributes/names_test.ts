import assert from "node:assert/strict";
import {
  ATTR_ENTRY_BYTES,
  attrBytes,
  attrPattern,
  attrValueProblem,
  canonicalAttrName,
  MAX_ATTR_VALUE,
  utf8Length,
} from "./names.ts";
import { attrFlagLetters, attrFlagNamed, canonicalFlags } from "./flags.ts";

Deno.test("attribute names: TinyMUX 2.12's rules, upper-cased, up to 64 characters", () => {
  // Accepted by TinyMUX 2.12 itself (tried on the server): initial letter or _ ~ # .
  for (
    const ok of ["finger", "_X", "~AB", "#AB", ".AB", "A-B", "A!B", "A(B)", "A/B", "A<B>", "A'B"]
  ) {
    assert.equal(canonicalAttrName(ok), ok.toUpperCase(), ok);
  }
  assert.equal(canonicalAttrName("  desc  "), "DESC");
  assert.equal(canonicalAttrName("A".repeat(64)), "A".repeat(64));
  // Refused by TinyMUX 2.12 (and over-long names, which it silently cuts).
  for (
    const bad of [
      "",
      " ",
      "1X",
      "-AB",
      "@AB",
      "A*B",
      "A|B",
      'A"B',
      "A:B",
      "A,B",
      "A;B",
      "A B",
      "A=B",
      "A%B",
      "A[B",
      "é",
      "A".repeat(65),
      5,
      null,
    ]
  ) {
    assert.equal(canonicalAttrName(bad), null, String(bad));
  }
});

Deno.test("attribute values: text up to 8,000 characters; bytes are UTF-8 of name and value, and the entry", () => {
  assert.equal(attrValueProblem("x".repeat(MAX_ATTR_VALUE)), null);
  assert.match(
    attrValueProblem("x".repeat(MAX_ATTR_VALUE + 1))!,
    /8001 characters; .* at most 8000/,
  );
  assert.match(attrValueProblem(12)!, /must be text/);
  for (const s of ["", "abc", "é", "日本", "😀", "\ud800x", "x\udc00"]) {
    assert.equal(utf8Length(s), new TextEncoder().encode(s).length, JSON.stringify(s));
  }
  assert.equal(attrBytes("DESC", "é"), ATTR_ENTRY_BYTES + 6);
});

Deno.test("attribute patterns: * and ?, case-insensitive, never slow", () => {
  const m = attrPattern("v?")!;
  assert.ok(m("VA") && m("VB") && !m("V") && !m("VAB"));
  const star = attrPattern("bb_*")!;
  assert.ok(star("BB_GROUP") && star("BB_") && !star("XBB_"));
  assert.ok(attrPattern("*")!("ANYTHING"));
  assert.ok(attrPattern("finger")!("FINGER"));
  assert.ok(!attrPattern("finger")!("FINGERS"));
  assert.ok(attrPattern("*a*b*c*")!("XAXBXC"));
  assert.equal(attrPattern("*".repeat(200)), null, "over-long patterns are refused");
  const hard = attrPattern("*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b")!;
  assert.ok(!hard("A".repeat(64)));
});

Deno.test("attribute flags: names, MUX's letters and order", () => {
  assert.equal(attrFlagNamed("Visual"), "visual");
  assert.equal(attrFlagNamed("vis"), null, "whole names only");
  assert.equal(attrFlagLetters(["wizard", "visual", "no_command", "hidden", "locked"]), "+$MVW");
  assert.equal(attrFlagLetters(["trace", "regexp", "no_inherit", "case"]), "CIRT");
  assert.deepEqual(canonicalFlags(["visual", "bogus", "locked", "visual"]), ["locked", "visual"]);
});
