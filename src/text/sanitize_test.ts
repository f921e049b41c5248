import assert from "node:assert/strict";
import { nameCharProblem, sanitizeJson, sanitizeText } from "./sanitize.ts";

Deno.test("sanitizeText drops bidi overrides and isolates, keeps marks and joiners", () => {
  assert.equal(sanitizeText("a\u202Eb\u202Ac\u2066d\u2069e"), "abcde");
  assert.equal(sanitizeText("\u05D0\u200Fx\u200E"), "\u05D0\u200Fx\u200E");
  assert.equal(sanitizeText("👩\u200D💻"), "👩\u200D💻");
});

Deno.test("sanitizeText drops lone surrogates and noncharacters, keeps pairs", () => {
  assert.equal(sanitizeText("a\ud800b\udc00c"), "abc");
  assert.equal(sanitizeText("x\ud83d"), "x");
  assert.equal(sanitizeText("😀"), "😀");
  assert.equal(sanitizeText("a\uFFFEb\uFFFFc\uFDD0d"), "abcd");
  assert.equal(sanitizeText("a\u{1FFFF}b\u{10FFFE}c"), "abc");
  assert.equal(sanitizeText("\uFFFD"), "\uFFFD");
});

Deno.test("sanitizeText drops controls and escapes; multiline keeps breaks and tabs", () => {
  assert.equal(sanitizeText("a\x1b[31mb\x00c\x7fd\x9be"), "abcde");
  assert.equal(sanitizeText("a\r\nb\rc\nd\te"), "abcd e");
  assert.equal(sanitizeText("a\r\nb\rc\nd\te", { multiline: true }), "a\nb\nc\nd\te");
  assert.equal(sanitizeText("a\u202Eb", { multiline: true }), "ab");
});

Deno.test("sanitizeText caps code points; removed characters do not count", () => {
  assert.equal(sanitizeText("a\u202Ebcd", { maxLength: 2 }), "ab");
  assert.equal(sanitizeText("😀😀😀", { maxLength: 2 }), "😀😀");
  assert.equal(sanitizeText("x".repeat(100_000)).length, 100_000);
  assert.equal(sanitizeText(42 as unknown as string), "");
});

Deno.test("nameCharProblem refuses what text drops and invisible characters", () => {
  assert.equal(nameCharProblem("Red Ball"), null);
  assert.equal(nameCharProblem("Café 👩\u200D💻"), null);
  assert.match(nameCharProblem("Evil\u202Elab")!, /direction overrides/);
  assert.match(nameCharProblem("bad\ud800")!, /invalid/);
  assert.match(nameCharProblem("W\u200Biz")!, /invisible/);
  assert.match(nameCharProblem("W\u200Fiz")!, /invisible/);
  assert.match(nameCharProblem("a\nb")!, /control/);
});

Deno.test("sanitizeJson cleans nested strings, skips chosen keys, survives deep nesting", () => {
  const v = sanitizeJson(
    { nom: "A\u202Eb", password: "p\u202Ew", data: { list: ["x\ud800", { d: "ok\r\n" }] } },
    (k) => k === "password",
  );
  assert.deepEqual(v, {
    nom: "Ab",
    password: "p\u202Ew",
    data: { list: ["x", { d: "ok\n" }] },
  });
  let deep: unknown = "z\u202E";
  for (let i = 0; i < 100_000; i++) deep = [deep];
  sanitizeJson(deep);
  let inner = deep;
  while (Array.isArray(inner)) inner = inner[0];
  assert.equal(inner, "z");
});
