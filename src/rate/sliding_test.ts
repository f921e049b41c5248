/** The sliding-window primitive (src/rate/sliding.ts), on a hand-moved clock. */
import assert from "node:assert/strict";
import { SlidingWindows } from "./sliding.ts";
import { addressGroup } from "../net/client_address.ts";

/** A table of `limit` per `windowMs` on a clock the test moves. */
function windows(limit: number | (() => number), windowMs: number, maxKeys?: number) {
  const clock = { now: 0 };
  const w = new SlidingWindows({ limit, windowMs, maxKeys, now: () => clock.now });
  return { w, clock };
}

Deno.test("sliding windows: 10 in any second, counted exactly, and when room comes", () => {
  const { w, clock } = windows(10, 1000);
  let ok = 0;
  for (let i = 0; i < 50; i++) {
    clock.now = 1000 + i;
    if (w.take("p:1") === 0) ok++;
  }
  assert.equal(ok, 10);
  clock.now = 1999;
  assert.equal(w.take("p:1"), 1, "the first of the ten leaves the window at 2000");
  clock.now = 2001;
  assert.equal(w.take("p:1"), 0);
  assert.equal(w.take("p:1"), 0, "the second has left too");
  assert.equal(w.take("p:1"), 1, "the third is still in");
  assert.equal(w.take("p:2"), 0, "another key is not affected");
});

Deno.test("sliding windows: refusals are reported at most once a window per key", () => {
  const { w, clock } = windows(1, 1000);
  w.take("k");
  clock.now = 10;
  assert.equal(w.shouldReport("k"), true);
  clock.now = 500;
  assert.equal(w.shouldReport("k"), false);
  clock.now = 1011;
  assert.equal(w.shouldReport("k"), true);
  assert.equal(w.shouldReport("unknown"), false);
});

Deno.test("sliding windows: the key map is bounded, and a forgotten key is gone", () => {
  const { w } = windows(10, 1000, 100);
  for (let i = 0; i < 100; i++) w.take(`c:${i}`);
  assert.equal(w.size, 100);
  assert.equal(w.forget("c:0"), true);
  assert.equal(w.size, 99);
  assert.equal(w.forget("c:0"), false, "nothing left to forget");
  // Past the bound the rest are counted in the shared buckets, which are bounded too.
  for (let i = 100; i < 1000; i++) w.take(`c:${i}`);
  assert.equal(w.size, 100);
  assert.ok(w.sharedBuckets > 0 && w.sharedBuckets <= 2 * 4096);
  assert.equal(w.forget("c:999"), true, "a key in the shared buckets is let go too");
  assert.equal(w.count("c:999"), 0);
});

Deno.test("sliding windows: past the bound a key still counting is kept, not a busy one lost", () => {
  const { w, clock } = windows(2, 1000, 3);
  assert.equal(w.take("busy"), 0);
  clock.now = 1;
  assert.equal(w.take("busy"), 0);
  clock.now = 2;
  w.take("a");
  clock.now = 3;
  w.take("b");
  // The busy key's full window is touched again, then new keys push the map past its bound.
  clock.now = 4;
  assert.ok(w.take("busy") > 0);
  clock.now = 5;
  w.take("c");
  clock.now = 6;
  w.take("d");
  assert.equal(w.size, 3);
  clock.now = 7;
  assert.ok(w.take("busy") > 0, "the busy key kept its window");
  clock.now = 1003;
  assert.equal(w.take("e"), 0, "a key whose window emptied (a) gives its place");
  assert.equal(w.count("a"), 0);
  assert.equal(w.size, 3);
});

Deno.test("sliding windows: churn past the bound never starts a limited key over", () => {
  // The per-address failed-login table's shape (10 a minute), with a bound of 100 keys.
  const { w, clock } = windows(10, 60_000, 100);
  for (let i = 0; i < 10; i++) assert.equal(w.take("attacker"), 0);
  assert.equal(w.take("attacker"), 60_000, "limited");
  // 20,000 other keys fail in the window, some many times, more than the table has room for.
  for (let i = 0; i < 20_000; i++) {
    clock.now = 1 + i * 2;
    for (let j = 0; j <= i % 10; j++) w.take(`churn:${i}`);
    if (i % 1000 === 0) assert.ok(w.take("attacker") > 0, `still limited after ${i} keys`);
  }
  clock.now = 59_999;
  assert.equal(w.take("attacker"), 1, "limited until its own first failure leaves the window");
  assert.equal(w.count("attacker"), 10);
  assert.ok(w.size <= 100, "the bound holds");
  assert.ok(w.sharedBuckets <= 2 * 4096, "and so do the shared buckets");
  clock.now = 60_000;
  assert.equal(w.take("attacker"), 0, "its own window ended");
});

Deno.test("sliding windows: a key counted in the shared buckets stays counted there", () => {
  const { w, clock } = windows(10, 60_000, 5);
  for (let i = 0; i < 5; i++) w.take(`early:${i}`);
  clock.now = 30_000;
  for (let i = 0; i < 10; i++) assert.equal(w.take("late"), 0);
  assert.ok(w.take("late") > 0, "limited in the shared buckets");
  assert.equal(w.size, 5, "no room was made for it");
  const give = w.reserve("other");
  assert.ok(give, "another newcomer is not held by the late key's buckets");
  give();
  assert.equal(w.count("other"), 0, "a give-back in the shared buckets returns the slot");
  clock.now = 60_001;
  // The early keys' windows emptied, so there is room now; a new entry would start late over.
  assert.equal(w.take("late"), 29_999);
  assert.equal(w.count("late"), 10);
  assert.equal(w.shouldReport("late"), true);
  assert.equal(w.shouldReport("late"), false, "reported once a window");
  clock.now = 90_001;
  assert.equal(w.take("late"), 0, "its window ended");
});

Deno.test("sliding windows: reservations count up front, a give-back returns one slot, once", () => {
  const { w, clock } = windows(3, 1000, 2);
  const r1 = w.reserve("a");
  const r2 = w.reserve("a");
  const r3 = w.reserve("a");
  assert.ok(r1 && r2 && r3);
  assert.equal(w.reserve("a"), null, "the fourth attempt in flight is refused");
  assert.equal(w.count("a"), 3);
  r2!();
  r2!();
  assert.equal(w.count("a"), 2, "a give-back returns one slot, once");
  assert.ok(w.reserve("a"));
  assert.equal(w.reserve("a"), null);
  assert.ok(w.reserve("x"), "another key is not affected");
  clock.now = 1001;
  assert.equal(w.count("a"), 0);
  assert.ok(w.reserve("a"));
  r1!(); // given back after it left the window: nothing to give back, nothing breaks
  assert.equal(w.count("a"), 1);
  w.reserve("b");
  w.reserve("c");
  w.reserve("d");
  assert.equal(w.count("a"), 1, "a key still counting is kept past maxKeys");
  assert.equal(w.count("x"), 0, "the key whose window emptied went");
  assert.equal(w.count("d"), 1);
  assert.equal(w.size, 2);
});

Deno.test("sliding windows: a give-back in a full ring keeps the others' times", () => {
  const { w, clock } = windows(3, 1000);
  const given: (() => void)[] = [];
  for (let t = 0; t < 5; t++) {
    clock.now = t * 400; // 0, 400, 800, 1200, 1600: the ring has wrapped
    given.push(w.reserve("k")!);
  }
  given[3](); // the event at 1200, in the middle of the window
  clock.now = 1700;
  assert.equal(w.count("k"), 2);
  assert.ok(w.reserve("k"), "the slot given back is free");
  assert.equal(w.reserve("k"), null);
  clock.now = 1801;
  assert.ok(w.reserve("k"), "the event at 800 has left the window; 1600 and 1700 are in it");
  assert.equal(w.reserve("k"), null);
  w.forget("k");
  given[4](); // after forget: nothing to give back
  assert.equal(w.count("k"), 0);
});

Deno.test("sliding windows: a limit read at each use, raised and lowered", () => {
  let limit = 2;
  const { w, clock } = windows(() => limit, 1000);
  assert.equal(w.take("k"), 0);
  clock.now = 100;
  assert.equal(w.take("k"), 0);
  clock.now = 200;
  assert.equal(w.take("k"), 800);
  limit = 4;
  assert.equal(w.take("k"), 0, "a raised limit lets more in");
  clock.now = 300;
  assert.equal(w.take("k"), 0);
  clock.now = 400;
  assert.ok(w.take("k") > 0);
  assert.equal(w.count("k"), 4);
  limit = 2;
  clock.now = 1150;
  assert.equal(w.take("k"), 50, "two of the four still in the window, the older leaves at 1200");
  clock.now = 1250;
  assert.equal(w.take("k"), 0, "one left in the window: room for one");
  clock.now = 1260;
  assert.equal(w.take("k"), 40, "300 and 1250 fill the lowered limit");
  clock.now = 1300;
  assert.equal(w.take("k"), 0);
  limit = 2.5;
  clock.now = 1301;
  assert.equal(w.take("k"), 0, "a fraction rounds up");
  assert.ok(w.take("k") > 0);
});

Deno.test("sliding windows: a limit or window of 0 bounds nothing and records nothing", () => {
  for (const [limit, windowMs] of [[0, 1000], [Infinity, 1000], [NaN, 1000], [3, 0]]) {
    const { w } = windows(limit, windowMs);
    for (let i = 0; i < 10; i++) assert.equal(w.take("k"), 0);
    const give = w.reserve("k");
    assert.ok(give);
    give();
    assert.equal(w.size, 0);
    assert.deepEqual(w.full(), []);
  }
});

Deno.test("sliding windows: the staff view lists the keys at their limit, until their oldest leaves", () => {
  const { w, clock } = windows(2, 60_000);
  w.take("a");
  clock.now = 1000;
  w.take("a");
  w.take("b");
  clock.now = 2000;
  w.take("a"); // refused: not counted
  assert.deepEqual(w.full(), [{ key: "a", until: 60_000 }]);
  clock.now = 60_000;
  assert.deepEqual(w.full(), []);
  clock.now = 61_001;
  w.full();
  assert.equal(w.size, 0, "the view forgets the keys whose windows emptied");
});

Deno.test("sliding windows: counted by group, every caller passing the key as it came", () => {
  const clock = { now: 0 };
  const w = new SlidingWindows({
    limit: 2,
    windowMs: 1000,
    now: () => clock.now,
    group: addressGroup,
  });
  assert.equal(w.take("2001:db8:0:1::1"), 0);
  assert.equal(w.take("2001:db8:0:1::ffff"), 0);
  assert.ok(w.take("2001:db8:0:1:8000::1") > 0, "one /64 is one key");
  assert.equal(w.take("2001:db8:0:2::1"), 0, "the next /64 is apart");
  assert.equal(w.count("2001:db8:0:1::2"), 2);
  assert.deepEqual(w.full(), [{ key: "2001:db8:0:1::/64", until: 1000 }]);
  assert.equal(w.shouldReport("2001:db8:0:1::9"), true);
  assert.equal(w.forget("2001:db8:0:1::9"), true);
  assert.equal(w.count("2001:db8:0:1::1"), 0);
});

Deno.test("sliding windows: forgetting a key with its own entry leaves the shared buckets alone", () => {
  // Closing a connection forgets its key: that must not let go the keys counted in the buckets
  // the closed key's name hashes to (the keys past the bound, which have no entry of their own).
  const { w } = windows(1, 60_000, 1);
  assert.equal(w.take("own"), 0);
  assert.equal(w.size, 1);
  // 20,000 keys past the bound: nearly every bucket of both rows holds a log (an empty one for
  // both of "own"'s buckets has odds of about 1 in 17,000).
  for (let i = 0; i < 20_000; i++) w.take(`past:${i}`);
  const buckets = w.sharedBuckets;
  assert.equal(w.forget("own"), true);
  assert.equal(w.size, 0);
  assert.equal(w.sharedBuckets, buckets, "no bucket emptied by a key that had none");
  assert.ok(w.take("past:7") > 0, "a key past the bound is still at its limit");
});

Deno.test("sliding windows: forgetting a key that counts nothing leaves the shared buckets alone", () => {
  // A closed connection's key whose entry went (its window emptied) has none: its forget must
  // not let go a key past the bound whose bucket its name happens to hash to.
  const { w } = windows(1, 60_000, 1);
  assert.equal(w.take("own"), 0);
  assert.equal(w.take("past"), 0, "counted in the shared buckets");
  assert.ok(w.take("past") > 0);
  const buckets = w.sharedBuckets;
  // Of 20,000 other names, some 10 share a bucket with "past" (and any one both, 1 in 17 million).
  for (let i = 0; i < 20_000; i++) {
    if (w.count(`gone:${i}`) > 0) continue;
    assert.equal(w.forget(`gone:${i}`), false, "nothing to forget");
  }
  assert.equal(w.sharedBuckets, buckets, "no bucket emptied by a key that counted nothing");
  assert.ok(w.take("past") > 0, "the key past the bound is still at its limit");
});
