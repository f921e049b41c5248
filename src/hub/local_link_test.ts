import assert from "node:assert/strict";
import { LocalLink, type LocalSocket } from "./local_link.ts";
import type { MuxSocket } from "./mux_link.ts";
import { catchingUncaught } from "../_test_uncaught.ts";
import { EncodedFrame, TypedLine } from "./protocol.ts";
import type { FrameSink } from "./connection.ts";

/** A frame as the test reads it: its text, or a frame object's message. */
function text(data: string | EncodedFrame): string {
  return typeof data === "string" ? data : data.out.msg;
}

/** `n` open sessions: the hub's ends, and what each client end has received. */
async function sessions(n: number) {
  const hubs: MuxSocket[] = [];
  const link = new LocalLink((socket) => hubs.push(socket));
  const clients = Array.from(
    { length: n },
    () => link.dial("ws://local/?") as unknown as LocalSocket,
  );
  const got: string[][] = clients.map(() => []);
  clients.forEach((c, i) => c.onmessage = (e) => got[i].push(text(e.data)));
  // Both ends open one microtask after dialing.
  await Promise.resolve();
  assert.equal(hubs.length, n);
  return { link, hubs, clients, got };
}

Deno.test("local link: a session's frames arrive in order, at the end of the task", async () => {
  const { hubs, got } = await sessions(3);
  for (let k = 0; k < 3; k++) hubs.forEach((h, i) => h.send(`${i}:${k}`));
  assert.deepEqual(got, [[], [], []]);
  await new Promise((r) => setTimeout(r, 0));
  assert.deepEqual(got, [["0:0", "0:1", "0:2"], ["1:0", "1:1", "1:2"], ["2:0", "2:1", "2:2"]]);
});

Deno.test("local link: a large fan-out is handed over in slices, with the task's other work between", async () => {
  const { hubs, clients, got } = await sessions(200);
  // What the first client queues when it gets its frame (as a socket's flush is) runs before
  // the last client has been handed its frame.
  let handedWhenFirstWrote = -1;
  clients[0].onmessage = (e) => {
    got[0].push(String(e.data));
    queueMicrotask(() => handedWhenFirstWrote = got.filter((g) => g.length > 0).length);
  };
  for (const h of hubs) h.send("pose");
  await new Promise((r) => setTimeout(r, 0));
  assert.ok(got.every((g) => g.length === 1 && g[0] === "pose"));
  assert.ok(handedWhenFirstWrote > 0 && handedWhenFirstWrote < 200, `${handedWhenFirstWrote}`);
});

Deno.test("local link: frames queued while handing over come after those before them", async () => {
  const { hubs, clients, got } = await sessions(100);
  // Client 5 answering its first frame makes the hub send it another, and the last client too.
  clients[5].onmessage = (e) => {
    got[5].push(String(e.data));
    if (got[5].length === 1) {
      hubs[5].send("second");
      hubs[99].send("later");
    }
  };
  for (const h of hubs) h.send("first");
  await new Promise((r) => setTimeout(r, 0));
  assert.deepEqual(got[5], ["first", "second"]);
  assert.deepEqual(got[99], ["first", "later"]);
});

Deno.test("local link: a client that throws loses its own frame only", async () => {
  const { hubs, clients, got } = await sessions(80);
  clients[40].onmessage = () => {
    throw new Error("broken client");
  };
  const errors = await catchingUncaught(async () => {
    for (const h of hubs) h.send("one");
    await new Promise((r) => setTimeout(r, 10));
    for (const h of hubs) h.send("two");
    await new Promise((r) => setTimeout(r, 10));
  });
  assert.equal(errors.length, 2);
  got.forEach((g, i) => assert.deepEqual(g, i === 40 ? [] : ["one", "two"], `client ${i}`));
});

Deno.test("local link: a session's close comes after its frames", async () => {
  const { hubs, clients, got } = await sessions(1);
  const closes: number[] = [];
  clients[0].onclose = (e) => closes.push(got[0].length, e.code);
  hubs[0].send("bye");
  hubs[0].close(4000, "done");
  await new Promise((r) => setTimeout(r, 0));
  assert.deepEqual(got[0], ["bye"]);
  assert.deepEqual(closes, [1, 4000]);
});

Deno.test("local link: a finished session's hub end lets go of its client end", async () => {
  const { hubs } = await sessions(1);
  const hub = hubs[0] as unknown as { client: unknown };
  assert.notEqual(hub.client, null);
  hubs[0].close(1000, "done");
  await new Promise((r) => setTimeout(r, 0));
  assert.equal(hub.client, null);
});

Deno.test("local link: a taker gets frame objects at once, unless its session has frames queued", async () => {
  const { hubs, clients, got } = await sessions(2);
  const taken: string[] = [];
  // Client 0 takes every frame object; client 1 declines them.
  clients[0].taker = { takeFrame: (f) => taken.push((f as EncodedFrame).out.msg) > 0 };
  clients[1].taker = { takeFrame: () => false };
  const sink = (i: number) => hubs[i] as unknown as { deliverFrame(f: EncodedFrame): void };
  sink(0).deliverFrame(new EncodedFrame({ msg: "now" }));
  assert.deepEqual(taken, ["now"]);
  // Text queued for the session goes first: the frame after it waits its turn.
  hubs[0].send("queued");
  sink(0).deliverFrame(new EncodedFrame({ msg: "after" }));
  sink(1).deliverFrame(new EncodedFrame({ msg: "declined" }));
  assert.deepEqual(taken, ["now"]);
  await new Promise((r) => setTimeout(r, 0));
  assert.deepEqual(got[0], ["queued", "after"]);
  assert.deepEqual(got[1], ["declined"]);
  // Handed over, nothing queued: taken at once again; a closed session takes nothing.
  sink(0).deliverFrame(new EncodedFrame({ msg: "again" }));
  assert.deepEqual(taken, ["now", "again"]);
  clients[0].close();
  sink(0).deliverFrame(new EncodedFrame({ msg: "closed" }));
  assert.deepEqual(taken, ["now", "again"]);
});

Deno.test("local link: a taker that throws loses that frame only; the hub's loop goes on", async () => {
  const { hubs, clients } = await sessions(3);
  const taken: number[] = [];
  clients.forEach((c, i) =>
    c.taker = {
      takeFrame() {
        if (i === 1) throw new Error("broken client");
        return taken.push(i) > 0;
      },
    }
  );
  const errors = await catchingUncaught(async () => {
    for (const h of hubs) {
      (h as unknown as { deliverFrame(f: EncodedFrame): void }).deliverFrame(
        new EncodedFrame({ msg: "pose" }),
      );
    }
    await new Promise((r) => setTimeout(r, 10));
  });
  assert.deepEqual(taken, [0, 2]);
  assert.equal(errors.length, 1);
});

Deno.test("local link: a typed line reaches the hub as it is; its ack comes back without a frame", async () => {
  const { hubs, clients, got } = await sessions(2);
  const read: unknown[] = [];
  hubs[0].addEventListener("message", {
    handleEvent: (e: Event) => read.push((e as MessageEvent).data),
  });
  clients[0].sendLine("think hi", 7);
  clients[0].sendLine("look", null);
  assert.deepEqual(read, [new TypedLine("think hi", 7), new TypedLine("look", null)], "at once");
  assert.ok(read[0] instanceof TypedLine);

  const acks: number[] = [];
  const hub0 = hubs[0] as unknown as FrameSink;
  const hub1 = hubs[1] as unknown as FrameSink;
  // No taker, or one without acks: the caller sends the ack frame instead.
  assert.equal(hub0.acknowledge!(7), false);
  clients[1].taker = { takeFrame: () => false };
  assert.equal(hub1.acknowledge!(1), false);
  clients[0].taker = { takeFrame: () => false, takeAck: (id) => acks.push(id) };
  assert.equal(hub0.acknowledge!(7), true);
  assert.deepEqual(acks, [7], "handed over from inside the call");
  await new Promise((r) => setTimeout(r, 0));
  assert.deepEqual(got, [[], []], "and no frame for it");

  // A closed session takes no lines; an ack for it is dropped, not sent.
  clients[0].close();
  assert.throws(() => clients[0].sendLine("late", 8));
  assert.equal(hub0.acknowledge!(8), true);
  assert.deepEqual(acks, [7]);
});
