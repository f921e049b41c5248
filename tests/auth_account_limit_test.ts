/**
 * The per-account failed-login limit (`game.accountLoginFailures`) over REST, WebSocket and
 * telnet: failures from many addresses (named by a trusted proxy's `X-Forwarded-For`) lock the
 * account against every address it has not logged in from, while its own last address still
 * gets in, and the refusal is in the security log.
 */
import assert from "node:assert/strict";
import { api, register, type TestServer } from "./harness.ts";
import { ADMIN, startSupervised, telnetLogin, telnetReply } from "./supervised.ts";
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

/**
 * Runs `fn` on a server that believes the proxy on localhost and holds a character after failed
 * logins from 3 addresses in 10 minutes; stopped afterwards whatever happens.
 */
async function withLimits(fn: (srv: TestServer) => Promise<void>): Promise<void> {
  const srv = await startSupervised({
    config: {
      server: { trustedProxies: ["127.0.0.1"] },
      game: { accountLoginFailures: 3, accountLoginWindow: 600 },
    },
  });
  try {
    await fn(srv);
  } finally {
    await srv.stop();
  }
}

/** One wrong password for Alice from each of three addresses: under every address's own ten. */
async function failFromThree(base: string): Promise<void> {
  for (const ip of ["192.0.2.1", "192.0.2.2", "192.0.2.3"]) {
    assert.equal((await loginFrom(base, ip, "wrong-password")).status, 401);
  }
}

/** The security log's entries with `event`. */
async function logged(srv: TestServer, event: string): Promise<Record<string, string>[]> {
  return (await Deno.readTextFile(`${srv.dir}/logs/security.log`)).trim().split("\n")
    .map((l) => JSON.parse(l)).filter((l) => l.event === event);
}

Deno.test("login: failures from many addresses lock one account, not its own address", async () => {
  await withLimits(async (srv) => {
    await register(srv.base, "Alice");
    assert.equal((await loginFrom(srv.base, "198.51.100.7", "password123")).status, 200);
    await failFromThree(srv.base);
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

    const limited = await logged(srv, "LOGIN_ACCOUNT_LIMITED");
    assert.equal(limited.length, 1, "one line, the later refusals counted in it");
    assert.equal(limited[0].ip, "192.0.2.4");
    assert.match(limited[0].target, /^\d+$/);
  });
});

Deno.test("login: both failure limits count an IPv6 address by its /64", async () => {
  await withLimits(async (srv) => {
    await register(srv.base, "Alice");
    // Five addresses of one /64 are one address to the per-account limit: Alice is not held.
    for (let i = 1; i <= 5; i++) {
      assert.equal((await loginFrom(srv.base, `2001:db8:1:2::${i}`, "wrong-password")).status, 401);
    }
    assert.equal((await loginFrom(srv.base, "192.0.2.50", "password123")).status, 200);
    // ... and to the per-address limit: ten failures a minute from the /64, then refused.
    for (let i = 6; i <= 10; i++) {
      assert.equal(
        (await loginFrom(srv.base, `2001:db8:1:2:${i}::1`, "wrong-password")).status,
        401,
      );
    }
    const next = await loginFrom(srv.base, "2001:db8:1:2:ffff::9", "password123");
    assert.equal(next.status, 429);
    assert.deepEqual(next.body, { error: "Too many failed logins. Try again in a minute." });
    // The neighbouring /64 is another subscriber.
    assert.equal((await loginFrom(srv.base, "2001:db8:1:3::1", "password123")).status, 200);
  });
});

Deno.test("login: a wizard sees and releases what the limits hold; a reset lets the player in", async () => {
  await withLimits(async (srv) => {
    /** Three addresses fail; the right password from `probe` (not one Alice used) is refused. */
    const hold = async (probe: string, password: string) => {
      await failFromThree(srv.base);
      assert.equal((await loginFrom(srv.base, probe, password)).status, 429);
    };
    const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
    try {
      const aliceToken = await register(srv.base, "Alice");
      const alice = (await api(srv.base, "GET", "/api/v1/me", undefined, aliceToken)).body.id;
      await register(srv.base, "Bobby");
      await hold("192.0.2.4", "password123");
      for (let i = 0; i < 10; i++) {
        await loginFrom(srv.base, `2001:db8:9:9::${i + 1}`, "wrong-password");
      }
      const listed = await telnetReply(admin, "@loginlimits");
      assert.match(
        listed,
        new RegExp(
          `Alice\\(#${alice}\\): 3 addresses \\(192\\.0\\.2\\.1, 192\\.0\\.2\\.2, 192\\.0\\.2\\.3\\) until \\d\\d:\\d\\d:\\d\\d UTC`,
        ),
      );
      assert.match(listed, /2001:db8:9:9::\/64 until/);

      // An admin (not a wizard) is refused the command; nothing is released.
      assert.match(await telnetReply(admin, "@set *Bobby=admin"), /Set\./);
      const bob = await TelnetClient.connect(srv.telnet);
      try {
        await bob.waitFor(/connect <name>/);
        await bob.send("connect Bobby password123");
        await bob.waitFor(/Limbo/);
        assert.match(await telnetReply(bob, "@loginlimits/release Alice"), /^Permission denied\.$/);
      } finally {
        await bob.close();
      }
      assert.equal((await loginFrom(srv.base, "192.0.2.4", "password123")).status, 429);

      assert.match(
        await telnetReply(admin, "@loginlimits/release Alice"),
        new RegExp(`^Released Alice\\(#${alice}\\): its failed logins are forgotten\\.$`),
      );
      assert.equal((await loginFrom(srv.base, "192.0.2.4", "password123")).status, 200);
      assert.match(
        await telnetReply(admin, "@loginlimits/release Alice"),
        /No failed logins are counted against/,
      );
      assert.match(
        await telnetReply(admin, "@loginlimits/release 2001:db8:9:9::/64"),
        /^Released 2001:db8:9:9::\/64/,
      );
      assert.equal((await loginFrom(srv.base, "2001:db8:9:9::77", "password123")).status, 200);

      // Held again; a reset (a token from staff) lets Alice in from anywhere with the new password.
      await hold("192.0.2.6", "password123");
      const token = /single use\): (\S+)/.exec(await telnetReply(admin, "@resettoken Alice"))![1];
      const reset = await api(srv.base, "POST", "/api/v1/auth/reset-password", {
        token,
        newPassword: "another-password",
      });
      assert.equal(reset.status, 200);
      assert.equal((await loginFrom(srv.base, "192.0.2.5", "another-password")).status, 200);

      const log = await logged(srv, "ADMIN_LOGIN_RELEASE");
      assert.deepEqual(log.map((l) => [l.target, l.detail ?? null]), [
        [alice, null],
        [null, "2001:db8:9:9::/64"],
      ]);
    } finally {
      await admin.close();
    }
  });
});
