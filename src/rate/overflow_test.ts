import assert from "node:assert/strict";
import { OverflowBuckets } from "./overflow.ts";

Deno.test("overflow buckets: a give-back never takes from a full bucket an event that replaced another key's", () => {
  // A key's event goes into each of its buckets, a full one too, where it takes the place of
  // the oldest event, which may be another key's. Taken out again when given back, it left that
  // bucket one short, and the other key (its own events all there) one more attempt.
  const limit = 3, windowMs = 60_000;
  const o = new OverflowBuckets();
  for (let t = 1; t <= limit; t++) assert.equal(o.record("j", limit, windowMs, t), 0);
  assert.ok(o.record("j", limit, windowMs, 10) > 0, "j is at its limit");
  // A key sharing j's first bucket (the seeds are random: found by trying) and not its second.
  const full = o.reportLog("j");
  let k = "";
  for (let i = 0; i < 1_000_000 && !k; i++) {
    if (o.reportLog(`k${i}`) === full && o.count(`k${i}`, 0) === 0) k = `k${i}`;
  }
  assert.ok(k, "a key sharing one bucket with j");
  assert.equal(o.record(k, limit, windowMs, 20), 0, "its other bucket has room");
  o.unrecord(k, 20, limit, windowMs, 30);
  assert.equal(o.count("j", 0), limit, "j is still counted at its limit");
  assert.ok(o.record("j", limit, windowMs, 40) > 0, "and still refused");
  // Given back once the shared bucket is no longer full (j's oldest left the window), it goes.
  const later = 60_000 + 1.5;
  assert.equal(o.record(k, limit, windowMs, later), 0);
  o.unrecord(k, later, limit, windowMs, later);
  assert.equal(o.count(k, later - windowMs), 0, "taken back where nothing was replaced");
});
