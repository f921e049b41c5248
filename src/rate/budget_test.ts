/** The rate primitive (src/rate/budget.ts), on a hand-moved clock. */
import assert from "node:assert/strict";
import { MAX_DEBT_WINDOWS, RateBudget, RateBudgets, type RateShape } from "./budget.ts";

const STEADY: RateShape = { capacity: 1000, windowMs: 4000 };
const WINDOW: RateShape = { capacity: 100, windowMs: 10_000, refill: "window" };

Deno.test("rate budget, steady: a burst of capacity, then capacity a window, evenly", () => {
  let now = 0;
  const b = new RateBudget(STEADY, () => now);
  assert.equal(b.take(1000), 0, "the burst");
  assert.equal(b.take(1), 4, "one more is 4 ms away (1000 per 4 s)");
  assert.equal(b.left(), 0);
  now = 2000;
  assert.equal(b.left(), 500, "half a window: half of it back");
  assert.equal(b.take(500), 0);
  assert.equal(b.take(501), 2004, "nothing taken when it is not there");
  assert.equal(b.left(), 0);
  now = 1_000_000;
  assert.equal(b.left(), 1000, "idle for long refills only up to capacity");
});

Deno.test("rate budget, steady: spending overdraws and says how long the debt lasts", () => {
  let now = 0;
  const b = new RateBudget(STEADY, () => now);
  assert.equal(b.spend(1000), 0);
  assert.equal(b.spend(500), 2000, "500 owed at 1000 per 4 s");
  assert.equal(b.left(), -500);
  assert.equal(b.waitFor(0), 2000);
  now = 2000;
  assert.equal(b.left(), 0);
  assert.equal(b.waitFor(0), 0);
  assert.equal(b.spend(250), 1000);
  b.giveBack(250);
  assert.equal(b.left(), 0, "given back");
  b.giveBack(1e9);
  assert.equal(b.left(), 1000, "never past full");
});

Deno.test("rate budget, window: capacity a window, all back when it ends; a debt does not carry", () => {
  let now = 0;
  const b = new RateBudget(WINDOW, () => now);
  assert.equal(b.take(60), 0, "the window begins at the first use");
  now = 9_000;
  assert.equal(b.left(), 40, "nothing comes back within the window");
  assert.equal(b.take(50), 1000, "until the window ends");
  assert.equal(b.spend(70), 1000, "overdrawn until the window ends");
  assert.equal(b.left(), -30);
  now = 10_000;
  assert.equal(b.left(), 100, "a new window, whole, the debt gone");
  now = 15_000;
  assert.equal(b.take(100), 0, "the next window begins at its first use");
  now = 24_999;
  assert.equal(b.waitFor(1), 1);
  now = 25_000;
  assert.equal(b.take(100), 0);
  b.giveBack(30);
  assert.equal(b.left(), 30);
});

Deno.test("rate budget: a clock that steps back neither refills nor charges", () => {
  for (const shape of [STEADY, WINDOW]) {
    let now = 50_000;
    const b = new RateBudget(shape, () => now);
    b.spend(shape.capacity);
    const left = b.left();
    now = 10_000; // back 40 s
    assert.equal(b.left(), left, `${shape.refill}: time stood still`);
    assert.ok(b.waitFor(1) <= shape.windowMs, `${shape.refill}: not held for the 40 s back`);
    now = 10_000 + shape.windowMs;
    assert.equal(b.left(), shape.capacity, `${shape.refill}: a window on, whole again`);
  }
  // The same for keys.
  let now = 50_000;
  const t = new RateBudgets({ now: () => now });
  t.spend("a", 1000, STEADY);
  now = 0;
  assert.equal(t.waitFor("a", 1000, STEADY), 4000);
});

Deno.test("rate budget: zero, negative, NaN and huge amounts and shapes", () => {
  let now = 0;
  const b = new RateBudget(STEADY, () => now);
  assert.equal(b.take(0), 0);
  assert.equal(b.spend(-5), 0, "below zero is nothing");
  assert.equal(b.spend(NaN), 0);
  assert.equal(b.left(), 1000);
  assert.equal(b.take(1001), Infinity, "more than it ever holds is never there");
  assert.equal(b.left(), 1000, "and takes nothing");
  // A huge overdraft is capped, so the budget comes back some day.
  const wait = b.spend(Infinity);
  assert.ok(Number.isFinite(wait) && wait <= STEADY.windowMs * MAX_DEBT_WINDOWS, String(wait));
  now += wait;
  assert.equal(b.left(), 0);
  const w = new RateBudget(WINDOW, () => now);
  w.spend(Infinity);
  now += WINDOW.windowMs;
  assert.equal(w.left(), 100, "a window's debt ends with it, however large");
  // No bound at all.
  for (
    const shape of [{ capacity: 0, windowMs: 1000 }, { capacity: NaN, windowMs: 1000 }, {
      capacity: 5,
      windowMs: 0,
    }]
  ) {
    const free = new RateBudget(shape, () => now);
    assert.equal(free.spend(1e12), 0);
    assert.equal(free.take(1e12), 0);
    assert.equal(free.left(), Infinity);
    const keys = new RateBudgets({ now: () => now });
    assert.equal(keys.spend("a", 1e12, shape), 0);
    assert.equal(keys.size, 0, "an unbounded budget holds no key");
  }
});

Deno.test("rate budgets: each key its own budget; shapes given at each use", () => {
  let now = 0;
  const t = new RateBudgets({ now: () => now });
  const perMinute = (n: number): RateShape => ({ capacity: n, windowMs: 60_000 });
  for (let i = 0; i < 6; i++) assert.equal(t.take("a", 1, perMinute(6)), 0);
  assert.equal(t.take("a", 1, perMinute(6)), 10_000);
  assert.equal(t.take("b", 1, perMinute(6)), 0, "another key");
  assert.equal(t.left("c", perMinute(6)), 6, "an unseen key is whole");
  assert.equal(t.waitFor("c", 7, perMinute(6)), Infinity);
  now = 10_000;
  assert.equal(t.take("a", 1, perMinute(6)), 0);
  t.giveBack("a", 1, perMinute(6));
  assert.equal(t.take("a", 1, perMinute(6)), 0, "given back");
  assert.equal(t.take("w", 3, { ...WINDOW, capacity: 3 }), 0);
  assert.equal(t.take("w", 1, { ...WINDOW, capacity: 3 }), 10_000);
});

Deno.test("rate budgets: memory is bounded; idle keys are forgotten first", () => {
  let now = 0;
  const t = new RateBudgets({ maxKeys: 100, now: () => now });
  for (let i = 0; i < 1000; i++) t.spend(`p${i}`, 1, STEADY);
  assert.equal(t.size, 100, "bounded");
  assert.equal(t.left("p999", STEADY), 999, "the newest are kept");
  assert.equal(t.left("p0", STEADY), 1000, "the oldest forgotten, whole again");
  // Once their budgets are whole, keys go as new ones come: memory follows the busy keys.
  now = 10_000;
  t.spend("busy", 1, STEADY);
  assert.equal(t.size, 1);
  // An idle key goes; a busy one stays.
  now = 20_000;
  t.spend("old", 1, STEADY);
  t.spend("busy", 1000, STEADY);
  now = 23_000;
  t.spend("new", 1, STEADY);
  assert.equal(t.size, 2);
  assert.equal(t.left("busy", STEADY), 750);
  t.forget("busy");
  assert.equal(t.size, 1);
  // The least recently used goes past the bound, even when busy.
  const small = new RateBudgets({ maxKeys: 2, now: () => now });
  small.spend("x", 1000, STEADY);
  small.spend("y", 1000, STEADY);
  small.spend("x", 0, STEADY);
  small.spend("z", 1000, STEADY);
  assert.equal(small.left("y", STEADY), 1000, "y was least recently used");
  assert.equal(small.left("x", STEADY), 0);
});
