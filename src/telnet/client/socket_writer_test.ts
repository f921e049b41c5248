/** Tests of the bounded, single-write output queue of a Deno socket. */
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

/** A socket that keeps what it was handed (not a copy) and completes each write when told. */
class HeldSocket implements WritableSocket {
  readonly handed: Uint8Array[] = [];
  readonly #done: ((n: number) => void)[] = [];
  write(bytes: Uint8Array): Promise<number> {
    this.handed.push(bytes);
    return new Promise((resolve) => this.#done.push(resolve));
  }
  complete(n?: number): void {
    const last = this.handed[this.handed.length - 1];
    this.#done.shift()!(n ?? last.length);
  }
}

Deno.test("a write with nothing in flight goes to the socket at once, as the same bytes", async () => {
  const s = new HeldSocket();
  const w = new SocketWriter(s, { onOverflow: () => assert.fail(), onError: () => assert.fail() });
  const line = bytes(7, 7);
  w.write(line);
  // No copy and no view of it: a fan-out hands every listener the same encoded line.
  assert.equal(s.handed.length, 1);
  assert.equal(s.handed[0], line);
  assert.equal(w.queuedBytes, 0);
  let idle = false;
  const waiting = w.idle().then(() => idle = true);
  await tick();
  assert.equal(idle, false);
  s.complete();
  await waiting;
  // Idle again: the next write goes straight out too.
  const next = bytes(3, 3);
  w.write(next);
  assert.equal(s.handed[1], next);
});

Deno.test("a partial write sends the rest as a view; queued bytes follow in one write", async () => {
  const s = new HeldSocket();
  const w = new SocketWriter(s, { onOverflow: () => assert.fail(), onError: () => assert.fail() });
  w.write(Uint8Array.from([1, 2, 3, 4]));
  w.write(Uint8Array.from([5]));
  w.write(Uint8Array.from([6]));
  assert.equal(w.queuedBytes, 2);
  s.complete(3);
  await tick();
  assert.deepEqual([...s.handed[1]], [4]);
  s.complete(1);
  await tick();
  assert.deepEqual([...s.handed[2]], [5, 6]);
  assert.equal(w.queuedBytes, 0);
  s.complete();
  await w.idle();
  assert.equal(s.handed.length, 3);
});

Deno.test("a socket that throws at once reports one error, and idle() still resolves", async () => {
  let errors = 0;
  const w = new SocketWriter({
    write: () => {
      throw new Error("bad resource");
    },
  }, { onOverflow: () => assert.fail(), onError: () => errors++ });
  w.write(bytes(2));
  w.write(bytes(2));
  await w.idle();
  assert.equal(errors, 1);
  assert.ok(w.failed);
});

Deno.test("a write completing after an overflow starts nothing more", async () => {
  const s = new HeldSocket();
  let overflows = 0;
  const w = new SocketWriter(s, {
    maxQueuedBytes: 10,
    onOverflow: () => overflows++,
    onError: () => assert.fail(),
  });
  w.write(bytes(5));
  const idle = w.idle();
  w.write(bytes(6));
  w.write(bytes(6)); // 12 queued: over the cap
  assert.equal(overflows, 1);
  await idle; // resolved by the failure, not by the write
  s.complete();
  await tick();
  assert.equal(s.handed.length, 1);
  w.write(bytes(1));
  assert.equal(s.handed.length, 1);
});
