import assert from "node:assert/strict";
import { fromDiscord, postsFor, splitMessage, webhookName } from "./format.ts";
import { parseWebhook } from "./webhook.ts";
import { LineLimiter } from "./limiter.ts";
import { readSettings } from "./settings.ts";

const line = (text: string, kind: "say" | "pose" | "semipose" = "say", sender = "Ann") => ({
  channel: "Public",
  sender,
  senderId: "5",
  text,
  kind,
  masked: false,
  source: null,
});

Deno.test("discord format: splits under 2000 at spaces, never inside a surrogate pair", () => {
  const long = "word ".repeat(900).trim();
  const parts = splitMessage(long);
  assert.ok(parts.length === 3 && parts.every((p) => p.length <= 2000));
  assert.equal(parts.join(" "), long);
  const emoji = "😀".repeat(1500);
  const cut = splitMessage(emoji);
  assert.ok(cut.every((p) => p.length <= 2000 && !/[\ud800-\udbff]$/.test(p)));
  assert.equal(cut.join(""), emoji);
  assert.deepEqual(splitMessage("  "), []);
});

Deno.test("discord format: posts keep poses, strip colour, and never allow mentions", () => {
  assert.deepEqual(postsFor(line("%chhi%cn%rthere")), [
    { username: "Ann", content: "hi\nthere", allowed_mentions: { parse: [] } },
  ]);
  assert.equal(postsFor(line("waves.", "pose"))[0].content, "Ann waves.");
  assert.equal(postsFor(line("'s cat.", "semipose"))[0].content, "Ann's cat.");
  assert.equal(webhookName("%crDiscordian%cn"), "Disc\u00b7ordian");
  assert.equal(webhookName("Clyde"), "Cl\u00b7yde");
  assert.equal(webhookName("everyone"), "everyone (game)");
  assert.equal(webhookName("x".repeat(100)).length, 80);
});

Deno.test("discord format: messages from Discord", () => {
  assert.equal(fromDiscord({ type: 7, content: "joined" }), null, "system messages say nothing");
  assert.equal(fromDiscord({ content: "  " }), null);
  assert.deepEqual(
    fromDiscord({
      type: 0,
      content: "hey <@12> <@!13> <@99> <:blob:123>",
      mentions: [{ id: "12", username: "u", member: { nick: "Nick" } }, {
        id: "13",
        username: "v",
      }],
      attachments: [{ url: "https://cdn.example/a.png" }, { url: "javascript:alert(1)" }],
    }),
    { text: "hey @Nick @v <@99> :blob: https://cdn.example/a.png", kind: "say" },
  );
  assert.deepEqual(fromDiscord({ content: "_waves_" }), { text: "waves", kind: "pose" });
});

Deno.test("discord webhook: only Discord's forms or the configured base", () => {
  const t = "A".repeat(68);
  const base = "https://discord.com/api/v10";
  assert.deepEqual(parseWebhook(`https://discord.com/api/webhooks/123456789012345678/${t}`, base), {
    id: "123456789012345678",
    token: t,
  });
  assert.ok(
    parseWebhook(`https://canary.discordapp.com/api/v9/webhooks/123456789012345678/${t}`, base),
  );
  assert.equal(parseWebhook(`http://discord.com/api/webhooks/123456789012345678/${t}`, base), null);
  assert.equal(
    parseWebhook(`https://discord.com.evil/api/webhooks/123456789012345678/${t}`, base),
    null,
  );
  assert.equal(parseWebhook(`https://discord.com/api/webhooks/1/${t}`, base), null);
  assert.ok(
    parseWebhook(
      `http://127.0.0.1:9/api/v10/webhooks/123456789012345678/${t}`,
      "http://127.0.0.1:9/api/v10",
    ),
  );
});

Deno.test("discord limiter: per user and in total, within the window", () => {
  let now = 0;
  const l = new LineLimiter(() => 2, () => 3, () => 1000, () => now);
  assert.deepEqual([l.take("a"), l.take("a"), l.take("a"), l.take("b"), l.take("c")], [
    true,
    true,
    false,
    true,
    false,
  ]);
  now = 1001;
  assert.equal(l.take("a"), true);
});

Deno.test("discord settings: defaults and bounds", () => {
  const s = readSettings({ token: " t ", apiBase: "ftp://x", queueSize: "50", timeoutMs: -1 });
  assert.equal(s.token, "t");
  assert.equal(s.apiBase, "https://discord.com/api/v10");
  assert.equal(s.queueSize, 50);
  assert.equal(s.timeoutMs, 10_000);
});
