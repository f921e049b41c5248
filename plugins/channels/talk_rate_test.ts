/**
 * The channel talk rate through the real engine (the plugin test kit): one player's lines, their
 * things' included, are held to `plugins.channels.linesPerMinute`.
 */
import assert from "node:assert/strict";
import { startTestGame } from "../../src/plugins/testing.ts";

Deno.test("channels: a player's lines and their things' share one talk rate; staff are not held", async () => {
  // Before: nothing held channel talk but the typed-line rate, so `@dolist lnum(99)=pub spam`
  // typed ten times a second put a thousand lines a second before everyone on Public, and each
  // of a player's things could talk as much again (s53probe).
  const game = await startTestGame({
    plugins: ["channels", "building"],
    // Four: the box's announced join is one of Bea's lines.
    config: { plugins: { channels: { linesPerMinute: 4 } } },
  });
  try {
    const bea = await game.player("Bea", { flags: ["builder"] });
    const cy = await game.player("Cy");
    const wiz = await game.player("Wiz", { flags: ["wizard"] });
    for (const p of [bea, cy, wiz]) await game.run(p, "+chan/join Public=pub");
    await game.connect(cy);
    await game.run(bea, "@create Box");
    await game.run(bea, "@force Box=+chan/join Public=pub");
    await game.received();
    let heard = (await game.run(bea, "@force Box=pub from the box")).text("Cy") + "\n";
    heard += (await game.run(bea, "@dolist lnum(10)=pub spam ##")).text("Cy") + "\n";
    for (let i = 0; i < 50 && !/spam 1\b/.test(heard); i++) {
      heard += (await game.received()).text("Cy") + "\n";
      await new Promise((r) => setTimeout(r, 20));
    }
    await new Promise((r) => setTimeout(r, 300));
    heard += (await game.received()).text("Cy");
    // (A line may be in both a run's and received()'s text: each is counted once.)
    const lines = [...new Set(heard.match(/(from the box|spam \d+)/g))];
    assert.deepEqual(lines, ["from the box", "spam 0", "spam 1"]);
    assert.match(
      (await game.run(bea, "pub more")).text("Bea"),
      /^You are talking on channels too fast: at most 4 lines a minute\./,
    );
    let staff = "";
    for (let i = 0; i < 5; i++) staff += (await game.run(wiz, `pub staff ${i}`)).text("Cy") + "\n";
    await new Promise((r) => setTimeout(r, 100));
    staff += (await game.received()).text("Cy");
    assert.equal(new Set(staff.match(/staff \d/g)).size, 5, staff);
  } finally {
    await game.close();
  }
});

Deno.test("channels: joins and leaves announced to a channel count against the talk rate", async () => {
  // Before: each announced join and leave reached every member unheld, so
  // `@dolist lnum(99)={+chan/leave pub;+chan/join Public=pub}` put 200 lines before everyone on
  // Public per typed line, past the talk rate that holds `pub spam`.
  const game = await startTestGame({
    plugins: ["channels"],
    config: { plugins: { channels: { linesPerMinute: 3 } } },
  });
  try {
    const bea = await game.player("Bea");
    const cy = await game.player("Cy");
    for (const p of [bea, cy]) await game.run(p, "+chan/join Public=pub");
    await game.connect(cy);
    await game.received();
    // received() after a run gives what was heard since the run began: the run's text is in it.
    await game.run(bea, "@dolist lnum(10)={+chan/leave pub;+chan/join Public=pub}");
    let heard = "";
    for (let i = 0; i < 20; i++) {
      await new Promise((r) => setTimeout(r, 50));
      heard += (await game.received()).text("Cy") + "\n";
    }
    // Three lines of talk a minute (Bea was put on Public when made, which is not her talk): a
    // leave, the join after it and the next leave are told; the next join is refused (nothing is
    // stored), later leaves find her off the channel, and a join is still refused.
    const told = heard.match(/Bea has (joined|left) this channel\./g) ?? [];
    assert.equal(told.length, 3, heard);
    const out = (await game.run(bea, "+chan/join Public=pub")).text("Bea");
    assert.match(out, /^You are talking on channels too fast/);
  } finally {
    await game.close();
  }
});
