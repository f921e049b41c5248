/**
 * Ending sessions (issue 31, item 3), from outside: after `@newpassword`, a reset, `@boot` or
 * `@toad` no token the player held works (REST 401; the hub refuses it at open, in an `auth`
 * frame and as a resume), a token the hub renewed from an old one dies with it, and every open
 * connection of the player closes: WebSocket, telnet the engine holds and telnet through the
 * sidecar. A player's own change keeps the session it was typed on, which resumes after `@reboot`;
 * a session whose password changed while the engine could not see it is refused at its resume.
 */
import { assert, assertEquals } from "./assert.ts";
import { api, register, type TestServer } from "./harness.ts";
import { ADMIN, startSupervised, telnetLogin } from "./supervised.ts";
import { connectWs, type WsClient } from "./ws_client.ts";
import type { TelnetClient } from "./telnet_client.ts";
import { runCli } from "./cli_run.ts";

const EXPIRED = /^Invalid or expired token\.$/;

/** A web client logged in with `token`; resolves with it and the token its session frame gave. */
async function webSession(srv: TestServer, token: string) {
  const ws = await connectWs(srv, { client: "web", token });
  const session = await ws.expect((m) => m.data.type === "session", 15_000);
  return { ws, renewed: session.data.token as string };
}

/** Asserts that no way of using `token` works any more. */
async function refused(srv: TestServer, token: string): Promise<void> {
  assertEquals((await api(srv.base, "GET", "/api/v1/me", undefined, token)).status, 401);
  const queries: Record<string, string>[] = [{}, { resume: "1" }];
  for (const query of queries) {
    const ws = await connectWs(srv, { client: "web", token, query });
    try {
      await ws.expect(EXPIRED, 15_000);
      assert(!(await ws.sees((m) => m.data.type === "session", 300)), "no session, no new token");
    } finally {
      await ws.close();
    }
  }
  const ws = await connectWs(srv, { client: "web" });
  try {
    await ws.expect((m) => m.data.type === "connect", 15_000);
    ws.sendJson({ type: "auth", token });
    await ws.expect(EXPIRED, 15_000);
  } finally {
    await ws.close();
  }
}

/** A `client=web` staff connection that runs lines and waits for their answer. */
async function staff(srv: TestServer): Promise<WsClient> {
  const ws = await connectWs(srv, { client: "web" });
  await ws.expect((m) => m.data.type === "connect", 15_000);
  ws.send(`connect ${ADMIN.name} ${ADMIN.password}`);
  await ws.expect((m) => m.data.type === "session", 15_000);
  return ws;
}

/** Waits until a telnet client is closed by the server, having been told `why`. */
async function closedWith(t: TelnetClient, why: RegExp): Promise<void> {
  await t.waitFor(why, 15_000);
  await t.until(() => t.closed, "the server to close the telnet connection", 15_000);
}

Deno.test("revoke: a password change, a reset, @boot and @toad end every session of the player", async (t) => {
  const srv = await startSupervised();
  const open: { close(): Promise<void> }[] = [];
  try {
    const admin = await staff(srv);
    open.push(admin);

    await t.step("@newpassword: tokens, renewed tokens and connections of every kind", async () => {
      const restToken = await register(srv.base, "Sam", "password123");
      const web = await webSession(srv, restToken);
      open.push(web.ws);
      const telnet = await telnetLogin(srv, "Sam", "password123");
      open.push(telnet);
      assertEquals((await api(srv.base, "GET", "/api/v1/me", undefined, web.renewed)).status, 200);
      admin.send("@newpassword Sam=brand-new-pass");
      await admin.expect(/^Password for Sam changed\.$/, 15_000);
      await web.ws.expect(/Your password has been changed by Admin\./, 15_000);
      await web.ws.closed;
      await closedWith(telnet, /Your password has been changed by Admin\./);
      await refused(srv, restToken);
      await refused(srv, web.renewed);
      // The new password gives a working token.
      const login = await api(srv.base, "POST", "/api/v1/auth/login", {
        name: "Sam",
        password: "brand-new-pass",
      });
      assertEquals(
        (await api(srv.base, "GET", "/api/v1/me", undefined, login.body.token)).status,
        200,
      );
    });

    await t.step("reset-password: the reset ends the sessions opened before it", async () => {
      const token = await register(srv.base, "Rita", "password123");
      const web = await webSession(srv, token);
      open.push(web.ws);
      admin.send("@resettoken Rita");
      const reset = (await admin.expect((m) => m.data.type === "resettoken", 15_000)).data.token;
      const r = await api(srv.base, "POST", "/api/v1/auth/reset-password", {
        token: reset,
        newPassword: "reset-password-1",
      });
      assertEquals(r.status, 200);
      await web.ws.expect(/Your password was reset/, 15_000);
      await web.ws.closed;
      await refused(srv, token);
      await refused(srv, web.renewed);
    });

    await t.step("@boot: the booted player's tokens end with the connections", async () => {
      const token = await register(srv.base, "Bo", "password123");
      const web = await webSession(srv, token);
      open.push(web.ws);
      const telnet = await telnetLogin(srv, "Bo", "password123");
      open.push(telnet);
      admin.send("@boot Bo");
      await admin.expect(/^You booted Bo\.$/, 15_000);
      await web.ws.closed;
      await closedWith(telnet, /You have been booted by Admin\./);
      await refused(srv, token);
      await refused(srv, web.renewed);
      // The password still works: a boot is not a lock-out.
      const again = await webSession(srv, await loginToken(srv, "Bo", "password123"));
      open.push(again.ws);
    });

    await t.step("@toad: the toad's tokens end and its connections close", async () => {
      const token = await register(srv.base, "Toady", "password123");
      const web = await webSession(srv, token);
      open.push(web.ws);
      admin.send("@toad Toady");
      await admin.expect(/^You turned Toady into a toad\.$/, 15_000);
      await web.ws.closed;
      await refused(srv, token);
      await refused(srv, web.renewed);
    });

    await t.step("another player's sessions are untouched", async () => {
      const token = await register(srv.base, "Other", "password123");
      admin.send("@newpassword Sam=yet-another-pass");
      await admin.expect(/^Password for Sam changed\.$/, 15_000);
      assertEquals((await api(srv.base, "GET", "/api/v1/me", undefined, token)).status, 200);
    });
  } finally {
    for (const c of open) await c.close();
    await srv.stop();
  }
});

/** A REST login's token. */
async function loginToken(srv: TestServer, name: string, password: string): Promise<string> {
  const r = await api(srv.base, "POST", "/api/v1/auth/login", { name, password });
  assertEquals(r.status, 200);
  return r.body.token;
}

for (const handoff of [true, false]) {
  Deno.test(
    `revoke: an own password change keeps its session, which resumes after @reboot (telnet ${
      handoff ? "the engine holds" : "through the sidecar"
    })`,
    async () => {
      const srv = await startSupervised(handoff ? {} : { env: { URSAMU_TELNET_HANDOFF: "0" } });
      const open: { close(): Promise<void> }[] = [];
      try {
        const oldToken = await loginToken(srv, ADMIN.name, ADMIN.password);
        const elsewhere = await webSession(srv, oldToken);
        open.push(elsewhere.ws);
        const otherTelnet = await telnetLogin(srv, ADMIN.name, ADMIN.password);
        open.push(otherTelnet);
        const telnet = await telnetLogin(srv, ADMIN.name, ADMIN.password);
        open.push(telnet);
        await telnet.send("@newpassword me=admin-password-2");
        await telnet.waitFor(/Password for Admin changed\./, 15_000);
        await elsewhere.ws.expect(/Your password was changed from another session/, 15_000);
        await elsewhere.ws.closed;
        await closedWith(otherTelnet, /Your password was changed from another session/);
        await refused(srv, oldToken);
        await refused(srv, elsewhere.renewed);
        // The session it was typed on goes on, and resumes after a restart with its new token.
        const from = telnet.mark();
        await telnet.send("@reboot");
        await telnet.waitFor(/Your session continues/, 60_000, from);
        const marker = telnet.mark();
        await telnet.send("think still-here-after-reboot");
        await telnet.waitFor(/still-here-after-reboot/, 15_000, marker);
        assert(
          !/connect <name>/.test(telnet.plain.slice(from)),
          "no login screen after the resume",
        );
        assertEquals(
          (await api(srv.base, "POST", "/api/v1/auth/login", {
            name: ADMIN.name,
            password: "admin-password-2",
          })).status,
          200,
        );
      } finally {
        for (const c of open) await c.close();
        await srv.stop();
      }
    },
  );
}

Deno.test("revoke: a password set from the shell while the game runs ends the player's telnet session at the next restart: the sidecar's resume is refused, others resume", async () => {
  const srv = await startSupervised({ env: { URSAMU_TELNET_HANDOFF: "0" } });
  const open: { close(): Promise<void> }[] = [];
  try {
    await register(srv.base, "Sam", "password123");
    await register(srv.base, "Pat", "password123");
    const sam = await telnetLogin(srv, "Sam", "password123");
    open.push(sam);
    const pat = await telnetLogin(srv, "Pat", "password123");
    open.push(pat);
    const admin = await staff(srv);
    open.push(admin);
    const env = {
      URSAMU_SERVER_DB: srv.env.URSAMU_SERVER_DB,
      URSAMU_LOGGING_DIR: srv.env.URSAMU_LOGGING_DIR,
      URSAMU_CONFIG: srv.env.URSAMU_CONFIG,
    };
    const p = await runCli(["passwd", "Sam"], { dir: srv.dir, env, input: "from-the-shell-1\n" });
    assertEquals(p.code, 0, p.out + p.err);
    // The running engine checks tokens from memory: Sam's session goes on until it restarts.
    const before = sam.mark();
    await sam.send("think still-here");
    await sam.waitFor(/still-here/, 15_000, before);
    const samFrom = sam.mark(), patFrom = pat.mark();
    admin.send("@reboot");
    await pat.waitFor(/Your session continues/, 60_000, patFrom);
    await sam.waitFor(/Your session could not be resumed; please log in again\./, 60_000, samFrom);
    await sam.waitFor(/connect <name>/, 15_000, samFrom);
    // The same telnet connection logs in with the new password.
    await sam.send("connect Sam from-the-shell-1");
    await sam.waitFor(/Limbo/, 15_000, samFrom);
  } finally {
    for (const c of open) await c.close();
    await srv.stop();
  }
});
