/**
 * Start-up that explains itself (issue 16, item 9): an unreadable database, a missing certificate,
 * a bad configuration value and a taken port each give one line naming the key and the fix, never
 * a stack trace; the engine exits 78 (cannot run as configured) and so does the supervisor.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { cleanEnv, freePort, ROOT, startServer } from "./harness.ts";

/** Runs an entry to its end with a fresh game directory; returns its code and output. */
async function runToEnd(
  entry: string,
  env: Record<string, string>,
  setup?: (dir: string) => Promise<void>,
): Promise<{ code: number; out: string }> {
  const dir = await Deno.makeTempDir({ prefix: "ursamu-startup-" });
  try {
    await setup?.(dir);
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--unstable-kv", "-A", join(ROOT, entry)],
      cwd: dir,
      env: {
        ...cleanEnv(),
        URSAMU_SERVER_HOST: "127.0.0.1",
        URSAMU_SERVER_HTTP: String(freePort()),
        URSAMU_SERVER_WS: String(freePort()),
        URSAMU_SERVER_TELNET: String(freePort()),
        URSAMU_SUPERUSER_NAME: "Admin",
        URSAMU_SUPERUSER_PASSWORD: "admin-password-1",
        JWT_SECRET: "startup-test-secret",
        NO_COLOR: "1",
        ...env,
      },
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const dec = new TextDecoder();
    return { code: out.code, out: dec.decode(out.stdout) + dec.decode(out.stderr) };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** No line of a stack trace, no "Uncaught". */
function assertNoStack(out: string): void {
  assert(!/^\s+at /m.test(out) && !/Uncaught/.test(out), `a stack trace was printed:\n${out}`);
}

const notADatabase = async (dir: string) => {
  await Deno.mkdir(join(dir, "data"));
  await Deno.writeTextFile(join(dir, "data", "ursamu.db"), "this is not a database\n".repeat(200));
};

Deno.test("start-up: a database that is not one stops the engine with one line naming server.db", async () => {
  const { code, out } = await runToEnd("main.ts", {}, notADatabase);
  assertEquals(code, 78, out);
  assertNoStack(out);
  const lines = out.split("\n").filter((l) => /server\.db/.test(l));
  assertEquals(lines.length, 1, out);
  assertMatch(
    lines[0],
    /^\S+Z ERROR engine: the database .*ursamu\.db cannot be opened: .*\(server\.db\); /,
  );
  assertMatch(lines[0], /URSAMU_SERVER_DB/);
});

Deno.test("start-up: a database path that is a directory is explained, under the supervisor too", async () => {
  const { code, out } = await runToEnd("src/supervisor/main.ts", {
    URSAMU_SERVER_DB: "data/world",
  }, (dir) => Deno.mkdir(join(dir, "data", "world"), { recursive: true }));
  assertEquals(code, 78, out);
  assertNoStack(out);
  assertMatch(out, /\[supervisor\] the database .*world cannot be opened: .*\(server\.db\); point/);
  assert(!/engine started/.test(out), "nothing is started");
});

Deno.test("start-up: a missing certificate names server.ssl.cert; the supervisor stops with 78", async () => {
  const { code, out } = await runToEnd("src/supervisor/main.ts", {
    URSAMU_SERVER_SSL_ENABLED: "true",
    URSAMU_SERVER_SSL_KEY: "tls/key.pem",
    URSAMU_SERVER_SSL_CERT: "tls/missing.pem",
  }, async (dir) => {
    await Deno.mkdir(join(dir, "tls"));
    await Deno.writeTextFile(
      join(dir, "tls", "key.pem"),
      "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n",
    );
  });
  assertEquals(code, 78, out);
  assertNoStack(out);
  assertMatch(
    out,
    /(engine|telnet): the certificate .*missing\.pem cannot be read: .*\(server\.ssl\.cert\); set server\.ssl\.cert .*URSAMU_SERVER_SSL_CERT/,
  );
  // Whichever of the engine and the sidecar reads the files first stops the start.
  assertMatch(
    out,
    /(engine|telnet sidecar) cannot start as configured \(exit 78; its reason is above\)/,
  );
  assertMatch(out, /exiting with code 78/);
});

Deno.test("start-up: ssl enabled without a key says which key to set", async () => {
  const { code, out } = await runToEnd("main.ts", { URSAMU_SERVER_SSL_ENABLED: "true" });
  assertEquals(code, 78, out);
  assertNoStack(out);
  assertMatch(out, /server\.ssl\.enabled is true but no private key is given \(server\.ssl\.key\)/);
});

Deno.test("start-up: a bad configuration value is one warning naming the key, its source and the fix", async () => {
  const srv = await startServer({
    config: { server: { maxConnectionsPerIp: -3 } },
    env: { URSAMU_GAME_IDLETIMEOUT: "soon" },
  });
  try {
    await srv.waitFor(/HTTP listening/);
    const out = srv.output();
    assertMatch(
      out,
      /config: invalid config file for 'server\.maxConnectionsPerIp' \(expected a whole number of 0 or more\); using default 50\. Fix or remove it in .*config\.json\./,
    );
    assertMatch(
      out,
      /config: invalid environment for 'game\.idleTimeout' \(expected a finite number\); using default 3600\. Fix or unset URSAMU_GAME_IDLETIMEOUT\./,
    );
    assertNoStack(out);
  } finally {
    await srv.stop();
  }
});
