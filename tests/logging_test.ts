/**
 * Logs of a full run (issue 16, item 5): the supervisor writes one file for itself, the engine and
 * the sidecar, one line per event with time, level and subsystem, rotated by size; the security log
 * stays its own file; and no secret (passwords, tokens, the JWT and sidecar secrets, a reset token)
 * appears in any log or on the console after logins and password changes over every channel.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { api, startServer } from "./harness.ts";
import { ADMIN, startSupervised, telnetLogin } from "./supervised.ts";
import { TelnetClient } from "./telnet_client.ts";
import { WsClient } from "./ws_client.ts";

const LINE =
  /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z (DEBUG|INFO |WARN |ERROR) (\[[\w -]+\]|[a-z][\w -]*:) /i;

/** The environment of a running process (Linux), or {} where /proc is not there. */
async function environOf(pid: number): Promise<Record<string, string>> {
  try {
    const raw = await Deno.readTextFile(`/proc/${pid}/environ`);
    return Object.fromEntries(
      raw.split("\0").filter(Boolean).map((kv) => {
        const i = kv.indexOf("=");
        return [kv.slice(0, i), kv.slice(i + 1)];
      }),
    );
  } catch {
    return {};
  }
}

Deno.test("logging: a full run logs every event as one line and never a secret", async () => {
  const bobPassword = "bob-first-password-9";
  const bobNew = "bob-second-password-8";
  const bobReset = "bob-reset-password-7";
  const wrong = "not-the-password-6";
  const srv = await startSupervised({
    // No JWT_SECRET: the supervisor makes one, which must stay out of the logs too.
    env: { JWT_SECRET: "" },
    config: { logging: { maxSize: 1200, maxFiles: 3, level: "debug" } },
  });
  const secrets: Record<string, string> = {
    "superuser password": ADMIN.password,
    "first password": bobPassword,
    "changed password": bobNew,
    "reset password": bobReset,
    "wrong password": wrong,
  };
  try {
    const enginePid = Number(srv.output().match(/engine started \(pid (\d+)\)/)?.[1]);
    const childEnv = await environOf(enginePid);
    if (childEnv["JWT_SECRET"]) secrets["generated JWT secret"] = childEnv["JWT_SECRET"];
    if (childEnv["URSAMU_SIDECAR_SECRET"]) {
      secrets["sidecar secret"] = childEnv["URSAMU_SIDECAR_SECRET"];
    }
    // REST: register, a failed and a good login, a call with the token.
    const reg = await api(srv.base, "POST", "/api/v1/auth/register", {
      name: "Bob",
      password: bobPassword,
    });
    assertEquals(reg.status, 200);
    secrets["access token"] = reg.body.token;
    assertEquals(
      (await api(srv.base, "POST", "/api/v1/auth/login", { name: "Bob", password: wrong })).status,
      401,
    );
    const me = await api(srv.base, "GET", "/api/v1/me", undefined, reg.body.token);
    assertEquals(me.status, 200);
    // Telnet: a failed login, the superuser's login, a password change, a reset token.
    const bad = await TelnetClient.connect(srv.telnet);
    await bad.waitFor(/connect <name>/);
    await bad.send(`connect Bob ${wrong}`);
    await bad.waitFor(/Either that player does not exist|password|incorrect/i);
    await bad.close();
    const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
    await admin.send(`@newpassword Bob=${bobNew}`);
    await admin.waitFor(/Bob/, 10_000, admin.mark());
    const from = admin.mark();
    await admin.send("@resettoken Bob");
    const m = await admin.waitFor(/Reset token for Bob[^:]*: ([0-9a-f-]{36})/, 10_000, from);
    secrets["reset token"] = m[1];
    const reset = await api(srv.base, "POST", "/api/v1/auth/reset-password", {
      token: m[1],
      newPassword: bobReset,
    });
    assertEquals(reset.status, 200);
    // WebSocket: a login by command and one by token.
    const ws = await WsClient.connect(srv);
    ws.send(`connect Bob ${bobReset}`);
    await ws.expect(/Limbo/);
    await ws.close();
    const byToken = await WsClient.connect(srv, { token: reg.body.token });
    await byToken.close();
    await admin.close();
  } finally {
    await srv.stop({ keepDir: true });
  }
  try {
    const logs = join(srv.dir, "logs");
    const files = [...Deno.readDirSync(logs)].map((e) => e.name).sort();
    assert(files.includes("ursamu.log") && files.includes("security.log"), files.join(", "));
    assert(files.includes("ursamu.log.1"), `rotated at 1200 bytes: ${files.join(", ")}`);
    assert(!files.includes("ursamu.log.4"), `at most 3 old files: ${files.join(", ")}`);
    const texts: Record<string, string> = { console: srv.output() };
    for (const f of files) texts[f] = await Deno.readTextFile(join(logs, f));
    // Every line of the game log has the format; each process writes into it.
    const game = files.filter((f) => f.startsWith("ursamu.log")).map((f) => texts[f]).join("");
    for (const line of game.split("\n").filter(Boolean)) assertMatch(line, LINE);
    assertMatch(game, / INFO {2}\[supervisor\] engine started/);
    assertMatch(game, / INFO {2}engine: HTTP listening/);
    assertMatch(game, / INFO {2}telnet: listening on/);
    assertMatch(texts["security.log"], /LOGIN_FAILED/);
    assert(!/LOGIN_FAILED/.test(game), "security events stay in their own file");
    for (const [what, value] of Object.entries(secrets)) {
      assert(value && value.length >= 8, `${what} is known to the test`);
      for (const [file, text] of Object.entries(texts)) {
        assert(!text.includes(value), `the ${what} appears in ${file}`);
      }
    }
    assert(secrets["sidecar secret"] || Deno.build.os !== "linux", "read the children's secrets");
  } finally {
    await Deno.remove(srv.dir, { recursive: true });
  }
});

Deno.test("logging: a security log rotation that fails loses no line and no older file", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ursamu-test-" });
  // security.log.1 is taken by a directory with a file in it: no rename can land there.
  const logs = join(dir, "logs");
  await Deno.mkdir(join(logs, "security.log.1"), { recursive: true });
  await Deno.writeTextFile(join(logs, "security.log.1", "keep"), "an operator's file");
  const srv = await startServer({
    dir,
    config: { logging: { securityMaxSize: 400, securityMaxFiles: 1 } },
  });
  const fail = (i: number) =>
    api(srv.base, "POST", "/api/v1/auth/login", { name: `Nobody${i}`, password: "wrong-password" });
  const targets = async () =>
    (await Deno.readTextFile(join(logs, "security.log"))).trim().split("\n")
      .map((l) => JSON.parse(l)).filter((l) => l.event === "LOGIN_FAILED").map((l) => l.target);
  try {
    // Five failures (under the address's ten a minute), each line past the 400 bytes after two.
    for (let i = 0; i < 5; i++) assertEquals((await fail(i)).status, 401);
    await waitFor(async () => (await targets()).length === 5, "five lines");
    assertEquals(await targets(), [0, 1, 2, 3, 4].map((i) => `Nobody${i}`));
    assertEquals(
      await Deno.readTextFile(join(logs, "security.log.1", "keep")),
      "an operator's file",
    );
    // Once the name is free, a line after the retry wait (1 s, doubled at each failed try:
    // src/logging/rotation_retry.ts) rotates: the old lines move to .1, none lost.
    await Deno.remove(join(logs, "security.log.1"), { recursive: true });
    let i = 5;
    for (let wait = 1_100; i < 9; i++, wait *= 2) {
      await new Promise((r) => setTimeout(r, wait));
      assertEquals((await fail(i)).status, 401);
      await waitFor(async () => (await targets()).at(-1) === `Nobody${i}`, `line ${i}`);
      if ((await targets()).length === 1) break;
    }
    assertEquals(await targets(), [`Nobody${i}`], "rotated");
    const old = (await Deno.readTextFile(join(logs, "security.log.1"))).trim().split("\n")
      .map((l) => JSON.parse(l)).filter((l) => l.event === "LOGIN_FAILED").map((l) => l.target);
    assertEquals(old, [...Array(i).keys()].map((n) => `Nobody${n}`));
  } finally {
    await srv.stop();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});

/** Polls `ok` for up to 10 s (a security line is written just after the answer). */
async function waitFor(ok: () => Promise<boolean>, what: string): Promise<void> {
  const end = Date.now() + 10_000;
  while (!(await ok().catch(() => false))) {
    if (Date.now() > end) throw new Error(`${what}: never happened`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
