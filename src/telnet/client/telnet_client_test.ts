/**
 * A telnet client's hub events: a plain line offered from inside the hub's call is written at
 * once (`takeFrame`), the same bytes as the frame's text would give; frames the client acts on
 * are declined; output is held while a resume is unanswered; typed lines go as fast as the pace
 * allows, the hub's answers counting as their acknowledgements.
 */
import { RateBudgets } from "../../rate/budget.ts";
import assert from "node:assert/strict";
import type { HubEvents, HubPort, PlayerReport, Sent } from "./hub_port.ts";
import type { FrameObject } from "./hub_frames.ts";
import { DEFAULT_LIMITS } from "./limits.ts";
import { RenderMemo } from "./render_memo.ts";
import { type ClientState, TelnetClient } from "./telnet_client.ts";
import { carriedState } from "./_test_util.ts";
import type { TransportHandlers } from "./transport.ts";

const decoder = new TextDecoder();

/** A hub session in memory, as the engine's carrier is: lines are read during the call. */
class MemoryPort implements HubPort {
  open = false;
  readonly lines: string[] = [];
  readonly reports: PlayerReport[] = [];
  constructor(readonly events: HubEvents, readonly token: () => string | null) {}
  connect(): void {
    queueMicrotask(() => {
      this.open = true;
      this.events.hubOpened();
    });
  }
  line(text: string): Sent {
    this.lines.push(text);
    return "read";
  }
  ping(): Sent {
    return "read";
  }
  report(report: PlayerReport): void {
    this.reports.push(report);
  }
  gmcp(): void {}
  expectEnd(): void {}
  retrySoon(): void {}
  end(): void {
    this.open = false;
  }
}

/** A frame in memory, as the hub's EncodedFrame offers its parts. */
function frame(msg: string, data: Record<string, unknown> = {}): FrameObject {
  const parts = {
    msg,
    data,
    type: typeof data.type === "string" ? data.type : "",
    gmcp: undefined,
  };
  return { telnetParts: () => parts };
}

/** `n` telnet clients on memory ports, their sessions open; what each has written since. */
async function clients(n: number, state?: ClientState, limits = DEFAULT_LIMITS) {
  const memo = new RenderMemo();
  const inputByAddress = new RateBudgets();
  const throttled: number[] = [];
  const written: Uint8Array[][] = [];
  const input: TransportHandlers[] = [];
  const ports: MemoryPort[] = [];
  const all: TelnetClient[] = [];
  for (let i = 0; i < n; i++) {
    const mine: Uint8Array[] = [];
    written.push(mine);
    const client = new TelnetClient({
      ip: "127.0.0.1",
      start: (h) => input.push(h),
      write: (b) => mine.push(b),
      queued: 0,
      idle: () => Promise.resolve(),
      close() {},
      throttle: (ms) => void throttled.push(ms),
    }, {
      hub: (events, token) => {
        const port = new MemoryPort(events, token);
        ports.push(port);
        return port;
      },
      mssp: { table: () => ({}) as never, refresh() {} },
      memo,
      limits,
      inputByAddress,
      log() {},
      closed() {},
      waiting() {},
    }, state);
    client.start();
    all.push(client);
  }
  await tick();
  for (const w of written) w.length = 0;
  const text = (i: number) => written[i].map((b) => decoder.decode(b)).join("");
  return { clients: all, ports, written, input, text, throttled };
}

function tick(): Promise<void> {
  return new Promise((r) => setTimeout(r, 0));
}

Deno.test("telnet client: a plain line taken from inside the hub's call is written at once, as its text would be", async () => {
  const { clients: [a, b], written, text } = await clients(2);
  const say = { msg: 'Bob says, "%chhi%cn"', data: { type: "say" } };
  assert.equal(a.takeFrame(frame(say.msg, say.data)), true);
  assert.equal(written[0].length, 1, "written before the call returned");
  // The same frame as text, the sidecar link's way.
  b.hubFrame(JSON.stringify(say));
  assert.equal(text(0), text(1));
  assert.ok(text(0).endsWith('Bob says, "\x1b[1mhi\x1b[0m"\r\n'), JSON.stringify(text(0)));
});

Deno.test("telnet client: frames it acts on are declined, and come the usual way", async () => {
  const { clients: [c], written, text } = await clients(1);
  for (const type of ["colour", "session", "disconnect", "error", "ack", "pong"]) {
    assert.equal(c.takeFrame(frame("text", { type, mode: "off" })), false, type);
  }
  assert.equal(c.takeFrame(frame("")), false, "nothing to show");
  assert.equal(written[0].length, 0);
  // A colour setting applies to what follows it.
  c.hubFrame(frame("", { type: "colour", mode: "off" }));
  assert.equal(c.takeFrame(frame("%chbold%cn one", { type: "say" })), true);
  assert.equal(text(0), "bold one\r\n");
});

Deno.test("telnet client: a GMCP client gets a room's GMCP with its line, the usual way", async () => {
  const { clients: [c], written, input, text } = await clients(1);
  // The client agrees to GMCP (IAC DO GMCP).
  input[0].data(new Uint8Array([255, 253, 201]));
  written[0].length = 0;
  const room = frame("Hall", { type: "room", id: "5", name: "Hall", exits: [] });
  assert.equal(c.takeFrame(room), false);
  c.hubFrame(room);
  assert.match(text(0), /Room\.Info/);
  assert.match(text(0), /Hall\r\n$/);
});

Deno.test("telnet client: while a resume is unanswered, output is held, not taken", async () => {
  const { clients: [c], ports, written, text } = await clients(1, carriedState());
  assert.equal(ports[0].token(), "tok", "it resumes with the carried token");
  assert.deepEqual(ports[0].reports.map((r) => r.ip), ["203.0.113.1"], "and reports its player");
  assert.equal(c.takeFrame(frame("the login screen")), false);
  c.hubFrame(frame("the login screen"));
  c.hubFrame(frame("", { type: "session", token: "tok-1", resumed: true }));
  // The resume succeeded: what was held (the login screen) is skipped; later lines are taken.
  assert.doesNotMatch(text(0), /login screen/);
  written[0].length = 0;
  assert.equal(c.takeFrame(frame("after")), true);
  assert.equal(text(0), "after\r\n");
  assert.equal(ports[0].token(), "tok-1");
});

Deno.test("telnet client: typed lines go as fast as the pace allows, the hub's answers acknowledging them", async () => {
  const { ports, input, written } = await clients(1);
  const pace = DEFAULT_LIMITS.hubFramesPerSecond;
  const typed = Array.from({ length: pace + 2 }, (_, i) => `think ${i}`);
  input[0].data(new TextEncoder().encode(typed.map((l) => l + "\r\n").join("")));
  assert.deepEqual(ports[0].lines, typed.slice(0, pace), "as many as the pace allows, at once");
  // Acknowledged by the answers, so the last two go once the second is over, not after the
  // pacer's retry (3 s) would have asked again with a ping.
  await new Promise((r) => setTimeout(r, 1_100));
  assert.deepEqual(ports[0].lines, typed);
  assert.equal(written[0].length, 0);
});

/** A GMCP message as a client sends it: `IAC SB GMCP <text> IAC SE`. */
function gmcpIn(text: string): Uint8Array {
  return new Uint8Array([255, 250, 201, ...new TextEncoder().encode(text), 255, 240]);
}

Deno.test("telnet client: Core.Supports filters the GMCP sent; Core.Ping is answered; a restart keeps the list", async () => {
  const { clients: [c], written, input, text } = await clients(1);
  input[0].data(new Uint8Array([255, 253, 201]));
  const room = frame("Hall", { type: "room", id: "5", name: "Hall", exits: [] });
  const chan = {
    telnetParts: () => ({ msg: "[Pub] hi", data: {}, type: "", gmcp: ["Comm.Channel.Text", {}] }),
  };
  written[0].length = 0;
  // Never announced: every package goes (TinTin++, scripts).
  c.hubFrame(room);
  c.hubFrame(chan);
  assert.match(text(0), /Room\.Info/);
  assert.match(text(0), /Comm\.Channel\.Text/);
  input[0].data(gmcpIn('Core.Supports.Set ["Room 1"]'));
  written[0].length = 0;
  c.hubFrame(room);
  c.hubFrame(chan);
  assert.match(text(0), /Room\.Info/);
  assert.doesNotMatch(text(0), /Comm\.Channel/);
  assert.match(text(0), /\[Pub\] hi/, "the line itself is shown all the same");
  input[0].data(gmcpIn('Core.Supports.Add ["Comm.Channel 1"]'));
  input[0].data(gmcpIn('Core.Supports.Remove ["Room 1"]'));
  written[0].length = 0;
  c.hubFrame(room);
  c.hubFrame(chan);
  assert.doesNotMatch(text(0), /Room\.Info/);
  assert.match(text(0), /Comm\.Channel\.Text/);
  written[0].length = 0;
  input[0].data(gmcpIn("Core.Ping 120"));
  assert.deepEqual(
    written[0].flatMap((b) => [...b]),
    [255, 250, 201, ...new TextEncoder().encode("Core.Ping"), 255, 240],
  );
  assert.deepEqual(c.state().gmcpSupports, ["comm.channel"]);
  // Malformed payloads change nothing and never throw.
  input[0].data(gmcpIn("Core.Supports.Add {not json"));
  input[0].data(gmcpIn('Core.Supports.Add {"Room": 1}'));
  input[0].data(gmcpIn('Core.Supports.Set "Room 1"'));
  assert.deepEqual(c.state().gmcpSupports, ["comm.channel"]);
  const { clients: [again] } = await clients(1, c.state());
  assert.deepEqual(again.state().gmcpSupports, ["comm.channel"]);
});

Deno.test("telnet client: Core.Goodbye when the hub ends the session", async () => {
  const { clients: [c], written, input, text } = await clients(1);
  input[0].data(new Uint8Array([255, 253, 201]));
  written[0].length = 0;
  c.hubEnded(1000, "Goodbye!");
  assert.match(text(0), /Core\.Goodbye "Goodbye!"/);
});

Deno.test("telnet client: input past its budget stops the socket's reads for a while; typing never does", async () => {
  const limits = { ...DEFAULT_LIMITS, inputBytesPerSecond: 1000 };
  const { input, throttled } = await clients(1, undefined, limits);
  for (let i = 0; i < 20; i++) input[0].data(new TextEncoder().encode("say hello\r\n"));
  assert.deepEqual(throttled, [], "typing is far under the budget");
  // An unterminated subnegotiation streamed past the burst (4 s of the rate).
  const flood = new Uint8Array(6000).fill(65);
  flood.set([255, 250, 201]);
  input[0].data(flood);
  assert.equal(throttled.length, 1);
  assert.ok(throttled[0] >= 1000, `held for the excess: ${throttled[0]} ms`);
});

Deno.test("telnet client: the connections of one address share its input budget", async () => {
  // Each of 45 connections from 127.0.0.1 stays within its own budget and past its share of the
  // address's (32 KiB at once); together they are past the address's.
  const limits = {
    ...DEFAULT_LIMITS,
    inputBytesPerSecond: 10_000,
    inputBytesPerSecondPerIp: 20_000,
  };
  const { input, throttled } = await clients(45, undefined, limits);
  const junk = new Uint8Array(36_000).fill(65);
  junk.set([255, 250, 201]);
  junk.set([255, 240], 35_998);
  for (const i of input) i.data(junk);
  // The address's burst is 80,000 bytes: the first two read on, the third and later wait.
  assert.equal(throttled.length, 43, "all but the first two are held");
  assert.ok(throttled.at(-1)! >= 60_000, `the last waits for the others: ${throttled.at(-1)} ms`);
});

Deno.test("telnet client: lines handed back at a restart are kept within the input bounds, the player told", async () => {
  const limits = { ...DEFAULT_LIMITS, maxBufferedLines: 5 };
  const { clients: [client], text } = await clients(1, undefined, limits);
  const back = Array.from({ length: 12 }, (_, i) => `say handed back ${i}`);
  client.hubDown(true, back);
  assert.deepEqual(client.state().lines, back.slice(0, 5), "the oldest five, in order");
  assert.match(
    text(0),
    /restarting[\s\S]*Input not kept: too much typed while the server restarts/,
  );
  await client.close();
});
