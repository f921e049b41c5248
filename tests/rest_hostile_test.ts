import { assert, assertEquals } from "./assert.ts";
import { api, register, startServer } from "./harness.ts";

/** A small deterministic PRNG so a failure can be replayed. */
function prng(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
}

const BODIES: string[] = [
  "",
  "null",
  "[]",
  "{}",
  '{"__proto__":{"flags":["admin"]}}',
  '{"constructor":{"prototype":{"admin":true}}}',
  '{"name":{"$gt":""},"password":{"$gt":""}}',
  '{"data":{"__proto__":{"x":1}}}',
  '{"name":"' + "\u202e".repeat(40) + '","password":"password123"}',
  '{"name":"a\\u0000b","password":"password123"}',
  "[".repeat(50_000),
  '{"a":' + "[".repeat(5000) + "]".repeat(5000) + "}",
  '{"name":"x","password":"' + "p".repeat(60_000) + '"}',
  "\uFFFD\uFFFE not json",
];

Deno.test("hostile REST input never crashes the engine or changes data", async () => {
  const srv = await startServer();
  const b = srv.base;
  try {
    const token = await register(b, "Target");
    const me = (await api(b, "GET", "/api/v1/me", undefined, token)).body;
    const routes: [string, string][] = [
      ["POST", "/api/v1/auth/register"],
      ["POST", "/api/v1/auth/login"],
      ["POST", "/api/v1/auth/reset-password"],
      ["PATCH", `/api/v1/dbobj/${me.id}`],
      ["PATCH", "/api/v1/dbobj/1"],
      ["GET", "/api/v1/dbos?flags=" + encodeURIComponent("../../")],
      ["GET", "/api/v1/dbobj/" + encodeURIComponent("#1/../2")],
    ];
    for (const [method, path] of routes) {
      for (const body of method === "GET" ? [undefined] : BODIES) {
        const r = await api(b, method, path, body, token);
        assert(r.status < 500, `${method} ${path} ${String(body).slice(0, 40)} → ${r.status}`);
        if (r.status >= 400) assertEquals(typeof r.body.error, "string");
      }
    }
    // Random bytes as bodies and random paths.
    const rand = prng(42);
    for (let i = 0; i < 60; i++) {
      const bytes = new Uint8Array(Math.floor(rand() * 2048));
      for (let j = 0; j < bytes.length; j++) bytes[j] = Math.floor(rand() * 256);
      const path = "/api/v1/" +
        Array.from(
          { length: 3 },
          () => encodeURIComponent(String.fromCharCode(Math.floor(rand() * 0x2fff))),
        ).join("/");
      const res = await fetch(b + path, {
        method: ["POST", "PATCH", "PUT", "DELETE"][i % 4],
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
        body: bytes,
      });
      await res.body?.cancel();
      assert(res.status < 500, `${path} → ${res.status}`);
    }
    // Ids longer than any key the database holds (3 KB once encoded) name nothing: 404/400.
    const longId = encodeURIComponent("漢".repeat(1000));
    for (
      const [method, path] of [
        ["DELETE", `/api/v1/notes/${longId}`],
        ["GET", `/api/v1/dbobj/${longId}`],
        ["GET", `/api/v1/channels/${longId}/history`],
        ["GET", `/api/v1/help/${longId}`],
      ]
    ) {
      const r = await api(b, method, path, undefined, token);
      assert(r.status === 404 || r.status === 400, `${method} ${path.slice(0, 30)} → ${r.status}`);
    }
    const after = await api(b, "GET", "/api/v1/me", undefined, token);
    assertEquals(after.body.flags, ["player"]);
    assertEquals(after.body.name, "Target");
    assertEquals(({} as Record<string, unknown>).admin, undefined);
    assertEquals((await api(b, "GET", "/health")).status, 200);
  } finally {
    await srv.stop();
  }
});
