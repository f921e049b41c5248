/**
 * A telnet client on the engine's in-memory link takes a fan-out's plain lines from inside the
 * hub's call (TelnetClient.takeFrame): the same bytes the usual way would write, in the same
 * order, and only when nothing else has to happen first.
 */
import assert from "node:assert/strict";
import { LocalLink } from "../../hub/local_link.ts";
import type { MuxSocket } from "../../hub/mux_link.ts";
import { EncodedFrame, TypedLine } from "../../hub/protocol.ts";
import type { Outbound } from "../../hub/types.ts";
import { DEFAULT_LIMITS } from "./limits.ts";
import { RenderMemo } from "./render_memo.ts";
import { type ClientState, TelnetClient } from "./telnet_client.ts";
import { carriedState } from "./_test_util.ts";
import type { TransportHandlers } from "./transport.ts";

const decoder = new TextDecoder();

/** The hub's end of a local session, as the hub's connection uses it. */
type HubEnd = MuxSocket & { deliverFrame(frame: EncodedFrame): void };

/** `n` telnet clients on one local link, their sessions open; what each has written since. */
async function clients(n: number, state?: ClientState) {
  const hubs: HubEnd[] = [];
  const link = new LocalLink((socket) => hubs.push(socket as HubEnd));
  const memo = new RenderMemo();
  const written: Uint8Array[][] = [];
  const input: TransportHandlers[] = [];
  for (let i = 0; i < n; i++) {
    const mine: Uint8Array[] = [];
    written.push(mine);
    const client = new TelnetClient({
      ip: "127.0.0.1",
      start: (h) => input.push(h),
      write: (b) => mine.push(b),
      idle: () => Promise.resolve(),
      close() {},
    }, {
      hubUrl: "ws://local/?client=telnet",
      sidecarSecret: null,
      mssp: { table: () => ({}) as never, refresh() {} },
      memo,
      limits: DEFAULT_LIMITS,
      log() {},
      closed() {},
      waiting() {},
      dial: (url) => link.dial(url),
    }, state);
    client.start();
  }
  await tick();
  for (const w of written) w.length = 0;
  const text = (i: number) => written[i].map((b) => decoder.decode(b)).join("");
  return { hubs, written, input, text };
}

function tick(): Promise<void> {
  return new Promise((r) => setTimeout(r, 0));
}

function frame(out: Outbound): EncodedFrame {
  return new EncodedFrame(out);
}

Deno.test("take frame: a plain line is written from inside the hub's call, as the usual way writes it", async () => {
  const { hubs, written, text } = await clients(2);
  const say = { msg: 'Bob says, "%chhi%cn"', data: { type: "say" } };
  hubs[0].deliverFrame(frame(say));
  assert.equal(written[0].length, 1, "written before the hub's call returned");
  // The same frame as text, the sidecar link's way, goes through the client's usual path.
  hubs[1].send(JSON.stringify(say));
  assert.equal(written[1].length, 0);
  await tick();
  assert.equal(text(0), text(1));
  assert.ok(text(0).endsWith('Bob says, "\x1b[1mhi\x1b[0m"\r\n'), JSON.stringify(text(0)));
});

Deno.test("take frame: frames the client acts on, and frames behind queued ones, come the usual way", async () => {
  const { hubs, written, text } = await clients(1);
  // A colour setting is the client's to act on: declined, and it applies to what follows it.
  hubs[0].deliverFrame(frame({ msg: "", data: { type: "colour", mode: "off" } }));
  hubs[0].deliverFrame(frame({ msg: "%chbold%cn one", data: { type: "say" } }));
  assert.equal(written[0].length, 0, "a frame must not overtake one queued before it");
  await tick();
  assert.equal(text(0), "bold one\r\n");
  // Queued text ahead of a frame object keeps its place too.
  hubs[0].send(JSON.stringify({ msg: "first" }));
  hubs[0].deliverFrame(frame({ msg: "second" }));
  await tick();
  assert.equal(text(0), "bold one\r\nfirst\r\nsecond\r\n");
  // Nothing queued: taken at once, still without colour.
  hubs[0].deliverFrame(frame({ msg: "%chthird%cn" }));
  assert.equal(text(0), "bold one\r\nfirst\r\nsecond\r\nthird\r\n");
});

Deno.test("take frame: a GMCP client gets a room's GMCP with its line, the usual way", async () => {
  const { hubs, written, input, text } = await clients(1);
  // The client agrees to GMCP (IAC DO GMCP).
  input[0].data(new Uint8Array([255, 253, 201]));
  written[0].length = 0;
  const room = { msg: "Hall", data: { type: "room", id: "5", name: "Hall", exits: [] } };
  hubs[0].deliverFrame(frame(room));
  assert.equal(written[0].length, 0);
  await tick();
  assert.match(text(0), /Room\.Info/);
  assert.match(text(0), /Hall\r\n$/);
});

Deno.test("take frame: while a resume is unanswered, output is held, not taken", async () => {
  const { hubs, written, text } = await clients(1, carriedState());
  hubs[0].deliverFrame(frame({ msg: "the login screen" }));
  assert.equal(written[0].length, 0);
  hubs[0].deliverFrame(
    frame({ msg: "", data: { type: "session", token: "tok-1", resumed: true } }),
  );
  await tick();
  // The resume succeeded: what was held (the login screen) is skipped; later lines are taken.
  assert.doesNotMatch(text(0), /login screen/);
  written[0].length = 0;
  hubs[0].deliverFrame(frame({ msg: "after" }));
  assert.equal(text(0), "after\r\n");
});

Deno.test("take frame: typed lines reach the hub as they are, paced by acks taken without a frame", async () => {
  const { hubs, input, written } = await clients(1);
  const hub = hubs[0] as HubEnd & { acknowledge(id: number): boolean };
  const read: TypedLine[] = [];
  hub.addEventListener("message", {
    handleEvent(e: Event) {
      const line = (e as MessageEvent).data;
      assert.ok(line instanceof TypedLine, "an object, not a JSON frame");
      read.push(line);
      // As the hub answers on reading a line: from inside its own call.
      assert.equal(hub.acknowledge(line.ack!), true);
      assert.equal(read.length, read.filter((l) => l.ack !== null).length);
    },
  });
  const pace = DEFAULT_LIMITS.hubFramesPerSecond;
  const typed = Array.from({ length: pace + 2 }, (_, i) => `think ${i}`);
  input[0].data(new TextEncoder().encode(typed.map((l) => l + "\r\n").join("")));
  // As many as the pace allows go at once.
  assert.deepEqual(read.map((l) => l.text), typed.slice(0, pace));
  assert.deepEqual(read.map((l) => l.ack), typed.slice(0, pace).map((_, i) => i + 1));
  // Confirmed from the hub's call, so the last two go once the second is over, not after the
  // pacer's retry (3 s) would have asked again with a ping.
  await new Promise((r) => setTimeout(r, 1_100));
  assert.deepEqual(read.map((l) => l.text), typed);
  assert.equal(written[0].length, 0, "no ack frame reached the player");
});
