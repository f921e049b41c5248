/**
 * The per-account failed-login limit (`game.accountLoginFailures`) over REST, WebSocket and
 * telnet: failures from many addresses (named by a trusted proxy's `X-Forwarded-For`) lock the
 * account against every address it has not logged in from, while its own last address still
 * gets in, and the refusal is in the security log.
 */
import assert from "node:assert/strict";
import { api, register } from "./harness.ts";
import { startSupervised } from "./supervised.ts";
import { connectWs } from "./ws_client.ts";
import { TelnetClient } from "./telnet_client.ts";

/** REST login as if from `ip` (through the trusted proxy that the test server believes). */
async function loginFrom(base: string, ip: string, password: string) {
  const r = await fetch(`${base}/api/v1/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": ip },
    body: JSON.stringify({ name: "Alice", password }),
  });
  return { status: r.status, body: await r.json() };
}

Deno.test("login: failures from many addresses lock one account, not its own address", async () => {
  const srv = await startSupervised({
    config: {
      server: { trustedProxies: ["127.0.0.1"] },
      game: { accountLoginFailures: 3, accountLoginWindow: 600 },
    },
  });
  try {
    await register(srv.base, "Alice");
    assert.equal((await loginFrom(srv.base, "198.51.100.7", "password123")).status, 200);
    // Three addresses, one wrong password each: under every address's own limit of ten.
    for (const ip of ["192.0.2.1", "192.0.2.2", "192.0.2.3"]) {
      assert.equal((await loginFrom(srv.base, ip, "wrong-password")).status, 401);
    }
    // The right password from a fourth address is refused without being tried.
    const rest = await loginFrom(srv.base, "192.0.2.4", "password123");
    assert.equal(rest.status, 429);
    assert.deepEqual(rest.body, {
      error: "Too many failed logins for that character. Try again later.",
    });
    const ws = await connectWs(srv, { headers: { "x-forwarded-for": "192.0.2.5" } });
    try {
      await ws.expect(/connect/);
      ws.send("connect Alice password123");
      await ws.expect(/Too many failed logins for that character\. Try again later\./);
    } finally {
      await ws.close();
    }
    const telnet = await TelnetClient.connect(srv.telnet);
    try {
      await telnet.waitFor(/connect <name>/);
      await telnet.send("connect Alice password123");
      await telnet.waitFor(/Too many failed logins for that character\. Try again later\./);
    } finally {
      await telnet.close();
    }
    // Another account is not held, and Alice's own last address still gets in.
    await register(srv.base, "Bobby");
    const bob = await api(srv.base, "POST", "/api/v1/auth/login", {
      name: "Bobby",
      password: "password123",
    });
    assert.equal(bob.status, 200);
    assert.equal((await loginFrom(srv.base, "198.51.100.7", "password123")).status, 200);

    const log = (await Deno.readTextFile(`${srv.dir}/logs/security.log`)).trim().split("\n")
      .map((l) => JSON.parse(l));
    const limited = log.filter((l) => l.event === "LOGIN_ACCOUNT_LIMITED");
    assert.equal(limited.length, 1, "one line, the later refusals counted in it");
    assert.equal(limited[0].ip, "192.0.2.4");
    assert.match(limited[0].target, /^\d+$/);
  } finally {
    await srv.stop();
  }
});
