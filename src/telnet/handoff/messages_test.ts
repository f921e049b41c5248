/** Tests of the handoff channel's messages: encoding, limits, refusals. */
import assert from "node:assert/strict";
import {
  decodeMessage,
  encodeMessage,
  type HandoffMessage,
  handoffName,
  MAX_HANDOFF_MESSAGE,
  MAX_STATE_BYTES,
  packMessages,
  packWithFds,
  readClientState,
  stateJson,
} from "./messages.ts";
import type { ClientState } from "../client/telnet_client.ts";
import { DEFAULT_LIMITS } from "../client/limits.ts";

function state(over: Partial<ClientState> = {}): ClientState {
  return {
    ip: "203.0.113.9",
    connectedAt: 1_700_000_000_000,
    lastInput: 1_700_000_100_000,
    token: "eyJ.token",
    player: { id: "7", name: "Alice" },
    colourMode: "auto",
    colour: true,
    gmcpClient: "Mudlet",
    gmcpSupports: ["room", "comm.channel"],
    errors: 0,
    telnet: {
      options: [[201, 1], [256 + 31, 1]],
      width: 120,
      height: 40,
      ttypes: ["MUDLET", "ANSI-256COLOR", "MTTS 2825"],
      ttypeRequests: 3,
      ttypeReplies: 3,
      mtts: 2825,
      charset: "UTF-8",
      charsetRequested: true,
      charsetPending: false,
      compressing: true,
      pending: "half a li",
    },
    lines: ["say one", "say two"],
    password: null,
    affixes: { prefix: "", suffix: "" },
    ...over,
  };
}

Deno.test("handoff: every message round trips", () => {
  const messages: HandoffMessage[] = [
    { t: "hello", v: 1, nonce: "ab12", startedAt: 5 },
    { t: "auth", v: 1, mac: "ff00" },
    { t: "open", sessions: [{ sid: 3, ip: "::1", waited: true, state: null }] },
    { t: "open", sessions: [{ sid: 4, ip: "127.0.0.1", waited: false, state: state() }] },
    { t: "state", sessions: [{ sid: 4, state: state({ password: { verb: "co", name: "Bob" } }) }] },
    { t: "end", sids: [4, 5] },
    { t: "bye", restart: true },
  ];
  for (const m of messages) assert.deepEqual(decodeMessage(encodeMessage(m)), m);
});

Deno.test("handoff: a state message leaves out only its sessions that are malformed", () => {
  const enc = (x: unknown) => new TextEncoder().encode(JSON.stringify(x));
  const good = state({ player: { id: "8", name: "Bob" } });
  const m = decodeMessage(enc({
    t: "state",
    sessions: [
      { sid: 1, state: { ...state(), colourMode: "rainbow" } },
      { sid: 2, state: good },
      { sid: 0, state: good },
      "nope",
    ],
  }));
  assert.deepEqual(m, { t: "state", sessions: [{ sid: 2, state: good }] });
  assert.equal(decodeMessage(enc({ t: "state", sessions: "nope" })), null);
});

Deno.test("handoff: a state carries as many waiting lines as a client keeps", () => {
  // A paste of up to maxBufferedLines waits in the client; its state must still be read.
  const lines = Array(DEFAULT_LIMITS.maxBufferedLines).fill("think pasted");
  assert.deepEqual(readClientState(state({ lines }))?.lines, lines);
});

Deno.test("handoff: a state too large for a message is cut to its first waiting lines", () => {
  const small = state();
  assert.equal(stateJson(small), JSON.stringify(small));
  // 200 lines of 1,000 characters: a paste the client keeps (under 256 KiB), over a message.
  const lines = Array.from({ length: 200 }, (_, i) => `think pasted-${i} ${"x".repeat(980)}`);
  const json = stateJson(state({ lines }));
  assert.ok(new TextEncoder().encode(json).length <= MAX_STATE_BYTES);
  const back = readClientState(JSON.parse(json));
  assert.ok(back !== null && back.lines.length > 40 && back.lines.length < 200);
  assert.deepEqual(back.lines, lines.slice(0, back.lines.length), "the first, in order");
  assert.equal(back.player?.name, "Alice", "the rest of the state is whole");
  // Past even that (a room smaller than the state without lines): the partial line goes too.
  const bare = JSON.stringify(state({ lines: [] })).length;
  const tight = JSON.parse(stateJson(state({ lines }), bare - 1));
  assert.deepEqual([tight.lines, tight.telnet.pending], [[], ""]);
});

Deno.test("handoff: anything malformed is refused whole, never thrown", () => {
  const enc = (x: unknown) => new TextEncoder().encode(JSON.stringify(x));
  const bad: unknown[] = [
    null,
    [],
    "open",
    { t: "nope" },
    { t: "hello", v: 1, nonce: "x".repeat(200), startedAt: 1 },
    { t: "open", sessions: [{ sid: 0, ip: "x", waited: false, state: null }] },
    { t: "open", sessions: [{ sid: 1, ip: "x", waited: "no", state: null }] },
    { t: "open", sessions: [{ sid: 1, ip: "x", waited: false, state: { ...state(), ip: 5 } }] },
    { t: "end", sids: [1, -2] },
    { t: "end", sids: [1.5] },
    { t: "bye" },
  ];
  for (const b of bad) assert.equal(decodeMessage(enc(b)), null, JSON.stringify(b));
  const badStates: unknown[] = [
    { ...state(), colourMode: "rainbow" },
    { ...state(), lines: [1] },
    { ...state(), lines: Array(1001).fill("say x") },
    { ...state(), telnet: { options: [[600, 1]] } },
    { ...state(), player: { id: 7 } },
    { ...state(), gmcpSupports: "room" },
    { ...state(), gmcpSupports: [7] },
    { ...state(), gmcpSupports: Array(65).fill("room") },
  ];
  for (const b of badStates) assert.equal(readClientState(b), null, JSON.stringify(b));
  assert.equal(decodeMessage(new Uint8Array([0xff, 0xfe, 0x7b])), null);
  assert.equal(decodeMessage(new TextEncoder().encode("{not json")), null);
  assert.equal(readClientState({ ...state(), telnet: { ...state().telnet, pending: 4 } }), null);
  // A state from a process before Core.Supports: the client had announced nothing.
  const { gmcpSupports: _, affixes: __, ...older } = state();
  assert.equal(readClientState(older)?.gmcpSupports, null);
  // OUTPUTPREFIX/SUFFIX: carried when sound, none when absent or bad.
  assert.deepEqual(
    readClientState({ ...state(), affixes: { prefix: "<<", suffix: ">>" } })?.affixes,
    {
      prefix: "<<",
      suffix: ">>",
    },
  );
  assert.deepEqual(readClientState(older)?.affixes, { prefix: "", suffix: "" });
  assert.deepEqual(
    readClientState({ ...state(), affixes: { prefix: "x".repeat(300), suffix: 5 } })?.affixes,
    { prefix: "", suffix: "" },
  );
});

Deno.test("handoff: messages are packed under the size limit, every item once, in order", () => {
  const items = Array.from(
    { length: 500 },
    (_, i) => JSON.stringify({ sid: i + 1, state: state() }),
  );
  const messages = packMessages('{"t":"state","sessions":[', items, "]}");
  assert.ok(messages.length > 1);
  const sids: number[] = [];
  for (const m of messages) {
    assert.ok(m.length <= MAX_HANDOFF_MESSAGE);
    const d = decodeMessage(m);
    assert.equal(d?.t, "state");
    if (d?.t === "state") sids.push(...d.sessions.map((s) => s.sid));
  }
  assert.deepEqual(sids, items.map((_, i) => i + 1));
  assert.deepEqual(packMessages("[", [], "]"), []);
});

Deno.test("handoff: the channel's name comes from the secret alone", () => {
  const a = handoffName("a".repeat(40));
  assert.equal(a, handoffName("a".repeat(40)));
  assert.notEqual(a, handoffName("b".repeat(40)));
  assert.ok(!a.includes("aaaa"));
  assert.ok(a.length < 100);
});

Deno.test("handoff: entries with a descriptor each are packed by size and by descriptor count", () => {
  // 450 small entries: the descriptor limit (200 a message) splits them, in order.
  const small = Array.from(
    { length: 450 },
    (_, i) => ({ item: `{"n":${i}}`, fd: 1000 + i, of: i }),
  );
  const byCount = packWithFds('{"t":"open","sessions":[', small, "]}");
  assert.deepEqual(byCount.map((m) => m.fds.length), [200, 200, 50]);
  assert.deepEqual(byCount.flatMap((m) => m.of), small.map((e) => e.of));
  for (const m of byCount) {
    const sessions = JSON.parse(new TextDecoder().decode(m.bytes)).sessions;
    assert.deepEqual(sessions.map((s: { n: number }) => 1000 + s.n), m.fds, "items beside fds");
  }
  // Big entries: the size limit splits them first.
  const big = Array.from(
    { length: 5 },
    (_, i) => ({ item: `"${"x".repeat(25_000)}"`, fd: i, of: i }),
  );
  const bySize = packWithFds("[", big, "]");
  assert.deepEqual(bySize.map((m) => m.of), [[0, 1], [2, 3], [4]]);
  for (const m of bySize) assert.ok(m.bytes.length <= MAX_HANDOFF_MESSAGE);
  assert.deepEqual(packWithFds("[", [], "]"), []);
});
