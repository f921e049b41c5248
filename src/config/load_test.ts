import assert from "node:assert/strict";
import { Config, envName } from "./load.ts";

async function withFile(content: string | null, fn: (path: string) => Promise<void>) {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/config.json`;
  if (content !== null) await Deno.writeTextFile(path, content);
  try {
    await fn(path);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("config: defaults for every key of the spec's table", async () => {
  const c = await new Config({ env: {} }).load();
  const v = c.value;
  assert.equal(v.server.telnet, 4201);
  assert.equal(v.server.ws, 4202);
  assert.equal(v.server.http, 4203);
  assert.equal(v.server.db, "data/ursamu.db");
  assert.deepEqual(
    [v.server.counters, v.server.chans, v.server.mail, v.server.bboard],
    ["counters", "chans", "mail", "bboard"],
  );
  assert.equal(v.game.name, "UrsaMU");
  assert.equal(v.game.version, "0.0.1");
  assert.equal(v.game.playerStart, "1");
  assert.equal(v.game.motd, "Welcome to UrsaMU!");
  assert.equal(v.game.debug, false);
  assert.equal(v.game.maxPlayers, 0);
  assert.equal(v.game.idleTimeout, 3600);
});

Deno.test("config: precedence env > programmatic > file > defaults", async () => {
  await withFile(
    JSON.stringify({ game: { name: "File", motd: "file motd", maxPlayers: 5, debug: true } }),
    async (file) => {
      const c = await new Config({
        file,
        env: { URSAMU_GAME_NAME: "Env", URSAMU_GAME_DEBUG: "false" },
        overrides: { "game.name": "Prog", "game.motd": "prog motd" },
      }).load();
      assert.equal(c.value.game.name, "Env");
      assert.equal(c.value.game.motd, "prog motd");
      assert.equal(c.value.game.maxPlayers, 5);
      assert.equal(c.value.game.debug, false);
      assert.equal(c.value.game.version, "0.0.1");
    },
  );
});

Deno.test("config: env names join path segments with underscores", () => {
  assert.equal(envName("game.name"), "URSAMU_GAME_NAME");
  assert.equal(envName("server.http"), "URSAMU_SERVER_HTTP");
  assert.equal(envName("game.playerStart"), "URSAMU_GAME_PLAYERSTART");
});

Deno.test("config: env values are typed by the default", async () => {
  const c = await new Config({
    env: {
      URSAMU_SERVER_HTTP: "5000",
      URSAMU_GAME_DEBUG: "1",
      URSAMU_SERVER_CORSORIGINS: "https://a.example, https://b.example",
    },
  }).load();
  assert.equal(c.value.server.http, 5000);
  assert.equal(c.value.game.debug, true);
  assert.deepEqual(c.value.server.corsOrigins, ["https://a.example", "https://b.example"]);
});

Deno.test("config: invalid values warn naming the key and fall back to the default", async () => {
  await withFile(
    JSON.stringify({
      server: { http: 70000, telnet: "x" },
      // A fraction of a write a minute made the refusal's wait "Infinity seconds".
      game: { maxPlayers: -1, restWritesPerMinute: 0.5 },
    }),
    async (file) => {
      const warnings: string[] = [];
      const c = await new Config({
        file,
        env: { URSAMU_SERVER_WS: "abc", URSAMU_GAME_IDLETIMEOUT: "1.5" },
        warn: (m) => warnings.push(m),
      }).load();
      assert.equal(c.value.server.http, 4203);
      assert.equal(c.value.server.telnet, 4201);
      assert.equal(c.value.server.ws, 4202);
      assert.equal(c.value.game.maxPlayers, 0);
      assert.equal(c.value.game.idleTimeout, 3600);
      assert.equal(c.value.game.restWritesPerMinute, 30);
      const keys = [
        "server.http",
        "server.telnet",
        "server.ws",
        "game.maxPlayers",
        "game.restWritesPerMinute",
      ];
      for (const key of keys) {
        assert.ok(warnings.some((w) => w.includes(`'${key}'`)), key);
      }
    },
  );
});

Deno.test("config: a broken or non-object file warns and uses defaults", async () => {
  for (const content of ["{not json", "[1,2]"]) {
    await withFile(content, async (file) => {
      const warnings: string[] = [];
      const c = await new Config({ file, env: {}, warn: (m) => warnings.push(m) }).load();
      assert.equal(c.value.game.name, "UrsaMU");
      assert.equal(warnings.length, 1);
    });
  }
  await withFile(null, async (file) => {
    const warnings: string[] = [];
    await new Config({ file, env: {}, warn: (m) => warnings.push(m) }).load();
    assert.equal(warnings.length, 0, "a missing file is fine");
  });
});

Deno.test("config: set validates and refuses unknown keys", async () => {
  const c = await new Config({ env: {} }).load();
  assert.equal(c.set("game.maxPlayers", 10), null);
  assert.equal(c.value.game.maxPlayers, 10);
  assert.match(c.set("game.maxPlayers", "ten") ?? "", /expected a number/);
  assert.match(c.set("nope.key", 1) ?? "", /unknown/);
  assert.match(c.set("server", 1) ?? "", /unknown/);
  assert.equal(c.value.game.maxPlayers, 10);
});

Deno.test("config: plugin sections from file and env", async () => {
  await withFile(
    JSON.stringify({ plugins: { Notes: { enabled: true, max: 3 }, bad: 5 } }),
    async (file) => {
      const c = await new Config({
        file,
        env: { URSAMU_PLUGINS_NOTES_ENABLED: "false" },
        warn: () => {},
      }).load();
      assert.deepEqual(c.value.plugins.notes, { enabled: false, max: 3 });
      assert.equal(c.value.plugins.bad, undefined);
    },
  );
});

Deno.test("config: reload picks up file changes", async () => {
  await withFile(JSON.stringify({ game: { name: "One" } }), async (file) => {
    const c = await new Config({ file, env: {} }).load();
    assert.equal(c.value.game.name, "One");
    await Deno.writeTextFile(file, JSON.stringify({ game: { name: "Two" } }));
    assert.deepEqual(await c.reload(), []);
    assert.equal(c.value.game.name, "Two");
  });
});

Deno.test("config: a reload of a broken file throws and keeps the configuration in use", async () => {
  await withFile(JSON.stringify({ game: { name: "One", maxPlayers: 5 } }), async (file) => {
    const c = await new Config({ file, env: {}, warn: () => {} }).load();
    for (const broken of ['{"game": {"name": "Two"', "[1, 2]"]) {
      await Deno.writeTextFile(file, broken);
      await assert.rejects(c.reload(), /configuration in use is unchanged/);
      assert.equal(c.value.game.name, "One");
      assert.equal(c.value.game.maxPlayers, 5);
    }
    await Deno.writeTextFile(file, JSON.stringify({ game: { name: "Two", maxPlayers: "lots" } }));
    const warnings = await c.reload();
    assert.equal(c.value.game.name, "Two");
    assert.equal(c.value.game.maxPlayers, 0, "an invalid value falls back to its default");
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /game\.maxPlayers/);
  });
});

Deno.test("config: database.path is the older name of server.db, honoured while server.db is default", async () => {
  const warnings: string[] = [];
  const old = await new Config({
    overrides: { "database.path": "data/old.db" },
    env: {},
    warn: (m) => warnings.push(m),
  }).load();
  assert.equal(old.value.server.db, "data/old.db");
  assert.match(warnings.join("\n"), /'database\.path' is the older name of 'server\.db'.*Move it/);
  const both = await new Config({
    overrides: { "database.path": "data/old.db", "server.db": "data/new.db" },
    env: {},
    warn: () => {},
  }).load();
  assert.equal(both.value.server.db, "data/new.db");
});

Deno.test("config: an unknown logging.level warns and falls back to info", async () => {
  const warnings: string[] = [];
  const c = await new Config({
    env: { [envName("logging.level")]: "loud" },
    warn: (m) => warnings.push(m),
  }).load();
  assert.equal(c.value.logging.level, "info");
  assert.ok(warnings.some((w) => w.includes("logging.level")), warnings.join("\n"));
  const ok = await new Config({ env: { [envName("logging.level")]: "debug" } }).load();
  assert.equal(ok.value.logging.level, "debug");
});

Deno.test("config: any plugin key from the environment, typed as the lower layers hold it", async () => {
  await withFile(
    JSON.stringify({
      plugins: { "my-plugin": { limit: 5 }, channels: { historyLimit: 10, on: true } },
    }),
    async (file) => {
      const c = await new Config({
        file,
        env: {
          URSAMU_PLUGINS_DISCORD_TOKEN: "abc.def",
          URSAMU_PLUGINS_DISCORD_API_BASE: "http://127.0.0.1:9/api",
          URSAMU_PLUGINS_CHANNELS_HISTORY_LIMIT: "2000",
          URSAMU_PLUGINS_CHANNELS_ON: "no",
          URSAMU_PLUGINS_MY_PLUGIN_LIMIT: "7",
          URSAMU_PLUGINS_MY_PLUGIN_ENABLED: "false",
          URSAMU_PLUGINS_: "ignored",
          URSAMU_PLUGINS_LONE: "ignored too: no key",
        },
        warn: () => {},
      }).load();
      assert.deepEqual(c.value.plugins.discord, {
        token: "abc.def",
        apiBase: "http://127.0.0.1:9/api",
      });
      assert.deepEqual(c.value.plugins.channels, { historyLimit: 2000, on: false });
      assert.deepEqual(c.value.plugins["my-plugin"], { limit: 7 });
      assert.deepEqual(c.value.plugins.my_plugin, { enabled: false }, "the switch keeps its rule");
      assert.equal(c.value.plugins.lone, undefined);
    },
  );
});

Deno.test("config: script time limits have a hard maximum; scripts.workers is retired by name", async () => {
  await withFile(
    JSON.stringify({ scripts: { timeoutMs: 1000, workers: 4, memoryMb: 48 } }),
    async (file) => {
      const warnings: string[] = [];
      const c = await new Config({
        file,
        env: { URSAMU_SCRIPTS_WALLMS: "90000" },
        warn: (m) => warnings.push(m),
      }).load();
      assert.equal(c.value.scripts.timeoutMs, 250);
      assert.equal(c.value.scripts.wallMs, 60_000);
      assert.equal(c.value.scripts.memoryMb, 48);
      assert.equal("workers" in c.value.scripts, false);
      assert.equal(warnings.length, 3, warnings.join("\n"));
      assert.match(warnings.join("\n"), /'scripts\.timeoutMs' is 1000; the most it may be is 250/);
      assert.match(warnings.join("\n"), /URSAMU_SCRIPTS_WALLMS/);
      assert.match(
        warnings.join("\n"),
        /'scripts\.workers' is no longer used \(scripts run in the engine's process/,
      );
    },
  );
  const quiet: string[] = [];
  const d = await new Config({ env: {}, warn: (m) => quiet.push(m) }).load();
  assert.deepEqual(quiet, []);
  assert.equal(d.value.scripts.timeoutMs, 50);
});

Deno.test("config: web.banner, web.profileFields and web.public.* are checked", async () => {
  const warnings: string[] = [];
  const file = JSON.stringify({
    web: {
      banner: "https://elsewhere.example/b.png",
      profileFields: ["Full Name", "Age", "Played By"],
      public: { characters: true, wiki: "yes" },
    },
  });
  await withFile(file, async (path) => {
    const c = await new Config({ file: path, env: {}, warn: (m) => warnings.push(m) }).load();
    assert.equal(c.value.web.banner, "", "another site's picture is refused");
    assert.deepEqual(c.value.web.profileFields, ["Full Name", "Age", "Played By"]);
    assert.equal(c.value.web.public.characters, true);
    assert.equal(c.value.web.public.wiki, true, "a non-boolean keeps the default");
    assert.equal(c.value.web.public.front, true);
    assert.ok(warnings.some((w) => w.includes("'web.banner'")));
    assert.ok(warnings.some((w) => w.includes("'web.public.wiki'")));
  });
  const c = await new Config({ env: {}, warn: () => {} }).load();
  assert.equal(c.set("web.banner", "//evil.example/x.png") !== null, true);
  assert.equal(c.set("web.banner", "/banner.png"), null);
  assert.match(c.set("web.profileFields", ["Full Name", "full-name"]) ?? "", /same attribute/);
  assert.match(c.set("web.profileFields", ["A".repeat(25)]) ?? "", /more than 24/);
  assert.match(c.set("web.profileFields", ["<b>"]) ?? "", /not a field name/);
  assert.equal(c.set("web.profileFields", ["Position"]), null);
});
