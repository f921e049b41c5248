/**
 * Frames that are not UTF-8, over a hand-made WebSocket client on both hub endpoints (the
 * WebSocket port and /ws on the HTTP port). A binary frame is read as UTF-8 text: bad bytes
 * close the connection cleanly with 1007. A text frame with bad bytes never reaches the hub:
 * Deno drops the socket itself (no close frame); the hub logs that in one line.
 */
import { assert, assertEquals } from "./assert.ts";
import { startServer, waitHealthy } from "./harness.ts";
import { closeCode, RawWs } from "./raw_ws.ts";

const BAD = new Uint8Array([0x73, 0x61, 0x79, 0x20, 0xff, 0xfe, 0xc3]); // "say " + invalid bytes
const text = (payload: Uint8Array) => new TextDecoder().decode(payload);

Deno.test("hub: frames that are not UTF-8 on both endpoints", async () => {
  const srv = await startServer();
  try {
    for (const [port, path] of [[srv.ws, "/"], [srv.http, "/ws"]] as const) {
      const where = `${port}${path}`;

      // A binary frame of UTF-8 text is a line like any other.
      const ok = await RawWs.open(port, path);
      await ok.send(2, "quit");
      const bye = await ok.untilClose();
      ok.close();
      assert(bye.frames.some((f) => text(f.payload).includes("Goodbye!")), where);
      assertEquals(bye.close && closeCode(bye.close), 1000, where);

      // A binary frame that is not UTF-8: a reason, then a clean close with 1007.
      const bin = await RawWs.open(port, path);
      await bin.send(2, BAD);
      const binEnd = await bin.untilClose();
      bin.close();
      assert(binEnd.frames.some((f) => text(f.payload).includes("Frames must be UTF-8")), where);
      assert(binEnd.close, `${where}: no close frame`);
      assertEquals(closeCode(binEnd.close), 1007, where);

      // A text frame that is not UTF-8, whole or split over fragments: Deno 2 drops the
      // socket without a close frame (a 1007 close would be welcome if the runtime sends one).
      for (const fragmented of [false, true]) {
        const txt = await RawWs.open(port, path);
        if (fragmented) {
          await txt.send(1, BAD.subarray(0, 5), false);
          await txt.send(0, BAD.subarray(5), true);
        } else {
          await txt.send(1, BAD);
        }
        const txtEnd = await txt.untilClose();
        txt.close();
        if (txtEnd.close) assertEquals(closeCode(txtEnd.close), 1007, where);
      }
      await srv.waitFor(/dropped by the runtime: Invalid UTF-8/);
    }
    await waitHealthy(srv.base);
    const out = srv.output();
    assert(!/^\s+at /m.test(out), out);
    assert(!/unhandled|uncaught/i.test(out), out);
  } finally {
    await srv.stop();
  }
});
