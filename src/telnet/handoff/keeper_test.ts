/** Tests of the sidecar's side of the handoff: holding sockets, notices, the proof. */
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { constants, inflateRawSync } from "node:zlib";
import { tcpPair } from "./_test_util.ts";
import { decodeMessage, encodeMessage, type HandoffMessage, handoffName } from "./messages.ts";
import { TelnetKeeper } from "./keeper.ts";
import { carriedState as state } from "../client/_test_util.ts";
import { closeFd, fdPassingUnavailable, type Libc, openLibc, SeqPacketConn } from "./unix_fds.ts";

const ignore = fdPassingUnavailable() !== null;

/** A stand-in engine on the keeper's channel. */
async function engine(libc: Libc, secret: string, proof?: string) {
  const conn = SeqPacketConn.connect(libc, handoffName(secret));
  const hello = decodeMessage((await conn.recv())!.bytes);
  assert.equal(hello?.t, "hello");
  const nonce = hello?.t === "hello" ? hello.nonce : "";
  const mac = proof ?? createHmac("sha256", secret).update(nonce).digest("hex");
  conn.send(encodeMessage({ t: "auth", v: 1, mac }));
  return {
    conn,
    /** The next message and its descriptors (null: the keeper closed the channel). */
    async next(): Promise<{ m: HandoffMessage | null; fds: number[] } | null> {
      const got = await conn.recv();
      return got === null ? null : { m: decodeMessage(got.bytes), fds: got.fds };
    },
    send(m: HandoffMessage) {
      assert.equal(conn.send(encodeMessage(m)), "sent");
    },
  };
}

Deno.test({
  name: "keeper: holds players for the engine that proves the secret, tells them when it dies",
  ignore,
  async fn() {
    const secret = "keeper-test-secret-" + crypto.randomUUID();
    const libc = openLibc();
    const logs: string[] = [];
    const released: string[] = [];
    const keeper = new TelnetKeeper({
      secret,
      startedAt: 1,
      log: (l) => logs.push(l),
      released: (ip) => released.push(ip),
    });
    keeper.listen();
    assert.throws(() => new TelnetKeeper({ secret, startedAt: 1 }).listen(), /in use/);
    const plain = await tcpPair();
    const packed = await tcpPair();
    const received: number[] = [];
    try {
      // Before any engine: told the game is starting, and held.
      keeper.add(plain.fd, "203.0.113.1");
      await plain.waitFor(/game server is starting/);
      const startingNotice = plain.received().length;

      // A process that cannot prove the secret gets nothing and is dropped.
      const impostor = await engine(libc, secret, "00".repeat(32));
      assert.equal(await impostor.next(), null);
      impostor.conn.close();
      assert.ok(logs.some((l) => /failed to prove the secret/.test(l)));

      // The engine proves it and is handed the waiting player at once.
      const e1 = await engine(libc, secret);
      const open = await e1.next();
      assert.equal(open?.m?.t, "open");
      assert.equal(open!.fds.length, 1);
      received.push(...open!.fds);
      const first = open!.m!.t === "open" ? open!.m!.sessions[0] : null;
      assert.equal(first?.waited, true);
      assert.equal(first?.state, null);
      // A second engine meanwhile is refused.
      const second = SeqPacketConn.connect(libc, handoffName(secret));
      assert.equal(await second.recv(), null);
      second.close();

      // A player arriving while the engine is there goes to it at once.
      keeper.add(packed.fd, "203.0.113.2");
      const open2 = await e1.next();
      received.push(...open2!.fds);
      const sid2 = open2!.m!.t === "open" ? open2!.m!.sessions[0].sid : 0;
      assert.equal(open2!.fds.length, 1);
      // States, for a session it holds and one it does not (ignored).
      e1.send({
        t: "state",
        sessions: [
          { sid: first!.sid, state: state({}, false) },
          { sid: 999, state: state({}, true) },
          { sid: sid2, state: state({ compressing: true }, true) },
        ],
      });
      e1.send({ t: "end", sids: [12345] });
      await new Promise((r) => setTimeout(r, 50));
      assert.equal(keeper.size, 2);

      // The engine dies without a word: each player is told in its own stream.
      for (const fd of received.splice(0)) closeFd(libc, fd);
      e1.conn.close();
      await plain.waitFor(/game server is restarting/);
      assert.ok(
        !plain.received().slice(startingNotice).includes("\x1b["),
        "the player without colour gets none",
      );
      await new Promise((r) => setTimeout(r, 50));
      const raw = packed.bytes();
      const notice = new TextDecoder().decode(
        inflateRawSync(raw, { finishFlush: constants.Z_SYNC_FLUSH }),
      );
      assert.match(notice, /game server is restarting/, "a compressed stream goes on compressed");

      // The next engine gets both back, with the states the last one sent.
      const e2 = await engine(libc, secret);
      const back = await e2.next();
      received.push(...back!.fds);
      assert.equal(back!.fds.length, 2);
      const sessions = back!.m!.t === "open" ? back!.m!.sessions : [];
      assert.deepEqual(sessions.map((s) => s.state?.colour), [false, true]);
      // The engine ends the first player: the sidecar lets go of it, and with the engine's
      // copy closed too the player's connection ends.
      e2.send({ t: "end", sids: [sessions[0].sid] });
      closeFd(libc, received.shift()!);
      await new Promise((r) => setTimeout(r, 50));
      assert.equal(keeper.size, 1);
      assert.deepEqual(released, ["203.0.113.1"]);
      for (let i = 0; i < 100 && !plain.ended; i++) await new Promise((r) => setTimeout(r, 10));
      assert.ok(plain.ended);
      // A stop after the engine's goodbye: no second goodbye from the sidecar.
      e2.send({ t: "bye", restart: false });
      for (const fd of received.splice(0)) closeFd(libc, fd);
      e2.conn.close();
      await new Promise((r) => setTimeout(r, 50));
      const before = packed.received().length;
      await keeper.shutdown();
      for (let i = 0; i < 100 && !packed.ended; i++) await new Promise((r) => setTimeout(r, 10));
      assert.ok(packed.ended);
      assert.equal(packed.received().length, before);
    } finally {
      for (const fd of received) closeFd(libc, fd);
      await keeper.shutdown();
      await plain.close();
      await packed.close();
      libc.close();
    }
  },
});
