/**
 * Webhook addresses. Only Discord's own form is accepted (`https://discord.com/api/webhooks/<id>
 * /<token>`, also on `discordapp.com` and the `ptb.`/`canary.` hosts, with or without `/v10`) or
 * one under the configured API base (a local stand-in in tests). The bridge keeps the id and the
 * token and always posts to the configured API base, so a link can never make the game post
 * anywhere else.
 */

/** Discord's ids (snowflakes): 15 to 21 digits. */
export const SNOWFLAKE = /^\d{15,21}$/;

const DISCORD_WEBHOOK =
  /^https:\/\/(?:(?:ptb|canary)\.)?discord(?:app)?\.com\/api(?:\/v\d{1,2})?\/webhooks\/(\d{15,21})\/([A-Za-z0-9_-]{20,100})\/?$/;

/** A webhook's id and token from its address, or null when it is not a webhook address. */
export function parseWebhook(
  raw: string,
  apiBase: string,
): { id: string; token: string } | null {
  const url = String(raw ?? "").trim();
  const m = DISCORD_WEBHOOK.exec(url);
  if (m) return { id: m[1], token: m[2] };
  const base = apiBase.replace(/\/+$/, "");
  if (!url.startsWith(`${base}/webhooks/`)) return null;
  const rest = /^(\d{15,21})\/([A-Za-z0-9_-]{20,100})\/?$/.exec(
    url.slice(`${base}/webhooks/`.length),
  );
  return rest ? { id: rest[1], token: rest[2] } : null;
}
