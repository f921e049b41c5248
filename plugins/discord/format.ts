/**
 * What crosses the bridge, in each direction. Game to Discord: the speaker's plain name (as a
 * webhook may carry it), plain text (colour codes gone, `%r` a line break), poses kept as
 * poses, split under Discord's 2,000-character limit. Discord to game: the speaker's display
 * name, mentions and custom emoji as readable text, attachments as links; the channels plugin
 * then takes the text literally (no codes, one line).
 */
import { sanitizeText, stripColour } from "../../src/plugins/mod.ts";
import type { ChannelLine } from "../channels/bridge.ts";

/** Discord's limit on a message's content. */
export const DISCORD_MAX = 2000;

/** Discord's limit on a webhook's user name. */
const NAME_MAX = 80;

/** A webhook post: who, what, and the avatar when there is one. */
export interface WebhookPost {
  username: string;
  content: string;
  avatar_url?: string;
  /** Nothing in the text may ping anyone (`@everyone`, `@here`, `<@id>`, roles). */
  allowed_mentions: { parse: never[] };
}

/**
 * A name Discord accepts for a webhook: 1-80 characters, none of the words it reserves
 * (`discord`, `clyde` anywhere; `everyone`, `here` alone).
 */
export function webhookName(raw: string): string {
  let name = sanitizeText(stripColour(raw)).trim();
  name = name.replace(/discord/gi, (w) => `${w.slice(0, 4)}\u00b7${w.slice(4)}`)
    .replace(/clyde/gi, (w) => `${w.slice(0, 2)}\u00b7${w.slice(2)}`);
  if (/^(everyone|here)$/i.test(name)) name = `${name} (game)`;
  name = [...name].slice(0, NAME_MAX).join("");
  return name || "someone";
}

/** The text of a channel line as Discord shows it: a pose keeps its form. */
export function lineText(line: ChannelLine): string {
  const text = stripColour(line.text);
  const name = stripColour(line.sender);
  if (line.kind === "pose") return `${name} ${text}`;
  if (line.kind === "semipose") return `${name}${text}`;
  return text;
}

/**
 * Cuts text into pieces of at most `max` UTF-16 units, at a line break or a space when one is in
 * the last fifth of a piece, never inside a surrogate pair.
 */
export function splitMessage(text: string, max = DISCORD_MAX): string[] {
  const out: string[] = [];
  let rest = text.trim();
  while (rest.length > max) {
    let cut = max;
    const window = rest.slice(0, max);
    const at = Math.max(window.lastIndexOf("\n"), window.lastIndexOf(" "));
    if (at > max * 0.8) cut = at;
    else if (/[\ud800-\udbff]/.test(rest[cut - 1])) cut--;
    out.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).trimStart();
  }
  if (rest) out.push(rest);
  return out;
}

/** The webhook posts for one channel line (several when it is long). */
export function postsFor(line: ChannelLine, avatarUrl?: string): WebhookPost[] {
  const username = webhookName(line.sender);
  return splitMessage(lineText(line)).map((content) => ({
    username,
    content,
    ...(avatarUrl ? { avatar_url: avatarUrl } : {}),
    allowed_mentions: { parse: [] },
  }));
}

/** The avatar's public address: an http(s) URL, or a path under the game's public address. */
export function avatarUrl(avatar: unknown, publicUrl: unknown): string | undefined {
  if (typeof avatar !== "string" || !avatar.trim()) return undefined;
  try {
    const base = typeof publicUrl === "string" && publicUrl ? new URL(publicUrl) : undefined;
    const url = base ? new URL(avatar.trim(), base) : new URL(avatar.trim());
    if (url.protocol !== "https:" && url.protocol !== "http:") return undefined;
    return url.href.length <= 512 ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** The parts of a MESSAGE_CREATE the bridge reads. */
export interface DiscordMessage {
  id?: string;
  channel_id?: string;
  guild_id?: string;
  type?: number;
  content?: string;
  webhook_id?: string;
  author?: { id?: string; username?: string; global_name?: string | null; bot?: boolean };
  member?: { nick?: string | null };
  mentions?: {
    id?: string;
    username?: string;
    global_name?: string | null;
    member?: { nick?: string | null };
  }[];
  attachments?: { url?: string; filename?: string }[];
}

/** Message types that are someone talking (default and reply). */
const TALK_TYPES = new Set([0, 19]);

/** The most attachment links carried in one line. */
const MAX_LINKS = 5;

/** The speaker's name as the Discord server shows it: nickname, display name, user name. */
export function speakerName(m: DiscordMessage): string {
  return m.member?.nick || m.author?.global_name || m.author?.username || "someone";
}

/**
 * What a Discord message says in game, or null when it says nothing (a system message, an
 * empty one): user mentions as `@name`, custom emoji as `:name:`, attachments as their links,
 * a message that is all `_italics_` (Discord's `/me`) as a pose.
 */
export function fromDiscord(m: DiscordMessage): { text: string; kind: "say" | "pose" } | null {
  if (m.type !== undefined && !TALK_TYPES.has(m.type)) return null;
  const names = new Map<string, string>();
  for (const u of m.mentions ?? []) {
    if (typeof u?.id === "string") {
      names.set(u.id, u.member?.nick || u.global_name || u.username || "someone");
    }
  }
  let text = String(m.content ?? "")
    .replace(/<@!?(\d{1,25})>/g, (all, id) => names.has(id) ? `@${names.get(id)}` : all)
    .replace(/<a?:(\w{1,32}):\d{1,25}>/g, ":$1:");
  const links = (m.attachments ?? [])
    .map((a) => typeof a?.url === "string" && /^https?:\/\//.test(a.url) ? a.url : "")
    .filter(Boolean)
    .slice(0, MAX_LINKS);
  let kind: "say" | "pose" = "say";
  const me = /^_([^_]+)_$/s.exec(text.trim());
  if (me && !links.length) {
    kind = "pose";
    text = me[1];
  }
  text = [text.trim(), ...links].filter(Boolean).join(" ");
  return text ? { text, kind } : null;
}
