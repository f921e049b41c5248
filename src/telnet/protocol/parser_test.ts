/** Tests of the incremental telnet command parser, fuzzed with split input. */
import assert from "node:assert/strict";
import { bytes, prng, randomBytes } from "./_test_util.ts";
import { DO, GA, IAC, NAWS, NOP, SB, SE, TTYPE, WILL, WONT } from "./constants.ts";
import { type ParserEvent, TelnetParser } from "./parser.ts";

/** Feeds chunks and merges adjacent data events, so results compare across any split. */
function parse(chunks: Uint8Array[], parser = new TelnetParser()): ParserEvent[] {
  const out: ParserEvent[] = [];
  for (const c of chunks) {
    for (const ev of parser.feed(c)) {
      const last = out.at(-1);
      if (ev.type === "data" && last?.type === "data") {
        last.bytes = Uint8Array.from([...last.bytes, ...ev.bytes]);
      } else {
        out.push(ev.type === "data" ? { type: "data", bytes: ev.bytes.slice() } : ev);
      }
    }
  }
  return out;
}

const SAMPLE = bytes(
  "hi",
  IAC,
  IAC,
  "x",
  IAC,
  WILL,
  NAWS,
  IAC,
  SB,
  NAWS,
  0,
  80,
  IAC,
  IAC,
  24,
  IAC,
  SE,
  "é",
  IAC,
  NOP,
  IAC,
  DO,
  IAC,
  "ok\r\n",
  IAC,
  SB,
  TTYPE,
  0,
  "xterm",
  IAC,
  SE,
);

const EXPECTED: ParserEvent[] = [
  { type: "data", bytes: bytes("hi", 255, "x") },
  { type: "negotiation", verb: "WILL", option: NAWS },
  { type: "subnegotiation", option: NAWS, data: bytes(0, 80, 255, 24) },
  { type: "data", bytes: bytes("é") },
  { type: "command", code: NOP },
  { type: "negotiation", verb: "DO", option: IAC },
  { type: "data", bytes: bytes("ok\r\n") },
  { type: "subnegotiation", option: TTYPE, data: bytes(0, "xterm") },
];

Deno.test("parser: whole stream in one chunk", () => {
  assert.deepEqual(parse([SAMPLE]), EXPECTED);
});

Deno.test("parser: split into two chunks at every byte offset", () => {
  for (let cut = 0; cut <= SAMPLE.length; cut++) {
    assert.deepEqual(
      parse([SAMPLE.subarray(0, cut), SAMPLE.subarray(cut)]),
      EXPECTED,
      `cut at ${cut}`,
    );
  }
});

Deno.test("parser: one byte per chunk", () => {
  const chunks = [...SAMPLE].map((b) => Uint8Array.of(b));
  assert.deepEqual(parse(chunks), EXPECTED);
});

Deno.test("parser: split into three chunks at every pair of offsets", () => {
  for (let a = 0; a <= SAMPLE.length; a++) {
    for (let b = a; b <= SAMPLE.length; b++) {
      const chunks = [SAMPLE.subarray(0, a), SAMPLE.subarray(a, b), SAMPLE.subarray(b)];
      assert.deepEqual(parse(chunks), EXPECTED, `cuts at ${a}, ${b}`);
    }
  }
});

Deno.test("parser: IAC IAC is one 0xFF in data and in subnegotiation", () => {
  assert.deepEqual(parse([bytes(IAC, IAC, IAC, IAC)]), [
    { type: "data", bytes: bytes(255, 255) },
  ]);
  assert.deepEqual(parse([bytes(IAC, SB, 201, IAC, IAC, IAC, IAC, IAC, SE)]), [
    { type: "subnegotiation", option: 201, data: bytes(255, 255) },
  ]);
});

Deno.test("parser: plain data without commands comes out unchanged", () => {
  const text = bytes("look\r\nsay hello wörld\r\n");
  assert.deepEqual(parse([text]), [{ type: "data", bytes: text }]);
});

Deno.test("parser: bare commands and a stray SE are command events", () => {
  assert.deepEqual(parse([bytes(IAC, GA, IAC, SE, IAC, 246)]), [
    { type: "command", code: GA },
    { type: "command", code: SE },
    { type: "command", code: 246 },
  ]);
});

Deno.test("parser: an unfinished sequence waits for more data", () => {
  const p = new TelnetParser();
  assert.deepEqual(p.feed(bytes(IAC)), []);
  assert.deepEqual(p.feed(bytes(WONT)), []);
  assert.deepEqual(p.feed(bytes(1)), [{ type: "negotiation", verb: "WONT", option: 1 }]);
  assert.deepEqual(p.feed(bytes(IAC, SB, 24, 0, "ab")), []);
  assert.equal(p.pendingBytes, 3);
  assert.deepEqual(p.feed(bytes(IAC, SE)), [
    { type: "subnegotiation", option: 24, data: bytes(0, "ab") },
  ]);
});

Deno.test("parser: a 1 MB subnegotiation is dropped, reported once, and memory stays capped", () => {
  const p = new TelnetParser({ maxSubnegotiation: 1024 });
  const events: ParserEvent[] = [];
  events.push(...p.feed(bytes(IAC, SB, 201)));
  const block = new Uint8Array(4096).fill(0x41);
  for (let i = 0; i < 256; i++) {
    events.push(...p.feed(block));
    assert.ok(p.pendingBytes <= 1024);
  }
  events.push(...p.feed(bytes(IAC, SE, "after")));
  assert.equal(events.filter((e) => e.type === "error").length, 1);
  assert.equal(events.filter((e) => e.type === "subnegotiation").length, 0);
  assert.deepEqual(events.at(-1), { type: "data", bytes: bytes("after") });
});

Deno.test("parser: default cap is 8 KiB; a payload of exactly the cap is kept", () => {
  const p = new TelnetParser();
  const payload = new Uint8Array(8192).fill(1);
  const ok = p.feed(bytes(IAC, SB, 201, payload, IAC, SE));
  assert.equal(ok.length, 1);
  assert.equal(ok[0].type === "subnegotiation" && ok[0].data.length, 8192);
  const big = p.feed(bytes(IAC, SB, 201, payload, 1, IAC, SE, "x"));
  assert.deepEqual(big.map((e) => e.type), ["error", "data"]);
});

Deno.test("parser: a subnegotiation cut short by another command is aborted, not swallowed", () => {
  assert.deepEqual(parse([bytes(IAC, SB, TTYPE, 0, "xt", IAC, WILL, NAWS, "look")]), [
    { type: "error", reason: "unterminated subnegotiation for option 24" },
    { type: "negotiation", verb: "WILL", option: NAWS },
    { type: "data", bytes: bytes("look") },
  ]);
});

Deno.test("parser: fuzz with random bytes never throws and stays bounded", () => {
  const rand = prng(0xc0ffee);
  for (let iter = 0; iter < 3000; iter++) {
    const p = new TelnetParser({ maxSubnegotiation: 256 });
    const input = randomBytes(rand, Math.floor(rand() * 600));
    let at = 0;
    while (at < input.length) {
      const n = 1 + Math.floor(rand() * 40);
      for (const ev of p.feed(input.subarray(at, at + n))) {
        if (ev.type === "subnegotiation") assert.ok(ev.data.length <= 256);
        if (ev.type === "data") assert.ok(ev.bytes.length <= n);
      }
      assert.ok(p.pendingBytes <= 256);
      at += n;
    }
  }
});

Deno.test("parser: fuzzed splits give the same events as one chunk", () => {
  const rand = prng(42);
  for (let iter = 0; iter < 500; iter++) {
    const input = randomBytes(rand, 200);
    const whole = parse([input]);
    const chunks: Uint8Array[] = [];
    for (let at = 0; at < input.length;) {
      const n = 1 + Math.floor(rand() * 10);
      chunks.push(input.subarray(at, at + n));
      at += n;
    }
    assert.deepEqual(parse(chunks), whole);
  }
});
