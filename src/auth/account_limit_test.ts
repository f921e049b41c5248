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
