import assert from "node:assert/strict";
import { SocketWriter, type WritableSocket } from "./socket_writer.ts";

/** A socket whose writes complete only when released, taking at most `max` bytes each. */
class SlowSocket implements WritableSocket {
  readonly writes: Uint8Array[] = [];
  #release: (() => void)[] = [];
  constructor(readonly max = Infinity) {}
  write(bytes: Uint8Array): Promise<number> {
    const n = Math.min(bytes.length, this.max);
    this.writes.push(bytes.slice(0, n));
    return new Promise((resolve) => this.#release.push(() => resolve(n)));
  }
  release(): void {
    for (const r of this.#release.splice(0)) r();
  }
}

const bytes = (n: number, v = 1) => new Uint8Array(n).fill(v);
const tick = () => new Promise((r) => setTimeout(r, 0));

Deno.test("writes queued during a write go out together, in order, in one write", async () => {
  const s = new SlowSocket();
  const w = new SocketWriter(s, { onOverflow: () => assert.fail(), onError: () => assert.fail() });
  w.write(bytes(1, 1));
  w.write(bytes(2, 2));
  w.write(bytes(3, 3));
  assert.equal(s.writes.length, 1);
  s.release();
  await tick();
  assert.equal(s.writes.length, 2);
  assert.deepEqual([...s.writes[1]], [2, 2, 3, 3, 3]);
  s.release();
  await w.idle();
  assert.equal(w.queuedBytes, 0);
});

Deno.test("partial writes are continued until every byte is out", async () => {
  const s = new SlowSocket(4);
  const w = new SocketWriter(s, { onOverflow: () => assert.fail(), onError: () => assert.fail() });
  w.write(Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]));
  for (let i = 0; i < 3; i++) {
    s.release();
    await tick();
  }
  assert.deepEqual(s.writes.map((b) => [...b]), [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10]]);
  await w.idle();
});

Deno.test("a client that never reads overflows the cap once and is dropped", () => {
  const s = new SlowSocket();
  let overflows = 0;
  const w = new SocketWriter(s, {
    maxQueuedBytes: 1000,
    onOverflow: () => overflows++,
    onError: () => assert.fail(),
  });
  w.write(bytes(10)); // in flight, never completes
  for (let i = 0; i < 200; i++) w.write(bytes(100));
  assert.equal(overflows, 1);
  assert.ok(w.failed);
  assert.equal(w.queuedBytes, 0);
  return w.idle();
});

Deno.test("a failing socket reports one error and drops later writes", async () => {
  let errors = 0;
  const w = new SocketWriter({ write: () => Promise.reject(new Error("reset")) }, {
    onOverflow: () => assert.fail(),
    onError: () => errors++,
  });
  w.write(bytes(5));
  await w.idle();
  w.write(bytes(5));
  await tick();
  assert.equal(errors, 1);
  assert.ok(w.failed);
});
