/**
 * The dist archive (issue 16, item 1): `scripts/dist.ts` (`deno task dist`) builds it; this test
 * unpacks it into an empty directory, starts the game from another empty directory with PATH
 * pointing nowhere (so neither an installed Deno nor Node can be used), logs in over telnet and
 * WebSocket, and stops it with SIGTERM.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { freePorts, ROOT, waitHealthy } from "./harness.ts";
import { TelnetClient } from "./telnet_client.ts";
import { WsClient } from "./ws_client.ts";
import { buildDist, shippedFiles } from "../scripts/dist.ts";

Deno.test("dist: the archive starts a game with neither Deno nor Node on the PATH", async () => {
  const tmp = await Deno.makeTempDir({ prefix: "ursamu-dist-test-" });
  try {
    const archive = await buildDist(join(tmp, "out"));
    assertMatch(archive, /ursamu-\d+\.\d+\.\d+-linux-x64\.tar\.gz$/);
    await Deno.mkdir(join(tmp, "unpacked"));
    const untar = await new Deno.Command("tar", {
      args: ["-xzf", archive, "-C", join(tmp, "unpacked")],
    }).output();
    assert(untar.success, "tar -x");
    const [top] = [...Deno.readDirSync(join(tmp, "unpacked"))].map((e) => e.name);
    const launcher = join(tmp, "unpacked", top, "ursamu");
    // The example system scripts ship, with the SDK types they are checked against.
    const scripts = join(tmp, "unpacked", top, "app", "system", "scripts");
    const names = (dir: string) => [...Deno.readDirSync(dir)].map((e) => e.name).sort();
    assertEquals(names(scripts), names(join(ROOT, "system", "scripts")));
    assert(names(scripts).includes("+roll.ts"));
    // The test suite's browser driver and accessibility checker stay behind.
    const app = join(tmp, "unpacked", top, "app");
    const shipped = JSON.parse(await Deno.readTextFile(join(app, "deno.json"))).imports;
    for (const dev of ["playwright-core", "axe-core"]) {
      assert(!(dev in shipped), `${dev} is not imported`);
      assert(
        !names(join(app, "node_modules", ".deno")).some((n) => n.startsWith(`${dev}@`)),
        `${dev} is not shipped`,
      );
    }
    assert("hono" in shipped && "re2js" in shipped, "what the game imports stays");
    // Scripts run in QuickJS: its WebAssembly file ships inside the archive's npm packages.
    const wasm = join(
      app,
      "node_modules",
      "@jitl",
      "quickjs-wasmfile-release-sync",
      "dist",
      "emscripten-module.wasm",
    );
    assert((await Deno.stat(wasm)).size > 100_000, wasm);
    const game = join(tmp, "game");
    await Deno.mkdir(game);
    const [http, ws, telnet] = freePorts(3);
    const child = new Deno.Command(launcher, {
      args: ["start"],
      cwd: game,
      clearEnv: true,
      env: {
        PATH: "/nonexistent",
        HOME: tmp,
        URSAMU_SERVER_HOST: "127.0.0.1",
        URSAMU_SERVER_HTTP: String(http),
        URSAMU_SERVER_WS: String(ws),
        URSAMU_SERVER_TELNET: String(telnet),
        URSAMU_SUPERUSER_NAME: "Admin",
        URSAMU_SUPERUSER_PASSWORD: "admin-password-1",
        JWT_SECRET: "dist-test-secret",
      },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    let out = "";
    const dec = new TextDecoder();
    const pump = async (s: ReadableStream<Uint8Array>) => {
      for await (const c of s) out += dec.decode(c, { stream: true });
    };
    const pumps = Promise.all([pump(child.stdout), pump(child.stderr)]);
    try {
      await waitHealthy(`http://127.0.0.1:${http}`, () => false, () => out, 60_000);
      // The browser client ships in the archive too.
      const page = await fetch(`http://127.0.0.1:${http}/`, { headers: { accept: "text/html" } });
      assertEquals(page.status, 200);
      assertEquals((await page.text()).includes("<html"), true);
      const t = await TelnetClient.connect(telnet);
      try {
        await t.waitFor(/connect <name>/, 20_000);
        await t.send("connect Admin admin-password-1");
        await t.waitFor(/Limbo/);
        // The game directory has no system/scripts: the archive's examples are the game's.
        await t.send("+roll 2d6");
        await t.waitFor(/\[Roll\].* 2d6: /, 60_000);
      } finally {
        await t.close();
      }
      const w = await WsClient.connect(ws);
      try {
        w.send("connect Admin admin-password-1");
        await w.expect(/Limbo/);
      } finally {
        await w.close();
      }
    } finally {
      child.kill("SIGTERM");
      const status = await child.status;
      await pumps;
      assertEquals(status.code, 0, out);
    }
    // The first start of an archive fetches nothing and says nothing about modules.
    assert(!/unexpected argument|could not load every module/.test(out), out);
    // The game's data went to the game directory, not into the unpacked archive.
    assert((await Deno.stat(join(game, "data", "ursamu.db"))).isFile, out);
    assertMatch(out, /plugins: notes: loaded/);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("dist: ships what git tracks, never a checkout's untracked files, tests, test data or links", async () => {
  const repo = await Deno.makeTempDir({ prefix: "ursamu-dist-files-" });
  const git = async (...args: string[]) => {
    const out = await new Deno.Command("git", {
      args: ["-C", repo, "-c", "user.name=T", "-c", "user.email=t@example.org", ...args],
      stdout: "null",
      stderr: "piped",
    }).output();
    assert(out.success, new TextDecoder().decode(out.stderr));
  };
  try {
    await git("init", "-q");
    const write = async (f: string) => {
      await Deno.mkdir(join(repo, f, ".."), { recursive: true });
      await Deno.writeTextFile(join(repo, f), f);
    };
    const tracked = [
      "src/a.ts",
      "src/a_test.ts",
      "src/_test_util.ts",
      "src/b/testdata/cases.json",
      "plugins/p/testdata/fixture/mod.ts",
      "plugins/p/mod.ts",
      "text/motd.txt",
    ];
    for (const f of tracked) {
      await write(f);
    }
    await Deno.symlink(join(repo, "src", "a.ts"), join(repo, "plugins", "p", "link.ts"));
    await git("add", "-A");
    await git("commit", "-q", "-m", "tracked");
    // A checkout's own things: a local plugin, a config, a database, an edit not yet committed.
    for (const f of ["plugins/mine/mod.ts", "config/config.json", "src/scratch.ts"]) {
      await write(f);
    }
    assertEquals(
      (await shippedFiles(repo, ["src", "plugins", "text", "config"])).sort(),
      ["plugins/p/mod.ts", "src/a.ts", "text/motd.txt"],
    );
    const notGit = await Deno.makeTempDir({ prefix: "ursamu-dist-nogit-" });
    try {
      let refused = "";
      await shippedFiles(notGit, ["src"]).catch((e) => refused = (e as Error).message);
      assertMatch(refused, /is not a git checkout; the archive ships what git tracks/);
    } finally {
      await Deno.remove(notGit, { recursive: true });
    }
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});
