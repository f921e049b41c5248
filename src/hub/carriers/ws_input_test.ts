/** Tests of a WebSocket client's input budget (ws_input.ts). */
import assert from "node:assert/strict";
import { RateBudgets } from "../../rate/budget.ts";
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
    "drop",
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
  assert.equal(new WsInput(byAddress, "2001:db8::2", () => now).admit(FRAME), "drop");
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
  assert.equal(got[burst], "drop");
  assert.equal(got.at(-1), "close");
  // Paid back, a burst of frames is read again, not more.
  now += 10 * 60_000;
  const later = Array.from({ length: 300 }, () => input.admit(1));
  assert.equal(later.filter((r) => r === "read").length, burst);
  // An address's sockets together (each within its own burst): 4,096 small frames at once.
  const many = Array.from({ length: 40 }, () => new WsInput(byAddress, "198.51.100.1", () => now));
  const all = many.flatMap((s) => Array.from({ length: 200 }, () => s.admit(2)));
  const perIp = (4 * WS_INPUT_BYTES_PER_SECOND_PER_IP) / MIN_FRAME_COST;
  assert.equal(all.filter((r) => r === "read").length, perIp);
});

Deno.test("ws input: a frame's size is its text's length or its bytes", () => {
  assert.equal(frameBytes("abc"), 3);
  assert.equal(frameBytes(new ArrayBuffer(7)), 7);
  assert.equal(frameBytes(null), 0);
});
