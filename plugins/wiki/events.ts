/**
 * Payloads of the wiki's events on `wikiHooks` (SPEC "Wiki events"). The engine fixes the
 * names; their shapes belong here. Listeners narrow the bus with
 * `ctx.hooks.wikiHooks.typed<WikiEventMap>()`.
 */
import type { Meta } from "./frontmatter.ts";

/** What changed: a Markdown page or an asset file. */
export type WikiItemType = "page" | "asset";

/** Who made the change (REST caller or in-game actor). */
export interface WikiActor {
  actorId: string;
  actorName: string;
}

/** `wiki:created`: a page (or asset) was written for the first time. */
export interface WikiCreated extends WikiActor {
  path: string;
  type: WikiItemType;
  /** The page's metadata, `title` included (an asset's title is its file name). */
  meta: Meta & { title: string };
}

/** `wiki:edited`: a page's body or metadata changed, or an asset was replaced. */
export interface WikiEdited extends WikiActor {
  path: string;
  type: WikiItemType;
  meta: Meta;
}

/** `wiki:deleted`: a page or an asset was removed. */
export interface WikiDeleted extends WikiActor {
  path: string;
  type: WikiItemType;
}

/** The wiki's events by name. */
export interface WikiEventMap {
  "wiki:created": WikiCreated;
  "wiki:edited": WikiEdited;
  "wiki:deleted": WikiDeleted;
}
