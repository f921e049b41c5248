/**
 * `deno task compile` (issue 16, item 1): without DENORT_BIN it says so in one line and exits 1;
 * with it (a visible skip otherwise) the binary starts a game from an empty directory with PATH
 * pointing nowhere, a player logs in over telnet, and SIGTERM stops it.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { cleanEnv, freePort, freePorts, ROOT, waitHealthy } from "./harness.ts";
import { TelnetClient } from "./telnet_client.ts";

Deno.test("compile: without DENORT_BIN the task explains itself", async () => {
  const env = cleanEnv();
  delete env["DENORT_BIN"];
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", join(ROOT, "scripts", "compile.ts"), "--out", "/nonexistent/never"],
    env,
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assertEquals(out.code, 1);
  const err = new TextDecoder().decode(out.stderr).trim();
  assertEquals(err.split("\n").length, 1, err);
  assertMatch(err, /^compile: DENORT_BIN is not set\. .*deno task dist/);
});

Deno.test("compile: the binary starts a game (needs DENORT_BIN)", async () => {
  if (!Deno.env.get("DENORT_BIN")) {
    console.log("SKIPPED: DENORT_BIN is not set, so deno compile cannot run here");
    return;
  }
  const tmp = await Deno.makeTempDir({ prefix: "ursamu-compile-" });
  try {
    const { buildBinaries } = await import("../scripts/compile.ts");
    const [ursamu] = await buildBinaries(join(tmp, "bin"));
    const game = join(tmp, "game");
    await Deno.mkdir(game);
    const [http, telnet] = freePorts(2);
    const child = new Deno.Command(ursamu, {
      args: ["start"],
      cwd: game,
      clearEnv: true,
      env: {
        PATH: "/nonexistent",
        HOME: tmp,
        URSAMU_SERVER_HOST: "127.0.0.1",
        URSAMU_SERVER_HTTP: String(http),
        URSAMU_SERVER_WS: String(freePort()),
        URSAMU_SERVER_TELNET: String(telnet),
        URSAMU_SUPERUSER_NAME: "Admin",
        URSAMU_SUPERUSER_PASSWORD: "admin-password-1",
      },
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    try {
      await waitHealthy(`http://127.0.0.1:${http}`, () => false, () => "", 60_000);
      const t = await TelnetClient.connect(telnet);
      try {
        await t.waitFor(/connect <name>/);
        await t.send("connect Admin admin-password-1");
        await t.waitFor(/Limbo/);
      } finally {
        await t.close();
      }
    } finally {
      child.kill("SIGTERM");
      assertEquals((await child.status).code, 0);
    }
    assert((await Deno.stat(join(game, "data", "ursamu.db"))).isFile);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});
