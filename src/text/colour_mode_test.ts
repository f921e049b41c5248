import assert from "node:assert/strict";
import {
  colourModeOf,
  terminalColourDepth,
  terminalHasColour,
  wantsColour,
} from "./colour_mode.ts";

Deno.test("colourModeOf: on and off are kept, anything else is auto", () => {
  assert.equal(colourModeOf("on"), "on");
  assert.equal(colourModeOf("off"), "off");
  for (const v of [undefined, null, "ON", 1, {}, "auto"]) assert.equal(colourModeOf(v), "auto");
});

Deno.test("terminalHasColour: MTTS ANSI bit decides, else DUMB means none", () => {
  assert.equal(terminalHasColour([], null), true);
  assert.equal(terminalHasColour(["TINTIN++", "XTERM"], null), true);
  assert.equal(terminalHasColour(["dumb"], null), false);
  assert.equal(terminalHasColour(["Mudlet", "ANSI-256COLOR", "MTTS 2825"], 2825), true);
  assert.equal(terminalHasColour(["X", "XTERM", "MTTS 4"], 4), false);
  assert.equal(terminalHasColour(["DUMB", "MTTS 1"], 1), true);
});

Deno.test("wantsColour: the player's setting wins over the terminal", () => {
  assert.equal(wantsColour("auto", true), true);
  assert.equal(wantsColour("auto", false), false);
  assert.equal(wantsColour("on", false), true);
  assert.equal(wantsColour("off", true), false);
});

Deno.test("colour depth for RGB codes: MTTS bits, then the terminal type", () => {
  assert.equal(terminalColourDepth(["MUDLET", "ANSI-TRUECOLOR", "MTTS 2825"], 2825), 16777216);
  assert.equal(terminalColourDepth(["TINTIN"], 1 | 8), 256);
  assert.equal(terminalColourDepth(["TINTIN"], 1), 16);
  assert.equal(terminalColourDepth(["XTERM-256COLOR"], null), 256);
  assert.equal(terminalColourDepth(["ANSI-TRUECOLOR"], null), 16777216);
  assert.equal(terminalColourDepth([], null), 16);
});
