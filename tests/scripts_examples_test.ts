/** The example scripts shipped in system/scripts/, run from that folder by a real engine. */
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { startTestGame, type TestGame, type TestPlayer } from "../src/plugins/testing.ts";

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

/** The shipped +who as it was before u.who(): the same table, from u.online()'s objects. */
const WHO_BY_ONLINE = `export const guests = true;
const STAFF = ["superuser", "admin", "wizard"];

function dur(s: number): string {
  if (s < 60) return \`\${s}s\`;
  if (s < 3600) return \`\${Math.floor(s / 60)}m\`;
  if (s < 86400) return \`\${Math.floor(s / 3600)}h \${Math.floor((s % 3600) / 60)}m\`;
  return \`\${Math.floor(s / 86400)}d \${Math.floor((s % 86400) / 3600)}h\`;
}

function pad(text: string, width: number): string {
  return text.length >= width ? text.slice(0, width) : text + " ".repeat(width - text.length);
}

export default async function who(u: ScriptSdk): Promise<void> {
  const players = await u.online();
  const rule = "%cc+" + "-".repeat(26) + "+" + "-".repeat(11) + "+" + "-".repeat(8) + "+%cn";
  // The last cell comes padded: its colour codes take no room on the screen.
  const row = (a: string, b: string, idle: string) =>
    \`%cc|%cn \${pad(a, 24)} %cc|%cn \${pad(b, 9)} %cc|%cn \${idle} %cc|%cn\`;
  const lines = [rule, row("Player", "On For", pad("Idle", 6)), rule];
  for (const p of players) {
    const star = p.flags.some((f) => STAFF.includes(f)) ? "*" : " ";
    const idle = pad(dur(p.idle), 6);
    lines.push(row(\`\${star}\${p.name}\`, dur(p.onFor), p.idle >= 600 ? \`%cx\${idle}%cn\` : idle));
  }
  lines.push(rule, \`\${players.length} player\${players.length === 1 ? "" : "s"} connected.\`);
  await u.send(lines.join("\\n"), {
    type: "who",
    players: players.map((p) => ({ id: p.id, name: p.name, onFor: p.onFor, idle: p.idle })),
  });
}
`;

/** What `line` sends `player`, run until two runs agree (a second may turn between two runs). */
async function steady(g: TestGame, player: TestPlayer, lines: string[]): Promise<unknown[][]> {
  for (let attempt = 1;; attempt++) {
    const got = [];
    for (const line of [...lines, lines[0]]) got.push((await g.run(player, line)).of(player.name));
    const first = JSON.stringify(got[0]);
    if (JSON.stringify(got.at(-1)) === first || attempt === 5) return got.slice(0, -1);
  }
}

Deno.test("+who: u.who()'s rows are u.online()'s players, and +who writes what it wrote with u.online()", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ursamu-who-" });
  await Deno.copyFile(`${DIR}+who.ts`, `${dir}/+who.ts`);
  await Deno.writeTextFile(`${dir}/+oldwho.ts`, WHO_BY_ONLINE);
  await Deno.writeTextFile(
    `${dir}/+rows.ts`,
    `const STAFF = ["superuser", "admin", "wizard"];
export default async (u) => {
  const rows = await u.who(), online = await u.online();
  const asRows = online.map((p) => [p.id, p.name, p.onFor, p.idle, p.flags.some((f) => STAFF.includes(f))]);
  await u.send(JSON.stringify(rows) + "\\n" + JSON.stringify(asRows));
};`,
  );
  const g = await startTestGame({ plugins: [], config: { scripts: { dir, timeoutMs: 250 } } });
  try {
    const ada = await g.player("Ada", { flags: ["admin"] });
    const bob = await g.player("Bob");
    const cat = await g.player("Cat", { flags: ["wizard"] });
    const dan = await g.player("Dan", { flags: ["dark"] });
    for (const p of [cat, dan, ada, bob]) await g.connect(p);
    for (
      const [viewer, names] of [[bob, ["Cat", "Ada", "Bob"]], [ada, [
        "Cat",
        "Dan",
        "Ada",
        "Bob",
      ]]] as const
    ) {
      const [rows] = await steady(g, viewer, ["+rows"]);
      const [mine, theirs] = (rows[0] as { text: string }).text.split("\n").map((l) =>
        JSON.parse(l)
      );
      assertEquals(mine, theirs);
      assertEquals(mine.map((r: unknown[]) => r[1]), names);
      assertEquals(mine.map((r: unknown[]) => r[4]), names.map((n) => n === "Cat" || n === "Ada"));
      const [now, before] = await steady(g, viewer, ["+who", "+oldwho"]);
      assertEquals(now, before);
      assertMatch(
        (now[0] as { text: string }).text,
        new RegExp(`${names.length} players connected\\.$`),
      );
    }
  } finally {
    await g.close();
    await Deno.remove(dir, { recursive: true });
  }
});
