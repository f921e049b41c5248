/**
 * Shared scenes (issue 39, item 2) end to end on a real engine: `+scene/share` and the PATCH's
 * `shared`, and what visitors read under `/api/v1/public/scenes` (the shared logs, the active
 * public scenes without poses), with every refusal: an unshared or private scene is never
 * shown, a private scene cannot be shared, making a shared scene private unshares it, and
 * `web.public.scenes` off closes the routes.
 */
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { startTestGame } from "../src/plugins/testing.ts";

type Json = Record<string, unknown>;

Deno.test("scenes: owners share scenes; visitors read only shared public ones", async () => {
  const g = await startTestGame({ plugins: ["scenes"] });
  try {
    const ann = await g.player("Ann"), bob = await g.player("Bob");
    const pub = async (path: string) => await g.request("GET", `/api/v1/public/scenes${path}`);
    const make = async (name: string, priv = false) =>
      (await g.request("POST", "/api/v1/scenes", {
        as: ann,
        body: { name, location: "#1", private: priv },
      })).body as Json;
    const tea = await make("Tea at Noon");
    const secret = await make("Whispers", true);
    const running = await make("Still Going");
    for (const s of [tea, secret]) {
      await g.request("POST", `/api/v1/scenes/${s.id}/pose`, {
        as: ann,
        body: { msg: `poses in ${s.name}` },
      });
    }
    await g.request("POST", `/api/v1/scenes/${tea.id}/pose`, { as: bob, body: { msg: "waves." } });

    // Nothing is shared yet: the list is empty and no log can be read.
    assertEquals((await pub("")).body, []);
    for (const s of [tea, secret, running]) {
      const r = await pub(`/${s.id}`);
      assertEquals([r.status, r.body.error], [404, "Scene not found"]);
    }
    // Running public scenes show, without poses; the private one never.
    const active = (await pub("/active")).body as Json[];
    assertEquals(active.map((s) => s.id).sort(), [running.id, tea.id].sort());
    assert(active.every((s) => s.poses === undefined && s.allowed === undefined));

    // Only the owner (or staff) shares; a private scene cannot be.
    const notMine = await g.run(bob, `+scene/share ${tea.id}`);
    assertMatch(notMine.text("Bob"), /Only the scene's owner/);
    const priv = await g.run(ann, `+scene/share ${secret.id}`);
    assertMatch(priv.text("Ann"), /A private scene can't be shared/);
    const bad = await g.request("PATCH", `/api/v1/scenes/${secret.id}`, {
      as: ann,
      body: { shared: true },
    });
    assertEquals([bad.status, typeof bad.body.error], [400, "string"]);
    const wrongType = await g.request("PATCH", `/api/v1/scenes/${tea.id}`, {
      as: ann,
      body: { shared: "yes" },
    });
    assertEquals(wrongType.status, 400);
    assertEquals((await pub("")).body, [], "the refusals changed nothing");

    await g.request("PATCH", `/api/v1/scenes/${tea.id}`, { as: ann, body: { status: "closed" } });
    const shared = await g.run(ann, `+scene/share ${tea.id}`);
    assertMatch(shared.text("Ann"), /Scene \d+ is shared/);
    const list = (await pub("")).body as Json[];
    assertEquals(list.map((s) => s.id), [tea.id]);
    assertEquals(list[0].owner, { id: `#${ann.id}`, name: "Ann" });
    assertEquals(list[0].location, { id: "#1", name: "Limbo" });
    assertEquals((list[0].participants as Json[]).map((p) => p.name), ["Ann", "Bob"]);
    assertEquals(list[0].allowed, undefined, "the allowed list is never shown");
    const log = await pub(`/${tea.id}`);
    assertEquals(log.status, 200);
    assertEquals((log.body.poses as Json[]).map((p) => p.msg), ["poses in Tea at Noon", "waves."]);
    assertEquals((log.body.poses as Json[])[0].moniker, undefined);
    // Each participant's shared scenes, for their character page.
    assertEquals(((await pub(`?player=%23${bob.id}`)).body as Json[]).map((s) => s.id), [tea.id]);
    assertEquals((await pub(`?player=${ann.id}`)).body.length, 1);
    assertEquals((await pub("?player=nobody")).status, 400);
    assertEquals((await pub("?limit=x")).status, 400);
    assertEquals((await pub("?what=1")).status, 400);
    // Players see the flag in the usual views.
    const mine = await g.request("GET", `/api/v1/scenes/${tea.id}`, { as: ann });
    assertEquals(mine.body.shared, true);

    // Private again: no longer shared, and public again shares nothing by itself.
    await g.run(ann, `+scene/privacy ${tea.id}=private`);
    assertEquals((await pub(`/${tea.id}`)).status, 404);
    assertEquals((await pub(`?player=${bob.id}`)).body, []);
    await g.run(ann, `+scene/privacy ${tea.id}=public`);
    assertEquals((await pub("")).body, []);
    await g.run(ann, `+scene/share ${tea.id}`);
    assertEquals((await pub(`/${tea.id}`)).status, 200);
    const un = await g.run(ann, `+scene/unshare ${tea.id}`);
    assertMatch(un.text("Ann"), /no longer shared/);
    assertEquals((await pub(`/${tea.id}`)).status, 404);
    await g.request("PATCH", `/api/v1/scenes/${tea.id}`, { as: ann, body: { shared: true } });
    assertEquals((await pub(`/${tea.id}`)).status, 200, "the page's button: PATCH shared");

    // The owner's switch: off, visitors read nothing; on again, the same as before.
    g.engine.services.config.set("web.public.scenes", false);
    for (const path of ["", "/active", `/${tea.id}`]) {
      const r = await pub(path);
      assertEquals([r.status, r.body.error], [403, "This game does not show scenes to visitors."]);
    }
    g.engine.services.config.set("web.public.scenes", true);
    assertEquals((await pub(`/${tea.id}`)).status, 200);
  } finally {
    await g.close();
  }
});
