/** Tests of adopted descriptors as transports: order, slices, bounds, a closed peer. */
import assert from "node:assert/strict";
import {
  AdoptedTransport,
  Adopter,
  adoptionUnavailable,
  FlushQueue,
  type SendNow,
} from "./adopted.ts";
import { openLibc, sendNow } from "./unix_fds.ts";
import { type TcpPair, tcpPair } from "./_test_util.ts";
import { catchingUncaught } from "../../_test_uncaught.ts";
import type { TransportEnd } from "../client/transport.ts";

const unavailable = adoptionUnavailable();
const enc = new TextEncoder();

/** libc's non-blocking send, as the engine gives its adopter, counting its calls. */
function libcSend(): { send: SendNow; calls: () => number; close: () => void } {
  const libc = openLibc();
  let calls = 0;
  return {
    send: (fd, bytes) => {
      calls++;
      return sendNow(libc, fd, bytes);
    },
    calls: () => calls,
    close: () => libc.close(),
  };
}

/** Runs `fn` with libc's send when `straight` (null otherwise), closing libc after. */
async function withSend<T>(
  straight: boolean,
  fn: (libc: ReturnType<typeof libcSend> | null) => Promise<T>,
): Promise<T> {
  const libc = straight ? libcSend() : null;
  try {
    return await fn(libc);
  } finally {
    libc?.close();
  }
}

/** Runs `fn` with a started transport adopted from a fresh TCP connection, then cleans up. */
async function withAdopted(
  maxQueuedBytes: number,
  fn: (t: AdoptedTransport, pair: TcpPair, ended: TransportEnd[]) => Promise<void>,
  send: SendNow | null = null,
): Promise<void> {
  const pair = await tcpPair();
  const t = new Adopter(send).adopt(pair.fd, "127.0.0.1", maxQueuedBytes);
  const ended: TransportEnd[] = [];
  try {
    t.start({ data: () => {}, end: (why) => ended.push(why) });
    await fn(t, pair, ended);
  } finally {
    t.release();
    await pair.close();
  }
}

for (const way of ["the handle", "sent straight"] as const) {
  Deno.test({
    name: `adopted (${way}): writes go out whole and in order, to many sockets in the same tasks`,
    ignore: unavailable !== null,
    fn: () => manySockets(way === "sent straight"),
  });
  Deno.test({
    name: `adopted (${way}): a write the socket cannot take at once completes later; idle waits`,
    ignore: unavailable !== null,
    fn: () => bigWrite(way === "sent straight"),
  });
  Deno.test({
    name: `adopted (${way}): writes to a connection the player closed end the transport`,
    ignore: unavailable !== null,
    fn: () => peerClosed(way === "sent straight"),
  });
  Deno.test({
    name: `adopted (${way}): idle() asked before the flush resolves once the write is out`,
    ignore: unavailable !== null,
    fn: () =>
      withSend(way === "sent straight", (libc) =>
        withAdopted(1 << 20, async (t, pair) => {
          t.write(enc.encode("soon\n"));
          let idle = false;
          const waiting = t.idle().then(() => idle = true);
          await new Promise((r) => setTimeout(r, 50));
          assert(idle);
          await waiting;
          await pair.waitFor(/soon\n/);
          if (libc) assert.equal(libc.calls(), 1);
        }, libc?.send ?? null)),
  });
  Deno.test({
    name: `adopted (${way}): closing sends what was written, then the end of the stream`,
    ignore: unavailable !== null,
    fn: () =>
      withSend(way === "sent straight", (libc) =>
        withAdopted(1 << 20, async (t, pair) => {
          t.write(enc.encode("last words\n"));
          t.close();
          const end = Date.now() + 5_000;
          while (!pair.ended && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
          assert(pair.ended);
          assert.equal(pair.received(), "last words\n");
          if (libc) assert.equal(libc.calls(), 1);
        }, libc?.send ?? null)),
  });
}

/** Fan-out-like tasks of writes to 20 sockets; with `straight`, through libc's send. */
function manySockets(straight: boolean): Promise<void> {
  return withSend(straight, async (libc) => {
    const adopter = new Adopter(libc?.send ?? null);
    const pairs = await Promise.all(Array.from({ length: 20 }, () => tcpPair()));
    const ts = pairs.map((p) => adopter.adopt(p.fd, "127.0.0.1", 1 << 20));
    try {
      for (const t of ts) t.start({ data: () => {}, end: () => {} });
      // Many tasks of writes, one line per socket each, as fan-outs give them.
      for (let k = 0; k < 50; k++) {
        ts.forEach((t, i) => {
          t.write(enc.encode(`a${k}-${i} `));
          t.write(enc.encode(`b${k}\n`));
        });
        await Promise.resolve();
      }
      await Promise.all(ts.map((t) => t.idle()));
      await Promise.all(pairs.map((p) => p.waitFor(/a49-\d+ b49\n$/)));
      pairs.forEach((p, i) => {
        const want = Array.from({ length: 50 }, (_, k) => `a${k}-${i} b${k}\n`).join("");
        assert.deepEqual(p.received(), want);
      });
      // One send a socket a task: the two writes of a task go out together.
      if (libc) assert.equal(libc.calls(), 20 * 50);
    } finally {
      for (const t of ts) t.release();
      await Promise.all(pairs.map((p) => p.close()));
    }
  });
}

/**
 * More than the kernel takes, then small writes behind it: with `straight`, the part the socket
 * did not take waits in the handle, and the small writes must not overtake it.
 */
function bigWrite(straight: boolean): Promise<void> {
  return withSend(straight, (libc) =>
    withAdopted(64 << 20, async (t, pair, ended) => {
      // More than the kernel's buffers hold: part of it waits in the handle.
      const big = new Uint8Array(8 << 20).fill(0x61);
      t.write(big);
      let idle = false;
      const waiting = t.idle().then(() => idle = true);
      await new Promise((r) => setTimeout(r, 50));
      // Still under way (the client reads slower than this): the small writes find it queued.
      assert(!idle);
      // Small writes behind the big one, each in a task of its own, keep their order.
      for (let k = 0; k < 5; k++) {
        t.write(enc.encode(`<${k}>`));
        await new Promise((r) => setTimeout(r, 1));
      }
      await waiting;
      assert(idle);
      const want = big.length + "<0><1><2><3><4>".length;
      const end = Date.now() + 10_000;
      while (pair.bytes().length < want && Date.now() < end) {
        await new Promise((r) => setTimeout(r, 20));
      }
      const got = pair.bytes();
      assert.deepEqual(got.length, want);
      assert.deepEqual(new TextDecoder().decode(got.subarray(big.length)), "<0><1><2><3><4>");
      assert.deepEqual(ended, []);
      // Only the big write was offered to send; the small ones found the handle busy.
      if (libc) assert.equal(libc.calls(), 1);
    }, libc?.send ?? null));
}

Deno.test({
  name: "adopted: more than the bound queued ends the transport as an overflow, once",
  ignore: unavailable !== null,
  fn: () =>
    withAdopted(1024, async (t, pair, ended) => {
      t.write(enc.encode("kept\n"));
      await pair.waitFor(/kept\n/);
      t.write(new Uint8Array(600));
      t.write(new Uint8Array(600));
      t.write(enc.encode("never\n"));
      await t.idle();
      assert.deepEqual(ended, ["overflow"]);
      await new Promise((r) => setTimeout(r, 50));
      assert.deepEqual(pair.received(), "kept\n");
    }),
});

/** The player closes; writes go on until one fails. */
function peerClosed(straight: boolean): Promise<void> {
  return withSend(straight, (libc) =>
    withAdopted(1 << 20, async (t, pair, ended) => {
      pair.client.close();
      // The first write may still be taken (the reset comes back with it); later ones fail.
      const end = Date.now() + 5_000;
      while (ended.length === 0 && Date.now() < end) {
        t.write(enc.encode("anyone there?\n"));
        await new Promise((r) => setTimeout(r, 10));
      }
      assert.deepEqual(ended, ["closed"]);
    }, libc?.send ?? null));
}

Deno.test({
  name:
    "adopted: what a send leaves, or a send that takes nothing, goes through the handle, in order",
  ignore: unavailable !== null,
  async fn() {
    const libc = openLibc();
    // Takes three bytes of each write, or (every third write) none at all.
    let n = 0;
    const stingy: SendNow = (fd, bytes) =>
      ++n % 3 === 0 ? -1 : sendNow(libc, fd, bytes.subarray(0, Math.min(3, bytes.length)));
    await withAdopted(1 << 20, async (t, pair, ended) => {
      for (let k = 0; k < 30; k++) {
        t.write(enc.encode(`line ${k}\n`));
        await new Promise((r) => setTimeout(r, 1));
      }
      await t.idle();
      const want = Array.from({ length: 30 }, (_, k) => `line ${k}\n`).join("");
      await pair.waitFor(/line 29\n$/);
      assert.equal(pair.received(), want);
      assert.deepEqual(ended, []);
    }, stingy).finally(() => libc.close());
  },
});

Deno.test("flush queue: one that throws does not keep the others from being written", async () => {
  const queue = new FlushQueue();
  const flushed: string[] = [];
  const item = (name: string, fail = false) => ({
    flush() {
      if (fail) throw new Error(`${name} failed`);
      flushed.push(name);
    },
  });
  const errors = await catchingUncaught(async () => {
    for (const it of [item("a"), item("b", true), item("c"), item("d")]) queue.add(it);
    await new Promise((r) => setTimeout(r, 10));
  });
  assert.deepEqual(flushed, ["a", "c", "d"]);
  assert.equal(errors.length, 1);
  // And it goes on working.
  queue.add(item("e"));
  await Promise.resolve();
  assert.deepEqual(flushed, ["a", "c", "d", "e"]);
});

Deno.test("flush queue: a slice's worth waiting is written at once, the rest at the end of the task", async () => {
  const queue = new FlushQueue();
  const flushed: number[] = [];
  const item = (n: number) => ({ flush: () => flushed.push(n) });
  for (let n = 0; n < 40; n++) {
    queue.add(item(n));
    // The first write goes out while the rest are still being queued.
    if (n === 31) assert.equal(flushed.length, 32);
  }
  assert.equal(flushed.length, 32);
  await Promise.resolve();
  assert.deepEqual(flushed, Array.from({ length: 40 }, (_, n) => n));
});

Deno.test("flush queue: one that throws in a slice written at once is reported later, not to the writer", async () => {
  const queue = new FlushQueue();
  const flushed: number[] = [];
  const errors = await catchingUncaught(async () => {
    for (let n = 0; n < 32; n++) {
      queue.add({
        flush() {
          if (n === 3) throw new Error("broken socket");
          flushed.push(n);
        },
      });
    }
    assert.equal(flushed.length, 31);
    await new Promise((r) => setTimeout(r, 10));
  });
  assert.equal(errors.length, 1);
});

Deno.test("adopted: a write that fails before the transport starts is reported once it starts", async () => {
  // Fake bindings: every socket takes writes at once, but the last one's fail (peer gone).
  const handle = (fail: boolean) => ({
    onread: null,
    open: () => 0,
    readStart: () => 0,
    readStop: () => 0,
    writeBuffer: () => fail ? -32 : 0,
    shutdown: () => 0,
    close() {},
  });
  let failing = false;
  const bindings = {
    newHandle: () => handle(failing),
    newWrite: () => ({}),
    newShutdown: () => ({}),
    readBytes: () => 0,
    readOffset: () => 0,
    lastWriteAsync: () => false,
  } as never;
  const queue = new FlushQueue();
  const line = enc.encode("x\r\n");
  for (let fd = 100; fd < 131; fd++) {
    const t = new AdoptedTransport(bindings, queue, fd, "127.0.0.1", 1 << 20);
    t.start({ data() {}, end() {} });
    t.write(line);
  }
  failing = true;
  const t = new AdoptedTransport(bindings, queue, 7, "127.0.0.1", 1 << 20);
  // Its negotiation is written before it starts (as a telnet client does), and is the 32nd
  // waiting: flushed, and failed, inside this call.
  t.write(line);
  const ended: string[] = [];
  t.start({ data() {}, end: (why) => ended.push(why) });
  await new Promise((r) => setTimeout(r, 0));
  assert.deepEqual(ended, ["closed"]);
});
