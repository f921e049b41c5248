/** Tests of the closed-loop pacing of typed lines (acks, pings, the blind fallback). */
import assert from "node:assert/strict";
import { HubPacer } from "./pacer.ts";

/** Ships lines while allowed; returns their ack ids and the ping that follows (if any). */
function burst(
  p: HubPacer,
  now: number,
  waiting: number,
): { acks: (number | null)[]; ping: number | null } {
  const acks: (number | null)[] = [];
  while (acks.length < waiting && p.mayShip(now)) acks.push(p.ship(now));
  return { acks, ping: p.ping(now, waiting > acks.length) };
}

const ids = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);

Deno.test("pacer: a batch fills the budget, then waits for the hub to confirm it", () => {
  const p = new HubPacer({ perWindow: 8 });
  assert.deepEqual(burst(p, 0, 30), { acks: ids(1, 8), ping: null });
  // Without confirmations nothing more goes, however long it takes (the engine may be stalled).
  assert.equal(p.mayShip(2_500), false);
  p.confirm(8, 2_600);
  // Confirmed at 2600: they count until a window after that, not after they were sent.
  assert.equal(p.mayShip(3_000), false);
  assert.equal(p.wait(3_000), 605);
  assert.deepEqual(burst(p, 3_606, 30).acks, ids(9, 8));
});

Deno.test("pacer: frames in the hub's window never exceed the limit, whatever the delays", () => {
  // Simulates the hub: frames arrive after a random delay (a stalled engine reads late and in
  // bunches), the hub acks lines and answers pings as it reads them (and sometimes drops an
  // answer, as when the player's other connections used up the limit), and counts arrivals in a
  // sliding second.
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let round = 0; round < 50; round++) {
    const p = new HubPacer({ perWindow: 10 });
    const inFlight: { at: number; id: number | null; ping: boolean }[] = [];
    const lines: number[] = [];
    const all: number[] = [];
    let readUntil = 0;
    let waiting = 60;
    for (let now = 0; now < 60_000 && (waiting > 0 || inFlight.length > 0); now += 10) {
      // The hub reads everything sent before `readUntil`, all at `now` (a stall ends).
      if (rnd() < 0.004) readUntil = now + rnd() * 2_500;
      else if (now >= readUntil) readUntil = now;
      while (inFlight.length > 0 && inFlight[0].at <= readUntil && now >= readUntil) {
        const f = inFlight.shift()!;
        all.push(now);
        if (!f.ping) lines.push(now);
        // Pings are extra; only the pacer's own budget is promised, so count lines and pings.
        const recent = all.filter((t) => t > now - 1000).length;
        const recentLines = lines.filter((t) => t > now - 1000).length;
        assert.ok(recentLines <= 10, `round ${round}: ${recentLines} lines in a second at ${now}`);
        assert.ok(recent <= 11, `round ${round}: ${recent} frames in one second at ${now}`);
        if (f.id !== null && rnd() > 0.05) p.confirm(f.id, now);
      }
      const b = burst(p, now, waiting);
      waiting -= b.acks.length;
      for (const id of b.acks) inFlight.push({ at: now, id, ping: false });
      if (b.ping !== null) inFlight.push({ at: now, id: b.ping, ping: true });
    }
    assert.equal(waiting, 0, `round ${round}: every line went`);
  }
});

Deno.test("pacer: a missing confirmation is asked for again after the retry time, over the budget", () => {
  const p = new HubPacer({ perWindow: 8, retryMs: 3_000 });
  assert.deepEqual(burst(p, 0, 20), { acks: ids(1, 8), ping: null });
  // The hub read them but its acks were lost (say, it dropped the frames): only time helps.
  assert.equal(p.wait(100), 2_900);
  assert.equal(p.ping(2_999, true), null);
  assert.equal(p.ping(3_000, false), null, "nothing waits: no need to ask");
  assert.equal(p.ping(3_000, true), 9, "asked again although the window is full");
  assert.equal(p.ping(3_100, true), null, "one ping per retry time");
  p.confirm(9, 3_010);
  // Everything (eight lines and the ping) is confirmed; a late ack 3 changes nothing.
  p.confirm(3, 3_020);
  assert.equal(p.mayShip(4_000), false, "9 frames confirmed at 3010 are in the window");
  assert.equal(p.wait(4_000), 15);
  assert.deepEqual(burst(p, 4_015, 20).acks, ids(10, 8));
});

Deno.test("pacer: a pong without an id (an older engine) confirms up to the oldest ping", () => {
  const p = new HubPacer({ perWindow: 4, retryMs: 100 });
  assert.deepEqual(burst(p, 0, 10), { acks: ids(1, 4), ping: null });
  assert.equal(p.ping(100, true), 5);
  p.confirm(null, 150);
  assert.equal(p.mayShip(150), false);
  assert.equal(p.mayShip(1_156), true);
  // Without a ping out, an id-less answer cannot say what it confirms.
  burst(p, 1_156, 1);
  p.confirm(null, 1_160);
  assert.equal(p.mayShip(2_170), true, "four frames left the window");
  assert.deepEqual(burst(p, 2_170, 10).acks, ids(7, 3), "the unconfirmed line still counts");
});

Deno.test("pacer: a hub that confirms nothing gets lines paced by send time", () => {
  const p = new HubPacer({ perWindow: 8, retryMs: 3_000, giveUpMs: 10_000 });
  assert.deepEqual(burst(p, 0, 30).acks, ids(1, 8));
  assert.equal(p.ping(3_000, true), 9);
  assert.equal(p.ping(6_000, true), 10);
  assert.equal(p.ping(9_000, true), 11);
  assert.equal(p.wait(9_000), 1_000, "the give-up comes before the next ping");
  assert.equal(p.ping(10_000, true), null, "gave up");
  assert.equal(p.mayShip(10_000), false, "what was out counts from now");
  assert.deepEqual(burst(p, 11_006, 30), { acks: Array(8).fill(null), ping: null });
  assert.equal(p.wait(11_006), 1_005);
  // A new connection (perhaps a newer engine) asks for confirmations again.
  p.reset(12_000);
  assert.deepEqual(burst(p, 13_006, 30).acks, ids(12, 8));
});

Deno.test("pacer: after a lost connection, unconfirmed frames count as just read", () => {
  const p = new HubPacer({ perWindow: 10 });
  burst(p, 0, 9);
  p.reset(500);
  assert.equal(p.mayShip(1_000), true, "one slot is left");
  assert.equal(burst(p, 1_000, 5).acks.length, 1);
  // An ack from the lost connection confirms nothing new.
  p.confirm(5, 1_100);
  assert.equal(p.mayShip(1_200), false);
  assert.equal(burst(p, 1_506, 20).acks.length, 9);
});

Deno.test("pacer: idle with nothing sent needs no ping and no timer", () => {
  const p = new HubPacer({ perWindow: 10 });
  assert.equal(p.ping(0, false), null);
  assert.equal(p.wait(0), null);
});
