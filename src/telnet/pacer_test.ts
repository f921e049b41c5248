import assert from "node:assert/strict";
import { HubPacer } from "./pacer.ts";

/** Ships lines while allowed and returns how many went, plus the ping that follows (if any). */
function burst(p: HubPacer, now: number, waiting: number): { lines: number; ping: number | null } {
  let lines = 0;
  while (lines < waiting && p.mayShip(now)) {
    p.shipped(now);
    lines++;
  }
  return { lines, ping: p.ping(now, waiting > lines) };
}

Deno.test("pacer: a batch leaves room for its ping, then waits for the pong", () => {
  const p = new HubPacer({ perWindow: 10 });
  const a = burst(p, 0, 30);
  assert.equal(a.lines, 9);
  assert.equal(a.ping, 1);
  // Without the pong nothing more goes, however long it takes (the engine may be stalled).
  assert.equal(p.mayShip(2_500), false);
  assert.equal(p.ping(2_500, true), null);
  p.pong(1, 2_600);
  // Confirmed at 2600: they count until a window after that, not after they were sent.
  assert.equal(p.mayShip(3_000), false);
  assert.equal(p.wait(3_000), 605);
  assert.equal(p.mayShip(3_606), true);
});

Deno.test("pacer: frames in the hub's window never exceed the limit, whatever the delays", () => {
  // Simulates the hub: frames arrive after a random delay (a stalled engine reads late and in
  // bunches), the hub answers pings as it reads them, and counts arrivals in a sliding second.
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let round = 0; round < 50; round++) {
    const p = new HubPacer({ perWindow: 10 });
    const inFlight: { at: number; ping: number | null }[] = [];
    const arrivals: number[] = [];
    let readUntil = 0;
    let waiting = 60;
    for (let now = 0; now < 20_000 && (waiting > 0 || inFlight.length > 0); now += 10) {
      // The hub reads everything sent before `readUntil`, all at `now` (a stall ends).
      if (rnd() < 0.004) readUntil = now + rnd() * 2_500;
      else if (now >= readUntil) readUntil = now;
      while (inFlight.length > 0 && inFlight[0].at <= readUntil && now >= readUntil) {
        const f = inFlight.shift()!;
        arrivals.push(now);
        const recent = arrivals.filter((t) => t > now - 1000).length;
        assert.ok(recent <= 10, `round ${round}: ${recent} frames in one second at ${now}`);
        if (f.ping !== null) p.pong(f.ping, now);
      }
      const b = burst(p, now, waiting);
      waiting -= b.lines;
      for (let i = 0; i < b.lines; i++) inFlight.push({ at: now, ping: null });
      if (b.ping !== null) inFlight.push({ at: now, ping: b.ping });
    }
    assert.equal(waiting, 0, `round ${round}: every line went`);
  }
});

Deno.test("pacer: a dropped ping is asked again after the retry time, even with the budget used", () => {
  const p = new HubPacer({ perWindow: 8, retryMs: 3_000 });
  assert.deepEqual(burst(p, 0, 20), { lines: 7, ping: 1 });
  // Ping 1 was dropped by the hub: nothing more may go, and only time brings the repeat.
  assert.equal(p.ping(2_999, true), null);
  assert.equal(p.wait(100), 2_900);
  assert.equal(p.ping(3_000, true), 2, "asked again although the window is full");
  p.pong(2, 3_010);
  // Everything (seven lines, both pings) is confirmed; a late pong 1 changes nothing.
  p.pong(1, 3_020);
  assert.equal(p.mayShip(4_000), false, "9 frames confirmed at 3010 are in the window");
  assert.equal(p.wait(4_000), 15);
  assert.deepEqual(burst(p, 4_015, 20), { lines: 7, ping: 3 });
});

Deno.test("pacer: lines typed while a ping is out wait for the next ping", () => {
  const p = new HubPacer({ perWindow: 10 });
  assert.deepEqual(burst(p, 0, 3), { lines: 3, ping: 1 });
  assert.deepEqual(burst(p, 100, 2), { lines: 2, ping: null });
  p.pong(1, 110);
  // Pong 1 confirmed the first four frames; the two later lines need a ping of their own.
  assert.equal(p.ping(110, false), 2);
  p.pong(2, 120);
  assert.equal(p.ping(120, false), null);
  assert.equal(p.wait(120), 995);
});

Deno.test("pacer: a pong without an id (an older engine) confirms the oldest ping", () => {
  const p = new HubPacer({ perWindow: 10, retryMs: 100 });
  assert.deepEqual(burst(p, 0, 8), { lines: 8, ping: 1 });
  assert.equal(p.ping(100, true), 2);
  p.pong(null, 150);
  assert.equal(p.mayShip(150), false, "ping 2 is still out");
  p.pong(null, 160);
  assert.equal(p.mayShip(1_166), true);
});

Deno.test("pacer: a hub that never answers pings gets lines paced by send time", () => {
  const p = new HubPacer({ perWindow: 8, retryMs: 3_000, giveUpMs: 10_000 });
  assert.deepEqual(burst(p, 0, 30), { lines: 7, ping: 1 });
  assert.equal(p.ping(3_000, true), 2);
  assert.equal(p.ping(6_000, true), 3);
  assert.equal(p.ping(9_000, true), 4);
  assert.equal(p.wait(9_000), 1_000, "the give-up comes before the next repeat");
  assert.equal(p.ping(10_000, true), null, "gave up");
  assert.equal(p.mayShip(10_000), false, "what was out counts from now");
  assert.deepEqual(burst(p, 11_006, 30), { lines: 8, ping: null });
  assert.equal(p.wait(11_006), 1_005);
  // A new connection (perhaps a newer engine) tries pings again.
  p.reset(12_000);
  assert.deepEqual(burst(p, 13_006, 30), { lines: 7, ping: 5 });
});

Deno.test("pacer: after a lost connection, unconfirmed frames count as just read", () => {
  const p = new HubPacer({ perWindow: 10 });
  burst(p, 0, 9);
  p.reset(500);
  assert.equal(p.mayShip(1_000), false);
  assert.equal(p.mayShip(1_506), true);
  // A pong from the lost connection confirms nothing new.
  p.pong(1, 1_506);
  assert.equal(burst(p, 1_506, 20).lines, 9);
});

Deno.test("pacer: idle with nothing sent needs no ping and no timer", () => {
  const p = new HubPacer({ perWindow: 10 });
  assert.equal(p.ping(0, false), null);
  assert.equal(p.wait(0), null);
});
