import { assert, assertMatch, assertNotEquals } from "./assert.ts";
import { startServer } from "./harness.ts";

Deno.test("harness: a start whose ports another server took tries again on new ones", async () => {
  const first = await startServer();
  let second: Awaited<ReturnType<typeof startServer>> | null = null;
  try {
    // As when a test running alongside bound the ports between freePorts and this child's bind.
    second = await startServer({ firstPorts: [first.http, first.ws, first.telnet] });
    assertNotEquals(second.http, first.http);
    assert(second.output().includes(`HTTP listening on 127.0.0.1:${second.http}`));
    for (const s of [first, second]) {
      const res = await fetch(`${s.base}/health`);
      await res.body?.cancel();
      assert(res.ok);
    }
  } finally {
    await second?.stop();
    await first.stop();
  }
});

Deno.test("harness: a port the test chose itself is not tried again when it is taken", async () => {
  const first = await startServer();
  try {
    const err = await startServer({ env: { URSAMU_SERVER_HTTP: String(first.http) } }).then(
      (s) => s.stop().then(() => null),
      (e: Error) => e,
    );
    assert(err !== null, "a start on a taken port the test chose should fail");
    assertMatch(String(err), /is already in use/);
    // The start's own failure, not the harness's give-up after tries on new ports.
    assert(!String(err).startsWith("PortTaken"), String(err).slice(0, 200));
  } finally {
    await first.stop();
  }
});
