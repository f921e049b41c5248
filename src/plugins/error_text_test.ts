import assert from "node:assert/strict";
import { errText } from "./error_text.ts";

const DIR = "/srv/game/plugins";

Deno.test("errText: first line, plus where a module error points, relative to the plugins", () => {
  const e = new Error(
    "\x1b[31mThe module's source code could not be parsed\x1b[0m: Expected ';'\n" +
      "    at file:///srv/game/plugins/kettle/mod.ts:3:5",
  );
  assert.equal(
    errText(e, DIR),
    "The module's source code could not be parsed: Expected ';' (at kettle/mod.ts:3:5)",
  );
});

Deno.test("errText: a reload's staging folder is named as the real one; outside paths stay", () => {
  const staged = "file:///srv/game/plugins/.kettle.reload-4242-3-0a1b2c3d/store.ts:10:2";
  assert.equal(
    errText(new Error(`Module not found ${staged}`), DIR),
    "Module not found kettle/store.ts:10:2",
  );
  assert.equal(
    errText(new Error("boom at file:///usr/lib/x.ts:1:1"), DIR),
    "boom at /usr/lib/x.ts:1:1",
  );
  assert.equal(errText(new Error("no dir file:///srv/a.ts")), "no dir /srv/a.ts");
});

Deno.test("errText: non-errors, repeated locations and the length cap", () => {
  assert.equal(errText("plain string"), "plain string");
  assert.equal(errText(42), "42");
  const at = "file:///srv/game/plugins/x/mod.ts:1:1";
  assert.equal(errText(new Error(`bad ${at}\n at ${at}`), DIR), "bad x/mod.ts:1:1");
  assert.equal(errText(new Error("x".repeat(2000))).length, 500);
});
