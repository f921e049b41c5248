import assert from "node:assert/strict";
import { HELPER_NICE_OFFSET, lowerV8Helpers } from "./v8_helpers.ts";

const CHILD = new URL("./_v8_helpers_child.ts", import.meta.url).pathname;

/** Runs the child with `opts` and returns what it saw. */
async function child(opts: Record<string, number>) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", "--no-lock", "-A", CHILD, JSON.stringify(opts)],
    stdout: "piped",
    stderr: "piped",
    env: { DENO_NO_PACKAGE_JSON: "1" },
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

const linux = Deno.build.os === "linux";

Deno.test({
  name: "lowerV8Helpers: V8's helper threads go ten nice levels below the loop, the loop stays",
  ignore: !linux,
  fn: async () => {
    const r = await child({});
    assert.ok(r.first.found >= 1, JSON.stringify(r));
    assert.equal(r.first.lowered, r.first.found, r.first.why);
    assert.equal(r.first.nice, r.main + HELPER_NICE_OFFSET);
    assert.equal(r.first.why, undefined);
    // What the kernel says: every helper moved, the event loop's thread did not.
    assert.deepEqual(r.helpers, r.helpers.map(() => r.main + HELPER_NICE_OFFSET));
    assert.equal(r.main, 0);
    // Called again: nothing further moves.
    assert.deepEqual(r.second, r.first);
  },
});

Deno.test({
  name: "lowerV8Helpers: counts from the loop's own nice value, capped at 19",
  ignore: !linux,
  fn: async () => {
    const r = await child({ mainNice: 4 });
    assert.equal(r.main, 4);
    assert.deepEqual(r.helpers, r.helpers.map(() => 4 + HELPER_NICE_OFFSET));
    const capped = await child({ mainNice: 15 });
    assert.equal(capped.first.nice, 19);
    assert.deepEqual(capped.helpers, capped.helpers.map(() => 19));
  },
});

Deno.test({
  name: "lowerV8Helpers: never raises a helper an operator put lower",
  ignore: !linux,
  fn: async () => {
    const r = await child({ helperNice: 17 });
    assert.deepEqual(r.helpers, r.helpers.map(() => 17));
    assert.equal(r.first.lowered, r.first.found);
    const none = await child({ offset: 0 });
    assert.deepEqual(none.helpers, none.helpers.map(() => none.main));
  },
});

Deno.test("lowerV8Helpers: off Linux it changes nothing and says why", () => {
  if (linux) return;
  const r = lowerV8Helpers();
  assert.equal(r.lowered, 0);
  assert.match(r.why ?? "", /not Linux/);
});
