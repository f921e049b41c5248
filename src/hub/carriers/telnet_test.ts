/** Tests of the carrier of the engine's own telnet players: calls, not frames, both ways. */
import assert from "node:assert/strict";
import { type HeldSession, TelnetCarrier, type TelnetPeer } from "./telnet.ts";
import { catchingUncaught } from "../../_test_uncaught.ts";
import { EncodedFrame } from "../protocol.ts";
import type { ClientReport, Session, SessionEnd, SessionHub, SessionOpening } from "../session.ts";

/** The hub's end of one session, recording what its carrier called. */
class FakeEnd implements SessionEnd {
  readonly id = "c1";
  readonly ip = "127.0.0.1";
  closed = false;
  readonly lines: string[] = [];
  readonly reports: ClientReport[] = [];
  ends = 0;
  /** Lines it reads (false: dropped, as over the rate limit). */
  reads = true;
  constructor(readonly session: Session, readonly opening: SessionOpening) {}
  received(): void {}
  line(text: string): boolean {
    this.lines.push(text);
    return this.reads;
  }
  report(report: ClientReport): void {
    this.reports.push(report);
  }
  gmcp(): void {}
  ended(): void {
    this.ends++;
  }
}

/** A hub that opens every session and keeps its end. */
class FakeHub implements SessionHub {
  readonly ends: FakeEnd[] = [];
  stopping = false;
  connect(session: Session, opening: SessionOpening): FakeEnd {
    const end = new FakeEnd(session, opening);
    this.ends.push(end);
    return end;
  }
  onStop(): () => void {
    return () => {};
  }
}

/** A telnet client as the carrier sees it, recording its events; it takes frames if `takes`. */
class FakePeer implements TelnetPeer {
  readonly got: string[] = [];
  readonly taken: string[] = [];
  readonly events: string[] = [];
  takes = false;
  hubOpened(): void {
    this.events.push("opened");
  }
  takeFrame(frame: EncodedFrame): boolean {
    if (!this.takes) return false;
    this.taken.push(frame.out.msg);
    return true;
  }
  hubFrame(frame: EncodedFrame): void {
    this.got.push(frame.out.msg);
  }
  hubDown(wasOpen: boolean, unread: readonly string[]): void {
    this.events.push(`down ${wasOpen}${unread.length ? ` ${unread.join("|")}` : ""}`);
  }
  hubEnded(code: number): void {
    this.events.push(`ended ${code}`);
  }
}

const frame = (msg: string) => new EncodedFrame({ msg });
const endOfTask = () => new Promise((r) => setTimeout(r, 0));

/** `n` open sessions: each client, its session, and the hub's end of it. */
async function sessions(n: number, token: string | null = null) {
  const hub = new FakeHub();
  const carrier = new TelnetCarrier(hub);
  const peers = Array.from({ length: n }, () => new FakePeer());
  const held: HeldSession[] = peers.map((p) => carrier.open(p, () => token));
  for (const s of held) s.connect();
  assert.equal(hub.ends.length, 0, "a session opens after the call that connects it");
  await Promise.resolve();
  assert.equal(hub.ends.length, n);
  return { hub, carrier, peers, held, ends: hub.ends };
}

Deno.test("telnet carrier: a session opens with the hub, trusted, resuming with the client's token", async () => {
  const { ends, peers, held } = await sessions(1, "tok");
  assert.deepEqual(ends[0].opening, {
    kind: "telnet",
    ip: "127.0.0.1",
    trusted: true,
    token: "tok",
    resume: true,
  });
  assert.deepEqual(peers[0].events, ["opened"]);
  assert.equal(held[0].open, true);
  const fresh = await sessions(1);
  assert.equal(fresh.ends[0].opening.token, null);
  assert.equal(fresh.ends[0].opening.resume, false);
});

Deno.test("telnet carrier: a typed line's answer is its acknowledgement; reports reach the hub", async () => {
  const { hub, ends, held } = await sessions(1);
  assert.equal(held[0].line("think hi"), "read");
  ends[0].reads = false;
  assert.equal(held[0].line("over the limit"), "sent", "dropped: no acknowledgement");
  assert.equal(held[0].ping(), "read", "a ping confirms what was sent before it");
  hub.stopping = true;
  assert.equal(held[0].line("while stopping"), "failed", "kept by the client for the next engine");
  hub.stopping = false;
  held[0].report({ ip: "203.0.113.1", width: 100 });
  assert.deepEqual(ends[0].lines, ["think hi", "over the limit"]);
  assert.deepEqual(ends[0].reports, [{ ip: "203.0.113.1", width: 100 }]);
  held[0].end();
  assert.equal(held[0].line("late"), "failed");
  assert.equal(ends[0].ends, 0, "the hub hears of it after the client's call");
  await Promise.resolve();
  assert.equal(ends[0].ends, 1);
});

Deno.test("telnet carrier: a frame the client takes is written inside the hub's call; the rest at the end of the task, in order", async () => {
  const { ends, peers } = await sessions(2);
  peers[0].takes = true;
  ends[0].session.deliver(frame("now"), true);
  ends[1].session.deliver(frame("later"), true);
  assert.deepEqual(peers[0].taken, ["now"]);
  assert.deepEqual(peers[1].got, []);
  await endOfTask();
  assert.deepEqual(peers[1].got, ["later"]);
  // Once a frame of a session waits, the ones after it wait too, even if the client would take them.
  ends[1].session.deliver(frame("a"), true);
  peers[1].takes = true;
  ends[1].session.deliver(frame("b"), true);
  assert.deepEqual(peers[1].taken, []);
  await endOfTask();
  assert.deepEqual(peers[1].got, ["later", "a", "b"]);
  ends[1].session.deliver(frame("c"), true);
  assert.deepEqual(peers[1].taken, ["c"], "nothing waits any more: taken at once");
});

Deno.test("telnet carrier: a large fan-out is handed over in slices, with the task's other work between", async () => {
  const { ends, peers } = await sessions(200);
  let handedWhenFirstWrote = -1;
  peers[0].hubFrame = (f) => {
    peers[0].got.push(f.out.msg);
    queueMicrotask(() => handedWhenFirstWrote = peers.filter((p) => p.got.length > 0).length);
  };
  for (const e of ends) e.session.deliver(frame("pose"), true);
  await endOfTask();
  assert.ok(peers.every((p) => p.got.length === 1 && p.got[0] === "pose"));
  assert.ok(handedWhenFirstWrote > 0 && handedWhenFirstWrote < 200, `${handedWhenFirstWrote}`);
});

Deno.test("telnet carrier: frames queued while handing over come after those before them", async () => {
  const { ends, peers } = await sessions(100);
  peers[5].hubFrame = (f) => {
    peers[5].got.push(f.out.msg);
    if (peers[5].got.length === 1) {
      ends[5].session.deliver(frame("second"), true);
      ends[99].session.deliver(frame("later"), true);
    }
  };
  for (const e of ends) e.session.deliver(frame("first"), true);
  await endOfTask();
  assert.deepEqual(peers[5].got, ["first", "second"]);
  assert.deepEqual(peers[99].got, ["first", "later"]);
});

Deno.test("telnet carrier: a client that throws loses its own frame only; the hub's loop goes on", async () => {
  const { ends, peers } = await sessions(80);
  peers[40].hubFrame = () => {
    throw new Error("broken client");
  };
  peers[41].takes = true;
  peers[41].takeFrame = () => {
    throw new Error("broken taker");
  };
  const errors = await catchingUncaught(async () => {
    for (const e of ends) e.session.deliver(frame("one"), true);
    await new Promise((r) => setTimeout(r, 10));
    for (const e of ends) e.session.deliver(frame("two"), true);
    await new Promise((r) => setTimeout(r, 10));
  });
  assert.equal(errors.length, 4);
  peers.forEach((p, i) =>
    assert.deepEqual(p.got, i === 40 || i === 41 ? [] : ["one", "two"], `client ${i}`)
  );
});

Deno.test("telnet carrier: the hub's close comes after the session's frames; a restart is not the end", async () => {
  const { ends, peers, carrier } = await sessions(2);
  ends[0].session.deliver(frame("Goodbye!"), true);
  ends[0].session.close(1000, "");
  ends[1].session.deliver(frame("restarting"), true);
  ends[1].session.unread?.(["say one", "say two"]);
  ends[1].session.close(1012, "");
  ends[0].session.deliver(frame("after its close"), true);
  assert.deepEqual(peers[0].events, ["opened"]);
  await endOfTask();
  assert.deepEqual(peers[0].got, ["Goodbye!"]);
  assert.deepEqual(peers[0].events, ["opened", "ended 1000"]);
  assert.deepEqual(peers[1].events, ["opened", "down true say one|say two"], "lines to send again");
  assert.deepEqual(ends.map((e) => e.ends), [1, 1], "each transport's end reported to the hub");
  assert.equal(carrier.sessions, 0);
});

Deno.test("telnet carrier: a client that leaves gets nothing more; frames waiting for it are dropped", async () => {
  const { ends, peers, held } = await sessions(1);
  ends[0].session.deliver(frame("queued"), true);
  held[0].end();
  ends[0].session.deliver(frame("after"), true);
  await endOfTask();
  assert.deepEqual(peers[0].got, []);
  assert.equal(ends[0].ends, 1);
});
