/** The budgets of script time (src/scripts/budget.ts), on a hand-moved clock. */
import { assertEquals } from "../../tests/assert.ts";
import { ScriptBudget } from "./budget.ts";

Deno.test("budget: an actor spends its share, then waits for it to refill", () => {
  let now = 0;
  const b = new ScriptBudget({ actorMs: 200, gameMs: 2000, windowMs: 10_000 }, () => now);
  assertEquals(b.admit("3"), null);
  b.charge("3", 150);
  assertEquals(b.admit("3"), null);
  b.charge("3", 100); // below zero: 50 ms owed
  assertEquals(b.admit("3"), { who: "actor", waitMs: 2501 });
  assertEquals(b.admit("4"), null); // another actor is not held back
  now += 2_600;
  assertEquals(b.admit("3"), null);
  now += 100_000;
  b.charge("3", 0);
  assertEquals(b.admit("3"), null);
});

Deno.test("budget: the game's total holds back everyone once spent", () => {
  let now = 0;
  const b = new ScriptBudget({ actorMs: 200, gameMs: 500, windowMs: 10_000 }, () => now);
  for (let i = 0; i < 5; i++) b.charge(`p${i}`, 120);
  assertEquals(b.admit("fresh"), { who: "game", waitMs: 2001 });
  now += 2_001;
  assertEquals(b.admit("fresh"), null);
});

Deno.test("budget: many actors are remembered within a bound", () => {
  let now = 0;
  const b = new ScriptBudget({ actorMs: 10, gameMs: 1e12, windowMs: 1000 }, () => now);
  for (let i = 0; i < 25_000; i++) b.charge(`p${i}`, 20);
  // The newest are still held back; the map did not grow past its bound meanwhile.
  assertEquals(b.admit("p24999")?.who, "actor");
  now += 10_000;
  assertEquals(b.admit("p24999"), null);
});
