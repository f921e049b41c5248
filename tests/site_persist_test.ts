import { assertEquals, assertMatch } from "./assert.ts";
import { api, startServer } from "./harness.ts";
import { connectWs } from "./ws_client.ts";

const OWNER = { URSAMU_SUPERUSER_NAME: "Owner", URSAMU_SUPERUSER_PASSWORD: "ownerpass1" };

Deno.test("@site settings survive an engine restart; the environment still wins", async () => {
  const first = await startServer({ env: OWNER });
  const dir = first.dir;
  try {
    const login = await api(first.base, "POST", "/api/v1/auth/login", {
      name: "Owner",
      password: "ownerpass1",
    });
    const ws = await connectWs(first, { token: login.body.token, client: "web" });
    try {
      await ws.expect((m) => m.data.type === "session");
      ws.send("@site server.name=Moonhaven");
      await ws.expect(/is now: Moonhaven$/);
      ws.send("@site game.description=A haunted harbour town.");
      await ws.expect(/is now: A haunted harbour town\.$/);
    } finally {
      await ws.close();
    }
  } finally {
    await first.stop({ keepDir: true });
  }
  const second = await startServer({ env: OWNER, dir });
  try {
    const cfg = await api(second.base, "GET", "/api/v1/config");
    assertEquals(cfg.body.server.name, "Moonhaven");
    assertEquals(cfg.body.game.description, "A haunted harbour town.");
  } finally {
    await second.stop({ keepDir: true });
  }
  const third = await startServer({ env: { ...OWNER, URSAMU_SERVER_NAME: "EnvName" }, dir });
  try {
    const cfg = await api(third.base, "GET", "/api/v1/config");
    assertEquals(cfg.body.server.name, "EnvName");
    assertMatch(cfg.body.game.description, /haunted/);
  } finally {
    await third.stop();
  }
});
