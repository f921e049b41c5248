/**
 * The API description (issue 16, item 6): `GET /api/v1/openapi.json` of a real engine with every
 * plugin in plugins/ lists exactly the routes the engine registered (`GET /api/v1/routes`), every
 * core route and every route of every shipped plugin is described (none `x-undocumented`), no
 * description names a route that does not exist, and the document holds together (path
 * parameters declared, unique operation ids, responses everywhere).
 */
import { assert, assertEquals } from "./assert.ts";
import { api, startServer } from "./harness.ts";
import { openApiPath } from "../src/http/openapi/build.ts";

// deno-lint-ignore no-explicit-any
type Doc = any;

/** The plugins shipped in plugins/: folders with a manifest. */
async function shippedPlugins(): Promise<string[]> {
  const dir = new URL("../plugins/", import.meta.url);
  const out: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    if (!e.isDirectory || /^[._]/.test(e.name)) continue;
    try {
      await Deno.stat(new URL(`${e.name}/ursamu.plugin.json`, dir));
      out.push(e.name);
    } catch { /* not a plugin */ }
  }
  return out.sort();
}

Deno.test("openapi: the document describes exactly the registered routes", async () => {
  const srv = await startServer();
  try {
    const routes = (await api(srv.base, "GET", "/api/v1/routes")).body as {
      method: string;
      path: string;
      owner: string;
    }[];
    const res = await api(srv.base, "GET", "/api/v1/openapi.json");
    assertEquals(res.status, 200);
    const doc: Doc = res.body;
    assertEquals(doc.openapi, "3.1.0");
    assertEquals(doc["x-unmatched-docs"], undefined, "a description names no registered route");
    const registered = routes.map((r) => `${r.method.toLowerCase()} ${openApiPath(r.path)}`).sort();
    const described: string[] = [];
    const ids = new Set<string>();
    const byOwner = new Map<string, { documented: number; undocumented: string[] }>();
    for (const [path, item] of Object.entries(doc.paths as Record<string, Doc>)) {
      for (const [method, op] of Object.entries(item as Record<string, Doc>)) {
        described.push(`${method} ${path}`);
        assert(!ids.has(op.operationId), `operationId ${op.operationId} is unique`);
        ids.add(op.operationId);
        assert(Object.keys(op.responses ?? {}).length > 0, `${method} ${path} has responses`);
        const declared = (op.parameters ?? []).filter((p: Doc) => p.in === "path").map((p: Doc) =>
          p.name
        ).sort();
        const inPath = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
        assertEquals(declared, inPath, `${method} ${path}: path parameters`);
        const o = byOwner.get(op["x-owner"]) ?? { documented: 0, undocumented: [] };
        if (op["x-undocumented"]) o.undocumented.push(`${method} ${path}`);
        else o.documented++;
        byOwner.set(op["x-owner"], o);
      }
    }
    assertEquals(described.sort(), registered, "the same routes, no more, no fewer");
    const undocumented = [...byOwner.values()].flatMap((o) => o.undocumented);
    assertEquals(undocumented, [], "every core and plugin route is described");
    // Every shipped plugin with a REST API is loaded and contributes its part.
    const shipped = await shippedPlugins();
    assert(shipped.includes("notes"), `the shipped plugins are found (${shipped.join(", ")})`);
    // discord has no REST routes (staff use @discord/status in game).
    for (const owner of shipped.filter((p) => p !== "discord")) {
      assert((byOwner.get(owner)?.documented ?? 0) > 0, `the ${owner} plugin contributes its part`);
    }
    // Boards is mounted twice; both mounts are described.
    assert(doc.paths["/api/v1/bbs/{id}/posts/{num}"]?.patch?.summary, "the /api/v1/bbs mount");
    // Secured operations name the bearer scheme the document defines.
    assertEquals(doc.components.securitySchemes.bearer.scheme, "bearer");
    assertEquals(doc.paths["/api/v1/me"].get.security, [{ bearer: [] }]);
    assertEquals(doc.paths["/api/v1/notes/{id}"].delete.parameters[0].name, "id");
  } finally {
    await srv.stop();
  }
});

Deno.test("openapi: a plugin's description goes when the plugin is unloaded", async () => {
  const srv = await startServer({ config: { plugins: { notes: { enabled: false } } } });
  try {
    const doc: Doc = (await api(srv.base, "GET", "/api/v1/openapi.json")).body;
    assertEquals(doc.paths["/api/v1/notes"], undefined);
    assertEquals(doc["x-unmatched-docs"], undefined);
    assert(doc.paths["/api/v1/channels"], "the others stay");
  } finally {
    await srv.stop();
  }
});
