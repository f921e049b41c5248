/** Tests of the probe that notices the hub accepting connections again. */
import assert from "node:assert/strict";
import { hubAddress, HubWatch, tcpProbe } from "./hub_watch.ts";

Deno.test("hub address: host and port of the hub URL, IPv6 without brackets", () => {
  assert.deepEqual(hubAddress("ws://127.0.0.1:4202/?client=telnet"), {
    hostname: "127.0.0.1",
    port: 4202,
  });
  assert.deepEqual(hubAddress("ws://[::1]:4202/?client=telnet"), { hostname: "::1", port: 4202 });
  assert.deepEqual(hubAddress("wss://game.example/"), { hostname: "game.example", port: 443 });
});

Deno.test("hub watch: reports once when the port answers after being closed, then rests", async () => {
  // Open at first (the old engine on its way out), then closed, then open (the new engine).
  const answers = [true, true, false, false, true];
  let probes = 0;
  let ups = 0;
  let up!: () => void;
  const upP = new Promise<void>((r) => up = r);
  const watch = new HubWatch({ hostname: "x", port: 1 }, () => {
    ups++;
    up();
  }, {
    intervalMs: 5,
    probe: () => Promise.resolve(answers[probes++] ?? true),
  });
  watch.start();
  watch.start();
  await upP;
  assert.equal(probes, 5);
  assert.equal(ups, 1);
  assert.equal(watch.active, false);
  await new Promise((r) => setTimeout(r, 30));
  assert.equal(probes, 5, "no polling once reported");
  watch.start();
  watch.stop();
  await new Promise((r) => setTimeout(r, 30));
  assert.equal(probes, 5, "a stopped watch never probes");
});

Deno.test("tcp probe: true for a listening port, false for a closed one", async () => {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  const accepted = l.accept();
  assert.equal(await tcpProbe({ hostname: "127.0.0.1", port }), true);
  (await accepted).close();
  l.close();
  assert.equal(await tcpProbe({ hostname: "127.0.0.1", port }), false);
});
