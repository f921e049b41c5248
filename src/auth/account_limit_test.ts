import assert from "node:assert/strict";
import { AccountLimit } from "./account_limit.ts";

Deno.test("AccountLimit: groups count once, held accounts are listed and released", () => {
  let now = 1_000_000;
  const limit = new AccountLimit(() => 2, () => 600_000, () => now);
  assert.ok(limit.reserve("7", "2001:db8:1:2::1"));
  assert.ok(limit.reserve("7", "2001:db8:1:2::2"), "the same /64: no new slot");
  assert.deepEqual(limit.held(), []);
  now += 1000;
  assert.ok(limit.reserve("7", "192.0.2.1"));
  assert.equal(limit.reserve("7", "192.0.2.2"), null, "past the limit");
  assert.deepEqual(limit.held(), [
    { id: "7", sites: ["2001:db8:1:2::/64", "192.0.2.1"], until: 1_600_000 },
  ]);
  assert.equal(limit.release("7"), true);
  assert.equal(limit.release("7"), false);
  assert.ok(limit.reserve("7", "192.0.2.2"), "released");
  now += 600_001;
  assert.deepEqual(limit.held(), [], "the window ended");
});

Deno.test("AccountLimit: failures against any number of other accounts do not free a held one", () => {
  let now = 1_000_000;
  const limit = new AccountLimit(() => 2, () => 600_000, () => now);
  assert.ok(limit.reserve("7", "192.0.2.1"));
  assert.ok(limit.reserve("7", "192.0.2.2"));
  assert.equal(limit.reserve("7", "192.0.2.3"), null);
  // Past where a bounded table would forget the least recently failed (10,000 accounts), twice.
  for (let i = 0; i < 20_001; i++) {
    now += 10;
    assert.ok(limit.reserve(`other${i}`, `198.51.${(i >> 8) & 255}.${i & 255}`));
  }
  assert.equal(limit.reserve("7", "192.0.2.3"), null, "still held");
  assert.deepEqual(limit.held().map((h) => h.id), ["7"], "only 7 is at its limit");
  assert.equal(limit.size, 20_002);
  // What left the window goes as the table is used: after a window, only the new failure stays.
  now += 600_001;
  assert.ok(limit.reserve("7", "192.0.2.3"), "the window ended");
  assert.equal(limit.size, 1);
});
