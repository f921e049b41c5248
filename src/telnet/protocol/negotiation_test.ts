/** Tests of option negotiation (RFC 1143 Q method, loop limits). */
import assert from "node:assert/strict";
import { bytes, prng } from "./_test_util.ts";
import { DO, DONT, ECHO, IAC, NAWS, SGA, TTYPE, type Verb, WILL, WONT } from "./constants.ts";
import { OptionTable } from "./negotiation.ts";

const VERB_OF: Record<number, Verb> = {
  [WILL]: "WILL",
  [WONT]: "WONT",
  [DO]: "DO",
  [DONT]: "DONT",
};

function server(): OptionTable {
  return new OptionTable({ local: new Set([SGA]), remote: new Set([NAWS, TTYPE]) });
}

Deno.test("negotiation: accepted and refused requests from the peer", () => {
  const t = server();
  assert.deepEqual(t.receive("DO", SGA), {
    reply: bytes(IAC, WILL, SGA),
    change: { side: "local", option: SGA, enabled: true },
  });
  assert.deepEqual(t.receive("DO", ECHO), { reply: bytes(IAC, WONT, ECHO), change: null });
  assert.deepEqual(t.receive("WILL", ECHO), { reply: bytes(IAC, DONT, ECHO), change: null });
  assert.deepEqual(t.receive("WILL", NAWS).reply, bytes(IAC, DO, NAWS));
  assert.equal(t.isEnabled("remote", NAWS), true);
});

Deno.test("negotiation: a request matching the current state is never answered", () => {
  const t = server();
  t.receive("DO", SGA);
  assert.deepEqual(t.receive("DO", SGA), { reply: null, change: null });
  assert.deepEqual(t.receive("DONT", ECHO), { reply: null, change: null });
  assert.deepEqual(t.receive("WONT", NAWS), { reply: null, change: null });
});

Deno.test("negotiation: our offer acknowledged, refused, or answered with the wrong verb", () => {
  const t = server();
  assert.deepEqual(t.request("local", ECHO, true).reply, bytes(IAC, WILL, ECHO));
  assert.equal(t.state("local", ECHO), "wantyes");
  // A repeated request while waiting sends nothing.
  assert.equal(t.request("local", ECHO, true).reply, null);
  assert.deepEqual(t.receive("DO", ECHO), {
    reply: null,
    change: { side: "local", option: ECHO, enabled: true },
  });
  assert.deepEqual(t.request("local", ECHO, false).reply, bytes(IAC, WONT, ECHO));
  assert.deepEqual(t.receive("DONT", ECHO), { reply: null, change: null });
  assert.equal(t.state("local", ECHO), "no");

  t.request("remote", TTYPE, true);
  assert.deepEqual(t.receive("WONT", TTYPE), { reply: null, change: null });
  assert.equal(t.state("remote", TTYPE), "no");
  // The client answering our WILL with WILL is a request for its own side, refused once.
  t.request("local", SGA, true);
  assert.deepEqual(t.receive("WILL", SGA).reply, bytes(IAC, DONT, SGA));
  assert.equal(t.state("local", SGA), "wantyes");
});

Deno.test("negotiation: RFC 1143 queue: on then off before the answer", () => {
  const t = server();
  t.request("local", ECHO, true);
  assert.equal(t.request("local", ECHO, false).reply, null);
  // The DO that answers our WILL is followed at once by our queued WONT.
  assert.deepEqual(t.receive("DO", ECHO), { reply: bytes(IAC, WONT, ECHO), change: null });
  assert.equal(t.state("local", ECHO), "wantno");
  assert.deepEqual(t.receive("DONT", ECHO).reply, null);
  assert.equal(t.state("local", ECHO), "no");
});

/** Runs two tables against each other and returns how many messages crossed the wire. */
function converse(a: OptionTable, b: OptionTable, opening: Uint8Array[]): number {
  let toB = [...opening];
  let toA: Uint8Array[] = [];
  let messages = 0;
  for (let round = 0; round < 100 && (toA.length > 0 || toB.length > 0); round++) {
    const nextA: Uint8Array[] = [];
    const nextB: Uint8Array[] = [];
    for (const m of toB) {
      messages++;
      const r = b.receive(VERB_OF[m[1]], m[2]).reply;
      if (r) nextA.push(r);
    }
    for (const m of toA) {
      messages++;
      const r = a.receive(VERB_OF[m[1]], m[2]).reply;
      if (r) nextB.push(r);
    }
    toA = nextA;
    toB = nextB;
  }
  assert.equal(toA.length + toB.length, 0, "negotiation did not settle");
  return messages;
}

Deno.test("negotiation: two tables settle, whatever the opening", () => {
  const rand = prng(99);
  const verbs: Verb[] = ["WILL", "WONT", "DO", "DONT"];
  for (let iter = 0; iter < 500; iter++) {
    const a = server();
    const b = new OptionTable({ local: new Set([NAWS, ECHO]), remote: new Set([SGA, TTYPE]) });
    const opening: Uint8Array[] = [];
    for (let i = 0; i < 8; i++) {
      const option = [SGA, ECHO, NAWS, TTYPE, 200][Math.floor(rand() * 5)];
      const r = rand() < 0.5
        ? a.request(rand() < 0.5 ? "local" : "remote", option, rand() < 0.7).reply
        : bytes(IAC, [WILL, WONT, DO, DONT][verbs.indexOf(verbs[Math.floor(rand() * 4)])], option);
      if (r) opening.push(r);
    }
    assert.ok(converse(a, b, opening) < 100);
  }
});

Deno.test("negotiation: a peer that re-asks after every refusal stops getting answers", () => {
  const t = server();
  let answers = 0;
  for (let i = 0; i < 1000; i++) if (t.receive("DO", ECHO).reply) answers++;
  assert.ok(answers <= 16);
});

Deno.test("negotiation: a broken client's on/off burst cannot keep the server looping", () => {
  // The client sends WILL then WONT without waiting and then answers every change like a naive
  // RFC 854 peer. Our DO and DONT cross its WILL and WONT forever under plain RFC 1143; the
  // answer cap of the server alone ends it.
  const a = server();
  const on = new Set<string>();
  const naive = (m: Uint8Array): Uint8Array | null => {
    const verb = VERB_OF[m[1]];
    const key = `${verb === "DO" || verb === "DONT" ? "local" : "remote"}:${m[2]}`;
    const want = verb === "DO" || verb === "WILL";
    if (on.has(key) === want) return null;
    if (want) on.add(key);
    else on.delete(key);
    const answer = { DO: WILL, DONT: WONT, WILL: DO, WONT: DONT }[verb];
    return bytes(IAC, answer, m[2]);
  };
  let toServer = [bytes(IAC, WILL, NAWS), bytes(IAC, WONT, NAWS)];
  let rounds = 0;
  while (toServer.length > 0) {
    assert.ok(++rounds < 100, "negotiation did not settle");
    const replies = toServer.map((m) => a.receive(VERB_OF[m[1]], m[2]).reply);
    toServer = replies.flatMap((r) => (r ? [naive(r)] : [])).filter((r) => r !== null);
  }
});

Deno.test("negotiation: each option's two sides, queue bit and answer count are kept apart", () => {
  const t = server();
  for (let o = 0; o < 256; o++) {
    // Local side: an offer pending, then the opposite queued behind it.
    t.request("local", o, true);
    t.request("local", o, false);
    // Remote side: the peer re-asks until the cap; every answer is a refusal or an agreement.
    let answers = 0;
    for (let i = 0; i < 40; i++) {
      if (t.receive("WILL", o).reply) answers++;
      t.receive("WONT", o);
    }
    assert.ok(answers >= 8 && answers <= 16, `option ${o}: ${answers} answers`);
  }
  for (let o = 0; o < 256; o++) {
    assert.equal(t.state("local", o), "wantyes", `option ${o}`);
    assert.equal(t.state("remote", o), "no", `option ${o}`);
    // The queued "off" is remembered: the peer's agreement turns it straight back off.
    assert.deepEqual(t.receive("DO", o), { reply: bytes(IAC, WONT, o), change: null });
    assert.equal(t.state("local", o), "wantno");
    assert.deepEqual(t.receive("DONT", o).reply, null);
    assert.equal(t.state("local", o), "no");
  }
});
