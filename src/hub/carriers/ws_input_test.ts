/** Tests of a WebSocket client's input budget (ws_input.ts). */
import assert from "node:assert/strict";
import { RateBudgets } from "../../rate/budget.ts";
import { frameBytes, WS_INPUT_BYTES_PER_SECOND, WsInput } from "./ws_input.ts";

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

Deno.test("ws input: a frame's size is its text's length or its bytes", () => {
  assert.equal(frameBytes("abc"), 3);
  assert.equal(frameBytes(new ArrayBuffer(7)), 7);
  assert.equal(frameBytes(null), 0);
});
