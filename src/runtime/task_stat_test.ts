import assert from "node:assert/strict";
import { currentTid, parseTaskStat, readTaskSched } from "./task_stat.ts";

/** A stat line as proc(5) writes it, with `nice` in field 19 and `policy` in field 41. */
function statLine(comm: string, nice: number, policy: number): string {
  const f = Array.from({ length: 52 }, (_, i) => String(i + 1));
  f[1] = `(${comm})`;
  f[2] = "S";
  f[18] = String(nice);
  f[40] = String(policy);
  return f.join(" ");
}

Deno.test("parseTaskStat: nice and policy from their fields, whatever the command name holds", () => {
  assert.deepEqual(parseTaskStat(7, statLine("deno", 10, 0)), { tid: 7, nice: 10, policy: 0 });
  assert.deepEqual(parseTaskStat(8, statLine("a) b (c", -5, 5)), { tid: 8, nice: -5, policy: 5 });
  assert.deepEqual(parseTaskStat(9, statLine("V8 DefaultWorke", 19, 3)), {
    tid: 9,
    nice: 19,
    policy: 3,
  });
});

Deno.test("parseTaskStat: not a stat line, or one cut short, is null", () => {
  assert.equal(parseTaskStat(1, ""), null);
  assert.equal(parseTaskStat(1, "no parenthesis here"), null);
  assert.equal(parseTaskStat(1, statLine("x", 0, 0).split(" ").slice(0, 30).join(" ")), null);
  assert.equal(parseTaskStat(1, statLine("x", 0, 0).replace(" 0 ", " zero ")), null);
});

Deno.test({
  name: "readTaskSched: this thread as the kernel reports it",
  ignore: Deno.build.os !== "linux",
  fn: () => {
    const tid = currentTid();
    assert.ok(tid !== null && tid > 0);
    // One of this process's threads (the test runner's JS need not run on the first one).
    assert.ok(Deno.statSync(`/proc/self/task/${tid}`).isDirectory);
    const t = readTaskSched(tid)!;
    assert.equal(t.tid, tid);
    assert.equal(t.policy, 0);
    assert.ok(t.nice >= -20 && t.nice <= 19);
    assert.equal(readTaskSched(2 ** 30), null);
  },
});
