/**
 * Connections the telnet sidecar refuses (over `server.maxConnectionsPerIp`) cost it nothing
 * afterwards (issue 31): each refused socket is closed by the sidecar itself, whether the client
 * hangs up or keeps its end open without reading, and the refusals are logged in a few lines,
 * not one per connection. Both ways the sidecar takes connections: handing sockets to the engine
 * (Node's listener, the default on Linux) and serving them itself.
 */
import { assert } from "./assert.ts";
import type { TestServer } from "./harness.ts";
import { startSupervised } from "./supervised.ts";
import { TelnetClient } from "./telnet_client.ts";

/** The pid the supervisor logged last for its sidecar. */
function sidecarPid(srv: TestServer): number {
  const all = [...srv.output().matchAll(/telnet sidecar started \(pid (\d+)\)/g)];
  assert(all.length > 0, `no sidecar pid in:\n${srv.output()}`);
  return Number(all[all.length - 1][1]);
}

/** Open descriptors of a process (Linux /proc). */
function descriptors(pid: number): number {
  return [...Deno.readDirSync(`/proc/${pid}/fd`)].length;
}

/** Polls until the sidecar holds at most `most` descriptors; returns the last count. */
async function settles(pid: number, most: number, ms = 15_000): Promise<number> {
  const end = Date.now() + ms;
  let n = descriptors(pid);
  while (n > most && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 100));
    n = descriptors(pid);
  }
  return n;
}

/**
 * Opens `n` connections, 50 at a time, and reads each one's refusal line; then hangs up, or
 * keeps the connection open and reads no more (`hold`), and returns those held.
 */
async function refused(srv: TestServer, n: number, hold: boolean): Promise<Deno.TcpConn[]> {
  const held: Deno.TcpConn[] = [];
  const dec = new TextDecoder();
  for (let i = 0; i < n; i += 50) {
    await Promise.all(Array.from({ length: Math.min(50, n - i) }, async () => {
      const conn = await Deno.connect({ hostname: "127.0.0.1", port: srv.telnet });
      const buf = new Uint8Array(256);
      let text = "";
      try {
        while (!text.includes("\n")) {
          const r = await conn.read(buf);
          if (r === null) break;
          text += dec.decode(buf.subarray(0, r));
        }
      } catch { /* reset after the line: fine */ }
      assert(/Too many connections from your address/.test(text), `refusal read: ${text}`);
      if (hold) held.push(conn);
      else conn.close();
    }));
  }
  return held;
}

/** Connects until the connect screen comes (the sidecar counts a closed client down soon). */
async function welcomed(srv: TestServer): Promise<TelnetClient> {
  for (let i = 0;; i++) {
    const c = await TelnetClient.connect(srv.telnet);
    await c.waitFor(/connect <name>|Too many connections/);
    if (/connect <name>/.test(c.text)) return c;
    await c.close();
    if (i >= 50) throw new Error(`never let in again: ${c.text}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

for (const handoff of [true, false]) {
  Deno.test(`telnet refusals (handoff ${handoff ? "on" : "off"}): no descriptor is left behind`, async () => {
    const srv = await startSupervised({
      config: { server: { maxConnectionsPerIp: 3 } },
      env: handoff ? {} : { URSAMU_TELNET_HANDOFF: "0" },
    });
    const open: TelnetClient[] = [];
    let held: Deno.TcpConn[] = [];
    try {
      const pid = sidecarPid(srv);
      for (let i = 0; i < 3; i++) {
        const c = await TelnetClient.connect(srv.telnet);
        await c.waitFor(/connect <name>/);
        open.push(c);
      }
      const before = descriptors(pid);
      // Clients that read the refusal and hang up (the sidecar never reads their end).
      await refused(srv, 300, false);
      const afterRead = await settles(pid, before + 10);
      assert(afterRead <= before + 10, `300 refusals left ${afterRead - before} descriptors`);
      // Clients that keep their end open: the sidecar lets go all the same.
      held = await refused(srv, 300, true);
      const afterHeld = await settles(pid, before + 10);
      assert(afterHeld <= before + 10, `300 held refusals left ${afterHeld - before}`);
      // One more is let in once one of the three goes.
      await open.pop()!.close();
      open.push(await welcomed(srv));
      // Logged, but not per connection: the first at once, the rest summed up later.
      const lines = srv.output().split("\n").filter((l) => /telnet: refused/.test(l));
      assert(lines.length >= 1 && lines.length <= 2, `refusal lines:\n${lines.join("\n")}`);
      assert(/per-address cap/.test(lines[0]), lines[0]);
    } finally {
      for (const c of held) {
        try {
          c.close();
        } catch { /* already closed */ }
      }
      for (const c of open) await c.close();
      await srv.stop();
    }
  });
}
