/** Tests of turning Nagle off on the sidecar's link socket. */
import assert from "node:assert/strict";
import { noDelayOf, noDelayTo } from "./nodelay.ts";

Deno.test({
  name: "nodelay: Deno's WebSocket client leaves Nagle on; noDelayTo turns it off on that socket",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
      const { socket, response } = Deno.upgradeWebSocket(req);
      socket.onmessage = (e) => socket.send(e.data);
      return response;
    });
    const port = server.addr.port;
    const ws = new WebSocket(`ws://127.0.0.1:${port}/`);
    try {
      await new Promise((resolve, reject) => {
        ws.onopen = resolve;
        ws.onerror = reject;
      });
      const before = noDelayOf(port);
      assert.equal(before.size, 1, "one client socket to the server's port");
      // What the fix is for: the runtime opened it with TCP_NODELAY 0.
      assert.deepEqual([...before.values()], [0]);
      const r = noDelayTo(port);
      assert.equal(r.error, undefined);
      assert.deepEqual(r.fds, [...before.keys()]);
      assert.deepEqual([...noDelayOf(port).values()], [1]);
      // The link still works after the change.
      ws.send("ping");
      const echo = await new Promise((resolve) => ws.onmessage = (e) => resolve(e.data));
      assert.equal(echo, "ping");
      // Nothing connected to another port is touched, and asking again is harmless.
      assert.deepEqual(noDelayTo(1).fds, []);
    } finally {
      ws.close();
      await new Promise((r) => ws.onclose = r);
      await server.shutdown();
    }
  },
});
