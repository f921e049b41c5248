/**
 * Generated bad input: every registered function (and alias) is called with missing, extra,
 * empty, non-numeric, huge, negative, Unicode, colour and overlong arguments. None may throw
 * past the evaluator, give more than the output limit, or keep going past the evaluation
 * budget. The clock is a counter (each reading is one "millisecond"), so the budget bounds
 * the work an evaluation does without the test depending on the machine's speed.
 */
import assert from "node:assert/strict";
import { testSoftcode } from "./_test_world.ts";
import { builtinFunctions } from "./functions/mod.ts";

/** Arguments of each kind. */
const KINDS: Record<string, string> = {
  empty: "",
  word: "abc",
  huge: "100000000",
  hugeNeg: "-100000000",
  big: "99999999999999999999999",
  negative: "-5",
  zero: "0",
  fraction: "2.5",
  unicode: "日本語é☃",
  colour: "[ansi(hr,red)]",
  dbref: "#-1",
  me: "me",
  list: "a b c d e",
  pattern: "(a+)+$",
  long: "[repeat(x,7000)]",
};

/** The argument lists tried for one function. */
function argSets(min: number, max: number): string[][] {
  const sets: string[][] = [[]];
  const n = Math.min(max, 6);
  // Missing: one fewer than the least; extra: one more than the most.
  if (min > 0) sets.push(new Array(min - 1).fill("1"));
  if (max < 100) sets.push(new Array(max + 1).fill("1"));
  for (const v of Object.values(KINDS)) {
    sets.push(new Array(Math.max(min, 1)).fill(v));
    if (n > min) sets.push(new Array(n).fill(v));
  }
  // Mixed: a list, a huge count, a separator, a negative.
  sets.push(["a b c", "100000000", "|", "-1", "x", "y"].slice(0, Math.max(min, Math.min(n, 6))));
  sets.push(["100000000", "1", "100000000"].slice(0, Math.max(min, Math.min(n, 3))));
  return sets;
}

Deno.test("softcode: every function survives bad arguments within the limits", () => {
  const names = builtinFunctions().names();
  assert.ok(names.length > 250, `only ${names.length} functions`);
  let clock = 0;
  // A counter clock: the budget bounds clock readings, i.e. work, not wall time.
  const t = testSoftcode({ evaluationMs: 500, actorMs: Number.MAX_SAFE_INTEGER }, () => clock++);
  t.world.set(t.wiz, "ATTR", "[add(%0,1)]");
  const failures: string[] = [];
  let calls = 0;
  for (const name of names) {
    const fn = t.sc.functions.get(name)!;
    for (const args of argSets(fn.minArgs, fn.maxArgs)) {
      const text = `[${name.toLowerCase()}(${args.join(",")})]`;
      const started = clock;
      let out: string;
      try {
        out = t.raw(text);
      } catch (e) {
        failures.push(`${text}: threw ${e}`);
        continue;
      }
      calls++;
      if (out.includes("#-1 INTERNAL ERROR")) failures.push(`${text}: internal error`);
      if (out.length > 8000) failures.push(`${text}: ${out.length} characters`);
      if (clock - started > 600) failures.push(`${text}: ran ${clock - started} clock readings`);
    }
  }
  assert.ok(calls > 3000, `only ${calls} calls`);
  assert.deepEqual(failures, []);
});
