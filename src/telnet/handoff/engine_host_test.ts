/** Tests of the engine's side of the handoff: taking sockets, syncing state, stopping. */
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import type { HubDialer, Sent } from "../client/hub_port.ts";
import { tcpPair } from "./_test_util.ts";
import { EngineHost } from "./engine_host.ts";
import { decodeMessage, encodeMessage, type HandoffMessage, handoffName } from "./messages.ts";
import { handoffUnavailable } from "./support.ts";
import { closeFd, openLibc, type SeqPacketConn, SeqPacketListener } from "./unix_fds.ts";

const ignore = handoffUnavailable() !== null;

/**
 * Just enough of a hub for the engine's telnet clients: it reads every line as it is handed over
 * (its answer acknowledges it), answers `think <x>` with `<x>`, and logs a session in when asked
 * (`login`); its frames come after the client's call, as the hub's carrier hands them over.
 */
function fakeHub() {
  const lines: string[] = [];
  const hub: HubDialer = (events) => {
    let open = false;
    const later = (f: Record<string, unknown>) =>
      queueMicrotask(() => open && events.hubFrame(JSON.stringify(f)));
    return {
      get open() {
        return open;
      },
      connect() {
        queueMicrotask(() => {
          open = true;
          events.hubOpened();
        });
      },
      line(text: string): Sent {
        if (!open) return "failed";
        lines.push(text);
        if (text === "login") {
          later({
            msg: "",
            data: { type: "session", token: "tok-1", player: { id: "7", name: "Alice" } },
          });
        } else later({ msg: text.replace(/^think /, ""), data: {} });
        return "read";
      },
      ping: () => (open ? "read" : "failed"),
      report() {},
      gmcp() {},
      expectEnd() {},
      retrySoon() {},
      end() {
        open = false;
      },
    };
  };
  return { hub, lines };
}

/** Waits until `ok()` or fails after `ms`. */
async function until(ok: () => boolean, what: string, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

Deno.test({
  name: "engine host: proves the secret, serves a handed socket, sends its state, hands it back",
  ignore,
  async fn() {
    const secret = "direct-test-secret-" + crypto.randomUUID();
    const libc = openLibc();
    const listener = SeqPacketListener.listen(libc, handoffName(secret));
    const hub = fakeHub();
    const logs: string[] = [];
    const telnet = new EngineHost({
      secret,
      hub: hub.hub,
      gameName: "Test",
      port: 1,
      online: () => 0,
      log: (l) => logs.push(l),
      retryMs: 20,
    });
    const bad = await tcpPair();
    const good = await tcpPair();
    let keeper: SeqPacketConn | null = null;
    const got: HandoffMessage[] = [];
    try {
      telnet.start();
      keeper = await listener.accept();
      assert.ok(keeper !== null);
      const nonce = "n-" + crypto.randomUUID();
      keeper.send(encodeMessage({ t: "hello", v: 1, nonce, startedAt: 1 }));
      const auth = decodeMessage((await keeper.recv())!.bytes);
      assert.deepEqual(auth, {
        t: "auth",
        v: 1,
        mac: createHmac("sha256", secret).update(nonce).digest("hex"),
      });
      // Read everything the engine sends from here on.
      const k = keeper;
      const reading = (async () => {
        for (;;) {
          const r = await k.recv();
          if (r === null) return;
          for (const fd of r.fds) closeFd(libc, fd);
          const m = decodeMessage(r.bytes);
          if (m) got.push(m);
        }
      })();

      // Malformed: garbage, and two sessions with one descriptor. The descriptor is closed (the
      // connection ends, ours being closed too) and nothing is served.
      keeper.send(new TextEncoder().encode("{nonsense"));
      keeper.send(
        encodeMessage({
          t: "open",
          sessions: [
            { sid: 1, ip: "203.0.113.1", waited: false, state: null },
            { sid: 2, ip: "203.0.113.2", waited: false, state: null },
          ],
        }),
        [bad.fd],
      );
      closeFd(libc, bad.fd);
      await until(() => bad.ended, "the malformed session's socket closed");
      assert.equal(telnet.players, 0);
      assert.ok(logs.some((l) => /unexpected message/.test(l)));

      // A real one: negotiated, played, logged in.
      keeper.send(
        encodeMessage({
          t: "open",
          sessions: [{ sid: 3, ip: "203.0.113.3", waited: false, state: null }],
        }),
        [good.fd],
      );
      // IAC WILL CHARSET: the engine negotiates on the socket itself.
      await good.waitFor(/\xff\xfb\x2a/);
      assert.equal(telnet.players, 1);
      await good.client.write(new TextEncoder().encode("think hello there\r\nlogin\r\n"));
      await good.waitFor(/hello there\r\n/);
      await until(() => hub.lines.includes("login"), "the hub got the login");
      // The session's token goes to the sidecar at once (a crash must not lose it).
      await until(
        () =>
          got.some((m) =>
            m.t === "state" && m.sessions.some((s) => s.sid === 3 && s.state.token === "tok-1")
          ),
        "the state with the token",
      );

      // The engine stops for a restart: the player's state and a goodbye, the socket kept.
      await telnet.stop(true);
      await reading;
      const last = got.filter((m) => m.t === "state").at(-1);
      assert.equal(last?.t === "state" ? last.sessions[0].state.player?.name : null, "Alice");
      assert.deepEqual(got.at(-1), { t: "bye", restart: true });
      await new Promise((r) => setTimeout(r, 50));
      assert.equal(good.ended, false, "the connection outlives the engine's hold on it");
      assert.equal(telnet.players, 0);
    } finally {
      await telnet.stop(false);
      keeper?.close();
      listener.close();
      closeFd(libc, good.fd);
      await bad.close();
      await good.close();
      libc.close();
    }
  },
});
