/**
 * The Discord bridge end to end against a stand-in Discord on 127.0.0.1 (tests/discord_standin.ts):
 * a real engine with the channels and discord plugins, players on a channel, the gateway and the
 * webhooks. Nothing here reaches the internet.
 */
import { assert, assertEquals, assertMatch } from "./assert.ts";
import {
  type Received,
  startTestGame,
  type TestGame,
  type TestPlayer,
} from "../src/plugins/testing.ts";
import { DiscordStandIn } from "./discord_standin.ts";

const TOKEN = "bot-token.abcdefghijklmnopqrstuvwxyz.0123456789";
const HOOK_ID = "700000000000000001";
const HOOK_TOKEN = "hook-token_abcdefghijklmnopqrstuvwxyz0123456789";
const CHANNEL = "600000000000000001";
const ANN = { id: "500000000000000001", username: "ann" };
const BEN = { id: "500000000000000002", username: "ben" };

/** Waits until `check` holds (polling), or fails after `ms`. */
async function until(what: string, check: () => boolean | Promise<boolean>, ms = 15_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Waits until @discord/status matches: the stand-in records a post before the bridge has read Discord's answer and counted it. */
async function statusMatching(w: World, re: RegExp): Promise<string> {
  let status = "";
  await until(`a status matching ${re}`, async () => {
    status = (await w.game.run(w.admin, "@discord/status")).text("Wiz");
    return re.test(status);
  });
  return status;
}

interface World {
  game: TestGame;
  discord: DiscordStandIn;
  admin: TestPlayer;
  bob: TestPlayer;
  /** Everything the players received that no command caused, collected. */
  heard: () => Promise<string>;
}

async function world(config: Record<string, unknown> = {}): Promise<World> {
  const discord = new DiscordStandIn(TOKEN);
  const game = await startTestGame({
    plugins: ["channels", "discord"],
    config: {
      plugins: { discord: { token: TOKEN, apiBase: discord.apiBase, timeoutMs: 1000, ...config } },
      web: { publicUrl: "https://game.example.org" },
    },
  });
  const admin = await game.player("Wiz", { flags: ["admin"] });
  const bob = await game.player("Bob");
  await game.connect(admin);
  await game.connect(bob);
  const url = discord.webhook(HOOK_ID, HOOK_TOKEN, CHANNEL);
  const linked = await game.run(admin, `@discord/link Public=${CHANNEL} ${url}`);
  assertEquals(
    linked.text("Wiz"),
    `Public is linked to Discord channel ${CHANNEL} (webhook ${HOOK_ID}).`,
  );
  await until("the gateway session", () => discord.ready);
  let log = "";
  const heard = async () => {
    const r: Received = await game.received();
    log += r.text("Bob") + "\n";
    return log;
  };
  return { game, discord, admin, bob, heard };
}

async function done(w: World) {
  await w.game.close();
  await w.discord.close();
}

Deno.test("discord: both directions, poses kept, no echo, no mentions, identify with message content", async () => {
  const w = await world();
  try {
    assertEquals(w.discord.identifies, 1);
    assert((w.discord.intents & (1 << 15)) !== 0, "MESSAGE_CONTENT intent asked for");
    assert((w.discord.intents & (1 << 9)) !== 0, "GUILD_MESSAGES intent asked for");
    // Game to Discord: the character as author, a pose as a pose, colour stripped, no pings.
    await w.game.run(w.bob, "pub Hello %chDiscord%cn @everyone <@123456789012345678>");
    await w.game.run(w.bob, "pub :waves.");
    await until("two posts", () => w.discord.posts.length === 2);
    assertEquals(w.discord.posts[0].body, {
      username: "Bob",
      content: "Hello Discord @everyone <@123456789012345678>",
      allowed_mentions: { parse: [] },
    });
    assertEquals(w.discord.posts[1].body.content, "Bob waves.");
    // Discord to game: <name>@Discord; the webhook's own messages (dispatched back to the bot
    // like every message in the channel) are never said again.
    w.discord.say(CHANNEL, ANN, "hi from Discord");
    w.discord.say(CHANNEL, { ...BEN, bot: true }, "a bot's line");
    w.discord.say(CHANNEL, ANN, "_waves back_");
    w.discord.say("600000000000000099", ANN, "an unlinked channel");
    await until("Ann's lines", async () => /ann@Discord waves back/.test(await w.heard()));
    const log = await w.heard();
    assertMatch(log, /\[Public\] ann@Discord says, "hi from Discord"/);
    assert(!/a bot's line|unlinked channel|Bob says|Hello Discord/.test(log), log);
    await new Promise((r) => setTimeout(r, 300));
    assertEquals(w.discord.posts.length, 2, "nothing from Discord went back to Discord");
    // History keeps the bridge's lines.
    const hist = await w.game.request("GET", "/api/v1/channels/Public/history", { as: w.bob });
    assertEquals(hist.body.at(-1).sender, "ann@Discord");
    // Status counts, and never shows a token.
    const status = await statusMatching(w, /Public +600000000000000001 +2 +0 +0 +0/);
    assertMatch(status, /connected as bot 900000000000000001/);
    assertMatch(status, /From Discord: 2 relayed/);
    assert(!status.includes(TOKEN) && !status.includes(HOOK_TOKEN), status);
    // Players cannot use it.
    assertMatch((await w.game.run(w.bob, "@discord/status")).text("Bob"), /Permission denied|Huh/);
  } finally {
    await done(w);
  }
});

Deno.test("discord: mention and injection attempts arrive as literal text", async () => {
  const w = await world();
  try {
    w.discord.say(
      CHANNEL,
      { id: ANN.id, username: "ann%r[ansi(r,x)]\x1b[31m" },
      "@everyone <@500000000000000002> %r%chRED [ansi(r,red)] [pemit(*wiz,x)] \x1b[2J\u00ff\xff\xfb\x01 line\nbreak <:smile:123456789012345678>",
      { mentions: [{ id: BEN.id, username: "ben" }] },
    );
    await until("the line", async () => /ann/.test(await w.heard()));
    const log = await w.heard();
    // Colour codes would have been rendered (and stripped from .text); %% shows as a literal %.
    assertMatch(
      log,
      /\[Public\] annransirx@Discord says, "@everyone @ben %r%chRED \[ansi\(r,red\)\] \[pemit\(\*wiz,x\)\] ÿÿû line break :smile:"/,
    );
    assert(!log.includes("\x1b"), "no escape reached a player");
    // A game line that tries to ping is sent with mentions off.
    await w.game.run(w.bob, "pub @here <@&123456789012345678>");
    await until("the post", () => w.discord.posts.length === 1);
    assertEquals(w.discord.posts[0].body.allowed_mentions, { parse: [] });
  } finally {
    await done(w);
  }
});

Deno.test("discord: a dropped gateway connection resumes and replays; invalid session identifies anew", async () => {
  const w = await world();
  try {
    w.discord.drop();
    w.discord.say(CHANNEL, ANN, "said while the bridge was away");
    await until("the resume", () => w.discord.resumes === 1 && w.discord.ready);
    await until("the replayed line", async () => /while the bridge was away/.test(await w.heard()));
    assertEquals(w.discord.identifies, 1, "resumed, not identified again");
    // Reconnect (op 7) resumes too.
    w.discord.op(7);
    await until("the second resume", () => w.discord.resumes === 2 && w.discord.ready);
    // An invalid session that cannot be resumed: a new identify (after 1-5 s and the 5 s gap).
    w.discord.op(9, false);
    await until("a new identify", () => w.discord.identifies === 2 && w.discord.ready, 20_000);
    w.discord.say(CHANNEL, ANN, "after the new session");
    await until("the line", async () => /after the new session/.test(await w.heard()));
    const status = (await w.game.run(w.admin, "@discord/status")).text("Wiz");
    assertMatch(status, /resumes 2, identifies 2/);
  } finally {
    await done(w);
  }
});

Deno.test("discord: missed heartbeat acks end a dead connection, which resumes", async () => {
  const w = await world();
  try {
    w.discord.ackHeartbeats = false;
    await until("a new connection", () => w.discord.connections >= 2, 10_000);
    w.discord.ackHeartbeats = true;
    await until("the resume", () => w.discord.resumes >= 1 && w.discord.ready);
  } finally {
    await done(w);
  }
});

Deno.test("discord: a 429 storm is waited out in order; a longer one fails posts and is counted", async () => {
  const w = await world();
  try {
    w.discord.rest = "429";
    w.discord.storm = 3;
    for (const n of [1, 2, 3]) await w.game.run(w.bob, `pub line ${n}`);
    await until("three posts", () => w.discord.posts.length === 3);
    assertEquals(w.discord.posts.map((p) => p.body.content), ["line 1", "line 2", "line 3"]);
    w.discord.storm = 8;
    await w.game.run(w.bob, "pub lost 1");
    await w.game.run(w.bob, "pub lost 2");
    await until("the storm's end", () => w.discord.storm === 0);
    await w.game.run(w.bob, "pub after the storm");
    await until("the post after", () => w.discord.posts.length === 4);
    assertEquals(w.discord.posts[3].body.content, "after the storm");
    const status = await statusMatching(w, /Public +600000000000000001 +4 +0 +0 +2/);
    assertMatch(status, /Rate limited by Discord 11 time/);
    assertMatch(status, /last error: POST \/webhooks\/700000000000000001: rate limited/);
  } finally {
    await done(w);
  }
});

Deno.test("discord: a Discord that never answers: players keep playing, the queue drops and counts", async () => {
  const w = await world({ queueSize: 5, timeoutMs: 60_000 });
  try {
    w.discord.rest = "hang";
    for (let i = 1; i <= 12; i++) {
      const r = await w.game.run(w.bob, `pub stuck ${i}`);
      assertMatch(
        r.text("Bob"),
        new RegExp(`Bob says, "stuck ${i}"`),
        "the speaker is never held up",
      );
    }
    assertEquals((await w.game.run(w.bob, "think still here")).text("Bob"), "still here");
    // One post hangs in flight, five wait, six were dropped (the oldest).
    await statusMatching(w, /Public +600000000000000001 +0 +5 +6 +0/);
    w.discord.rest = "ok";
    w.discord.release();
    await until("the queue sent", () => w.discord.posts.length === 6);
    assertEquals(w.discord.posts.map((p) => p.body.content), [
      "stuck 1",
      "stuck 8",
      "stuck 9",
      "stuck 10",
      "stuck 11",
      "stuck 12",
    ]);
  } finally {
    await done(w);
  }
});

Deno.test("discord: a flood from one Discord user is cut at the line limit; others still speak", async () => {
  const w = await world({ userLines: 3, userWindowMs: 60_000 });
  try {
    for (let i = 1; i <= 10; i++) w.discord.say(CHANNEL, ANN, `flood ${i}`);
    w.discord.say(CHANNEL, BEN, "ben gets through");
    await until("Ben's line", async () => /ben gets through/.test(await w.heard()));
    const log = await w.heard();
    assertEquals((log.match(/ann@Discord says/g) ?? []).length, 3, log);
    const status = (await w.game.run(w.admin, "@discord/status")).text("Wiz");
    assertMatch(status, /From Discord: 4 relayed, 7 over the line limits/);
  } finally {
    await done(w);
  }
});

Deno.test("discord: long lines are split under 2000 characters; a deleted webhook stops the link", async () => {
  const w = await world();
  try {
    const word = "abcdefghi ";
    await w.game.run(w.bob, `pub ${word.repeat(390).trim()}`);
    await until("the split posts", () => w.discord.posts.length === 2);
    assert(w.discord.posts.every((p) => (p.body.content ?? "").length <= 2000));
    assertEquals(w.discord.posts.map((p) => p.body.content).join(" "), word.repeat(390).trim());
    w.discord.rest = "404";
    await w.game.run(w.bob, "pub into the void");
    await w.game.run(w.bob, "pub again");
    await until(
      "the broken link",
      async () =>
        /broken: Discord refused the webhook \(404, code 10015\)/.test(
          (await w.game.run(w.admin, "@discord/status")).text("Wiz"),
        ),
    );
    const unlink = await w.game.run(w.admin, "@discord/unlink public");
    assertEquals(unlink.text("Wiz"), "Public is no longer linked to Discord.");
    assertMatch((await w.game.run(w.admin, "@discord/status")).text("Wiz"), /No channel is linked/);
  } finally {
    await done(w);
  }
});

Deno.test("discord: link refuses bad input and changes nothing; off without a token", async () => {
  const discord = new DiscordStandIn(TOKEN);
  const game = await startTestGame({ plugins: ["channels", "discord"] });
  try {
    const wiz = await game.player("Wiz", { flags: ["admin"] });
    const say = async (line: string) => (await game.run(wiz, line)).text("Wiz");
    const hook = `https://discord.com/api/webhooks/${HOOK_ID}/${HOOK_TOKEN}`;
    assertMatch(await say("@discord/link"), /Usage/);
    assertMatch(await say(`@discord/link Nowhere=${CHANNEL} ${hook}`), /no channel called Nowhere/);
    assertMatch(await say(`@discord/link Public=12 ${hook}`), /15-21 digits/);
    assertMatch(
      await say(`@discord/link Public=${CHANNEL} https://evil.example/api/webhooks/1/2`),
      /not a Discord webhook/,
    );
    assertMatch(
      await say(`@discord/link Public=${CHANNEL} ${discord.webhook(HOOK_ID, HOOK_TOKEN, CHANNEL)}`),
      /not a Discord webhook/,
      "only under the configured API base",
    );
    assertMatch(await say("@discord/status"), /off \(no bot token/);
    const linked = await say(`@discord/link Public=${CHANNEL} ${hook}`);
    assertMatch(linked, /linked to Discord channel .* bridge is off until a bot token/);
    assert(!linked.includes(HOOK_TOKEN));
    assertMatch(await say("@discord/status"), /Public +600000000000000001 +0 +0 +0 +0/);
    assertEquals(discord.requests.length, 0, "nothing was sent anywhere");
  } finally {
    await game.close();
    await discord.close();
  }
});
