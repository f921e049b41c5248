import assert from "node:assert/strict";
import { testWorld } from "../_test_util.ts";

/** A world with Alice (connected) carrying a box she owns. */
async function withBox() {
  const w = await testWorld();
  const a = await w.player("Alice");
  const box = await w.services.objects.create({
    name: "Box",
    type: "thing",
    location: a.obj.id,
    owner: a.obj.id,
  });
  return { w, a, box };
}

Deno.test("queue: @trigger runs an attribute as its object, with %#, %0 and shared registers", async () => {
  const { w, a, box } = await withBox();
  try {
    await w.run(a.conn, "&greet box=@pemit %#=Hi %0 from %!;think [setq(0,kept)];@pemit %#=q0=%q0");
    assert.deepEqual(await w.run(a.conn, "@trigger box/greet=Bob"), ["Triggered."]);
    await w.settle();
    const got = w.hub.texts(a.obj.id);
    assert.ok(got.includes(`Hi Bob from #${box.id}`), got.join("|"));
    assert.ok(got.includes("q0=kept"), got.join("|"));
    assert.deepEqual(await w.run(a.conn, "@trigger box/nothing"), ["No match."]);
    assert.deepEqual(await w.run(a.conn, "@tr/quiet box/greet=Q"), []);
  } finally {
    await w.close();
  }
});

Deno.test("queue: @force runs a command as the object; the queue keeps MUX's order", async () => {
  const { w, a, box } = await withBox();
  try {
    // @switch queues 'think 3rd'; think 1st runs; @assert 0 stops 'think 2nd' (MUX's example).
    await w.run(
      a.conn,
      "@force box={@switch 1=1,@pemit %#=3rd;@pemit %#=1st;@assert 0;@pemit %#=2nd}",
    );
    await w.settle();
    const got = w.hub.texts(a.obj.id).filter((t) => /^\d(st|nd|rd)$/.test(t));
    assert.deepEqual(got, ["1st", "3rd"]);
    // The object's own output goes nowhere (it is no puppet): nothing reaches Alice.
    const before = w.hub.texts(a.obj.id).length;
    await w.run(a.conn, "@force box=think private");
    await w.settle();
    assert.equal(w.hub.texts(a.obj.id).length, before);
    // What a carried object says, the player carrying it hears.
    await w.run(a.conn, "@force box=say Hello from your pocket.");
    await w.settle();
    assert.equal(w.hub.last(a.obj.id)?.msg, 'Box says, "Hello from your pocket.%cn"');
    // A puppet's output reaches its owner, with its name in front.
    await w.services.objects.update(box.id, (o) => {
      o.flags = [...o.flags, "puppet"];
    });
    await w.run(a.conn, "@force box=think through the puppet");
    await w.settle();
    assert.equal(w.hub.last(a.obj.id)?.msg, "Box> through the puppet");
    await w.run(a.conn, "@pemit box=pemitted to the puppet");
    assert.equal(w.hub.last(a.obj.id)?.msg, "Box> pemitted to the puppet");
  } finally {
    await w.close();
  }
});

Deno.test("queue: @switch, @select, @if and @dolist queue their action lists", async () => {
  const { w, a } = await withBox();
  try {
    await w.run(a.conn, "@switch 5=>3,think big #$,<9,think small #$,think none");
    await w.run(a.conn, "@select 5=>3,think first,<9,think second");
    await w.run(a.conn, "@if 0=think yes,think no");
    await w.run(a.conn, "@dolist a b c=think #@:##");
    await w.run(a.conn, "@dolist/delimit , {x,,y}=think ##");
    assert.deepEqual(await w.run(a.conn, "@dolist/delimit ab x=think ##"), [
      "The delimiter must be a single character!",
    ]);
    assert.deepEqual(await w.run(a.conn, "@dolist [space(3)]=think ##"), [
      "That's terrific, but what should I do with the list?",
    ]);
    await w.settle();
    const got = w.hub.texts(a.obj.id);
    assert.deepEqual(got.slice(-9), [
      "big 5",
      "small 5",
      "first",
      "no",
      "1:a",
      "2:b",
      "3:c",
      "x",
      "y",
    ]);
  } finally {
    await w.close();
  }
});

Deno.test("queue: semaphores wait for @notify; @drain discards; over-notified waits run at once", async () => {
  const { w, a } = await withBox();
  try {
    await w.run(a.conn, "@wait me=think one");
    await w.run(a.conn, "@wait me=think two");
    await w.settle();
    assert.equal(w.hub.texts(a.obj.id).includes("one"), false);
    assert.deepEqual(await w.run(a.conn, "@notify me"), ["Notified."]);
    await w.settle();
    assert.ok(w.hub.texts(a.obj.id).includes("one"));
    assert.equal(w.hub.texts(a.obj.id).includes("two"), false);
    assert.deepEqual(await w.run(a.conn, "@drain me"), ["Drained."]);
    await w.run(a.conn, "@notify/quiet me=2");
    await w.run(a.conn, "@wait me=think three");
    await w.settle();
    const got = w.hub.texts(a.obj.id);
    assert.equal(got.includes("two"), false);
    assert.ok(got.includes("three"));
  } finally {
    await w.close();
  }
});

Deno.test("queue: a link_ok object's semaphore is anyone's, its other attributes its controllers'", async () => {
  const w = await testWorld();
  try {
    const a = await w.player("Alice");
    const bob = await w.player("Bob");
    const box = await w.services.objects.create({
      name: "Box",
      type: "thing",
      location: "1",
      owner: a.obj.id,
    });
    await w.run(a.conn, `@set #${box.id}=link_ok`);
    await w.run(a.conn, `@desc #${box.id}=A plain box.`);
    await w.run(a.conn, `&cmd #${box.id}=$hello:think hi`);
    // Before: the count was written as the box into any attribute Bob named, over its DESC and
    // its $-command, and each new name took one of Alice's attributes.
    for (
      const line of ["@notify #B/DESC", "@notify #B/CMD=5", "@wait #B/NEW=think x", "@drain #B/CMD"]
    ) {
      assert.deepEqual(await w.run(bob.conn, line.replace("#B", `#${box.id}`)), [
        "Permission denied.",
      ], line);
    }
    await w.settle();
    const attrs = w.services.attributes;
    assert.equal((await attrs.get(box.id, "DESC"))?.value, "A plain box.");
    assert.equal((await attrs.get(box.id, "CMD"))?.value, "$hello:think hi");
    assert.equal(await attrs.get(box.id, "NEW"), null);
    // The default semaphore is anyone's (MUX's link_ok), and a controller may name any attribute.
    await w.run(bob.conn, `@wait #${box.id}=think bob waited`);
    assert.deepEqual(await w.run(bob.conn, `@notify #${box.id}`), ["Notified."]);
    await w.run(a.conn, `@wait #${box.id}/NEW=think alice waited`);
    assert.deepEqual(await w.run(a.conn, `@notify #${box.id}/NEW`), ["Notified."]);
    await w.settle();
    assert.ok(w.hub.texts(bob.obj.id).includes("bob waited"));
    assert.ok(w.hub.texts(a.obj.id).includes("alice waited"));
  } finally {
    await w.close();
  }
});

Deno.test("queue: @ps lists an owner's entries; @halt removes them", async () => {
  const { w, a } = await withBox();
  try {
    const bob = await w.player("Bob");
    await w.run(a.conn, "@wait me=think later %chbold");
    await w.run(a.conn, "@wait box=think box waits");
    await w.run(bob.conn, "@wait me=think bob's");
    const ps = (await w.run(a.conn, "@ps")).join("\n");
    assert.match(ps, /Semaphore Queue:/);
    assert.match(ps, /Alice\(#\d+\):think later %%chbold/);
    assert.match(ps, /\[#\d+\]Alice\(#\d+\):think box waits/);
    assert.doesNotMatch(ps, /bob's/);
    assert.match(ps, /Semaphore Queue\.\.\.\[2\/3\]/);
    assert.deepEqual(await w.run(bob.conn, "@ps/all"), ["Permission denied."]);
    assert.deepEqual(await w.run(a.conn, "@halt"), ["2 queue entries removed."]);
    assert.match((await w.run(bob.conn, "@ps")).join("\n"), /think bob's/);
  } finally {
    await w.close();
  }
});

Deno.test("queue faults: a self-triggering loop is stopped and reported", async () => {
  const { w, a, box } = await withBox();
  try {
    w.services.config.value.queue.chainLimit = 50;
    await w.run(a.conn, "&loop box=@trigger me/loop");
    await w.run(a.conn, "@trigger box/loop");
    await w.settle();
    const report = w.hub.texts(a.obj.id).find((t) => t.startsWith("Run away objects"));
    assert.ok(report, w.hub.texts(a.obj.id).join("|"));
    assert.match(report, new RegExp(`Box\\(#${box.id}\\) ran 50 queue entries`));
    assert.equal(w.queue.list().length, 0);
  } finally {
    await w.close();
  }
});

Deno.test("queue faults: two objects triggering each other, and @wait 0 in a loop, are stopped", async () => {
  const { w, a } = await withBox();
  try {
    w.services.config.value.queue.chainLimit = 40;
    await w.services.objects.create({
      name: "Ping",
      type: "thing",
      location: a.obj.id,
      owner: a.obj.id,
    });
    await w.run(a.conn, "&go box=@trigger ping/go");
    await w.run(a.conn, "&go ping=@trigger box/go");
    await w.run(a.conn, "@trigger box/go");
    await w.settle();
    const reports = () => w.hub.texts(a.obj.id).filter((t) => t.startsWith("Run away"));
    assert.equal(reports().length, 1);
    await w.run(a.conn, "&tick box=@wait 0=@trigger me/tick");
    await w.run(a.conn, "@trigger box/tick");
    // The in-memory waits run on the clock's next turns: wait until the loop was stopped.
    for (let i = 0; i < 200 && reports().length < 2; i++) {
      await new Promise((r) => setTimeout(r, 5));
      await w.settle();
    }
    assert.equal(reports().length, 2);
    assert.equal(w.queue.list().length, 0);
  } finally {
    await w.close();
  }
});

Deno.test("queue faults: @dolist past the quota is refused whole; @force needs control", async () => {
  const { w, a, box } = await withBox();
  try {
    const bob = await w.player("Bob");
    const got = await w.run(a.conn, "@dolist [lnum(100000)]=think ##");
    assert.match(
      got[0],
      /^@dolist: \d+ items would pass your queue limit \(100 entries, 100 free\)/,
    );
    await w.settle();
    assert.equal(w.queue.list().length, 0);
    assert.deepEqual(await w.run(bob.conn, `@force #${box.id}=think hi`), ["Permission denied."]);
    assert.deepEqual(await w.run(bob.conn, "@force Alice=think hi"), ["Permission denied."]);
    assert.deepEqual(await w.run(a.conn, "@force Bob=think hi"), ["Permission denied."]);
    // Staff make players act only below their own rank.
    const wiz = await w.player("Wiz", { flags: ["wizard"] });
    const wiz2 = await w.player("Wiz2", { flags: ["wizard"] });
    assert.deepEqual(await w.run(wiz.conn, "@force *Wiz2=think hi"), ["Permission denied."]);
    assert.deepEqual(await w.run(wiz.conn, "@force *Bob=think forced by staff"), []);
    await w.settle();
    assert.equal(w.hub.last(bob.obj.id)?.msg, "forced by staff");
    assert.equal(w.hub.texts(wiz2.obj.id).includes("hi"), false);
    // Alice's box is not inherit: it may not force her.
    await w.run(a.conn, "&f box=@force Alice=think forced");
    await w.run(a.conn, "@trigger box/f");
    await w.settle();
    assert.equal(w.hub.texts(a.obj.id).includes("forced"), false);
  } finally {
    await w.close();
  }
});

Deno.test("queue faults: @halt stops a runaway owner at once, the running entry included", async () => {
  const { w, a } = await withBox();
  try {
    // A loop the chain limit would not stop for a long while: @halt has to.
    w.services.config.value.queue.chainLimit = 1_000_000;
    await w.run(a.conn, "&spin box=@pemit [owner(me)]=spin;@trigger me/spin");
    await w.run(a.conn, "@trigger/quiet box/spin");
    const spins = () => w.hub.texts(a.obj.id).filter((t) => t === "spin").length;
    for (let i = 0; i < 500 && spins() < 20; i++) await new Promise((r) => setTimeout(r, 1));
    assert.ok(spins() >= 20, "the loop runs");
    // Typed between two turns of the queue, as a player's line is.
    const halted = await w.run(a.conn, "@halt");
    // The next turn waiting, or none if the line came while a turn was running (it stops).
    assert.match(halted.join("|"), /^(1 queue entry|0 queue entries) removed\.$/);
    const after = spins();
    await w.settle();
    await new Promise((r) => setTimeout(r, 20));
    await w.settle();
    assert.ok(spins() <= after + 1, `${spins() - after} more after @halt`);
    assert.equal(w.queue.list((e) => e.owner === a.obj.id).length, 0);
  } finally {
    await w.close();
  }
});

Deno.test("queue: trigger() queues like @trigger, and a trigger() loop is stopped too", async () => {
  const { w, a } = await withBox();
  try {
    w.services.config.value.queue.chainLimit = 30;
    await w.run(a.conn, "&greet box=@pemit %#=Hello %0");
    assert.deepEqual(await w.run(a.conn, "think [trigger(box/greet,Zed)]done"), ["done"]);
    await w.settle();
    assert.ok(w.hub.texts(a.obj.id).includes("Hello Zed"));
    assert.deepEqual(await w.run(a.conn, "think trigger(box/none)"), ["#-1 NO MATCH"]);
    await w.run(a.conn, "&loop box=think trigger(me/loop)");
    await w.run(a.conn, "think trigger(box/loop)");
    await w.settle();
    assert.ok(w.hub.texts(a.obj.id).some((t) => t.startsWith("Run away objects")));
  } finally {
    await w.close();
  }
});

Deno.test("queue faults: past the quota the owner's queue is halted and told once", async () => {
  const { w, a } = await withBox();
  try {
    w.services.config.value.queue.playerLimit = 5;
    for (let i = 0; i < 5; i++) assert.deepEqual(await w.run(a.conn, `@wait me=think ${i}`), []);
    assert.deepEqual(await w.run(a.conn, "@wait me=think 5"), [
      `Run away objects: too many commands queued (your limit is 5). Halted 5 entries; ` +
      `${a.obj.name}(#${a.obj.id}) is set halt.`,
    ]);
    assert.equal(w.queue.waitingFor(a.obj.id), 0);
    // As MUX: the object that queued is set halt, and queues nothing until it is cleared.
    await w.settle();
    assert.ok(w.services.objects.world!.object(a.obj.id)!.flags.includes("halt"));
    assert.match((await w.run(a.conn, "@wait me=think again")).join(), /is halted/);
    await w.run(a.conn, "@set me=!halt");
    // The quota is free again at once.
    assert.deepEqual(await w.run(a.conn, "@wait me=think again"), []);
    assert.equal(w.queue.waitingFor(a.obj.id), 1);
  } finally {
    await w.close();
  }
});

Deno.test("queue: what queues while an entry runs, without saying its chain, joins that chain", async () => {
  const { w, a, box } = await withBox();
  try {
    w.services.config.value.queue.chainLimit = 20;
    // A stand-in for an event-fired action (a $-command, a listen): it queues with no chain.
    let fired = 0;
    w.services.hooks.worldHooks.on("room:speech", () => {
      if (fired++ < 100) {
        w.queue.enqueue({ executor: box.id, enactor: a.obj.id, action: "@emit again" });
      }
    });
    await w.run(a.conn, "drop box");
    await w.run(a.conn, `@force #${box.id}=@emit start`);
    await w.settle();
    assert.ok(w.hub.texts(a.obj.id).some((t) => t.startsWith("Run away objects")));
    assert.ok(fired < 100, `stopped after ${fired}`);
  } finally {
    await w.close();
  }
});

Deno.test("queue: /now runs inline for staff; @break/inline replaces the rest; nesting is bounded", async () => {
  const { w, a } = await withBox();
  try {
    const wiz = await w.player("Wiz", { flags: ["wizard"] });
    await w.run(a.conn, "&x box=think x");
    assert.deepEqual(await w.run(a.conn, "@trigger/now box/x"), [
      "@trigger/now is for staff. Permission denied.",
    ]);
    const box = await w.services.objects.create({
      name: "Clock",
      type: "thing",
      location: wiz.obj.id,
      owner: wiz.obj.id,
    });
    await w.run(wiz.conn, `&tick #${box.id}=@pemit %#=tick %0`);
    await w.run(wiz.conn, `@force me={@trigger/now/quiet #${box.id}/tick=1;think after}`);
    await w.run(wiz.conn, "@force me={think a;@break/inline 1=think b;think c}");
    await w.run(wiz.conn, "@force me={@dolist/now 1 2 3={think d##;@break eq(##,2);think e##}}");
    await w.run(wiz.conn, "@force me={@assert 1;think kept;@assert 0=think instead;think lost}");
    await w.run(wiz.conn, "&deep me=@trigger/now/quiet me/deep");
    await w.run(wiz.conn, "@trigger/now/quiet me/deep");
    await w.settle();
    const got = w.hub.texts(wiz.obj.id);
    const order = got.filter((t) => /^(tick 1|after|a|b|c|d\d|e\d|kept|instead|lost)$/.test(t));
    // @dolist/now: @break in the second turn ends the turns, not the line.
    assert.deepEqual(order, ["tick 1", "after", "a", "b", "d1", "e1", "d2", "kept", "instead"]);
    assert.equal(
      got.filter((t) => t.startsWith("Action lists run inline are nested too deeply")).length,
      1,
      got.join("|"),
    );
    // However it is spread, a line runs at most so many commands inline.
    await w.run(wiz.conn, "&wide me=@dolist/now [lnum(100)]=@dolist/now [lnum(100)]=think ##");
    await w.run(wiz.conn, "@trigger/now/quiet me/wide");
    await w.settle();
    assert.ok(
      w.hub.texts(wiz.obj.id).includes(
        "Too many commands run inline for one line (the limit is 2000).",
      ),
    );
    assert.ok(w.hub.texts(wiz.obj.id).filter((t) => /^\d+$/.test(t)).length <= 2000);
  } finally {
    await w.close();
  }
});
