/** HEAD answers on plugin GET routes exactly as on core routes: GET's status and headers, no body. */
import { assertEquals } from "./assert.ts";
import { startPluginWorld } from "./plugins_world.ts";

Deno.test("HEAD: plugin routes answer like core routes", async () => {
  const w = await startPluginWorld(["Alice"]);
  try {
    const call = async (method: string, path: string, token?: string) => {
      const res = await fetch(w.srv.base + path, {
        method,
        headers: token ? { authorization: `Bearer ${token}` } : {},
      });
      return { status: res.status, headers: res.headers, body: await res.text() };
    };
    const token = w.tokens.Alice;
    for (
      const [path, tok] of [
        ["/api/v1/config", undefined],
        ["/api/v1/players/online", undefined],
        ["/api/v1/dbobj/1", token],
        ["/api/v1/channels", undefined],
        ["/api/v1/channels/Public/history", token],
        ["/api/v1/notes", token],
        ["/api/v1/notes?limit=x", token],
        ["/api/v1/notes", undefined],
        ["/api/v1/help", undefined],
        ["/api/v1/help/notes", undefined],
        ["/api/v1/help/notes?format=md", undefined],
        ["/api/v1/help/no-such-topic", undefined],
        ["/api/v1/notes/1/x", token],
        ["/api/v1/building/room", token],
      ] as const
    ) {
      const get = await call("GET", path, tok);
      const head = await call("HEAD", path, tok);
      assertEquals(head.status, get.status, `HEAD ${path}: ${get.body}`);
      assertEquals(head.body, "", path);
      assertEquals(head.headers.get("content-type"), get.headers.get("content-type"), path);
      assertEquals(head.headers.get("x-frame-options"), "DENY", path);
    }
  } finally {
    await w.stop();
  }
});
