/** Black-box tests of player aliases: @alias, and page, *name and registration honouring them. */
import { assert, assertEquals } from "./assert.ts";
import { startWorld } from "./commands_world.ts";
import { api } from "./harness.ts";

const QUIET_MS = 300;

Deno.test("commands: @alias gives players names that page and *name find", async (t) => {
  const w = await startWorld(["Alice", "Bob", "Carol"]);
  try {
    const alice = await w.login("Alice");
    const bob = await w.login("Bob");
    const root = await w.login("Root");

    await t.step("a player sets, shows and clears its own aliases", async () => {
      await bob.cmd("@alias me=Rob;Bobby", /^Aliases of Bob set to: Rob, Bobby\.$/);
      const shown = await alice.cmd("@alias Bob", /^Bob's aliases: Rob, Bobby\.$/);
      assertEquals(shown.data.aliases, ["Rob", "Bobby"]);
      await bob.cmd("@alias me=", /^Aliases of Bob cleared\.$/);
      await alice.cmd("@alias *bob", /^Bob has no aliases\.$/);
      await bob.cmd("@alias me=Rob", /^Aliases of Bob set to: Rob\.$/);
    });

    await t.step("page by alias reaches the player, named by its name", async () => {
      await alice.cmd("page rob=Lunch?", /^You paged Bob with 'Lunch\?/);
      const got = await bob.ws.expect(/^Alice pages: Lunch\?/);
      assertEquals(got.data.to, [{ id: bob.id, name: "Bob" }]);
      await alice.cmd("page ROB Carol=Both of you.", /^Carol is not connected\.$/);
      await bob.ws.expect(/^Alice pages: Both of you\./);
    });

    await t.step("*alias finds the player anywhere", async () => {
      const ex = await alice.cmd("examine *rob", (m) => /Bob/.test(m.msg));
      assert(/Bob/.test(ex.msg));
    });

    await t.step("taken, invalid and others' aliases are refused", async () => {
      await alice.cmd("@alias me=rob", /^The alias 'rob' is already taken\.$/);
      await alice.cmd("@alias me=carol", /^The alias 'carol' is already taken\.$/);
      await alice.cmd("@alias me=9lives", /won't do as an alias/);
      await alice.cmd("@alias me=A1;B1;C1;D1", /at most 3 aliases/);
      await alice.cmd("@alias Bob=Bert", /^Permission denied\.$/);
      await alice.cmd("@alias Nobody=x", /^I don't recognize a player named 'Nobody'\.$/);
      assert(!(await bob.ws.sees(/Bert/, QUIET_MS)));
    });

    await t.step("staff set a player's aliases", async () => {
      await root.cmd("@alias Carol=Caz", /^Aliases of Carol set to: Caz\.$/);
      await alice.cmd("page caz=hi", /^Carol is not connected\.$/);
    });

    await t.step("nobody can register or be renamed to a word that is an alias", async () => {
      const r = await api(w.srv.base, "POST", "/api/v1/auth/register", {
        name: "Rob",
        password: "password123",
      });
      assertEquals(r.status, 409);
      await alice.cmd("@name me=Caz", /already taken/);
    });

    await t.step("renaming onto its own alias makes it the name", async () => {
      await bob.cmd("@name me=Rob", /^Name set\.$/);
      await bob.cmd("@alias me", /^Rob has no aliases\.$/);
      await alice.cmd("page rob=Still you?", /^You paged Rob with 'Still you\?/);
    });

    await t.step("a toaded player's alias is free again", async () => {
      await root.cmd("@toad Carol", /^You turned Carol into a toad\.$/);
      await alice.cmd("page caz=hello", /^I don't recognize a player named 'caz'\.$/);
      await alice.cmd("@alias me=Caz", /^Aliases of Alice set to: Caz\.$/);
    });
  } finally {
    await w.stop();
  }
});
