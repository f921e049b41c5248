/**
 * The command line (issue 16, item 2), run as the operator runs it (`deno task cli` is
 * `deno run src/cli/main.ts` in the game directory): help, version, misuse (one line, exit 2),
 * check-config, setup, passwd against a running game, and start.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { api, cleanEnv, freePort, ROOT, startServer, waitHealthy } from "./harness.ts";
import { ENGINE_VERSION } from "../src/version.ts";
import { runCli } from "./cli_run.ts";

/** A game directory of its own (removed by the caller). */
async function gameDir(config?: unknown): Promise<{ dir: string; env: Record<string, string> }> {
  const dir = await Deno.makeTempDir({ prefix: "ursamu-cli-" });
  if (config !== undefined) {
    await Deno.mkdir(join(dir, "config"));
    await Deno.writeTextFile(join(dir, "config", "config.json"), JSON.stringify(config));
  }
  return { dir, env: { JWT_SECRET: "cli-test-secret-value" } };
}

Deno.test("cli: help, version and every misuse as one line with exit 2", async () => {
  const help = await runCli(["--help"]);
  assertEquals(help.code, 0);
  for (const cmd of ["start", "setup", "check-config", "version", "passwd <player>"]) {
    assertMatch(help.out, new RegExp(`^  ${cmd} `, "m"));
  }
  assertMatch(help.out, /^Usage: deno task cli <command>/);
  const version = await runCli(["version"]);
  assertEquals(version.code, 0);
  assertMatch(version.out, new RegExp(`^ursamu ${ENGINE_VERSION.replaceAll(".", "\\.")} `));
  const misuse: [string[], RegExp][] = [
    [["frob"], /unknown command 'frob'/],
    [["passwd"], /passwd: missing the player's name/],
    [["passwd", "a", "b"], /passwd: unexpected argument 'b'/],
    [["version", "--verbose"], /version: unknown option '--verbose'/],
    [["check-config", "x"], /check-config: unexpected argument 'x'/],
  ];
  for (const [args, re] of misuse) {
    const r = await runCli(args);
    assertEquals(r.code, 2, `${args.join(" ")}: ${r.err}`);
    const lines = r.err.trim().split("\n");
    assertEquals(lines.length, 1, r.err);
    assertMatch(lines[0], re);
    assertMatch(lines[0], /; see `deno task cli --help`$/);
  }
});

Deno.test("cli: check-config prints every problem with its key and exits 1; a good file exits 0", async () => {
  const bad = await gameDir({
    server: { htpp: 1, http: 4202, ssl: { enabled: true } },
    logging: { level: "loud" },
    game: { maxPlayers: -1 },
  });
  const good = await gameDir({ game: { name: "Fine" }, server: { http: 5000 } });
  try {
    const r = await runCli(["check-config"], { dir: bad.dir, env: { URSAMU_SERVER_TELNET: "x" } });
    assertEquals(r.code, 1, r.out + r.err);
    const expect = [
      /'logging\.level' \(expected one of debug, info, warn, error\)/,
      /'game\.maxPlayers' \(expected a whole number of 0 or more\)/,
      /invalid environment for 'server\.telnet'.*Fix or unset URSAMU_SERVER_TELNET/,
      /unknown key 'server\.htpp'/,
      /'server\.http' uses port 4202, as 'server\.ws' does/,
      /\(server\.ssl\.key\); set server\.ssl\.key/,
    ];
    for (const re of expect) assertMatch(r.out, re);
    assertMatch(r.out, /check-config: 6 problems/);
    const ok = await runCli(["check-config"], { dir: good.dir });
    assertEquals(ok.code, 0, ok.out + ok.err);
    assertMatch(ok.out, /check-config: no problems/);
    const broken = await gameDir();
    await Deno.mkdir(join(broken.dir, "config"));
    await Deno.writeTextFile(join(broken.dir, "config", "config.json"), "{ not json");
    const b = await runCli(["check-config"], { dir: broken.dir });
    assertEquals(b.code, 1);
    assertMatch(b.out, /config\.json is not valid JSON/);
    // The reader is running check-config: its own message does not send them to it again.
    assert(!/check-config` lists/.test(b.out), b.out);
    await Deno.remove(broken.dir, { recursive: true });
  } finally {
    await Deno.remove(bad.dir, { recursive: true });
    await Deno.remove(good.dir, { recursive: true });
  }
});

Deno.test("cli: setup creates the superuser once; passwd resets a password while the game runs", async () => {
  const { dir, env } = await gameDir();
  const su = { URSAMU_SUPERUSER_NAME: "Owner", URSAMU_SUPERUSER_PASSWORD: "owner-password-1" };
  try {
    const first = await runCli(["setup"], { dir, env: { ...env, ...su } });
    assertEquals(first.code, 0, first.out + first.err);
    assertMatch(first.out, /superuser Owner \(#\d+\) created/);
    const again = await runCli(["setup"], { dir, env: { ...env, ...su } });
    assertEquals(again.code, 1);
    assertMatch(again.out, /already has a superuser/);
    const srv = await startServer({
      env: {
        URSAMU_SERVER_DB: join(dir, "data", "ursamu.db"),
        URSAMU_LOGGING_DIR: join(dir, "logs"),
      },
    });
    try {
      const login = (password: string) =>
        api(srv.base, "POST", "/api/v1/auth/login", { name: "Owner", password });
      assertEquals((await login("owner-password-1")).status, 200);
      const p = await runCli(["passwd", "Owner"], { dir, env, input: "locked-out-fixed-2\n" });
      assertEquals(p.code, 0, p.out + p.err);
      assertMatch(p.out, /passwd: the password of Owner\(#\d+\) is changed\./);
      assertEquals((await login("owner-password-1")).status, 401);
      assertEquals((await login("locked-out-fixed-2")).status, 200);
      const short = await runCli(["passwd", "Owner"], { dir, env, input: "short\n" });
      assertEquals(short.code, 1);
      assertMatch(short.err, /at least 8 characters\. Nothing was changed\./);
      assertEquals((await login("locked-out-fixed-2")).status, 200);
      const nobody = await runCli(["passwd", "Nobody"], { dir, env, input: "whatever-123\n" });
      assertEquals(nobody.code, 1);
      assertMatch(nobody.err, /^passwd: no player named Nobody$/m);
      const empty = await runCli(["passwd", "Owner"], { dir, env, input: "" });
      assertEquals(empty.code, 1);
      assertMatch(empty.err, /no password given; nothing was changed/);
      const log = await Deno.readTextFile(join(dir, "logs", "security.log"));
      assertMatch(log, /"event":"ADMIN_NEWPASSWORD","actor":"shell"/);
      assert(!log.includes("locked-out-fixed-2"), "the password is not logged");
    } finally {
      await srv.stop({ keepDir: true });
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("cli: passwd on an unreadable database is one line naming server.db (exit 78)", async () => {
  const { dir, env } = await gameDir();
  try {
    await Deno.mkdir(join(dir, "data", "ursamu.db"), { recursive: true });
    const r = await runCli(["passwd", "Owner"], { dir, env, input: "whatever-123\n" });
    assertEquals(r.code, 78);
    assertEquals(r.err.trim().split("\n").length, 1, r.err);
    assertMatch(r.err, /cannot be opened: .*\(server\.db\)/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("cli: start runs the supervised game until SIGTERM", async () => {
  const { dir, env } = await gameDir();
  const http = freePort();
  try {
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "--unstable-kv", "-A", join(ROOT, "src/cli/main.ts"), "start"],
      cwd: dir,
      env: {
        ...cleanEnv(),
        ...env,
        URSAMU_SERVER_HOST: "127.0.0.1",
        URSAMU_SERVER_HTTP: String(http),
        URSAMU_SERVER_WS: String(freePort()),
        URSAMU_SERVER_TELNET: String(freePort()),
      },
      clearEnv: true,
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    await waitHealthy(`http://127.0.0.1:${http}`);
    child.kill("SIGTERM");
    assertEquals((await child.status).code, 0);
    assert((await Deno.stat(join(dir, "logs", "ursamu.log"))).isFile, "it logged in the game dir");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("cli: `npm run cli --` works like `deno task cli` (skipped without npm)", async (t) => {
  const npm = await new Deno.Command("npm", { args: ["--version"], stdout: "null", stderr: "null" })
    .output().then((o) => o.success).catch(() => false);
  if (!npm) {
    console.log("SKIPPED: npm is not installed here");
    return;
  }
  await t.step("version and a misuse", async () => {
    const run = (args: string[]) =>
      new Deno.Command("npm", {
        args: ["run", "--silent", "cli", "--", ...args],
        cwd: ROOT,
        env: {
          ...cleanEnv(),
          PATH: `${join(ROOT, "node_modules", ".bin")}:${Deno.env.get("PATH")}`,
        },
        clearEnv: true,
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).output();
    const v = await run(["version"]);
    assertEquals(v.code, 0, new TextDecoder().decode(v.stderr));
    assertMatch(new TextDecoder().decode(v.stdout), /^ursamu \d+\.\d+\.\d+ /m);
    const bad = await run(["frob"]);
    assertEquals(bad.code, 2);
    assertMatch(new TextDecoder().decode(bad.stderr), /see `npm run cli -- --help`/);
  });
});
