/**
 * `plugins.discord.*`, read at each use (it follows `@reload/config`). Everything but the token
 * has a default; without a token the bridge is off.
 */

/** Discord's API, version 10. */
export const DEFAULT_API = "https://discord.com/api/v10";

/** The bridge's settings. */
export interface DiscordSettings {
  /** The bot token (secret); empty: the bridge is off. */
  token: string;
  /** The REST API base (no trailing slash); tests point it at a stand-in on 127.0.0.1. */
  apiBase: string;
  /** Deadline of one REST request, ms. */
  timeoutMs: number;
  /** Posts waiting per link before the oldest are dropped. */
  queueSize: number;
  /** Lines one Discord user may send in `userWindowMs`; more are dropped. */
  userLines: number;
  userWindowMs: number;
  /** Lines all Discord users together may send in `userWindowMs`. */
  totalLines: number;
  /** The game's Discord invite (`https://discord.gg/...`), for GMCP clients; "" when unset. */
  invite: string;
  /** The Discord application id Mudlet shows the game under (digits); "" when unset. */
  applicationId: string;
}

/** An invite address Discord gives: discord.gg/<code> or discord.com/invite/<code>. */
const INVITE_RE =
  /^https:\/\/(discord\.gg|(www\.)?discord(app)?\.com\/invite)\/[A-Za-z0-9-]{2,64}$/;

/** A whole number within bounds, else the default. */
function int(v: unknown, def: number, min: number, max: number): number {
  const n = typeof v === "string" && v.trim() ? Number(v) : v;
  return typeof n === "number" && Number.isInteger(n) && n >= min && n <= max ? n : def;
}

/** The settings from the plugin's configuration section. */
export function readSettings(section: Record<string, unknown>): DiscordSettings {
  const base = typeof section.apiBase === "string" && /^https?:\/\/[^\s]+$/.test(section.apiBase)
    ? section.apiBase.replace(/\/+$/, "")
    : DEFAULT_API;
  return {
    token: typeof section.token === "string" ? section.token.trim() : "",
    apiBase: base,
    timeoutMs: int(section.timeoutMs, 10_000, 500, 120_000),
    queueSize: int(section.queueSize, 200, 1, 10_000),
    userLines: int(section.userLines, 5, 1, 1000),
    userWindowMs: int(section.userWindowMs, 10_000, 1000, 3_600_000),
    totalLines: int(section.totalLines, 60, 1, 10_000),
    invite: typeof section.invite === "string" && INVITE_RE.test(section.invite.trim())
      ? section.invite.trim()
      : "",
    applicationId: typeof section.applicationId === "string" &&
        /^\d{5,25}$/.test(section.applicationId.trim())
      ? section.applicationId.trim()
      : "",
  };
}
