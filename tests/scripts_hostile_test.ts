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
 * One script: `hold` says it began and keeps the script's sandbox busy for a second (so calls
 * queue behind it),
 * `spin` runs until its time limit stops it, `busy` works 200 ms and tells the room.
 */
const SCRIPT = `export default async (u) => {
  const a = u.cmd.args;
  if (a === "") { await u.send("ready"); return; }
  if (a === "hold") {
    await u.send("holding");
    await new Promise((r) => setTimeout(r, 1000));
    await u.send("held");
    return;
  }
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

/** Script limits that only the time limit stops: no budget runs out within a test. */
const UNBUDGETED = {
  timeoutMs: 250,
  actorBudgetMs: 600_000,
  gameBudgetMs: 600_000,
  budgetWindowMs: 600_000,
};

/** A running game with the scripts above, and its players. */
interface Game {
  /** Registers `name` and opens a web connection of theirs; `open` opens another. */
  player(name: string): Promise<{ ws: WsClient; open: () => Promise<WsClient> }>;
  /** Players `${prefix}0` to `${prefix}${n - 1}`, one connection each. */
  players(prefix: string, n: number): Promise<WsClient[]>;
}

/**
 * Runs `body` against a fresh game whose `scripts` settings are `scripts`, with `+x` and
 * `+busy0`..`+busy7` in its script folder; then closes every connection, stops the game and
 * removes the folder, whatever `body` did.
 */
async function withGame(
  scripts: Record<string, number>,
  body: (g: Game) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "ursamu-scripts-hostile-" });
  const closers: (() => Promise<void>)[] = [];
  let srv: TestServer | null = null;
  try {
    await Deno.writeTextFile(`${dir}/+x.ts`, SCRIPT);
    for (let i = 0; i < BUSY; i++) {
      await Deno.writeTextFile(
        `${dir}/+busy${i}.ts`,
        `export default async (u) => { const end = Date.now() + 200; while (Date.now() < end) {} await u.here.broadcast("busy done"); };`,
      );
    }
    const started = srv = await startServer({ config: { scripts: { dir, ...scripts } } });
    const player = async (name: string) => {
      const token = await register(started.base, name);
      const open = async () => {
        const ws = await connectWs(started, { token, client: "web" });
        closers.push(() => ws.close());
        await ws.expect((m) => m.data.type === "session");
        return ws;
      };
      return { open, ws: await open() };
    };
    const players = async (prefix: string, n: number) => {
      const all: WsClient[] = [];
      for (let i = 0; i < n; i++) all.push((await player(`${prefix}${i}`)).ws);
      return all;
    };
    await body({ player, players });
  } finally {
    for (const c of closers) await c();
    await srv?.stop();
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * Loads `+x` as `ws`, then runs `+x hold` and waits until its call has begun: the script's
 * sandbox is busy for a second, and calls of `+x` queue behind it.
 */
async function hold(ws: WsClient): Promise<void> {
  ws.send("+x");
  await ws.expect(/^ready$/, 30_000);
  ws.send("+x hold");
  await ws.expect(/^holding$/, 30_000);
}

/** Waits until `ws` has received `n` messages reading `text` since its message `from`. */
async function heardTimes(ws: WsClient, text: string, n: number, from = 0): Promise<void> {
  const end = Date.now() + 30_000;
  while (ws.all.slice(from).filter((m) => m.msg === text).length < n) {
    if (Date.now() > end) throw new Error(`heard '${text}' fewer than ${n} times`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

Deno.test("hostile scripts: calls waiting in a script's queue are admitted when their turn comes", async () => {
  // Before: a call was admitted when it joined the script's queue and charged when it ended, so
  // every call queued behind a waiting one was let in while the budgets were still full: a
  // player with four connections spent four times the time limit against a budget of 1.5.
  await withGame({ ...UNBUDGETED, timeoutMs: 100, actorBudgetMs: 150 }, async (g) => {
    const cat = await g.player("Cat");
    const bob = await g.player("Bob");
    const tabs = [bob.ws, await bob.open(), await bob.open(), await bob.open()];
    // The first call loads the script; then Cat's keeps its sandbox busy while Bob's queue.
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
  });
});

Deno.test("hostile scripts: another player's line goes before the next call waiting in a script's queue", async () => {
  // Before: the next call in a script's queue began as a promise's reaction to the last one's
  // end, so the whole queue ran in one turn of the event loop: forty players' 45 ms calls held
  // every player 1.7 s.
  await withGame(UNBUDGETED, async (g) => {
    const alice = await g.player("Alice");
    const holder = await g.player("Holder");
    const busy = await g.players("Busy", 8);
    await hold(holder.ws);
    for (const ws of busy) ws.send("+x busy");
    // Alice types as soon as she hears the first call end; eight calls of 200 ms follow it.
    await alice.ws.expect(/^busy done$/, 30_000);
    alice.ws.send("think mark");
    await alice.ws.expect(/^mark$/, 30_000);
    await heardTimes(alice.ws, "busy done", 8);
    const heard = alice.ws.all.map((m) => m.msg).filter((m) => m === "busy done" || m === "mark");
    assertEquals(heard.filter((m) => m === "busy done").length, 8);
    assert(heard.at(-1) !== "mark", `all eight calls ran before Alice's line: ${heard.join(", ")}`);
  });
});

Deno.test("hostile scripts: another player's line goes before the next of many script calls typed together", async () => {
  // Before: the lines of players who typed at once were read in one turn of the event loop, and
  // each ran its script call at once: forty 50 ms calls of different scripts held every player
  // two seconds (the game's budget), whatever their order.
  await withGame(UNBUDGETED, async (g) => {
    const alice = await g.player("Alice");
    const busy = await g.players("Busy", BUSY);
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
    await heardTimes(alice.ws, "busy done", BUSY, before);
    const heard = alice.ws.all.slice(before).map((m) => m.msg)
      .filter((m) => m === "busy done" || m === "mark");
    assertEquals(heard.filter((m) => m === "busy done").length, BUSY);
    assert(heard.at(-1) !== "mark", `all the calls ran before Alice's line: ${heard.join(", ")}`);
  });
});

Deno.test("hostile scripts: another player's line goes before the next call of a stopped sandbox's queue", async () => {
  // Before: the calls waiting in a sandbox stopped at its time limit all came back at once, and
  // each ran to its own stop in the same turn of the event loop (forty such calls held every
  // player 3 to 5 s).
  await withGame(UNBUDGETED, async (g) => {
    const alice = await g.player("Alice");
    const holder = await g.player("Holder");
    const spinners = await g.players("Spin", 8);
    await hold(holder.ws);
    for (const ws of spinners) ws.send("+x spin loud");
    // Alice types as soon as she hears the first spin begin; eight spins of 250 ms follow it.
    await alice.ws.expect(/^spin start$/, 30_000);
    alice.ws.send("think mark");
    await alice.ws.expect(/^mark$/, 30_000);
    for (const ws of spinners) await ws.expect(/was stopped/, 30_000);
    // Each spin's start went to Alice's socket, its stop to the spinner's: waited for apart.
    await heardTimes(alice.ws, "spin start", 8);
    const heard = alice.ws.all.map((m) => m.msg).filter((m) => m === "spin start" || m === "mark");
    assertEquals(heard.filter((m) => m === "spin start").length, 8);
    assert(heard.at(-1) !== "mark", `all eight spins ran before Alice's line: ${heard.join(", ")}`);
  });
});
