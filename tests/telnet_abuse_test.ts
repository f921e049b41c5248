/**
 * Bad telnet input (random bytes, a 1 MB subnegotiation, a 1 MB line, unterminated IAC, a client
 * that never reads) must not crash or stall the sidecar or other players.
 */
import { assert } from "./assert.ts";
import { prng } from "../src/telnet/protocol/_test_util.ts";
import { SHARE_BYTES_PER_SECOND } from "../src/rate/address_share.ts";
import { register } from "./harness.ts";
import { TelnetClient } from "./telnet_client.ts";
import { startSupervised, telnetLogin } from "./supervised.ts";

const IAC = 255, SB = 250, SE = 240, GMCP = 201;

async function writeQuietly(c: TelnetClient, bytes: Uint8Array): Promise<void> {
  try {
    for (let i = 0; i < bytes.length; i += 64 * 1024) await c.write(bytes.subarray(i, i + 65536));
  } catch { /* the sidecar may close an abusive client: that is allowed */ }
}

Deno.test("telnet abuse: garbage never crashes or stalls the sidecar", async (t) => {
  // The 1 MB steps are about dropping what is too long, not about the input budget (the test
  // below): read at a megabyte a second, they are over in about a second.
  const srv = await startSupervised({
    env: { URSAMU_SERVER_TELNETINPUTBYTESPERSECOND: "1048576" },
  });
  const open: TelnetClient[] = [];
  try {
    await register(srv.base, "Alice", "alice-password");
    await register(srv.base, "Slow", "slow-password");
    const alice = await telnetLogin(srv, "Alice", "alice-password");
    open.push(alice);
    let n = 0;
    /** Alice still gets an answer to `say`. */
    const aliceOk = async () => {
      const word = `ping${++n}`;
      const from = alice.mark();
      await alice.send(`say ${word}`);
      await alice.waitFor(new RegExp(`You say, "${word}"`), 10_000, from);
    };

    await t.step("random bytes (with unterminated IAC sequences)", async () => {
      const rand = prng(1234);
      const special = [IAC, IAC, SB, SE, 251, 252, 253, 254, 13, 10, 0, 8, 127];
      const garbage = new Uint8Array(256 * 1024);
      for (let i = 0; i < garbage.length; i++) {
        garbage[i] = rand() < 0.3
          ? special[Math.floor(rand() * special.length)]
          : Math.floor(rand() * 256);
      }
      const clients = await Promise.all([1, 2, 3].map(() => TelnetClient.connect(srv.telnet)));
      open.push(...clients);
      await Promise.all(clients.map((c, i) => writeQuietly(c, garbage.subarray(i * 1000))));
      // And end on a lone IAC SB: a subnegotiation that never ends.
      await Promise.all(clients.map((c) => writeQuietly(c, Uint8Array.of(IAC, SB, GMCP, 65))));
      await aliceOk();
    });

    await t.step("a 1 MB subnegotiation is dropped; the client goes on", async () => {
      const c = await TelnetClient.connect(srv.telnet);
      open.push(c);
      await c.waitFor(/connect <name>/);
      const big = new Uint8Array(1024 * 1024 + 5);
      big.fill(65);
      big.set([IAC, SB, GMCP], 0);
      big.set([IAC, SE], big.length - 2);
      await writeQuietly(c, big);
      await aliceOk();
      const from = c.mark();
      await c.send("hello");
      await c.waitFor(/Please log in/, 10_000, from);
    });

    await t.step("a 1 MB line is refused whole; the client goes on", async () => {
      const c = await TelnetClient.connect(srv.telnet);
      open.push(c);
      await c.waitFor(/connect <name>/);
      const line = new Uint8Array(1024 * 1024).fill(120);
      await writeQuietly(c, line);
      await aliceOk();
      await c.write(new TextEncoder().encode("\r\n"));
      await c.waitFor(/too long and was ignored/);
      const from = c.mark();
      await c.send("hello");
      await c.waitFor(/Please log in/, 10_000, from);
    });

    await t.step("a client that never reads does not stall others", async () => {
      const slow = await TelnetClient.connect(srv.telnet, { noRead: true });
      open.push(slow);
      await slow.send("connect Slow slow-password");
      const spam = new TextEncoder().encode("look\r\n".repeat(2000));
      await writeQuietly(slow, spam);
      for (let i = 0; i < 3; i++) await aliceOk();
    });

    await t.step("the sidecar and engine are still the same processes", () => {
      const out = srv.output();
      assert(!/telnet sidecar exited/.test(out), "sidecar never crashed");
      assert((out.match(/engine started/g) ?? []).length === 1, "engine never restarted");
    });
  } finally {
    for (const c of open) await c.close();
    await srv.stop();
  }
});

Deno.test("telnet abuse: a connection streaming telnet commands is read only at its input budget; others play on", async () => {
  // An unterminated subnegotiation streamed at wire speed: before the input budget the engine
  // parsed over 200 MB a second of it and everyone else's lines waited seconds. Now the socket
  // is read at `server.telnetInputBytesPerSecond` (64 KiB a second after a burst), so what the
  // flooder can push is about that plus what the kernel's socket buffers hold.
  const srv = await startSupervised();
  const open: TelnetClient[] = [];
  try {
    await register(srv.base, "Alice", "alice-password");
    await register(srv.base, "Mal", "mal-password");
    const alice = await telnetLogin(srv, "Alice", "alice-password");
    const mal = await telnetLogin(srv, "Mal", "mal-password");
    open.push(alice, mal);
    // One subnegotiation opened, then never closed: nothing in it is an error to count.
    await mal.write(Uint8Array.of(IAC, SB, GMCP));
    const chunk = new Uint8Array(64 * 1024).fill(65);
    let sent = 0;
    let flooding = true;
    const flood = (async () => {
      try {
        while (flooding) {
          await mal.write(chunk);
          sent += chunk.length;
        }
      } catch { /* closed below while a write waited */ }
    })();
    const started = Date.now();
    for (let n = 0; n < 3; n++) {
      const from = alice.mark();
      await alice.send(`say still here ${n}`);
      await alice.waitFor(new RegExp(`You say, "still here ${n}"`), 30_000, from);
    }
    while (Date.now() - started < 3_000) await new Promise((r) => setTimeout(r, 100));
    flooding = false;
    const pushed = sent;
    assert(!mal.closed, "the flooder is slowed, not closed");
    await mal.close();
    await flood;
    assert(pushed < 32 * 1024 * 1024, `the flooder pushed ${pushed} bytes in ~3 s`);
    assert((srv.output().match(/engine started/g) ?? []).length === 1, "engine never restarted");
  } finally {
    for (const c of open) await c.close();
    await srv.stop();
  }
});

Deno.test("telnet abuse: many connections from one address share its input budget", async () => {
  // Forty-five connections from one address had forty-five budgets. Here each connection sends
  // 100 KB, inside its own budget (256 KiB at once), and then a line; the address's budget is
  // lowered to 128 KiB a second after a 512 KiB burst, so the address's later connections are
  // not read again until the bytes of all the earlier ones are earned back. Each connection reads
  // its own share of the address's budget (8 KiB a second after 32 KiB) whatever the others sent.
  const perIp = 128 * 1024;
  const srv = await startSupervised({
    env: { URSAMU_SERVER_TELNETINPUTBYTESPERSECONDPERIP: String(perIp) },
  });
  const open: TelnetClient[] = [];
  const extra: TelnetClient[] = [];
  try {
    const n = 20;
    for (let i = 0; i < n; i++) {
      const c = await TelnetClient.connect(srv.telnet);
      open.push(c);
      await c.waitFor(/connect <name> <password>/, 30_000);
    }
    // A player of the same address who only types (a school, a household behind one NAT).
    const typist = await TelnetClient.connect(srv.telnet);
    extra.push(typist);
    await typist.waitFor(/connect <name> <password>/, 30_000);
    const marks = open.map((c) => c.mark());
    const size = 100_000;
    const junk = new Uint8Array(size).fill(65);
    junk.set([IAC, SB, GMCP]);
    junk.set([IAC, SE], size - 2);
    const started = Date.now();
    for (const c of open) await c.write(junk);
    // Apart from the junk, so that it is a read of its own, which waits for the budget.
    await new Promise((r) => setTimeout(r, 200));
    for (const c of open) await c.send("hello");
    const took: number[] = [];
    // The typist's second line: a read is handled before the budget holds the socket, so the
    // first line is answered whatever the budget; the next waited for the address's debt.
    const typing = (async () => {
      for (let i = 0; i < 2; i++) {
        const at = typist.mark();
        await typist.send("hello");
        await typist.waitFor(/Please log in/, 60_000, at);
        if (i === 1) return Date.now() - started;
        await new Promise((r) => setTimeout(r, 100));
      }
      return Infinity;
    })();
    await Promise.all(open.map(async (c, i) => {
      await c.waitFor(/Please log in/, 60_000, marks[i]);
      took.push(Date.now() - started);
    }));
    const typistTook = await typing;
    // At once the address reads its burst and each connection its share's; the rest comes at
    // most at the address's rate and a share's rate for each connection.
    const share = SHARE_BYTES_PER_SECOND;
    const least = (n * size - 4 * perIp - n * 4 * share) / (perIp + n * share) * 1000;
    assert(Math.max(...took) >= least * 0.8, `all were read within ${Math.max(...took)} ms`);
    // Within its share, the typist's next line is read at once, not when the debt is paid: it is
    // answered well before the flood's last line, which waits for the debt (before 85414fd both
    // came together). Measured against the flood on the same machine, not against a clock, so load
    // slows both sides alike.
    const last = Math.max(...took);
    assert(
      typistTook < last / 2,
      `the typist's second line was answered at ${typistTook} ms, the flood's last at ${last} ms`,
    );
    assert((srv.output().match(/engine started/g) ?? []).length === 1, "engine never restarted");
  } finally {
    for (const c of [...open, ...extra]) await c.close();
    await srv.stop();
  }
});
