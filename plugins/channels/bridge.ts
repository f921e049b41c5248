/**
 * What the channels plugin exports to other plugins (`ctx.api<ChannelsApi>("channels")`): a
 * narrow door for bridges to other chat systems (the Discord plugin), not the whole service.
 * A bridge hears every line said on a channel and speaks lines of outside users, which arrive
 * as plain text: never evaluated, no colour codes, no `%r`, no control bytes, one line.
 */
import { sanitizeText } from "../../src/plugins/mod.ts";

/** How a line was said. */
export type LineKind = "say" | "pose" | "semipose";

/** One line said on a channel, as bridges hear it. */
export interface ChannelLine {
  /** The channel's name as created (`Public`). */
  channel: string;
  /** The speaker as members saw them: `Someone` on a masked channel, `Ann@Discord` from a bridge. */
  sender: string;
  /** The speaking player's id; empty for a line a bridge spoke. */
  senderId: string;
  /** What was said, without the `:`/`;` of poses; colour codes as typed. */
  text: string;
  kind: LineKind;
  /** True when the channel masks speakers. */
  masked: boolean;
  /** The bridge that spoke the line (`Discord`), or null for a player. */
  source: string | null;
}

/** What a bridge says on a channel for an outside user. */
export interface BridgeLine {
  /** The channel's name (any case). */
  channel: string;
  /** The outside system, shown after `@`: 1-16 letters or digits (`Discord`). */
  source: string;
  /** The outside user's name: cleaned to letters, digits, spaces and `_ - . '`, at most 32. */
  name: string;
  /** The text, taken literally. */
  text: string;
  /** Default `say`. */
  kind?: LineKind;
}

/** The channels plugin's API for other plugins. */
export interface ChannelsApi {
  /** The channel's name as created, or null when there is no such channel. */
  channelName(name: string): string | null;
  /**
   * Says a line on a channel for a user of another system, as `<name>@<source>`; members hear
   * it and it is kept in the history. Rejects with a ValidationError (no such channel, nothing
   * left to say) and says nothing.
   */
  speakAs(line: BridgeLine): Promise<void>;
  /**
   * Calls `fn` after every line said on any channel (players' and bridges'), joins and leaves
   * excepted; returns the function that stops it. A listener that throws is logged and skipped.
   */
  onLine(fn: (line: ChannelLine) => void): () => void;
}

/** Bridge sources: `Discord`, `IRC`. */
export const SOURCE_RE = /^[A-Za-z0-9]{1,16}$/;

/** Longest outside name. */
export const MAX_BRIDGE_NAME = 32;

/** An outside user's name cut to characters that cannot mean anything to the game. */
export function bridgeName(raw: string): string {
  const kept = [...sanitizeText(String(raw ?? ""))]
    .filter((c) => /[\p{L}\p{N} _.'-]/u.test(c))
    .join("")
    .replace(/\s+/g, " ")
    .trim();
  return [...kept].slice(0, MAX_BRIDGE_NAME).join("").trim() || "someone";
}

/**
 * Outside text as the game may show it, at most `max` characters: one line (breaks become spaces), no controls, escapes
 * or bidi overrides, and every `%` doubled so no colour code, `%r` or substitution applies.
 * `[`...`]` stays literal because channel lines are never evaluated.
 */
export function bridgeText(raw: string, max: number): string {
  const line = sanitizeText(String(raw ?? "").replace(/\r\n|[\r\n\t]/g, " "))
    .replace(/ {2,}/g, " ")
    .trim();
  return [...line].slice(0, max).join("").replace(/%/g, "%%");
}
