/** Tests of one connection's protocol state: negotiation, lines, NAWS, TTYPE, CHARSET. */
import assert from "node:assert/strict";
import { constants, inflateSync } from "node:zlib";
import { bytes, prng, randomBytes } from "./_test_util.ts";
import { concatBytes } from "./bytes.ts";
import {
  AYT,
  CHARSET,
  CHARSET_ACCEPTED,
  CHARSET_REJECTED,
  CHARSET_REQUEST,
  DO,
  DONT,
  ECHO,
  EOR,
  GMCP,
  IAC,
  MCCP2,
  MSSP,
  NAWS,
  NOP,
  SB,
  SE,
  SGA,
  TTYPE,
  TTYPE_SEND,
  WILL,
  WONT,
} from "./constants.ts";
import { decodeMssp } from "./mssp.ts";
import { encodeNaws } from "./naws.ts";
import { type ParserEvent, TelnetParser } from "./parser.ts";
import { TelnetSession, type TelnetSessionOptions } from "./session.ts";
import { encodeTtypeIs } from "./ttype.ts";

/** A session plus the raw writes it made. */
function harness(options: Partial<TelnetSessionOptions> = {}) {
  const writes: Uint8Array[] = [];
  const session = new TelnetSession({ write: (b) => writes.push(b.slice()), ...options });
  /** Takes the writes made since the last call. */
  const take = (): Uint8Array[] => writes.splice(0);
  return { session, writes, take };
}

/** What the server sent, as parser events. */
function decode(chunks: Uint8Array[]): ParserEvent[] {
  return new TelnetParser().feed(concatBytes(chunks));
}

function verbs(events: ParserEvent[]): string[] {
  return events.flatMap((e) => (e.type === "negotiation" ? [`${e.verb} ${e.option}`] : []));
}

Deno.test("session: start offers our options in one write, once", () => {
  const { session, take } = harness({ mssp: () => ({ NAME: "Ursa" }) });
  session.start();
  const w = take();
  assert.equal(w.length, 1);
  assert.deepEqual(verbs(decode(w)), [
    `WILL ${CHARSET}`,
    `WILL ${GMCP}`,
    `DO ${NAWS}`,
    `DO ${TTYPE}`,
    `WILL ${MSSP}`,
    `WILL ${MCCP2}`,
  ]);
  session.start();
  assert.equal(take().length, 0);
});

Deno.test("session: no MSSP offer without a table, no MCCP2 offer when disabled", () => {
  const { session, take } = harness({ compression: false });
  session.start();
  const v = verbs(decode(take()));
  assert.ok(!v.includes(`WILL ${MSSP}`));
  assert.ok(!v.includes(`WILL ${MCCP2}`));
  // And asking for them unprompted is refused.
  session.receive(bytes(IAC, DO, MSSP, IAC, DO, MCCP2));
  assert.deepEqual(verbs(decode(take())), [`WONT ${MSSP}`, `WONT ${MCCP2}`]);
});

Deno.test("session: lines and events come back in order; replies in one write", () => {
  const { session, take } = harness();
  session.start();
  take();
  const r = session.receive(
    bytes("look\r\n", IAC, WILL, NAWS, IAC, DO, SGA, "say hi\r\n", IAC, NOP, IAC, DO, EOR),
  );
  assert.deepEqual(r.lines, ["look", "say hi"]);
  assert.deepEqual(r.events.map((e) => e.type), ["line", "option", "option", "line", "command"]);
  const w = take();
  assert.equal(w.length, 1);
  // NAWS was our offer, so its acknowledgement needs no reply; SGA was not offered (line-mode
  // clients would leave line mode) but is granted on request; EOR is refused.
  assert.deepEqual(verbs(decode(w)), [`WILL ${SGA}`, `WONT ${EOR}`]);
});

Deno.test("session: a read that is one typed line is its text; any other read is left to receive", () => {
  const { session, take } = harness();
  session.start();
  take();
  assert.equal(session.typedLine(bytes("think hi\r\n")), "think hi");
  assert.equal(session.typedLine(bytes("\r\n")), "");
  assert.equal(session.typedLine(bytes("look\n")), "look");
  // A command in the read, two lines, or a line not ended: none is taken.
  assert.equal(session.typedLine(bytes("look\r\n", IAC, NOP)), null);
  assert.equal(session.typedLine(bytes("a\r\nb\r\n")), null);
  assert.equal(session.typedLine(bytes("hal")), null);
  assert.deepEqual(take(), [], "nothing was written or consumed");
  // The unfinished line is then held by receive; the next read, though a line end, is not a
  // typed line of its own.
  assert.deepEqual(session.receive(bytes("hal")).lines, []);
  assert.equal(session.typedLine(bytes("f\r\n")), null);
  assert.deepEqual(session.receive(bytes("f\r\n")).lines, ["half"]);
  assert.equal(session.typedLine(bytes("é\r\n")), null, "not ASCII: decoded by receive");
});

Deno.test("session: NAWS with escaped 255 values", () => {
  const { session } = harness();
  session.start();
  session.receive(bytes(IAC, WILL, NAWS));
  const wire = encodeNaws(255, 0xffff);
  assert.deepEqual(wire, bytes(IAC, SB, NAWS, 0, IAC, IAC, IAC, IAC, IAC, IAC, IAC, SE));
  // Split in the middle of a doubled IAC.
  const a = session.receive(wire.subarray(0, 5));
  const b = session.receive(wire.subarray(5));
  assert.deepEqual([...a.events, ...b.events], [{ type: "naws", width: 255, height: 65535 }]);
  assert.equal(session.width, 255);
  assert.equal(session.height, 65535);
  const c = session.receive(encodeNaws(120, 40));
  assert.deepEqual(c.events, [{ type: "naws", width: 120, height: 40 }]);
});

Deno.test("session: a malformed NAWS is reported, not applied", () => {
  const { session } = harness();
  const r = session.receive(bytes(IAC, SB, NAWS, 1, 2, 3, IAC, SE));
  assert.equal(r.events[0].type, "error");
  assert.equal(session.width, null);
});

const TTYPE_SEND_BYTES = bytes(IAC, SB, TTYPE, TTYPE_SEND, IAC, SE);

function countSends(w: Uint8Array[]): number {
  return decode(w).filter((e) => e.type === "subnegotiation" && e.option === TTYPE).length;
}

Deno.test("session: TTYPE cycle with MTTS asks three times", () => {
  const { session, take } = harness();
  session.start();
  take();
  session.receive(bytes(IAC, WILL, TTYPE));
  assert.deepEqual(concatBytes(take()), TTYPE_SEND_BYTES);
  const r1 = session.receive(encodeTtypeIs("MUDLET"));
  assert.equal(countSends(take()), 1);
  const r2 = session.receive(encodeTtypeIs("XTERM-256COLOR"));
  assert.equal(countSends(take()), 1);
  const r3 = session.receive(encodeTtypeIs("MTTS 2825"));
  assert.equal(countSends(take()), 0);
  assert.deepEqual([...r1.events, ...r2.events, ...r3.events], [
    { type: "ttype", name: "MUDLET", index: 0 },
    { type: "ttype", name: "XTERM-256COLOR", index: 1 },
    { type: "ttype", name: "MTTS 2825", index: 2 },
    { type: "mtts", flags: 2825 },
  ]);
  assert.equal(session.clientName, "MUDLET");
  assert.deepEqual(session.terminalTypes, ["MUDLET", "XTERM-256COLOR", "MTTS 2825"]);
  assert.equal(session.mtts, 2825);
  // Unsolicited answers are ignored.
  assert.deepEqual(session.receive(encodeTtypeIs("EVIL")).events, []);
});

Deno.test("session: TTYPE stops when a plain client repeats its name", () => {
  const { session, take } = harness();
  session.receive(bytes(IAC, WILL, TTYPE));
  take();
  session.receive(encodeTtypeIs("xterm"));
  assert.equal(countSends(take()), 1);
  const r = session.receive(encodeTtypeIs("xterm"));
  assert.deepEqual(r.events, []);
  assert.equal(countSends(take()), 0);
  assert.equal(session.mtts, null);
  // Turning TTYPE off and on again does not restart the cycle.
  session.receive(bytes(IAC, WONT, TTYPE, IAC, WILL, TTYPE));
  assert.equal(countSends(take()), 0);
});

Deno.test("session: CHARSET: we request UTF-8 and the client accepts", () => {
  const { session, take } = harness();
  session.start();
  take();
  session.receive(bytes(IAC, DO, CHARSET));
  assert.deepEqual(
    concatBytes(take()),
    bytes(IAC, SB, CHARSET, CHARSET_REQUEST, ";UTF-8", IAC, SE),
  );
  const r = session.receive(bytes(IAC, SB, CHARSET, CHARSET_ACCEPTED, "UTF-8", IAC, SE));
  assert.deepEqual(r.events, [{ type: "charset", name: "UTF-8" }]);
  assert.equal(session.charset, "UTF-8");
  // A second DO (or the client's WILL) does not ask again.
  session.receive(bytes(IAC, WILL, CHARSET));
  assert.deepEqual(verbs(decode(take())), [`DO ${CHARSET}`]);
});

Deno.test("session: CHARSET: rejection and a request from the client", () => {
  const { session, take } = harness();
  session.start();
  session.receive(bytes(IAC, DO, CHARSET));
  take();
  const r = session.receive(bytes(IAC, SB, CHARSET, CHARSET_REJECTED, IAC, SE));
  assert.deepEqual(r.events, [{ type: "charset", name: null }]);

  const other = harness();
  other.session.receive(bytes(IAC, WILL, CHARSET));
  other.take();
  // Our own request is pending: RFC 2066 says the server rejects the client's.
  other.session.receive(bytes(IAC, SB, CHARSET, CHARSET_REQUEST, " ISO-8859-1 utf-8", IAC, SE));
  assert.deepEqual(concatBytes(other.take()), bytes(IAC, SB, CHARSET, CHARSET_REJECTED, IAC, SE));
  other.session.receive(bytes(IAC, SB, CHARSET, CHARSET_REJECTED, IAC, SE));
  const r2 = other.session.receive(
    bytes(IAC, SB, CHARSET, CHARSET_REQUEST, "[TTABLE]", 1, ";latin1;UTF8", IAC, SE),
  );
  assert.deepEqual(
    concatBytes(other.take()),
    bytes(IAC, SB, CHARSET, CHARSET_ACCEPTED, "UTF8", IAC, SE),
  );
  assert.deepEqual(r2.events, [{ type: "charset", name: "UTF-8" }]);
});

Deno.test("session: a client answering WILL to our WILL (and DO to our DO) does not loop", () => {
  const { session, take } = harness({ mssp: () => ({ NAME: "x" }) });
  session.start();
  const offers = decode(take()).filter((e) => e.type === "negotiation");
  // A mirror: sends back exactly the verbs it received, for several rounds.
  let inbound = concatBytes(
    offers.map((e) =>
      e.type === "negotiation" ? bytes(IAC, { WILL, WONT, DO, DONT }[e.verb], e.option) : bytes()
    ),
  );
  let total = 0;
  for (let round = 0; round < 20 && inbound.length > 0; round++) {
    session.receive(inbound);
    inbound = concatBytes(take());
    total += inbound.length;
  }
  assert.equal(inbound.length, 0, "still negotiating after 20 rounds");
  assert.ok(total < 200);
});

Deno.test("session: a well-behaved client that accepts everything settles in one round", () => {
  const { session, take } = harness({ mssp: () => ({ NAME: "x" }), compression: false });
  session.start();
  const answer = { WILL: DO, WONT: DONT, DO: WILL, DONT: WONT };
  const offers = decode(take()).filter((e) => e.type === "negotiation");
  session.receive(concatBytes(
    offers.map((e) => e.type === "negotiation" ? bytes(IAC, answer[e.verb], e.option) : bytes()),
  ));
  // Only subnegotiations follow (TTYPE SEND, CHARSET REQUEST, MSSP), never another verb.
  const reply = decode(take());
  assert.deepEqual(verbs(reply), []);
  assert.deepEqual(
    reply.map((e) => e.type === "subnegotiation" ? e.option : -1).sort((a, b) => a - b),
    [TTYPE, CHARSET, MSSP].sort((a, b) => a - b),
  );
  // Repeating the same answers changes nothing and sends nothing.
  session.receive(concatBytes(
    offers.map((e) => e.type === "negotiation" ? bytes(IAC, answer[e.verb], e.option) : bytes()),
  ));
  assert.equal(take().length, 0);
  assert.equal(session.gmcp, true);
});

Deno.test("session: ECHO hides and shows typed input", () => {
  const { session, take } = harness();
  assert.equal(session.inputHidden, false);
  session.hideInput();
  assert.deepEqual(concatBytes(take()), bytes(IAC, WILL, ECHO));
  assert.equal(session.inputHidden, true);
  session.hideInput();
  assert.equal(take().length, 0);
  session.receive(bytes(IAC, DO, ECHO));
  assert.equal(take().length, 0);
  session.showInput();
  assert.deepEqual(concatBytes(take()), bytes(IAC, WONT, ECHO));
  session.receive(bytes(IAC, DONT, ECHO));
  assert.equal(take().length, 0);
  assert.equal(session.inputHidden, false);
  // The client cannot turn server echo on by itself.
  session.receive(bytes(IAC, DO, ECHO));
  assert.deepEqual(concatBytes(take()), bytes(IAC, WONT, ECHO));
});

Deno.test("session: GMCP enable, send, receive", () => {
  const { session, take } = harness();
  assert.equal(session.sendGmcp("Char.Name", { name: "Bob" }), false);
  session.start();
  take();
  const r = session.receive(
    bytes(IAC, DO, GMCP, IAC, SB, GMCP, 'Core.Hello {"client":"Mudlet"}', IAC, SE),
  );
  assert.deepEqual(r.events.slice(1), [
    { type: "gmcpEnabled" },
    { type: "gmcp", package: "Core.Hello", data: { client: "Mudlet" }, raw: '{"client":"Mudlet"}' },
  ]);
  assert.equal(session.sendGmcp("Char.Name", { name: "Bob" }), true);
  assert.deepEqual(
    concatBytes(take()),
    bytes(IAC, SB, GMCP, 'Char.Name {"name":"Bob"}', IAC, SE),
  );
  const bad = session.receive(bytes(IAC, SB, GMCP, "Core.Hello {nope", IAC, SE));
  assert.deepEqual(bad.events, [
    { type: "gmcp", package: "Core.Hello", data: undefined, raw: "{nope" },
  ]);
});

Deno.test("session: MSSP table goes out when the crawler says DO", () => {
  let calls = 0;
  const { session, take } = harness({
    mssp: () => {
      calls++;
      return { NAME: "Ursa", PLAYERS: "2", PORT: ["4201"] };
    },
  });
  session.start();
  take();
  session.receive(bytes(IAC, DO, MSSP));
  const [ev] = decode(take());
  assert.equal(ev.type, "subnegotiation");
  if (ev.type === "subnegotiation") {
    assert.equal(ev.option, MSSP);
    assert.deepEqual(decodeMssp(ev.data), { NAME: "Ursa", PLAYERS: "2", PORT: "4201" });
  }
  assert.equal(calls, 1);
});

Deno.test("session: a throwing MSSP supplier is reported, not thrown", () => {
  const errors: unknown[] = [];
  const { session, take } = harness({
    mssp: () => {
      throw new Error("db down");
    },
    onError: (e) => errors.push(e),
  });
  session.start();
  take();
  session.receive(bytes(IAC, DO, MSSP));
  assert.equal(errors.length, 1);
  assert.equal(take().length, 0);
});

Deno.test("session: MCCP2: marker plain, then every write inflates as it arrives", async () => {
  const { session, take } = harness();
  session.start();
  take();
  const r = session.receive(bytes(IAC, DO, MCCP2));
  assert.ok(r.events.some((e) => e.type === "mccpStarted"));
  assert.equal(session.compressing, true);
  const plain = take();
  // Nothing before the marker is compressed, and the marker is the last plain thing.
  assert.deepEqual(concatBytes(plain), bytes(IAC, SB, MCCP2, IAC, SE));

  const sent = ["Welcome to Ursa!\n", "You see: a lamp.\n", "You see: a lamp.\n"];
  const stream: Uint8Array[] = [];
  for (const text of sent) {
    session.send(text);
    await session.idle();
    stream.push(...take());
    // The client can inflate everything received so far, right now.
    const got = inflateSync(concatBytes(stream), { finishFlush: constants.Z_SYNC_FLUSH });
    assert.equal(
      new TextDecoder().decode(got),
      sent.slice(0, stream.length).join("").replaceAll("\n", "\r\n"),
    );
  }
  // Negotiation replies are compressed too.
  session.receive(bytes(IAC, DO, 99));
  await session.idle();
  stream.push(...take());
  const all = inflateSync(concatBytes(stream), { finishFlush: constants.Z_SYNC_FLUSH });
  assert.deepEqual(Uint8Array.from(all.subarray(all.length - 3)), bytes(IAC, WONT, 99));

  // The client turns compression off: the stream is finished, then output is plain.
  const off = session.receive(bytes(IAC, DONT, MCCP2));
  assert.ok(off.events.some((e) => e.type === "mccpStopped"));
  session.send("plain again\n");
  await session.idle();
  const rest = take();
  const finished = concatBytes([...stream, ...rest.slice(0, -1)]);
  assert.ok(inflateSync(finished).length > 0, "the zlib stream was properly finished");
  assert.deepEqual(rest.at(-1), bytes("plain again\r\n"));
});

Deno.test("session: close finishes the MCCP2 stream and drops later output", async () => {
  const { session, take } = harness();
  session.receive(bytes(IAC, DO, MCCP2));
  take();
  session.send("Goodbye!\n");
  await session.close();
  const stream = take();
  assert.equal(new TextDecoder().decode(inflateSync(concatBytes(stream))), "Goodbye!\r\n");
  session.send("late\n");
  session.receive(bytes(IAC, DO, SGA));
  await session.idle();
  assert.equal(take().length, 0);
});

Deno.test("session: AYT is answered", () => {
  const { session, take } = harness();
  const r = session.receive(bytes(IAC, AYT));
  assert.deepEqual(r.events, [{ type: "command", code: AYT }]);
  assert.deepEqual(concatBytes(take()), bytes("[Yes]\r\n"));
});

Deno.test("session: a 1 MB subnegotiation and a 1 MB line are bounded and reported", () => {
  const { session } = harness({ maxLineBytes: 1000, maxSubnegotiation: 1000 });
  const events = [];
  events.push(...session.receive(bytes(IAC, SB, GMCP)).events);
  const block = new Uint8Array(64 * 1024).fill(0x41);
  for (let i = 0; i < 16; i++) events.push(...session.receive(block).events);
  events.push(...session.receive(bytes(IAC, SE)).events);
  for (let i = 0; i < 16; i++) events.push(...session.receive(block).events);
  events.push(...session.receive(bytes("\n")).events);
  assert.deepEqual(events.map((e) => e.type), ["error", "line"]);
  const line = events[1];
  assert.ok(line.type === "line" && line.truncated && line.text.length === 1000);
});

Deno.test("session: fuzz with random bytes never throws", async () => {
  const rand = prng(2024);
  for (let iter = 0; iter < 3000; iter++) {
    const { session, take } = harness({
      mssp: () => ({ NAME: "x" }),
      maxLineBytes: 128,
      maxSubnegotiation: 128,
      // Compressing sessions are async; a share of them is enough to cover that path.
      compression: iter % 10 === 0,
    });
    session.start();
    const input = randomBytes(rand, Math.floor(rand() * 300));
    for (let at = 0; at < input.length;) {
      const n = 1 + Math.floor(rand() * 50);
      session.receive(input.subarray(at, at + n));
      at += n;
    }
    session.send("done\n");
    session.sendGmcp("Core.Ping");
    session.hideInput();
    session.showInput();
    if (iter % 10 === 0) await session.close();
    take();
  }
});

Deno.test("session: a snapshot carries the negotiation to a new session, which offers nothing", () => {
  const { session, take } = harness({ mssp: () => ({ NAME: "Ursa" }) });
  session.start();
  session.receive(bytes(IAC, WILL, NAWS, IAC, DO, GMCP, IAC, WILL, TTYPE, IAC, DO, SGA));
  session.receive(concatBytes([bytes(IAC, SB, NAWS), encodeNaws(120, 40), bytes(IAC, SE)]));
  session.receive(concatBytes([encodeTtypeIs("Mudlet"), bytes("look\r\nhalf a li")]));
  session.hideInput();
  take();
  const state = JSON.parse(JSON.stringify(session.snapshot()));
  assert.equal(state.pending, "half a li");

  const next = harness({ mssp: () => ({ NAME: "Ursa" }) });
  const restored = new TelnetSession({ write: (b) => next.writes.push(b.slice()) }, state);
  restored.start();
  assert.equal(next.take().length, 0, "no offers, nothing sent");
  assert.equal(restored.width, 120);
  assert.equal(restored.height, 40);
  assert.deepEqual(restored.terminalTypes, ["Mudlet"]);
  assert.equal(restored.gmcp, true);
  assert.equal(restored.inputHidden, true);
  assert.equal(restored.isEnabled("local", SGA), true);
  // The unfinished line goes on where it stopped.
  assert.deepEqual(restored.receive(bytes("ne\r\n")).lines, ["half a line"]);
  // Known options are not negotiated again (no loops with a client that repeats itself).
  restored.receive(bytes(IAC, DO, GMCP, IAC, WILL, NAWS));
  assert.equal(next.take().length, 0);
});

Deno.test("session: MCCP2 carried over goes on as the same stream, which the client inflates", async () => {
  const { session, take } = harness();
  session.start();
  take();
  session.receive(bytes(IAC, DO, MCCP2));
  session.send("before the restart\n");
  await session.idle();
  const stream = take().slice(1); // after the plain start marker
  const state = session.snapshot();
  assert.equal(state.compressing, true);

  const writes: Uint8Array[] = [];
  const next = new TelnetSession({ write: (b) => writes.push(b.slice()) }, state);
  next.send("after the restart\n");
  next.receive(bytes(IAC, DO, 99));
  await next.idle();
  // No second marker: the client would take it for data of the compressed stream.
  const got = inflateSync(concatBytes([...stream, ...writes]), {
    finishFlush: constants.Z_SYNC_FLUSH,
  });
  assert.deepEqual(
    Uint8Array.from(got),
    concatBytes([bytes("before the restart\r\nafter the restart\r\n"), bytes(IAC, WONT, 99)]),
  );
});
