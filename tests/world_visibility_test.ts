/**
 * One visibility rule for contents and locations (issue 31, item 9), through the real engine:
 * REST `dbobj`, `look`, `examine`, `who`/`players/online` and scripts' SDK agree. A contents list
 * names only what the caller could read by id; a dark player is listed nowhere and its location
 * is shown to nobody but itself and staff; an unfindable one's location likewise.
 */
import { assert, assertEquals } from "./assert.ts";
import { startTestGame, type TestGame, type TestPlayer } from "../src/plugins/testing.ts";

const PEEK = `export const help = "+peek <player>";
export default async (u) => {
  const p = await u.player(u.cmd.args);
  const here = await u.contents("here");
  const names = here.map((o) => o.name).sort();
  await u.send("peek " + JSON.stringify({ location: p.location, here: names }));
};`;

/** What `+peek <name>` reports for `who`. */
async function peek(g: TestGame, who: TestPlayer, name: string) {
  const line = (await g.run(who, `+peek ${name}`)).text(who.name);
  const m = /peek (\{.*\})/.exec(line);
  assert(m, line);
  return JSON.parse(m[1]) as { location: string; here: string[] };
}

Deno.test("visibility: contents and locations follow one rule everywhere", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "ursamu-visibility-" });
  await Deno.writeTextFile(`${dir}/+peek.js`, PEEK);
  const g = await startTestGame({ plugins: [], config: { scripts: { dir } } });
  try {
    const s = g.engine.services;
    const pat = await g.player("Pat");
    const ola = await g.player("Ola");
    const sue = await g.player("Sue", { flags: ["admin"] });
    const dee = await g.player("Dee", { flags: ["admin", "dark"] });
    for (const p of [pat, ola, sue, dee]) await g.connect(p);
    const garden = await s.objects.create({ name: "Garden", type: "room" });
    const locket = await s.objects.create({
      name: "Locket",
      type: "thing",
      location: ola.id,
      owner: ola.id,
    });
    const move = (p: TestPlayer, to: string) =>
      s.objects.update(p.id, (o) => {
        o.location = to;
      });
    const flag = (id: string, f: string, on: boolean) =>
      s.objects.update(id, (o) => {
        o.flags = on ? [...o.flags, f] : o.flags.filter((x) => x !== f);
      });
    const get = (as: TestPlayer, id: string) => g.request("GET", `/api/v1/dbobj/${id}`, { as });
    const names = (r: { body: { contents: { name: string }[] } }) =>
      r.body.contents.map((c) => c.name).sort();

    await t.step("what another player carries: listed only where it can be read", async () => {
      // Together in Limbo: Pat sees what Ola carries, by her contents and by id.
      assertEquals(names(await get(pat, ola.id)), ["Locket"]);
      assertEquals((await get(pat, locket.id)).status, 200);
      assert(/Carrying: Locket/.test((await g.run(pat, "look Ola")).text("Pat")));
      // Apart: neither.
      await move(pat, garden.id);
      assertEquals(names(await get(pat, ola.id)), []);
      assertEquals((await get(pat, locket.id)).status, 404);
      const attrs = await g.request("GET", `/api/v1/dbobj/${locket.id}/attributes`, { as: pat });
      assertEquals(attrs.status, 404, "nor its attributes");
      assertEquals((await get(pat, ola.id)).body.location, "1", "a player's room is no secret");
      // Staff and the owner see it wherever they are.
      assertEquals(names(await get(sue, ola.id)), ["Locket"]);
      // Opaque: not even together.
      await move(pat, "1");
      await flag(ola.id, "opaque", true);
      assertEquals(names(await get(pat, ola.id)), []);
      assertEquals((await get(pat, locket.id)).status, 404);
      assert(!/Carrying/.test((await g.run(pat, "look Ola")).text("Pat")));
      assertEquals(names(await get(ola, ola.id)), ["Locket"]);
      await flag(ola.id, "opaque", false);
    });

    await t.step(
      "a dark staff member: nowhere listed, no location, except to itself and staff",
      async () => {
        // Everyone is in Limbo (#1).
        const seen = await get(pat, dee.id);
        assertEquals(seen.status, 200);
        assertEquals(seen.body.location, "");
        assert(!names(await get(pat, "1")).includes("Dee"));
        const online = await g.request("GET", "/api/v1/players/online", { as: pat });
        assert(!online.body.some((p: { name: string }) => p.name === "Dee"));
        const look = (await g.run(pat, "look")).of("Pat").find((h) => h.data.type === "room");
        assert(!JSON.stringify(look?.data.players).includes("Dee"));
        assertEquals(await peek(g, pat, "Dee"), { location: "", here: ["Ola", "Pat", "Sue"] });
        // Staff and Dee itself see it.
        assertEquals((await get(sue, dee.id)).body.location, "1");
        assertEquals((await get(dee, dee.id)).body.location, "1");
        assert(names(await get(sue, "1")).includes("Dee"));
        assertEquals((await peek(g, sue, "Dee")).location, "1");
        assert((await peek(g, sue, "Dee")).here.includes("Dee"));
      },
    );

    await t.step("examine of a room one controls leaves out whoever is hidden there", async () => {
      await s.objects.update(garden.id, (o) => {
        o.owner = pat.id;
      });
      await move(dee, garden.id);
      await move(ola, garden.id);
      const heard = (await g.run(pat, `examine #${garden.id}`)).of("Pat");
      const ex = heard.find((h) => h.data.type === "examine");
      assert(ex, JSON.stringify(heard));
      assertEquals((ex.data.contents as { name: string }[]).map((c) => c.name), ["Ola"]);
      assert(!/Dee/.test(ex.text), ex.text);
      const staff = (await g.run(sue, `examine #${garden.id}`)).of("Sue")
        .find((h) => h.data.type === "examine");
      assert(/Dee/.test(staff?.text ?? ""), staff?.text);
    });

    await t.step(
      "an unfindable player: listed where one stands, its location shown to nobody else",
      async () => {
        await flag(ola.id, "unfindable", true);
        await move(ola, "1");
        await move(pat, garden.id);
        assertEquals((await get(pat, ola.id)).body.location, "");
        const online = await g.request("GET", "/api/v1/players/online", { as: pat });
        const entry = online.body.find((p: { name: string }) => p.name === "Ola");
        assertEquals(entry?.location, "", "listed online, without the room");
        assert(!names(await get(pat, "1")).includes("Ola"));
        assertEquals((await peek(g, pat, "Ola")).location, "");
        await move(pat, "1");
        assert(names(await get(pat, "1")).includes("Ola"), "in the same room she is seen");
        assertEquals((await get(ola, ola.id)).body.location, "1");
        assertEquals((await get(sue, ola.id)).body.location, "1");
      },
    );
  } finally {
    await g.close();
    await Deno.remove(dir, { recursive: true });
  }
});
