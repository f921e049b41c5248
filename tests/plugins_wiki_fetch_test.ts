/**
 * `@wiki/fetch` through the real engine: with the real resolver and filter it refuses a server
 * listening on 127.0.0.1 (the server never sees a request); with the test resolver of the
 * `wiki_netpolicy` fixture it follows a redirect from an allowed test address and refuses the
 * refused one it leads to, and it stores a good image served by a test server that the
 * resolver treats as public. Each refusal is a clear message and leaves the wiki as it was.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startTestGame } from "../src/plugins/testing.ts";

const NETPOLICY = join(import.meta.dirname!, "fixtures/plugins/wiki_netpolicy");
const PNG = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 73, 72, 68, 82]);

/** A loopback image server that records the paths it was asked for. */
function imageServer() {
  const hits: string[] = [];
  const server: Deno.HttpServer<Deno.NetAddr> = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    onListen() {},
  }, (req): Response => {
    const path = new URL(req.url).pathname;
    hits.push(path);
    if (path === "/cat.png") return new Response(PNG, { headers: { "content-type": "image/png" } });
    if (path === "/doc.pdf") {
      return new Response("%PDF-1.4\n%%EOF\n", { headers: { "content-type": "application/pdf" } });
    }
    if (path === "/page") {
      return new Response("<p>hi</p>", { headers: { "content-type": "text/html" } });
    }
    if (path === "/to-cat") {
      return new Response(null, { status: 302, headers: { location: "/cat.png" } });
    }
    if (path === "/to-inside") {
      return new Response(null, {
        status: 301,
        headers: { location: `http://inside.test:${server.addr.port}/cat.png` },
      });
    }
    if (path === "/to-metadata") {
      return new Response(null, {
        status: 307,
        headers: { location: "http://169.254.169.254/latest/meta-data/iam" },
      });
    }
    return new Response("no", { status: 404 });
  });
  return { port: server.addr.port, hits, close: () => server.shutdown() };
}

async function files(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string, rel: string) => {
    for await (const e of Deno.readDir(d)) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory) await walk(join(d, e.name), r);
      else out.push(r);
    }
  };
  await walk(dir, "");
  return out.sort();
}

async function game(plugin: string, dir: string, wiki: Record<string, unknown> = {}) {
  return await startTestGame({
    plugins: [plugin],
    config: { server: { wikiDir: dir }, plugins: { wiki } },
  });
}

Deno.test("@wiki/fetch: the real filter refuses a server on 127.0.0.1, in every spelling", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ursamu-wiki-" });
  const srv = imageServer();
  const g = await game("wiki", dir);
  try {
    const boss = await g.player("Boss", { flags: ["wizard"] });
    const ann = await g.player("Ann");
    for (const host of ["127.0.0.1", "127.1.2.3", "[::1]", "[::ffff:127.0.0.1]", "0x7f000001"]) {
      const out = (await g.run(boss, `@wiki/fetch http://${host}:${srv.port}/cat.png=img/cat.png`))
        .text("Boss");
      assert.match(out, /@wiki\/fetch: Refused: .* a loopback address/, host);
    }
    const meta = (await g.run(boss, "@wiki/fetch http://169.254.169.254/latest=img/x.png"))
      .text("Boss");
    assert.match(meta, /Refused: 169\.254\.169\.254 is 169\.254\.169\.254, the cloud metadata/);
    const local = (await g.run(boss, `@wiki/fetch http://localhost:${srv.port}/cat.png=img/l.png`))
      .text("Boss");
    assert.match(local, /Refused|Could not resolve/);
    assert.match(
      (await g.run(boss, "@wiki/fetch file:///etc/passwd=img/p.png")).text("Boss"),
      /Only http and https/,
    );
    assert.match(
      (await g.run(boss, "@wiki/fetch http://example.com/a.png=img/a.txt")).text("Boss"),
      /must end in/,
    );
    assert.match((await g.run(boss, "@wiki/fetch nothing")).text("Boss"), /Usage/);
    // Players may not fetch at all.
    const refused = (await g.run(ann, `@wiki/fetch http://127.0.0.1:${srv.port}/cat.png=a.png`))
      .text("Ann");
    assert.doesNotMatch(refused, /Fetched/);
    assert.deepEqual(srv.hits, []);
    assert.deepEqual(await files(dir), []);
  } finally {
    await g.close();
    await srv.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("@wiki/fetch: a public-treated test server is fetched; redirects to refused addresses are not", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ursamu-wiki-" });
  const srv = imageServer();
  const g = await game(NETPOLICY, dir, {
    hosts: ["images.test=127.0.0.1", "inside.test=10.20.30.40"],
    public: ["127.0.0.1"],
  });
  try {
    const boss = await g.player("Boss", { flags: ["admin"] });
    const ann = await g.player("Ann");
    const base = `http://images.test:${srv.port}`;
    const ok = (await g.run(boss, `@wiki/fetch ${base}/cat.png=gallery/cat.png`)).text("Boss");
    assert.match(ok, /Fetched 16 bytes of image\/png into 'gallery\/cat\.png'\./);
    assert.deepEqual(await Deno.readFile(join(dir, "gallery/cat.png")), PNG);
    const served = await fetch(`${g.base}/api/v1/wiki/gallery/cat.png`);
    assert.equal(served.headers.get("content-type"), "image/png");
    assert.deepEqual(new Uint8Array(await served.arrayBuffer()), PNG);
    // A redirect within the allowed address is followed.
    const moved = (await g.run(boss, `@wiki/fetch ${base}/to-cat=gallery/cat2.png`)).text("Boss");
    assert.match(moved, /Fetched 16 bytes/);
    const pdf = (await g.run(boss, `@wiki/fetch ${base}/doc.pdf?v=1&x=2=docs/rules.pdf`))
      .text("Boss");
    assert.match(pdf, /application\/pdf into 'docs\/rules\.pdf'/);

    const before = await files(dir);
    const hitsBefore = srv.hits.length;
    const inside = (await g.run(boss, `@wiki/fetch ${base}/to-inside=gallery/in.png`)).text("Boss");
    assert.match(inside, /Refused: inside\.test is 10\.20\.30\.40, a private address\./);
    const metadata = (await g.run(boss, `@wiki/fetch ${base}/to-metadata=gallery/m.png`))
      .text("Boss");
    assert.match(metadata, /cloud metadata/);
    // Only the redirecting pages were asked for; the refused targets never were.
    assert.deepEqual(srv.hits.slice(hitsBefore), ["/to-inside", "/to-metadata"]);
    // Wrong type for the path, and not an image at all.
    assert.match(
      (await g.run(boss, `@wiki/fetch ${base}/cat.png=gallery/cat.gif`)).text("Boss"),
      /image\/png, not an accepted type/,
    );
    assert.match(
      (await g.run(boss, `@wiki/fetch ${base}/page=gallery/p.png`)).text("Boss"),
      /text\/html, not an accepted type/,
    );
    assert.match(
      (await g.run(boss, `@wiki/fetch ${base}/missing.png=gallery/x.png`)).text("Boss"),
      /answered 404/,
    );
    assert.deepEqual(await files(dir), before);

    const listing = await g.request("GET", "/api/v1/wiki/gallery", { as: ann });
    assert.deepEqual(listing.body.children.map((c: { path: string }) => c.path), [
      "gallery/cat.png",
      "gallery/cat2.png",
    ]);
  } finally {
    await g.close();
    await srv.close();
    await Deno.remove(dir, { recursive: true });
  }
});
