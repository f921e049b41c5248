/**
 * The wiki through the whole stack (supervisor, engine, telnet sidecar) as a telnet player
 * sees it: a page written on disk is read with `+wiki`, wrapped to the width the client
 * reported with NAWS, and staff create a page in game that the REST API then serves.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { api } from "./harness.ts";
import { ADMIN, startSupervised, telnetLogin } from "./supervised.ts";

Deno.test("wiki over telnet: +wiki wraps to the NAWS width; @wiki/create writes the file", async () => {
  const wiki = await Deno.makeTempDir({ prefix: "ursamu-wiki-" });
  await Deno.writeTextFile(
    join(wiki, "guide.md"),
    "---\ntitle: Player Guide\ntags: [newbie]\n---\n\n# Start here\n\n" +
      "Every new player should read this paragraph, which is long enough to wrap several " +
      "times on a narrow screen of forty columns.\n\n- a list item that also wraps onto a " +
      "second line at forty columns\n",
  );
  const srv = await startSupervised({ config: { server: { wikiDir: wiki } } });
  try {
    const t = await telnetLogin(srv, ADMIN.name, ADMIN.password, {
      naws: { width: 40, height: 24 },
    });
    try {
      let from = t.mark();
      await t.send("+wiki guide");
      await t.waitFor(/Tags: newbie/, 10_000, from);
      const page = t.plain.slice(from);
      assertMatch(page, /Player Guide \(guide\)/);
      assertMatch(page, /Start here/);
      const lines = page.split(/\r?\n/).filter((l) => l.trim() !== "");
      for (const l of lines) assert(l.length <= 40, `wider than 40: '${l}'`);
      assert(lines.filter((l) => /paragraph|wrap|columns/.test(l)).length >= 3);

      from = t.mark();
      await t.send("@wiki/create lore/moons=The Moons/Two moons.%rOne is red.");
      await t.waitFor(/Wiki page 'lore\/moons' created\./, 10_000, from);
      const text = await Deno.readTextFile(join(wiki, "lore/moons.md"));
      assertMatch(text, /^---\ntitle: The Moons\nauthor: Admin\ndate: \d{4}-\d{2}-\d{2}\n---\n\n/);
      assertMatch(text, /Two moons\.\nOne is red\.$/);
      const login = await api(srv.base, "POST", "/api/v1/auth/login", ADMIN);
      const rest = await api(
        srv.base,
        "GET",
        "/api/v1/wiki/lore/moons",
        undefined,
        login.body.token,
      );
      assertEquals(rest.body.title, "The Moons");
    } finally {
      await t.close();
    }
  } finally {
    await srv.stop();
    await Deno.remove(wiki, { recursive: true });
  }
});
