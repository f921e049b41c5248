import assert from "node:assert/strict";
import { bindWithRetry } from "./bind_retry.ts";

/** A clock that only moves when the retry sleeps, and the waits it asked for. */
function fakeTime() {
  let t = 0;
  const waits: number[] = [];
  return {
    now: () => t,
    sleep: (ms: number) => {
      waits.push(ms);
      t += ms;
      return Promise.resolve();
    },
    waits,
  };
}

const inUse = () => new Deno.errors.AddrInUse("Address already in use (os error 98)");

Deno.test("a port taken for a moment is tried again with doubling waits, and the wait is logged", async () => {
  const time = fakeTime();
  const lines: string[] = [];
  let tries = 0;
  const got = await bindWithRetry(() => {
    if (++tries < 6) throw inUse();
    return "bound";
  }, {
    budgetMs: 10_000,
    what: "127.0.0.1:4203 (server.http)",
    log: (l) => lines.push(l),
    ...time,
  });
  assert.equal(got, "bound");
  assert.deepEqual(time.waits, [50, 100, 200, 400, 800]);
  assert.deepEqual(lines, [
    "engine: 127.0.0.1:4203 (server.http) is in use; trying again for up to 10 s (the telnet " +
    "sidecar keeps the players)",
    "engine: 127.0.0.1:4203 (server.http) is free again after 1550 ms",
  ]);
});

Deno.test("a port taken for longer than the budget fails with the port's own error", async () => {
  const time = fakeTime();
  let tries = 0;
  await assert.rejects(
    bindWithRetry(() => {
      tries++;
      throw inUse();
    }, { budgetMs: 3_000, what: "x", log: () => {}, ...time }),
    Deno.errors.AddrInUse,
  );
  // 50 + 100 + 200 + 400 + 800 + 1000, then what is left of the 3 s: never past the budget.
  assert.deepEqual(time.waits, [50, 100, 200, 400, 800, 1000, 450]);
  assert.equal(tries, 8);
});

Deno.test("without a budget, or for another error, the first failure is thrown at once", async () => {
  for (const [budgetMs, error] of [[0, inUse()], [10_000, new Deno.errors.PermissionDenied()]]) {
    const time = fakeTime();
    const lines: string[] = [];
    await assert.rejects(
      bindWithRetry(() => {
        throw error;
      }, { budgetMs: budgetMs as number, what: "x", log: (l) => lines.push(l), ...time }),
      (e) => e === error,
    );
    assert.deepEqual(time.waits, []);
    assert.deepEqual(lines, []);
  }
});
