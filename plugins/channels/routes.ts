/**
 * REST routes of the channels plugin: `GET /api/v1/channels` (open; hidden
 * channels only for members and staff; by name, paged) and
 * `GET /api/v1/channels/:name/history` (token required; members only for locked or
 * hidden channels; paged back from the newest message).
 */
import {
  caller,
  describe,
  pageOf,
  type PageSizes,
  type PluginApp,
  requireUser,
} from "../../src/plugins/mod.ts";
import type { ChannelService, Viewer } from "./service.ts";

/** The prefix the routes are mounted on. */
export const PREFIX = "/api/v1/channels";

/** History pages: 20 messages by default, at most 500 (other lists: 50, at most 200). */
export const HISTORY_PAGE: PageSizes = { limit: 20, max: 500 };

const LIST = describe({
  summary: "Channels the caller may see, with their member counts",
  auth: "optional",
  query: { paging: true },
  responses: {
    "200": {
      description: "channels",
      schema: {
        type: "array",
        items: {
          type: "object",
          properties: {
            name: { type: "string" },
            header: { type: "string" },
            members: { type: "integer" },
            joined: { type: "boolean", description: "the caller is on it (false without a token)" },
          },
        },
      },
    },
    "400": "a bad limit or offset",
  },
});

const HISTORY = describe({
  summary: "A channel's recent messages",
  description: "`offset` counts back from the newest message; each page is oldest first.",
  auth: "user",
  params: { name: "the channel's name" },
  query: { paging: HISTORY_PAGE },
  responses: {
    "200": {
      description: "messages, oldest first",
      schema: {
        type: "array",
        items: {
          type: "object",
          properties: {
            sender: { type: "string" },
            message: { type: "string" },
            kind: {
              enum: ["say", "pose", "semipose"],
              description: "how it was said: `Ann: hi`, `Ann waves`, `Ann's ship sails`",
            },
            timestamp: { type: "number" },
          },
        },
      },
    },
    "400": "a bad limit or offset",
    "401": "no token",
    "403": "the caller may not read it",
    "404": "no such channel",
  },
});

/** Adds the channels routes to the plugin's app. */
export function channelRoutes(app: PluginApp, svc: ChannelService): void {
  app.get("/", LIST, (c) => {
    const p = c.var.player;
    const v: Viewer | null = p ? { id: p.id, flags: p.flags } : null;
    return c.json(
      pageOf(svc.visible(v), LIST.query(c).page).map((ch) => ({
        name: ch.name,
        header: ch.header,
        members: svc.memberCount(ch),
        joined: v ? svc.isMember(ch, v.id) : false,
      })),
    );
  });

  app.get("/:name/history", HISTORY, requireUser(), async (c) => {
    const p = caller(c);
    const v: Viewer = { id: p.id, flags: p.flags };
    const ch = svc.readable(v, c.req.param("name"));
    return c.json(await svc.history(v, ch, HISTORY.query(c).page));
  });
}
