/**
 * Hot reload: `@reload` and each switch, run by staff while players stay connected; a
 * broken command file is reported and its old commands stay in service.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "./assert.ts";
import {
  api,
  cleanEnv,
  DENO,
  freePort,
  register,
  ROOT,
  startServer,
  waitHealthy,
} from "./harness.ts";
import { connectWs, type WsClient } from "./ws_client.ts";

const ADMIN = { name: "Admin", password: "admin-password-1" };
const reloadReply = (m: { data: Record<string, unknown> }) => m.data.type === "reload";

async function login(base: string, name: string, password: string): Promise<string> {
  const r = await api(base, "POST", "/api/v1/auth/login", { name, password });
  assertEquals(r.status, 200);
  return r.body.token;
}

Deno.test("@reload: each subsystem reloads in place and reports its status", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "ursamu-reload-" });
  const connectFile = join(dir, "connect.txt");
  await Deno.writeTextFile(connectFile, "OLD CONNECT SCREEN\n");
  const config = (name: string) => ({ game: { name, text: { connect: connectFile } } });
  const srv = await startServer({
    dir,
    config: config("Before"),
    env: { URSAMU_SUPERUSER_NAME: ADMIN.name, URSAMU_SUPERUSER_PASSWORD: ADMIN.password },
  });
  const open: WsClient[] = [];
  try {
    const admin = await connectWs(srv, {
      token: await login(srv.base, ADMIN.name, ADMIN.password),
      client: "web",
    });
    const alice = await connectWs(srv, {
      token: await register(srv.base, "Alice"),
      client: "web",
    });
    open.push(admin, alice);
    await admin.expect((m) => m.data.type === "session");
    await alice.expect((m) => m.data.type === "session");
    const run = async (line: string) => {
      admin.send(line);
      return (await admin.expect(reloadReply, 15_000)).data.results as {
        subsystem: string;
        status: string;
        detail: string;
      }[];
    };

    await t.step("players may not reload", async () => {
      alice.send("@reload");
      await alice.expect(/Permission denied/);
    });

    await t.step("@reload/config re-reads the file", async () => {
      await Deno.writeTextFile(join(dir, "config.json"), JSON.stringify(config("After")));
      const [r] = await run("@reload/config");
      assertEquals([r.subsystem, r.status], ["config", "ok"]);
      assertEquals((await api(srv.base, "GET", "/api/v1/config")).body.game.name, "After");
    });

    await t.step("@reload/config: a half-saved file fails and changes nothing", async () => {
      await Deno.writeTextFile(join(dir, "config.json"), '{"game": {"name": "Broken"');
      const [r] = await run("@reload/config");
      assertEquals([r.subsystem, r.status], ["config", "failed"]);
      assertMatch(r.detail, /not valid JSON.*unchanged/);
      assertEquals((await api(srv.base, "GET", "/api/v1/config")).body.game.name, "After");
      // A bad value is a partial reload: the rest applies, that key keeps its default.
      const bad = { game: { name: "After", maxPlayers: "lots", text: { connect: connectFile } } };
      await Deno.writeTextFile(join(dir, "config.json"), JSON.stringify(bad));
      const [p] = await run("@reload/config");
      assertEquals(p.status, "partial");
      assertMatch(p.detail, /game\.maxPlayers/);
      await Deno.writeTextFile(join(dir, "config.json"), JSON.stringify(config("After")));
    });

    await t.step("@reload/text re-reads the connect screen", async () => {
      await Deno.writeTextFile(connectFile, "NEW CONNECT SCREEN\n");
      const [r] = await run("@reload/text");
      assertEquals([r.subsystem, r.status], ["text", "ok"]);
      const guest = await connectWs(srv, { client: "web" });
      open.push(guest);
      await guest.expect(/NEW CONNECT SCREEN/);
    });

    await t.step("@reload/cmds re-imports the core commands", async () => {
      const [r] = await run("@reload/cmds");
      assertEquals([r.subsystem, r.status], ["cmds", "ok"]);
      assertMatch(r.detail, /^\d+ core commands loaded$/);
      alice.send("look");
      await alice.expect(/Limbo/);
    });

    await t.step("@reload/plugins and @reload/plugin <name> (any case)", async () => {
      const all = await run("@reload/plugins");
      assertEquals(all[0].subsystem, "plugins");
      assertEquals(all[0].status, "ok", all[0].detail);
      assertMatch(all[0].detail, /notes ok/);
      const [one] = await run("@reload/plugin NoTeS");
      assertEquals(one.status, "ok", one.detail);
      assertMatch(one.detail, /^notes ok$/);
      const [none] = await run("@reload/plugin no-such-plugin");
      assertEquals(none.status, "failed");
      admin.send("@reload/plugin");
      const list = await admin.expect((m) => m.data.type === "plugins");
      assertMatch(list.msg, /notes +%cgloaded/);
    });

    await t.step("@reload does everything and reports each part", async () => {
      const results = await run("@reload");
      assertEquals(results.map((r) => r.subsystem), ["config", "text", "cmds", "plugins"]);
      for (const r of results) assertEquals(r.status, "ok", `${r.subsystem}: ${r.detail}`);
    });

    await t.step("nobody was disconnected", async () => {
      assert(admin.isOpen && alice.isOpen);
      alice.send("say still here");
      await admin.expect(/Alice says, "still here/);
    });
  } finally {
    for (const c of open) await c.close();
    await srv.stop();
  }
});

/** Copies the code into a temp dir so a test may break one of its files. */
async function copyInstall(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "ursamu-copy-" });
  for (const entry of ["deno.json", "deno.lock", "main.ts", "src", "plugins", "text", "help"]) {
    const out = await new Deno.Command("cp", { args: ["-r", join(ROOT, entry), dir] }).output();
    if (!out.success) throw new Error(`cp ${entry}: ${new TextDecoder().decode(out.stderr)}`);
  }
  return dir;
}

Deno.test("@reload/cmds: a broken command file is reported and its old commands stay", async () => {
  const copy = await copyInstall();
  const http = freePort();
  const child = new Deno.Command(DENO, {
    args: ["run", "--unstable-kv", "-A", join(copy, "main.ts")],
    cwd: copy,
    env: {
      ...cleanEnv(),
      URSAMU_SERVER_HTTP: String(http),
      URSAMU_SERVER_WS: String(freePort()),
      URSAMU_SERVER_HOST: "127.0.0.1",
      URSAMU_SERVER_DB: join(copy, "ursamu.db"),
      URSAMU_LOGGING_DIR: join(copy, "logs"),
      JWT_SECRET: "reload-test",
      URSAMU_SUPERUSER_NAME: ADMIN.name,
      URSAMU_SUPERUSER_PASSWORD: ADMIN.password,
    },
    clearEnv: true,
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  const base = `http://127.0.0.1:${http}`;
  let admin: WsClient | null = null;
  try {
    await waitHealthy(base);
    admin = await connectWs(`ws://127.0.0.1:${http}/ws`, {
      token: await login(base, ADMIN.name, ADMIN.password),
      client: "web",
    });
    await admin.expect((m) => m.data.type === "session");
    const whoFile = join(copy, "src/commands/core/who.ts");
    const good = await Deno.readTextFile(whoFile);
    await Deno.writeTextFile(whoFile, good + "\nthis is not TypeScript (\n");
    admin.send("@reload/cmds");
    const [r] = (await admin.expect(reloadReply, 20_000)).data.results;
    assertEquals(r.status, "partial");
    assertMatch(r.detail, /who\.ts/);
    assertMatch(r.detail, /[1-9]\d* kept from before/);
    admin.send("who");
    await admin.expect(/players? connected/);

    await Deno.writeTextFile(whoFile, good);
    admin.send("@reload/cmds");
    const [fixed] = (await admin.expect(reloadReply, 20_000)).data.results;
    assertEquals(fixed.status, "ok", fixed.detail);
  } finally {
    await admin?.close();
    child.kill("SIGTERM");
    await child.status;
    await Deno.remove(copy, { recursive: true }).catch(() => {});
  }
});
