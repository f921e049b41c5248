/**
 * Typed lines (a telnet client in the engine hands the hub its line itself) and framed lines with
 * an `ack`: the same limits as any frame, and the acknowledgement that paces them given only for
 * a line the hub kept; what a telnet client reports, believed only from the sidecar.
 */
import assert from "node:assert/strict";
import { setImmediate } from "node:timers";
import { Connection } from "./connection.ts";
import { Inbound, isQuit } from "./inbound.ts";
import { MAX_FRAME_BYTES } from "./protocol.ts";
import { TOO_FAST } from "../rate/too_fast.ts";
import { MAX_LINE } from "../commands/limits.ts";
import type { Config } from "../config/load.ts";
import { AddressCounts } from "../net/address_counts.ts";
import type { Sessions } from "./sessions.ts";
import { FakeSession } from "./_test_session.ts";

/** A logged-in telnet connection, and what reached it. */
function setup(opts: { sidecar?: boolean } = {}) {
  const session = new FakeSession("telnet");
  const lines: string[] = [];
  const gmcp: [string, string, unknown][] = [];
  const deps = {
    config: { value: { server: { maxConnectionsPerIp: 0 } } } as Config,
    securityLog: { refused: () => Promise.resolve() },
  };
  const ips = new AddressCounts();
  const inbound = new Inbound(
    deps,
    ips,
    {} as Sessions,
    () => Promise.resolve(),
    (from, pkg, data) => gmcp.push([from.player, pkg, data]),
  );
  const conn = new Connection("c1", "telnet", "127.0.0.1", session, {
    frame: (c, data) => inbound.frame(c, data),
    line: (c, text) => inbound.line(c, text),
    report: (c, r) => inbound.report(c, r),
    gmcp: (c, pkg, data) => inbound.gmcp(c, pkg, data),
    run: (_c, task) => {
      if (typeof task === "string") lines.push(task);
      return Promise.resolve();
    },
    closed() {},
  }, Date.now());
  conn.playerId = "7";
  conn.sidecar = opts.sidecar ?? true;
  const sent = () => session.sent.map((t) => JSON.parse(t));
  return { inbound, conn, session, lines, sent, ips, gmcp };
}

Deno.test("typed lines: read at once, the answer is the acknowledgement (no ack frame)", async () => {
  const { conn, lines, sent } = setup();
  assert.equal(conn.line("think hi"), true);
  assert.equal(conn.line("look"), true);
  // Lines that came together run one per turn of the event loop (the command queue goes between
  // them): a timer of 0 ms may fire before the second's turn when the machine is busy.
  for (let turn = 0; turn < 10 && lines.length < 2; turn++) {
    await new Promise((r) => setImmediate(r));
  }
  assert.deepEqual(lines, ["think hi", "look"]);
  assert.deepEqual(sent(), []);
});

Deno.test("framed lines: an ack frame answers a line that was read", () => {
  const { conn, sent } = setup();
  conn.received(JSON.stringify({ msg: "think hi", ack: 3 }));
  conn.received(JSON.stringify({ msg: "look", ack: "s-1" }));
  assert.deepEqual(sent().map((f) => f.data), [{ type: "ack", id: 3 }, { type: "ack", id: "s-1" }]);
});

Deno.test("typed lines: over the rate limit a line is dropped and not acknowledged", () => {
  const { conn, sent } = setup();
  const answers = [];
  for (let i = 1; i <= 12; i++) answers.push(conn.line(`think ${i}`));
  assert.deepEqual(answers, [...Array(10).fill(true), false, false]);
  // Told why, once (not once per dropped line), in the words the telnet sidecar uses.
  assert.deepEqual(sent(), [{ msg: TOO_FAST, data: { type: "error" } }]);
});

Deno.test("typed lines: a line over the length limit is refused with a message, and acknowledged", () => {
  const { conn, sent } = setup();
  assert.equal(conn.line("say " + "x".repeat(MAX_LINE)), true);
  assert.match(sent()[0].msg, /too long/);
});

Deno.test("typed lines: a blank line is neither read nor counted; one with breaks is each of its lines", async () => {
  const { conn, lines } = setup();
  // Blank (after cleaning): not acknowledged, and it costs none of the ten a second.
  for (let i = 0; i < 20; i++) assert.equal(conn.line(i % 2 ? "   " : "\x01\x02"), false);
  assert.equal(conn.line("think a\r\nthink b\nthink c\rthink d\n"), true);
  for (let turn = 0; turn < 20 && lines.length < 4; turn++) {
    await new Promise((r) => setImmediate(r));
  }
  assert.deepEqual(lines, ["think a", "think b", "think c", "think d"]);
  const answers = [];
  for (let i = 0; i < 8; i++) answers.push(conn.line(`think ${i}`));
  assert.deepEqual(answers, [true, true, true, true, true, true, false, false]);
});

Deno.test("typed lines: one over the frame size closes the connection, as a frame would", () => {
  const { conn, session, lines } = setup();
  assert.equal(conn.line("x".repeat(MAX_FRAME_BYTES + 1)), false);
  assert.equal(session.closedWith?.[0], 1009);
  assert.equal(conn.line("look"), false, "nothing more once closed");
  assert.deepEqual(lines, []);
});

Deno.test("reports: the sidecar's are believed (address, terminal, times, window), others' only the window", () => {
  const now = Date.now();
  const { conn, ips } = setup();
  conn.report({
    ip: "203.0.113.5",
    ttype: "MUDLET",
    connectedAt: now - 5000,
    lastInput: now - 1000,
  });
  conn.report({ width: 999, height: 2 });
  assert.equal(conn.ip, "203.0.113.5");
  assert.equal(ips.count("203.0.113.5"), 1);
  assert.equal(conn.ttype, "MUDLET");
  assert.equal(conn.connectedAt, now - 5000);
  assert.equal(conn.lastInput, now - 1000);
  assert.deepEqual([conn.width, conn.height], [250, 5], "clamped");
  assert.equal(conn.colourDepth, null);
  conn.report({ colourDepth: 256 });
  assert.equal(conn.colourDepth, 256);
  conn.report({ colourDepth: 12345 });
  assert.equal(conn.colourDepth, 256, "only a depth a terminal has");
  const other = setup({ sidecar: false }).conn;
  other.report({ ip: "203.0.113.6", ttype: "X", width: 100, colourDepth: 16 });
  assert.equal(other.ip, "127.0.0.1");
  assert.equal(other.ttype, "");
  assert.equal(other.colourDepth, null);
  assert.equal(other.width, 100);
});

Deno.test("quit is any case with spaces around it, and nothing else", () => {
  for (const q of ["quit", "QUIT", " Quit\t", "qUiT  "]) assert.equal(isQuit(q), true, q);
  for (const q of ["quit!", "quitter", "q uit", "", "QUİT"]) assert.equal(isQuit(q), false, q);
});

Deno.test("gmcp frames: a logged-in player's message reaches the receiver; bad ones do not", () => {
  const { conn, gmcp, sent } = setup();
  conn.received(JSON.stringify({ type: "gmcp", package: "Comm.Channel.Players", data: "" }));
  conn.gmcp("Comm.Channel.List", null);
  conn.received(JSON.stringify({ type: "gmcp", package: "bad name!", data: 1 }));
  assert.deepEqual(gmcp, [["7", "Comm.Channel.Players", ""], ["7", "Comm.Channel.List", null]]);
  assert.equal(sent().length, 1, "a frame without a package name is answered with an error");
  conn.playerId = null;
  conn.gmcp("Comm.Channel.Players", null);
  assert.equal(gmcp.length, 2, "nothing before login");
});

Deno.test("gmcp frames: a flood is cut at the command rate", () => {
  const { conn, gmcp } = setup();
  for (let i = 0; i < 50; i++) conn.gmcp("Comm.Channel.Players", null);
  assert.ok(gmcp.length > 0 && gmcp.length <= 20, `${gmcp.length} passed`);
});

Deno.test("gmcp-supports frames: what the client wants is known to the hub", () => {
  const { conn } = setup();
  assert.equal(conn.gmcpWants("Comm.Channel.Players"), false, "GMCP not on yet");
  conn.received(JSON.stringify({ type: "gmcp-supports", supports: null }));
  assert.equal(conn.gmcpWants("Comm.Channel.Players"), true, "never announced: everything");
  conn.received(JSON.stringify({ type: "gmcp-supports", supports: ["room", 5, "x y"] }));
  assert.equal(conn.gmcpWants("Room.Info"), true);
  assert.equal(conn.gmcpWants("Comm.Channel.Players"), false, "asked only for Room");
  conn.received(JSON.stringify({ type: "gmcp-supports", supports: ["comm.channel"] }));
  assert.equal(conn.gmcpWants("Comm.Channel.Players"), true);
  conn.received(JSON.stringify({ type: "gmcp-supports", off: true }));
  assert.equal(conn.gmcpWants("Comm.Channel.Players"), false, "GMCP turned off");
});
