/**
 * The Discord bridge on the whole stack (supervisor, engine, telnet sidecar) configured from the
 * environment as an operator would: a telnet player and a WebSocket player on Public, a stand-in
 * Discord on 127.0.0.1. Then the bot token and the webhook's token must be absent from every log
 * line (console and files) and every answer.
 */
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { api, register } from "./harness.ts";
import { ADMIN, startSupervised, telnetLogin } from "./supervised.ts";
import { connectWs } from "./ws_client.ts";
import { DiscordStandIn } from "./discord_standin.ts";
import { join } from "node:path";

const TOKEN = "stack-bot-token.ABCDEFGHIJKLMNOP.qrstuvwxyz012345";
const HOOK_ID = "710000000000000001";
const HOOK_TOKEN = "stack-hook-token_ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const CHANNEL = "610000000000000001";

async function until(what: string, check: () => boolean, ms = 15_000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Every file below `dir`, as text. */
async function filesText(dir: string): Promise<string> {
  let all = "";
  for await (const e of Deno.readDir(dir)) {
    const p = join(dir, e.name);
    if (e.isDirectory) all += await filesText(p);
    else if (e.isFile) all += await Deno.readTextFile(p).catch(() => "");
  }
  return all;
}

Deno.test("discord on the whole stack: telnet and WebSocket players, env token, no secret in any log or answer", async () => {
  const discord = new DiscordStandIn(TOKEN);
  const srv = await startSupervised({
    env: {
      URSAMU_PLUGINS_DISCORD_TOKEN: TOKEN,
      URSAMU_PLUGINS_DISCORD_API_BASE: discord.apiBase,
      URSAMU_WEB_PUBLICURL: "https://game.example.org",
    },
  });
  const answers: string[] = [];
  try {
    await until("the gateway session", () => discord.ready);
    const wiz = await telnetLogin(srv, ADMIN.name, ADMIN.password);
    const token = await register(srv.base, "Webby");
    const web = await connectWs(srv, { token, client: "web" });
    await web.expect(/Limbo|Welcome|connected/i).catch(() => {});
    // The superuser was made before the plugins loaded: it joins Public itself.
    await wiz.send("+chan/join Public");
    await wiz.waitFor(/You join Public/);
    const hook = discord.webhook(HOOK_ID, HOOK_TOKEN, CHANNEL);
    let from = wiz.mark();
    await wiz.send(`@discord/link Public=${CHANNEL} ${hook}`);
    answers.push((await wiz.waitFor(/linked to Discord channel[^\r\n]*/, 10_000, from))[0]);

    // Game to Discord from both kinds of client.
    await wiz.send("pub Hello from telnet");
    web.send("pub :waves from the web.");
    await until("two posts", () => discord.posts.length === 2);
    const byName = Object.fromEntries(discord.posts.map((p) => [p.body.username, p.body]));
    assertEquals(byName[ADMIN.name].content, "Hello from telnet");
    assertEquals(byName.Webby.content, "Webby waves from the web.");
    assertEquals(byName.Webby.allowed_mentions, { parse: [] });

    // Discord to game: both players hear it, with the injection attempts literal.
    from = wiz.mark();
    discord.say(
      CHANNEL,
      { id: "510000000000000001", username: "ann" },
      "hi %r%ch[ansi(r,x)]\x1b[2J\xff\xfb end",
    );
    const heard = await web.expect((m) => /ann@Discord/.test(m.msg), 10_000);
    assertEquals(heard.msg, `[Public] ann@Discord says, "hi %%r%%ch[ansi(r,x)]ÿû end"`);
    const line = (await wiz.waitFor(/\[Public\] ann@Discord says, "[^\r\n]*/, 10_000, from))[0];
    assertMatch(line, /"hi %r%ch\[ansi\(r,x\)\]ÿû end"/);
    assert(!wiz.text.includes("\x1b[2J"), "no escape from Discord reached telnet");
    await new Promise((r) => setTimeout(r, 300));
    assertEquals(discord.posts.length, 2, "no echo back to Discord");

    // A dropped gateway resumes with the whole stack running.
    discord.drop();
    await until("the resume", () => discord.resumes === 1 && discord.ready);

    // Errors that name the webhook's route: a 404 (the webhook deleted) is logged and shown.
    discord.rest = "404";
    await wiz.send("pub into the void");
    from = wiz.mark();
    await until(
      "the failure",
      () => discord.requests.filter((r) => r.startsWith("POST")).length >= 3,
    );
    // The stand-in counts a POST when it arrives, the bridge its failure when the answer gets
    // back: ask until the status shows it.
    let shown: string | undefined;
    for (let i = 0; i < 20 && !shown; i++) {
      from = wiz.mark();
      await wiz.send("@discord/status");
      await wiz.waitFor(/Bot token: [^\r\n]*/, 10_000, from);
      await new Promise((r) => setTimeout(r, 200));
      shown = wiz.plain.slice(from).match(/Discord bridge:[\s\S]*?broken[^\r\n]*/)?.[0];
    }
    assert(shown, `the status shows the broken webhook:\n${wiz.plain.slice(from)}`);
    answers.push(shown);
    assertMatch(answers.at(-1)!, /Bot token: set/);

    // REST answers.
    for (const path of ["/api/v1/config", "/api/v1/routes", "/api/v1/channels/Public/history"]) {
      const r = await api(srv.base, "GET", path, undefined, token);
      assertEquals(r.status, 200, path);
      answers.push(JSON.stringify(r.body));
    }
    answers.push(wiz.text, web.all.map((m) => String(m.raw)).join("\n"));
    await wiz.close();
    await web.close();
  } finally {
    await srv.stop({ keepDir: true });
    await discord.close();
  }
  try {
    const logs = await filesText(join(srv.dir, "logs"));
    assertMatch(logs, /plugin discord: bridge starting/);
    for (
      const [what, text] of [["logs", logs], ["console", srv.output()], [
        "answers",
        answers.join("\n"),
      ]]
    ) {
      assert(!text.includes(TOKEN), `the bot token is in the ${what}`);
      assert(!text.includes(HOOK_TOKEN), `the webhook's token is in the ${what}`);
    }
    // The stand-in saw the token only where Discord needs it.
    assert(discord.requests.some((r) => r.includes(`authorization: Bot ${TOKEN}`)));
  } finally {
    await Deno.remove(srv.dir, { recursive: true }).catch(() => {});
  }
});
