// The browser's colour reader (web/assets/colour.js) reads every code the engine sends.
import assert from "node:assert/strict";
import { parseCodes, plainText } from "../web/assets/colour.js";

Deno.test("web colour: MUX codes, RGB colours and attributes become runs", () => {
  const [line] = parseCodes("%xrred%cn %x<#ff8040>o%X<0 0 255>b%xuu%xff%xii%cn x");
  assert.deepEqual(line.map((r) => [r.text, r.fg, r.bg, r.ul, r.fl, r.inv]), [
    ["red", "r", null, false, false, false],
    [" ", null, null, false, false, false],
    ["o", "#ff8040", null, false, false, false],
    ["b", "#ff8040", "#0000ff", false, false, false],
    ["u", "#ff8040", "#0000ff", true, false, false],
    ["f", "#ff8040", "#0000ff", true, true, false],
    ["i", "#ff8040", "#0000ff", true, true, true],
    [" x", null, null, false, false, false],
  ]);
});

Deno.test("web colour: an escaped percent stays a percent, and text never carries codes", () => {
  assert.equal(plainText("100%% %%r %x<#zz> %xq"), "100% %r %x<#zz> %xq");
  assert.equal(plainText("a%rb"), "a\nb");
});
