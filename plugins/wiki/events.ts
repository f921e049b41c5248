/**
 * The wiki's bus, `wikiHooks` (SPEC "Wiki events"): its events and their payloads, declared by
 * this plugin. Listeners take the types: `ctx.hooks.bus<WikiEventMap>("wikiHooks")`.
 */
import type { EventList } from "../../src/plugins/mod.ts";
import type { Meta } from "./frontmatter.ts";

/** The bus the wiki's events travel on. */
export const WIKI_BUS = "wikiHooks";

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

/** When each wiki event fires. */
export const WIKI_EVENTS: EventList<WikiEventMap> = {
  "wiki:created": "a page or asset is written for the first time (REST or in game)",
  "wiki:edited": "a page's body or metadata changes, or an asset is replaced",
  "wiki:deleted": "a page or asset is removed",
};
