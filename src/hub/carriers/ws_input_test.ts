/** Tests of a WebSocket client's input budget (ws_input.ts). */
import assert from "node:assert/strict";
import { RateBudgets } from "../../rate/budget.ts";
import { SHARE_BYTES_PER_SECOND } from "../../rate/address_share.ts";
import {
  frameBytes,
  MIN_FRAME_COST,
  WS_INPUT_BYTES_PER_SECOND,
  WS_INPUT_BYTES_PER_SECOND_PER_IP,
  WsInput,
} from "./ws_input.ts";

const FRAME = 64 * 1024;

Deno.test("ws input: a burst is read, more is dropped, a second burst over it closes", () => {
  let now = 1_000_000;
  const input = new WsInput(new RateBudgets({ now: () => now }), "203.0.113.9", () => now);
  const got = Array.from({ length: 10 }, () => input.admit(FRAME));
  assert.deepEqual(got, [
    "read",
    "read",
    "read",
    "read",
    "tell",
    "drop",
    "drop",
    "drop",
    "close",
    "close",
  ]);
  // Paid back at 64 KiB a second: a quiet socket is read again.
  now += 10 * 60_000;
  assert.equal(input.admit(100), "read");
});

Deno.test("ws input: an address's sockets share a budget; each is closed only for its own", () => {
  const now = 1_000_000;
  const byAddress = new RateBudgets({ now: () => now });
  const sockets = Array.from(
    { length: 20 },
    () => new WsInput(byAddress, "2001:db8::1", () => now),
  );
  // 4 MiB at once for the address (1 MiB a second, four seconds' burst), 256 KiB each.
  const read = sockets.flatMap((s) => [0, 1, 2, 3].map(() => s.admit(FRAME)));
  assert.equal(read.filter((r) => r === "read").length, 64);
  assert.ok(!read.includes("close"));
  // Another socket of the same /64 finds the address spent; another address does not.
  assert.equal(new WsInput(byAddress, "2001:db8::2", () => now).admit(FRAME), "tell");
  assert.equal(new WsInput(byAddress, "198.51.100.7", () => now).admit(FRAME), "read");
  assert.equal(WS_INPUT_BYTES_PER_SECOND, 64 * 1024);
});

Deno.test("ws input: small frames cost at least MIN_FRAME_COST, so they are not a way round", () => {
  // Frames of two bytes (`x` and a newline) under the byte rate, tens of thousands a second, held
  // other players seconds behind: each frame costs the hub far more than its bytes.
  let now = 1_000_000;
  const byAddress = new RateBudgets({ now: () => now });
  const input = new WsInput(byAddress, "203.0.113.9", () => now);
  const got = Array.from({ length: 1000 }, () => input.admit(2));
  const burst = (4 * WS_INPUT_BYTES_PER_SECOND) / MIN_FRAME_COST;
  assert.equal(got.filter((r) => r === "read").length, burst);
  assert.equal(got[burst], "tell");
  assert.equal(got[burst + 1], "drop");
  assert.equal(got.at(-1), "close");
  // Paid back, a burst of frames is read again, not more.
  now += 10 * 60_000;
  const later = Array.from({ length: 300 }, () => input.admit(1));
  assert.equal(later.filter((r) => r === "read").length, burst);
  // An address's sockets together (each within its own burst): 4,096 small frames at once, and
  // each socket's own share (32).
  const many = Array.from({ length: 40 }, () => new WsInput(byAddress, "198.51.100.1", () => now));
  const all = many.flatMap((s) => Array.from({ length: 200 }, () => s.admit(2)));
  const perIp = (4 * WS_INPUT_BYTES_PER_SECOND_PER_IP) / MIN_FRAME_COST;
  const share = (4 * SHARE_BYTES_PER_SECOND) / MIN_FRAME_COST;
  assert.equal(all.filter((r) => r === "read").length, perIp + 40 * share);
});

Deno.test("ws input: a socket within its share is read whatever its address's others sent", () => {
  // Before: sockets flooding from one address (players behind one NAT) spent the address's
  // budget, and another player's frames from it were dropped without a word.
  let now = 1_000_000;
  const byAddress = new RateBudgets({ now: () => now });
  const flooders = Array.from({ length: 40 }, () => new WsInput(byAddress, "127.0.0.1", () => now));
  const player = new WsInput(byAddress, "127.0.0.1", () => now);
  const told: number[] = [];
  for (let ms = 0; ms < 30_000; ms += 50) {
    now += 50;
    // 40 sockets at 60 frames a second each: 2,400, past the address's 1,024.
    flooders.forEach((f, i) => {
      for (let k = 0; k < 3; k++) if (f.admit(2) === "tell") told.push(i);
    });
    // The player: a command or a keepalive every 150 ms.
    if (ms % 150 === 0) assert.equal(player.admit(20), "read", `at ${ms} ms`);
  }
  // The flooders were dropped, and each told at most once in four seconds.
  assert.ok(told.length > 0);
  assert.ok(told.filter((i) => i === 0).length <= 30 / 4 + 1);
});

Deno.test("ws input: a frame's size is its text's length or its bytes", () => {
  assert.equal(frameBytes("abc"), 3);
  assert.equal(frameBytes(new ArrayBuffer(7)), 7);
  assert.equal(frameBytes(null), 0);
});
