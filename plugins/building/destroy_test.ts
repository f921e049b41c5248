import assert from "node:assert/strict";
import { startTestGame } from "../../src/plugins/testing.ts";

Deno.test("building: @destroy of more than destroyContents holds is refused and changes nothing", async () => {
  // The bound lowered to 2 through the plugin's setting (5,000 by default).
  const game = await startTestGame({
    plugins: ["building"],
    config: { plugins: { building: { destroyContents: 2 } } },
  });
  try {
    const alice = await game.player("Alice", { flags: ["wizard"] });
    const say = async (line: string) => (await game.run(alice, line)).text("Alice").trim();
    const ruin = (await say("@dig Ruin")).match(/#(\d+)/)![1];
    const far = (await say("@dig Far")).match(/#(\d+)/)![1];
    const bob = await game.player("Bob", { room: ruin });
    await game.connect(bob);
    const ids: Record<string, string> = {};
    for (const name of ["A1", "A2", "S1", "S2", "S3"]) {
      ids[name] = (await say(`@create ${name}`)).match(/#(\d+)/)![1];
    }
    await say(`@tel A1=#${ruin}`);
    await say(`@tel A2=#${ruin}`);
    const lcon = (id: string) => say(`think [words(lcon(#${id}))]`);
    assert.equal(await lcon(ruin), "3", "Bob, A1 and A2");

    // A room with a player and two things inside: refused, nothing asked, nothing moved.
    const refused = await game.run(alice, `@destroy/confirm #${ruin}`);
    assert.equal(
      refused.text("Alice").trim(),
      `Ruin(#${ruin}) holds more than 2 objects, more than @destroy sends home at once. ` +
        "Move some out first.",
    );
    assert.equal(refused.text("Bob"), "", "Bob is not sent anywhere");
    assert.equal(
      await say(`think [type(#${ruin})] [loc(*Bob)] [loc(#${ids.A1})]`),
      `ROOM #${ruin} #${ruin}`,
    );
    // destroy() is held to it too (its words come once the destroy has run).
    let told = await say(`think [destroy(#${ruin})]`);
    for (let i = 0; i < 100 && !/holds more than 2 objects/.test(told); i++) {
      await new Promise((r) => setTimeout(r, 50));
      told += (await game.received()).text("Alice");
    }
    assert.match(told, /^Ruin\(#\d+\) holds more than 2 objects/);
    assert.equal(await lcon(ruin), "3");

    // A thing holding three: refused the same way.
    await say("@create Sack");
    for (const name of ["S1", "S2", "S3"]) await say(`@tel ${name}=Sack`);
    assert.match(await say("@destroy Sack"), /^Sack\(#\d+\) holds more than 2 objects/);
    assert.equal(await say("think [words(lcon(Sack))] [type(Sack)]"), "3 THING");

    // A room that three exits lead to: refused before any is unlinked.
    for (const name of ["E1", "E2", "E3"]) await say(`@open ${name}=#${far}`);
    assert.equal(
      await say(`@destroy/confirm #${far}`),
      `More than 2 exits lead to Far(#${far}), more than @destroy unlinks at once. ` +
        "Unlink some first.",
    );
    assert.equal(await say(`think [type(#${far})] [loc(E3)]`), `ROOM #${far}`);

    // At the bound it goes through, everything inside sent home.
    await say(`@tel #${ids.A2}=#${far}`);
    const done = await game.run(alice, `@destroy/confirm #${ruin}`);
    assert.equal(
      done.text("Alice").trim(),
      `Bob has arrived.\nDestroyed Ruin(#${ruin}). 2 object(s) sent home.`,
      "Alice, at Bob's home, hears him arrive",
    );
    assert.match(done.text("Bob"), /Limbo/, "Bob is shown his home");
    assert.equal(await say(`think [type(#${ruin})] [loc(*Bob)]`), "#-1 NOT FOUND #1");
  } finally {
    await game.close();
  }
});
