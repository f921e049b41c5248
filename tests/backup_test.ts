/**
 * Backups (issue 16, item 3) through the command line against a real game: a backup taken while
 * the engine runs restores into an empty database equal to the original entry by entry (objects,
 * players, plugin data, versionstamps) with the wiki's files; the restored game lets its players
 * log in; restore refuses a non-empty database unless forced, a running game, and a damaged file;
 * the engine's automatic backups keep database.maxBackups.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { api, register, startServer } from "./harness.ts";
import { runCli } from "./cli_run.ts";

/** Every entry of a KV file: key, value and versionstamp. */
async function dump(path: string): Promise<Deno.KvEntry<unknown>[]> {
  const kv = await Deno.openKv(path);
  try {
    const out = [];
    for await (const e of kv.list({ prefix: [] })) out.push(e);
    return out;
  } finally {
    kv.close();
  }
}

async function wikiFiles(dir: string, prefix = ""): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for await (const e of Deno.readDir(join(dir, prefix))) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory) Object.assign(out, await wikiFiles(dir, rel));
    else out[rel] = Array.from(await Deno.readFile(join(dir, rel))).join(",");
  }
  return out;
}

Deno.test("backup: a live backup restores entry by entry, with the wiki, and the game plays on it", async () => {
  const home = await Deno.makeTempDir({ prefix: "ursamu-backup-" });
  const wiki = join(home, "wiki");
  await Deno.mkdir(join(wiki, "lore", "places"), { recursive: true });
  await Deno.writeTextFile(join(wiki, "index.md"), "---\ntitle: Home\n---\nWelcome.\n");
  await Deno.writeTextFile(join(wiki, "lore", "places", "harbour.md"), "The harbour.\n");
  await Deno.writeFile(join(wiki, "lore", "map.png"), new Uint8Array(3000).map((_, i) => i & 255));
  const env = {
    URSAMU_SERVER_DB: join(home, "data", "ursamu.db"),
    URSAMU_SERVER_WIKIDIR: wiki,
    URSAMU_DATABASE_BACKUPDIR: join(home, "backups"),
    URSAMU_LOGGING_DIR: join(home, "logs"),
    JWT_SECRET: "backup-test-secret",
  };
  const srv = await startServer({ env });
  let original: Deno.KvEntry<unknown>[] = [];
  try {
    const tokens = [];
    for (const name of ["Ann", "Bea", "Cy"]) tokens.push(await register(srv.base, name));
    for (const [i, t] of tokens.entries()) {
      const me = await api(srv.base, "GET", "/api/v1/me", undefined, t);
      const patch = await api(srv.base, "PATCH", `/api/v1/dbobj/${me.body.id}`, {
        data: { state: { mood: `calm ${i}`, level: i }, avatar: `https://example.com/${i}.png` },
        description: `Described ${i}.`,
      }, t);
      assertEquals(patch.status, 200, JSON.stringify(patch.body));
      const attr = await api(srv.base, "PUT", `/api/v1/dbobj/${me.body.id}/attributes/finger`, {
        value: `finger of ${i}`,
      }, t);
      assertEquals(attr.status, 200, JSON.stringify(attr.body));
      const note = await api(srv.base, "POST", "/api/v1/notes", { text: `note of ${i}` }, t);
      assertEquals(note.status, 201, JSON.stringify(note.body));
    }
    // The backup runs while the engine holds the database open and serves.
    const b = await runCli(["backup", join(home, "out", "game.tar.gz")], { dir: home, env });
    assertEquals(b.code, 0, b.out + b.err);
    assertMatch(b.out, /^backup: .*game\.tar\.gz \(\d+ entries, 3 wiki files, \d+ bytes\)$/m);
    const running = await runCli(["restore", join(home, "out", "game.tar.gz"), "--force"], {
      dir: home,
      env: { ...env, URSAMU_SERVER_HTTP: String(srv.http), URSAMU_SERVER_HOST: "127.0.0.1" },
    });
    assertEquals(running.code, 1);
    assertMatch(running.err, /the game is running .*stop it first/);
    assertEquals((await api(srv.base, "GET", "/health")).status, 200);
  } finally {
    await srv.stop({ keepDir: true });
    await Deno.remove(srv.dir, { recursive: true });
  }
  try {
    original = await dump(env.URSAMU_SERVER_DB);
    assert(original.length > 10, `a world to compare (${original.length} entries)`);
    assertEquals(original.filter((e) => e.key[0] === "attr").length, 3, "attributes included");
    // Restore into an empty game directory.
    const fresh = {
      ...env,
      URSAMU_SERVER_DB: join(home, "restored", "ursamu.db"),
      URSAMU_SERVER_WIKIDIR: join(home, "restored", "wiki"),
    };
    const r = await runCli(["restore", join(home, "out", "game.tar.gz")], {
      dir: home,
      env: fresh,
    });
    assertEquals(r.code, 0, r.out + r.err);
    assertMatch(r.out, new RegExp(`^restore: ${original.length} entries and 3 wiki files from `));
    const restored = await dump(fresh.URSAMU_SERVER_DB);
    assertEquals(restored.length, original.length);
    for (const [i, e] of original.entries()) assertEquals(restored[i], e, `entry ${i}`);
    assertEquals(await wikiFiles(fresh.URSAMU_SERVER_WIKIDIR), await wikiFiles(wiki));
    // A second restore into what is no longer empty is refused, and changes nothing.
    const again = await runCli(["restore", join(home, "out", "game.tar.gz")], {
      dir: home,
      env: fresh,
    });
    assertEquals(again.code, 1);
    assertMatch(
      again.err,
      /^restore: the database .* is not empty \(\d+ entries\); .*--force.*nothing was changed$/m,
    );
    // The restored game plays: a player logs in with the password from before.
    const game = await startServer({ env: fresh });
    try {
      const login = await api(game.base, "POST", "/api/v1/auth/login", {
        name: "Bea",
        password: "password123",
      });
      assertEquals(login.status, 200);
      const notes = await api(game.base, "GET", "/api/v1/notes", undefined, login.body.token);
      assertEquals(notes.status, 200);
      assertMatch(JSON.stringify(notes.body), /note of 1/);
      const me = await api(game.base, "GET", "/api/v1/me", undefined, login.body.token);
      const finger = await api(
        game.base,
        "GET",
        `/api/v1/dbobj/${me.body.id}/attributes/FINGER`,
        undefined,
        login.body.token,
      );
      assertEquals(finger.body, {
        name: "FINGER",
        value: "finger of 1",
        owner: me.body.id,
        flags: [],
      });
    } finally {
      await game.stop({ keepDir: true });
      await Deno.remove(game.dir, { recursive: true });
    }
    // --force replaces a database that is not empty.
    const forced = await runCli(["restore", join(home, "out", "game.tar.gz"), "--force"], {
      dir: home,
      env: fresh,
    });
    assertEquals(forced.code, 0, forced.err);
    // A damaged file is one line and changes nothing.
    const bytes = await Deno.readFile(join(home, "out", "game.tar.gz"));
    await Deno.writeFile(join(home, "out", "cut.tar.gz"), bytes.slice(0, bytes.length >> 1));
    const cut = await runCli(["restore", join(home, "out", "cut.tar.gz"), "--force"], {
      dir: home,
      env: fresh,
    });
    assertEquals(cut.code, 1);
    assertEquals(cut.err.trim().split("\n").length, 1, cut.err);
    assertEquals((await dump(fresh.URSAMU_SERVER_DB)).length, original.length);
    await Deno.writeTextFile(join(home, "out", "junk.tar.gz"), "not a backup");
    const junk = await runCli(["restore", join(home, "out", "junk.tar.gz"), "--force"], {
      dir: home,
      env: fresh,
    });
    assertEquals(junk.code, 1);
    assertEquals(junk.err.trim().split("\n").length, 1, junk.err);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("backup: the engine takes automatic backups and keeps database.maxBackups", async () => {
  const home = await Deno.makeTempDir({ prefix: "ursamu-auto-" });
  const dir = join(home, "auto");
  const srv = await startServer({
    dir: home,
    config: { database: { backupInterval: 1, maxBackups: 2, backupDir: dir } },
  });
  try {
    const taken = () => (srv.output().match(/backup: .*auto-\d{8}T\d{6}Z\.tar\.gz/g) ?? []).length;
    const end = Date.now() + 20_000;
    while (taken() < 4 && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
    assert(taken() >= 4, srv.output());
  } finally {
    await srv.stop({ keepDir: true });
  }
  try {
    const names = [...Deno.readDirSync(dir)].map((e) => e.name).sort();
    assertEquals(names.length, 2, names.join(", "));
    for (const n of names) assertMatch(n, /^auto-\d{8}T\d{6}Z\.tar\.gz$/);
    const r = await runCli(["restore", join(dir, names[1])], {
      dir: home,
      env: { URSAMU_SERVER_DB: join(home, "copy.db"), URSAMU_SERVER_WIKIDIR: join(home, "w") },
    });
    assertEquals(r.code, 0, r.err);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
