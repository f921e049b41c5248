import { assert, assertEquals, assertMatch } from "./assert.ts";
import { api, cleanEnv, register, ROOT, startServer } from "./harness.ts";

const SECURITY_HEADERS = {
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "strict-origin-when-cross-origin",
};

Deno.test("core REST: health, config, texts, online players, headers and 404s", async (t) => {
  const srv = await startServer({ env: { URSAMU_GAME_NAME: "Testgame" } });
  const b = srv.base;
  try {
    await t.step("/health answers ok with the engine name", async () => {
      const r = await api(b, "GET", "/health");
      assertEquals(r.status, 200);
      assertEquals(r.body, { status: "ok", engine: "UrsaMU" });
    });

    await t.step("/api/v1/config carries game and server ports, env over defaults", async () => {
      const r = await api(b, "GET", "/api/v1/config");
      assertEquals(r.status, 200);
      assertEquals(r.body.game.name, "Testgame");
      assertEquals(r.body.game.version, "0.0.1");
      assertEquals(r.body.server.http, srv.http);
      assertEquals(r.body.server.telnet, srv.telnet);
      assert(r.body.theme, "theme information");
    });

    await t.step("connect screen and welcome text are served raw", async () => {
      const c = await api(b, "GET", "/api/v1/connect");
      assertEquals(c.status, 200);
      assertMatch(c.body, /connect <name> <password>/);
      const w = await api(b, "GET", "/api/v1/welcome");
      assertEquals(w.status, 200);
      assertMatch(w.body, /Welcome/);
    });

    await t.step("players/online is a public array", async () => {
      const r = await api(b, "GET", "/api/v1/players/online");
      assertEquals(r.status, 200);
      assertEquals(r.body, []);
    });

    await t.step("every response carries the security headers, errors and 404s too", async () => {
      const token = await register(b, "Hedda");
      const paths: [string, string, unknown?, string?][] = [
        ["GET", "/health"],
        ["GET", "/api/v1/config"],
        ["GET", "/api/v1/me", undefined, token],
        ["GET", "/api/v1/me"],
        ["GET", "/nope"],
        ["POST", "/api/v1/auth/login", "{bad"],
        ["GET", "/api/v1/dbobj/999999", undefined, token],
      ];
      for (const [m, p, body, tok] of paths) {
        const r = await api(b, m, p, body, tok);
        for (const [h, v] of Object.entries(SECURITY_HEADERS)) {
          assertEquals(r.headers.get(h), v, `${h} on ${m} ${p}`);
        }
        if (r.status >= 400) assertEquals(typeof r.body.error, "string", `${m} ${p}`);
      }
    });

    await t.step("unknown paths are JSON 404s; prefixes match on a / boundary", async () => {
      for (
        const p of ["/nope", "/api/v1/nope", "/api/v1/authx", "/api/v1/auth/loginx", "/api/v2/me"]
      ) {
        const r = await api(b, "GET", p);
        assertEquals(r.status, 404, p);
        assertEquals(r.body, { error: "Not Found" }, p);
      }
    });

    await t.step("wrong method on a known path is a JSON 404 too", async () => {
      const r = await api(b, "DELETE", "/health");
      assertEquals(r.status, 404);
      assertEquals(typeof r.body.error, "string");
    });
  } finally {
    await srv.stop();
  }
});

Deno.test("config: an invalid env value warns naming the key and the default is used", async () => {
  const srv = await startServer({ env: { URSAMU_GAME_MAXPLAYERS: "lots" } });
  try {
    assertMatch(srv.output(), /game\.maxPlayers/);
    const r = await api(srv.base, "GET", "/api/v1/config");
    assertEquals(r.status, 200);
  } finally {
    await srv.stop();
  }
});

Deno.test("config: the file sets values, the environment overrides the file", async () => {
  const srv = await startServer({
    config: { game: { name: "FromFile", version: "2.0.0" } },
    env: { URSAMU_GAME_VERSION: "3.1.4" },
  });
  try {
    const r = await api(srv.base, "GET", "/api/v1/config");
    assertEquals(r.body.game.name, "FromFile");
    assertEquals(r.body.game.version, "3.1.4");
  } finally {
    await srv.stop();
  }
});

Deno.test("CORS: only configured origins are allowed", async () => {
  const srv = await startServer({ config: { server: { corsOrigins: ["https://play.example"] } } });
  try {
    const pre = await fetch(`${srv.base}/api/v1/me`, {
      method: "OPTIONS",
      headers: { origin: "https://play.example", "access-control-request-method": "GET" },
    });
    await pre.body?.cancel();
    assertEquals(pre.status, 204);
    assertEquals(pre.headers.get("access-control-allow-origin"), "https://play.example");
    const evil = await fetch(`${srv.base}/api/v1/me`, {
      method: "OPTIONS",
      headers: { origin: "https://evil.example" },
    });
    await evil.body?.cancel();
    assertEquals(evil.status, 403);
    const get = await fetch(`${srv.base}/health`, { headers: { origin: "https://evil.example" } });
    await get.body?.cancel();
    assertEquals(get.headers.get("access-control-allow-origin"), null);
  } finally {
    await srv.stop();
  }
});

Deno.test("start-up: a port already in use stops the engine with a message naming the key", async () => {
  const srv = await startServer();
  try {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--unstable-kv", "-A", "main.ts"],
      cwd: ROOT,
      env: { ...cleanEnv(), ...srv.env, URSAMU_SERVER_DB: `${srv.dir}/other.db` },
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stderr) + new TextDecoder().decode(out.stdout);
    assertEquals(out.code, 78);
    assertMatch(text, /\(server\.http\) is already in use/);
    assertMatch(text, /URSAMU_SERVER_HTTP/);
    assertEquals((await api(srv.base, "GET", "/health")).status, 200);
  } finally {
    await srv.stop();
  }
});
