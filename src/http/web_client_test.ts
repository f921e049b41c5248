import { assert, assertEquals, assertMatch } from "../../tests/assert.ts";
import { join } from "node:path";
import { Hono } from "hono";
import { CONTENT_SECURITY_POLICY, WebClient } from "./web_client.ts";
import { securityHeaders } from "./middleware/headers.ts";

async function fixture(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "ursamu-web-" });
  await Deno.mkdir(join(dir, "web", "assets"), { recursive: true });
  await Deno.writeTextFile(join(dir, "web", "index.html"), "<!doctype html><title>shell</title>");
  await Deno.writeTextFile(join(dir, "web", "assets", "a.js"), "export const a = 1;\n");
  await Deno.writeTextFile(join(dir, "web", "assets", "notes.txt"), "not served");
  await Deno.writeTextFile(join(dir, "secret.js"), "export const secret = 1;\n");
  await Deno.symlink(join(dir, "secret.js"), join(dir, "web", "assets", "link.js"));
  return dir;
}

Deno.test("WebClient: client paths, assets with stable ETags, nothing outside the folder", async () => {
  const dir = await fixture();
  try {
    // A plugin's portal section, as the registry answers for "/kettle".
    const web = new WebClient(join(dir, "web"), (first) => first === "kettle");
    for (const p of ["/", "/play", "/settings", "/profile/12", "/kettle", "/kettle/a/b"]) {
      assert(web.isClientPath(p), p);
    }
    for (const p of ["/nope", "/api/v1/me", "/kettles", "/assets/a.js", "/health", "/stoves"]) {
      assert(!web.isClientPath(p), p);
    }
    const req = new Request("http://x/assets/a.js");
    const a = (await web.asset(req, "a.js"))!;
    assertEquals(a.status, 200);
    assertEquals(a.headers.get("content-security-policy"), CONTENT_SECURITY_POLICY);
    const etag = a.headers.get("etag")!;
    assertMatch(etag, /^"[0-9a-f]{32}"$/);
    assertEquals(await a.text(), "export const a = 1;\n");
    const again =
      (await web.asset(new Request(req, { headers: { "if-none-match": etag } }), "a.js"))!;
    assertEquals(again.status, 304);
    for (const rest of ["../index.html", "../../secret.js", "link.js", "notes.txt", ".a.js", ""]) {
      assertEquals(await web.asset(req, rest), null, rest);
    }
    const shell = await web.shell(new Request("http://x/", { method: "HEAD" }));
    assertEquals(shell.status, 200);
    assertEquals(shell.headers.get("content-length"), "35");
    assertEquals(await shell.text(), "");
    const nf = await web.notFound(new Request("http://x/nope"));
    assertEquals(nf.status, 404);
    assertEquals(nf.headers.get("content-security-policy"), CONTENT_SECURITY_POLICY);
    const missing = await new WebClient(join(dir, "none")).shell(new Request("http://x/"));
    assertEquals(missing.status, 500);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("securityHeaders: HTML gets the CSP unless it set its own; JSON does not", async () => {
  const app = new Hono();
  app.use("*", securityHeaders());
  app.get("/page", (c) => c.html("<p>hi</p>"));
  app.get("/own", (c) => {
    c.header("Content-Security-Policy", "sandbox");
    return c.html("<p>own</p>");
  });
  app.get("/json", (c) => c.json({ ok: true }));
  const csp = async (p: string) => (await app.request(p)).headers.get("content-security-policy");
  assertEquals(await csp("/page"), CONTENT_SECURITY_POLICY);
  assertEquals(await csp("/own"), "sandbox");
  assertEquals(await csp("/json"), null);
  assert(!/unsafe-inline|unsafe-eval/.test(CONTENT_SECURITY_POLICY));
});
