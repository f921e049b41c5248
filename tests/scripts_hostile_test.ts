/**
 * System scripts under many players at once, end to end over WebSocket against a real engine:
 * what players running an owner's scripts together can make the engine hold must stay within the
 * script budgets, and never cost the others their game. Each case was found by probing a running
 * game from outside.
 */
import { assert, assertEquals } from "./assert.ts";
import { register, startServer, type TestServer } from "./harness.ts";
import { connectWs, type WsClient } from "./ws_client.ts";

/**
 * One script: `hold` keeps the script's sandbox busy for a second (so calls queue behind it),
 * `spin` runs until its time limit stops it, `busy` works 200 ms and tells the room.
 */
const SCRIPT = `export default async (u) => {
  const a = u.cmd.args;
  if (a === "") { await u.send("ready"); return; }
  if (a === "hold") { await new Promise((r) => setTimeout(r, 1000)); await u.send("held"); return; }
  if (a === "spin") { for (;;) {} }
  if (a === "spin loud") { await u.here.broadcast("spin start"); for (;;) {} }
  if (a === "busy") {
    const end = Date.now() + 200;
    while (Date.now() < end) {}
    await u.here.broadcast("busy done");
  }
};`;

/** Scripts of their own, each working 200 ms and telling the room. */
const BUSY = 8;

async function game(scripts: Record<string, number>): Promise<{ srv: TestServer; dir: string }> {
  const dir = await Deno.makeTempDir({ prefix: "ursamu-scripts-hostile-" });
  await Deno.writeTextFile(`${dir}/+x.ts`, SCRIPT);
  for (let i = 0; i < BUSY; i++) {
    await Deno.writeTextFile(
      `${dir}/+busy${i}.ts`,
      `export default async (u) => { const end = Date.now() + 200; while (Date.now() < end) {} await u.here.broadcast("busy done"); };`,
    );
  }
  const srv = await startServer({ config: { scripts: { dir, ...scripts } } });
  return { srv, dir };
}

async function player(srv: TestServer, name: string, closers: (() => Promise<void>)[]) {
  const token = await register(srv.base, name);
  const open = async () => {
    const ws = await connectWs(srv, { token, client: "web" });
    closers.push(() => ws.close());
    await ws.expect((m) => m.data.type === "session");
    return ws;
  };
  return { open, ws: await open() };
}

/** Runs `+x hold` as `ws` and gives its call a moment to begin. */
async function hold(ws: WsClient): Promise<void> {
  ws.send("+x hold");
  await new Promise((r) => setTimeout(r, 150));
}

Deno.test("hostile scripts: calls waiting in a script's queue are admitted when their turn comes", async () => {
  // Before: a call was admitted when it joined the script's queue and charged when it ended, so
  // every call queued behind a waiting one was let in while the budgets were still full: a
  // player with four connections spent four times the time limit against a budget of 1.5.
  const { srv, dir } = await game({
    timeoutMs: 100,
    actorBudgetMs: 150,
    gameBudgetMs: 600_000,
    budgetWindowMs: 600_000,
  });
  const closers: (() => Promise<void>)[] = [];
  try {
    const cat = await player(srv, "Cat", closers);
    const bob = await player(srv, "Bob", closers);
    const tabs = [bob.ws, await bob.open(), await bob.open(), await bob.open()];
    // The first call loads the script; then Cat's keeps its sandbox busy while Bob's queue.
    cat.ws.send("+x");
    await cat.ws.expect(/^ready$/, 30_000);
    await hold(cat.ws);
    for (const tab of tabs) tab.send("+x spin");
    await cat.ws.expect(/^held$/, 30_000);
    // Replies go to all of Bob's connections: his first hears the four.
    const replies: string[] = [];
    for (const _ of tabs) {
      replies.push((await tabs[0].expect(/was stopped|share of script time/, 30_000)).msg);
    }
    const stopped = replies.filter((r) => /was stopped \(it ran too long\)/.test(r)).length;
    // Each spin is charged more than 100 ms of Bob's 150: the third is refused at its turn.
    assert(stopped <= 2, replies.join("\n"));
    assertEquals(
      replies.filter((r) => /^You have used your share of script time/.test(r)).length,
      4 - stopped,
      replies.join("\n"),
    );
  } finally {
    for (const c of closers) await c();
    await srv.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("hostile scripts: another player's line goes before the next call waiting in a script's queue", async () => {
  // Before: the next call in a script's queue began as a promise's reaction to the last one's
  // end, so the whole queue ran in one turn of the event loop: forty players' 45 ms calls held
  // every player 1.7 s.
  const { srv, dir } = await game({
    timeoutMs: 250,
    actorBudgetMs: 600_000,
    gameBudgetMs: 600_000,
    budgetWindowMs: 600_000,
  });
  const closers: (() => Promise<void>)[] = [];
  try {
    const alice = await player(srv, "Alice", closers);
    const holder = await player(srv, "Holder", closers);
    const busy: WsClient[] = [];
    for (let i = 0; i < 8; i++) busy.push((await player(srv, `Busy${i}`, closers)).ws);
    holder.ws.send("+x");
    await holder.ws.expect(/^ready$/, 30_000);
    await hold(holder.ws);
    for (const ws of busy) ws.send("+x busy");
    // Alice types as soon as she hears the first call end; eight calls of 200 ms follow it.
    await alice.ws.expect(/^busy done$/, 30_000);
    alice.ws.send("think mark");
    await alice.ws.expect(/^mark$/, 30_000);
    await new Promise((r) => setTimeout(r, 3_000));
    const heard = alice.ws.all.map((m) => m.msg).filter((m) => m === "busy done" || m === "mark");
    assertEquals(heard.filter((m) => m === "busy done").length, 8);
    assert(heard.at(-1) !== "mark", `all eight calls ran before Alice's line: ${heard.join(", ")}`);
  } finally {
    for (const c of closers) await c();
    await srv.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("hostile scripts: another player's line goes before the next of many script calls typed together", async () => {
  // Before: the lines of players who typed at once were read in one turn of the event loop, and
  // each ran its script call at once: forty 50 ms calls of different scripts held every player
  // two seconds (the game's budget), whatever their order.
  const { srv, dir } = await game({
    timeoutMs: 250,
    actorBudgetMs: 600_000,
    gameBudgetMs: 600_000,
    budgetWindowMs: 600_000,
  });
  const closers: (() => Promise<void>)[] = [];
  try {
    const alice = await player(srv, "Alice", closers);
    const busy: WsClient[] = [];
    for (let i = 0; i < BUSY; i++) busy.push((await player(srv, `Busy${i}`, closers)).ws);
    // Each script loads at its first call (a load is not a turn's work).
    for (let i = 0; i < BUSY; i++) {
      busy[i].send(`+busy${i}`);
      await alice.ws.expect(/^busy done$/, 30_000);
    }
    alice.ws.clear();
    const before = alice.ws.all.length;
    for (let i = 0; i < BUSY; i++) busy[i].send(`+busy${i}`);
    await alice.ws.expect(/^busy done$/, 30_000);
    alice.ws.send("think mark");
    await alice.ws.expect(/^mark$/, 30_000);
    await new Promise((r) => setTimeout(r, 3_000));
    const heard = alice.ws.all.slice(before).map((m) => m.msg)
      .filter((m) => m === "busy done" || m === "mark");
    assertEquals(heard.filter((m) => m === "busy done").length, BUSY);
    assert(heard.at(-1) !== "mark", `all the calls ran before Alice's line: ${heard.join(", ")}`);
  } finally {
    for (const c of closers) await c();
    await srv.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("hostile scripts: another player's line goes before the next call of a stopped sandbox's queue", async () => {
  // Before: the calls waiting in a sandbox stopped at its time limit all came back at once, and
  // each ran to its own stop in the same turn of the event loop (forty such calls held every
  // player 3 to 5 s).
  const { srv, dir } = await game({
    timeoutMs: 250,
    actorBudgetMs: 600_000,
    gameBudgetMs: 600_000,
    budgetWindowMs: 600_000,
  });
  const closers: (() => Promise<void>)[] = [];
  try {
    const alice = await player(srv, "Alice", closers);
    const holder = await player(srv, "Holder", closers);
    const spinners: WsClient[] = [];
    for (let i = 0; i < 8; i++) spinners.push((await player(srv, `Spin${i}`, closers)).ws);
    holder.ws.send("+x");
    await holder.ws.expect(/^ready$/, 30_000);
    await hold(holder.ws);
    for (const ws of spinners) ws.send("+x spin loud");
    // Alice types as soon as she hears the first spin begin; eight spins of 250 ms follow it.
    await alice.ws.expect(/^spin start$/, 30_000);
    alice.ws.send("think mark");
    await alice.ws.expect(/^mark$/, 30_000);
    for (const ws of spinners) await ws.expect(/was stopped/, 30_000);
    await new Promise((r) => setTimeout(r, 500));
    const heard = alice.ws.all.map((m) => m.msg).filter((m) => m === "spin start" || m === "mark");
    assertEquals(heard.filter((m) => m === "spin start").length, 8);
    assert(heard.at(-1) !== "mark", `all eight spins ran before Alice's line: ${heard.join(", ")}`);
  } finally {
    for (const c of closers) await c();
    await srv.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
