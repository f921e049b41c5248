/**
 * Black-box test of exits changing under players' feet: the engine keeps recently used rooms'
 * exits in memory (every typed word is matched against them), so a new, renamed or destroyed
 * exit must work, or stop working, at once.
 */
import { assertEquals } from "./assert.ts";
import { isType, startWorld } from "./commands_world.ts";

const HUH = /^Huh\? Type 'help' for help\.$/;

Deno.test("commands: exits opened, renamed and destroyed take effect at once", async () => {
  const w = await startWorld(["Alice"]);
  try {
    const root = await w.login("Root");
    const alice = await w.login("Alice");
    const exitNames = async () =>
      (await alice.cmd("look", isType("room"))).data.exits.map((e: { name: string }) => e.name)
        .sort();
    assertEquals(await exitNames(), ["North"]);
    await alice.cmd("d", HUH);

    await root.cmd(`@open Door;d=#${w.seed.garden}`, /^Opened\.\nLinked\.$/);
    assertEquals(await exitNames(), ["Door", "North"]);
    assertEquals((await alice.cmd("d", isType("room"))).data.name, "Garden");
    await alice.cmd("s", isType("room"));

    // (The alias d, kept in data.aliases by @open, stays.)
    await root.cmd("@name Door=Gate;g", /^Name set\.$/);
    await alice.cmd("door", HUH);
    assertEquals((await alice.cmd("g", isType("room"))).data.name, "Garden");
    await alice.cmd("s", isType("room"));

    await root.cmd("@destroy Gate", /^Destroyed Gate/);
    await alice.cmd("g", HUH);
    await alice.cmd("d", HUH);
    assertEquals(await exitNames(), ["North"]);
  } finally {
    await w.stop();
  }
});
