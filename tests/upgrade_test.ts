/**
 * Upgrades (issue 16, item 8): a database from before the layout was recorded is migrated at start
 * after a backup (which restores to the state before the migration), and a database newer than
 * the engine is refused with one line by the engine, the supervisor and the command line.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { api, cleanEnv, freePort, register, ROOT, startServer } from "./harness.ts";
import { runCli } from "./cli_run.ts";
import { keys } from "../src/storage/keys.ts";
import { LAYOUT_VERSION } from "../src/storage/layout.ts";

async function withKv<T>(path: string, fn: (kv: Deno.Kv) => Promise<T>): Promise<T> {
  const kv = await Deno.openKv(path);
  try {
    return await fn(kv);
  } finally {
    kv.close();
  }
}

Deno.test("upgrade: an older database is backed up, then migrated, and plays on", async () => {
  const home = await Deno.makeTempDir({ prefix: "ursamu-upgrade-" });
  const env = { URSAMU_DATABASE_BACKUPDIR: join(home, "backups") };
  const first = await startServer({ dir: home, env });
  const db = first.env.URSAMU_SERVER_DB;
  try {
    const token = await register(first.base, "Old", "old-password-1");
    // What system scripts' u.attr wrote before attributes were their own entries (layout 1).
    const me = (await api(first.base, "GET", "/api/v1/me", undefined, token)).body;
    const patched = await api(first.base, "PATCH", `/api/v1/dbobj/${me.id}`, {
      data: { state: { "finger.quote": "Hi.", level: 3, "1st": "kept", "a b": "kept" } },
    }, token);
    assertEquals(patched.status, 200);
  } finally {
    await first.stop({ keepDir: true });
  }
  try {
    assertEquals(
      await withKv(db, async (kv) => (await kv.get(keys.layout())).value),
      LAYOUT_VERSION,
    );
    // What an engine from before the layout was recorded left behind.
    await withKv(db, (kv) => kv.delete(keys.layout()));
    const again = await startServer({ dir: home, env });
    try {
      await again.waitFor(/storage: layout 2: script attributes/);
      const out = again.output();
      assertMatch(out, /storage: layout 1: record the layout version/);
      assertMatch(out, /2 attribute\(s\) of 1 object\(s\) made from data\.state \(2 key/);
      const m = out.match(
        new RegExp(
          `storage: migrating the database from layout 0 to ${LAYOUT_VERSION}; backup taken ` +
            `first: (\\S+pre-layout${LAYOUT_VERSION}-\\d{8}T\\d{6}Z\\.tar\\.gz)`,
        ),
      );
      assert(m, out);
      const login = await api(again.base, "POST", "/api/v1/auth/login", {
        name: "Old",
        password: "old-password-1",
      });
      assertEquals(login.status, 200);
      // The script data is in attributes now; data.state stays the REST client's, unchanged.
      const token = login.body.token;
      const me = (await api(again.base, "GET", "/api/v1/me", undefined, token)).body;
      const attrs = await api(
        again.base,
        "GET",
        `/api/v1/dbobj/${me.id}/attributes`,
        undefined,
        token,
      );
      assertEquals(
        attrs.body.map((a: { name: string; value: string }) => `${a.name}=${a.value}`),
        ["FINGER.QUOTE=Hi.", "LEVEL=3"],
      );
      const obj = await api(again.base, "GET", `/api/v1/dbobj/${me.id}`, undefined, token);
      assertEquals(obj.body.data.state, {
        "finger.quote": "Hi.",
        level: 3,
        "1st": "kept",
        "a b": "kept",
      });
      // The backup is the database as it was before the migration.
      const r = await runCli(["restore", m[1]], {
        dir: home,
        env: { URSAMU_SERVER_DB: join(home, "before.db"), URSAMU_SERVER_WIKIDIR: join(home, "w") },
      });
      assertEquals(r.code, 0, r.err);
      assertEquals(
        await withKv(join(home, "before.db"), async (kv) => (await kv.get(keys.layout())).value),
        null,
      );
    } finally {
      await again.stop({ keepDir: true });
    }
    assertEquals(
      await withKv(db, async (kv) => (await kv.get(keys.layout())).value),
      LAYOUT_VERSION,
    );
    // The next start finds nothing to do.
    const third = await startServer({ dir: home, env });
    await third.stop({ keepDir: true });
    assert(!/migrating/.test(third.output()), third.output());
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("upgrade: a database newer than the engine is refused by every process, unchanged", async () => {
  const home = await Deno.makeTempDir({ prefix: "ursamu-newer-" });
  const db = join(home, "data", "ursamu.db");
  await Deno.mkdir(join(home, "data"));
  await withKv(db, async (kv) => {
    await kv.set(keys.layout(), LAYOUT_VERSION + 1);
    await kv.set(["obj", "1"], { future: true });
  });
  const env = { URSAMU_SERVER_DB: db, JWT_SECRET: "upgrade-test-secret" };
  try {
    const newer = new RegExp(
      `has layout ${
        LAYOUT_VERSION + 1
      }, newer than this engine's ${LAYOUT_VERSION}: it was used by a newer UrsaMU \\(server\\.db\\)`,
    );
    for (const entry of ["main.ts", "src/supervisor/main.ts"]) {
      const run = await new Deno.Command(Deno.execPath(), {
        args: ["run", "--unstable-kv", "-A", join(ROOT, entry)],
        cwd: home,
        env: {
          ...cleanEnv(),
          ...env,
          URSAMU_SERVER_HOST: "127.0.0.1",
          URSAMU_SERVER_HTTP: String(freePort()),
          URSAMU_SERVER_WS: String(freePort()),
          URSAMU_SERVER_TELNET: String(freePort()),
          URSAMU_SUPERUSER_NAME: "Admin",
          URSAMU_SUPERUSER_PASSWORD: "admin-pass-1",
        },
        clearEnv: true,
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).output();
      const out = new TextDecoder().decode(run.stdout) + new TextDecoder().decode(run.stderr);
      assertEquals(run.code, 78, `${entry}: ${out}`);
      assertMatch(out, newer);
      assert(!/^\s+at /m.test(out), out);
    }
    const p = await runCli(["passwd", "Admin"], { dir: home, env, input: "whatever-123\n" });
    assertEquals(p.code, 78);
    assertMatch(p.err, newer);
    // A backup of it can be taken, but this engine will not restore it.
    const b = await runCli(["backup", join(home, "new.tar.gz")], { dir: home, env });
    assertEquals(b.code, 0, b.err);
    const r = await runCli(["restore", join(home, "new.tar.gz")], {
      dir: home,
      env: { URSAMU_SERVER_DB: join(home, "empty.db"), URSAMU_SERVER_WIKIDIR: join(home, "w") },
    });
    assertEquals(r.code, 1);
    assertMatch(
      r.err,
      /has layout \d+, newer than this engine's \d+; restore it with the newer UrsaMU/,
    );
    await withKv(db, async (kv) => {
      assertEquals((await kv.get(keys.layout())).value, LAYOUT_VERSION + 1);
      assertEquals((await kv.get(["obj", "1"])).value, { future: true });
    });
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
