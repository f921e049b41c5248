/** The example scripts shipped in system/scripts/, run from that folder by a real engine. */
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { startTestGame } from "../src/plugins/testing.ts";

const DIR = new URL("../system/scripts/", import.meta.url).pathname;

Deno.test("example scripts: +roll, +finger, +who, and each passes @script/check", async () => {
  // The examples' output is under test, not the time limit: the sandbox's clock counts this
  // process's CPU, which parallel test files share, so the limit is set to its maximum.
  const g = await startTestGame({
    plugins: ["help"],
    config: { scripts: { dir: DIR, timeoutMs: 250 } },
  });
  try {
    const ada = await g.player("Ada", { flags: ["admin"] });
    const bob = await g.player("Bob");
    const cat = await g.player("Cat", { room: "#1" });
    await g.player("Dan"); // never connects
    await g.connect(cat);

    // +roll: the room sees the roll; the numbers add up.
    const rolled = await g.run(bob, "+roll 3d6+2");
    const m = /^\[Roll\] Bob rolls 3d6\+2: (\d+) \((\d) \+ (\d) \+ (\d) \+ 2\)$/.exec(
      rolled.text("Cat"),
    );
    assert(m, rolled.text("Cat"));
    const [total, ...dice] = m!.slice(1).map(Number);
    assert(dice.every((d) => d >= 1 && d <= 6));
    assertEquals(total, dice[0] + dice[1] + dice[2] + 2);
    assertEquals(rolled.text("Bob"), rolled.text("Cat"));
    const alone = await g.run(bob, "+dice/private 1d20-1");
    assertMatch(alone.text("Bob"), /^\[Roll\] You roll 1d20-1: -?\d+/);
    assertEquals(alone.text("Cat"), "");
    assertMatch((await g.run(bob, "+roll lots")).text("Bob"), /^Usage: \+roll/);
    assertEquals(
      (await g.run(bob, "+roll 500d6")).text("Bob"),
      "Roll 1 to 100 dice of 2 to 1000 sides.",
    );
    assertMatch((await g.run(bob, "+roll/loud 1d6")).text("Bob"), /Unknown switch \/loud/);

    // +finger: fields set with /set, shown to others with presence.
    assertEquals(
      (await g.run(bob, "+finger/set fullname=Robert Smith")).text("Bob"),
      "Finger field fullname set.",
    );
    assertEquals(
      (await g.run(bob, "+finger/set timezone=UTC+1")).text("Bob"),
      "Finger field timezone set.",
    );
    await g.run(bob, "@describe me=A lanky fellow.\nWith more lines.");
    const fingered = (await g.run(cat, "+finger Bob")).text("Cat");
    assertMatch(
      fingered,
      /Bob \(#\d+\)\n=+\nFullname\s+Robert Smith\nTimezone\s+UTC\+1\nDescription\s+A lanky fellow\./,
    );
    assertMatch(fingered, /Online for \d+s, idle \d+s\./);
    assertMatch((await g.run(cat, "+finger Dan")).text("Cat"), /Offline\./);
    assertEquals(
      (await g.run(cat, "+finger Nobody")).text("Cat"),
      "I don't recognize a player named 'Nobody'.",
    );
    assertEquals(
      (await g.run(bob, "+finger/set timezone=")).text("Bob"),
      "Finger field timezone cleared.",
    );
    // Fields are visual attributes: the store softcode and REST read.
    const fields = await g.engine.services.attributes.list(bob.id, "FINGER.*");
    assertEquals(
      fields.map((a) => [a.name, a.value, [...a.flags]]),
      [["FINGER.FULLNAME", "Robert Smith", ["visual"]]],
    );
    assertEquals((await g.engine.services.objects.get(bob.id))?.data.state, undefined);
    assertMatch((await g.run(bob, "+finger/set bad field=x")).text("Bob"), /^Usage: \+finger\/set/);

    // +who: a table of who is on, staff starred.
    await g.connect(ada);
    const who = await g.run(bob, "+who");
    const text = who.text("Bob");
    assertMatch(text, /\| Player\s+\| On For\s+\| Idle\s+\|/);
    assertMatch(text, /\| \*Ada\s+\|/);
    assertMatch(text, /\| {2}Bob\s+\|/);
    assert(!text.includes("Dan"));
    assertMatch(text, /3 players connected\.$/);
    assertEquals((who.of("Bob")[0].data as { type: string }).type, "who");

    // Their help comes from the scripts' `help` export, through the help plugin.
    assertMatch((await g.run(bob, "help +roll")).text("Bob"), /\+roll\/private <dice>/);
    assertMatch((await g.run(bob, "help +finger")).text("Bob"), /\+finger\/set <field>=/);

    // Each example loads and type-checks against sdk.d.ts.
    for (const name of ["+roll", "+finger", "+who"]) {
      const checked = (await g.run(ada, `@script/check ${name}`)).text("Ada");
      assertMatch(
        checked,
        new RegExp(`\\${name}: ok\\.\\n\\s+Load: ok.*\\n\\s+Types: ok\\.`),
        checked,
      );
    }
  } finally {
    await g.close();
  }
});

Deno.test("the plugin test kit loads the game's system scripts only when asked", async () => {
  const plain = await startTestGame({ plugins: [] });
  try {
    const bob = await plain.player("Bob");
    assertEquals((await plain.run(bob, "+roll 1d6")).text("Bob"), "Huh? Type 'help' for help.");
  } finally {
    await plain.close();
  }
  const g = await startTestGame({ plugins: [], scripts: true });
  try {
    const bob = await g.player("Bob");
    assertMatch((await g.run(bob, "+roll/private 1d6")).text("Bob"), /^\[Roll\] You roll 1d6: \d$/);
    assertEquals(g.engine.services.commands.get("+who")?.owner, "system/scripts");
  } finally {
    await g.close();
  }
});
