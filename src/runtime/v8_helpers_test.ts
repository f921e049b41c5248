import assert from "node:assert/strict";
import { HELPER_NICE_OFFSET, lowerV8Helpers } from "./v8_helpers.ts";
import { currentTid, readTaskSched } from "./task_stat.ts";

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
/** The test runner's own nice value: the child starts from it (a runner under `nice` too). */
const runnerNice = () => readTaskSched(currentTid()!)!.nice;

Deno.test({
  name: "lowerV8Helpers: V8's helper threads go ten nice levels below the loop, the loop stays",
  ignore: !linux,
  fn: async () => {
    const base = runnerNice();
    const r = await child({});
    assert.ok(r.first.found >= 1, JSON.stringify(r));
    assert.equal(r.first.lowered, r.first.found, r.first.why);
    assert.equal(r.first.why, undefined);
    assert.equal(r.main, base);
    const want = Math.min(19, base + HELPER_NICE_OFFSET);
    assert.equal(r.first.nice, want);
    // What the kernel says: every helper moved, the event loop's thread did not.
    assert.deepEqual(r.helpers, r.helpers.map(() => want));
    // Called again: nothing further moves.
    assert.deepEqual(r.second, r.first);
  },
});

Deno.test({
  name: "lowerV8Helpers: counts from the loop's own nice value, capped at 19",
  ignore: !linux || runnerNice() > 4,
  fn: async () => {
    const main = runnerNice() + 4;
    const r = await child({ mainNice: main });
    assert.equal(r.main, main);
    assert.deepEqual(r.helpers, r.helpers.map(() => Math.min(19, main + HELPER_NICE_OFFSET)));
    const capped = await child({ mainNice: 15 });
    assert.equal(capped.first.nice, 19);
    assert.deepEqual(capped.helpers, capped.helpers.map(() => 19));
  },
});

Deno.test({
  name: "lowerV8Helpers: never raises a helper's priority, whatever it is asked",
  ignore: !linux || runnerNice() > 17,
  fn: async () => {
    // Put lower by an operator: stays there.
    const r = await child({ helperNice: 17 });
    assert.deepEqual(r.helpers, r.helpers.map(() => 17));
    assert.equal(r.first.lowered, r.first.found);
    // A negative offset would raise them above the loop (which root could do): taken as none.
    const base = runnerNice();
    const up = await child({ offset: -5 });
    assert.equal(up.first.nice, base);
    assert.deepEqual(up.helpers, up.helpers.map(() => base));
  },
});

Deno.test({
  name: "lowerV8Helpers: off Linux it changes nothing and says why",
  ignore: linux,
  fn: () => {
    const r = lowerV8Helpers();
    assert.equal(r.lowered, 0);
    assert.match(r.why ?? "", /not Linux/);
  },
});
