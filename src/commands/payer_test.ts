import assert from "node:assert/strict";
import { testWorld } from "./_test_util.ts";
import { runLine } from "./dispatch.ts";
import { typedFrame } from "../queue/types.ts";

// Whose softcode time a line spends (docs/softcode.md, "Whose time"), whatever it evaluates.
Deno.test("dispatch: a line's evaluations are its payer's: the typist's, a queued chain's (else the owner's), an inline line's enclosing one's", async () => {
  const w = await testWorld();
  try {
    const alice = await w.player("Alice");
    const wiz = await w.player("Wiz", { flags: ["wizard"] });
    const statue = await w.services.objects.create({
      name: "Statue",
      type: "thing",
      location: "1",
      owner: wiz.obj.id,
    });
    const burn = "[null(iter(lnum(3000),add(1,1)))]";
    await w.run(wiz.conn, `@desc #${statue.id}=${burn}Cold stone.`);
    const sc = w.ports.softcode;
    const spent = () => [sc.spentBy(alice.obj.id), sc.spentBy(wiz.obj.id)];

    // A description evaluated as the wizard's statue for Alice's look: Alice's time.
    let [a, z] = spent();
    assert.ok((await w.run(alice.conn, "look statue")).some((t) => t.includes("Cold stone.")));
    assert.ok(sc.spentBy(alice.obj.id) > a, "Alice paid for the description");
    assert.equal(sc.spentBy(wiz.obj.id), z, "the statue's owner paid nothing");

    // A queued line whose chain no player began (a wait of a second or more) is its owner's,
    // even when the queue runs it from inside Alice's command.
    [a, z] = spent();
    const timed = { ...typedFrame(statue.id), chain: { spent: 0 } };
    await sc.onBehalfOf(
      alice.obj.id,
      () =>
        runLine(w.ports, w.engine.commands, { actor: statue.id, frame: timed }, `think ${burn}`),
    );
    assert.equal(sc.spentBy(alice.obj.id), a);
    assert.ok(sc.spentBy(wiz.obj.id) > z, "the owner paid for the timed line");

    // A line run inline (`/now`) inside Alice's is hers; so is one whose chain she began.
    [a, z] = spent();
    await sc.onBehalfOf(
      alice.obj.id,
      () =>
        runLine(w.ports, w.engine.commands, {
          actor: statue.id,
          frame: typedFrame(statue.id),
        }, `think ${burn}`),
    );
    const chained = { ...typedFrame(statue.id), chain: { spent: 0, payer: alice.obj.id } };
    await runLine(
      w.ports,
      w.engine.commands,
      { actor: statue.id, frame: chained },
      `think ${burn}`,
    );
    assert.ok(sc.spentBy(alice.obj.id) > a);
    assert.equal(sc.spentBy(wiz.obj.id), z);
  } finally {
    await w.close();
  }
});
