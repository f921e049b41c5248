/**
 * What visitors read of the wiki, under `/api/v1/public/wiki` while `web.public.wiki` is on
 * (docs/wiki.md, "Visitors"): search, the newest pages, and pages and folders. Assets are open
 * already (`/api/v1/wiki/<path.ext>`); nothing here writes.
 */
import {
  describe,
  ForbiddenError,
  type PluginApp,
  s,
  ValidationError,
} from "../../src/plugins/mod.ts";
import { pageJson, type WikiStore } from "./store.ts";
import { BAD_PATH, LISTING, MAX_QUERY, PAGE, PATH, pathOf, SEARCH_WORDS } from "./routes.ts";

/** The prefix the visitors' routes are mounted on. */
export const PUBLIC_PREFIX = "/api/v1/public/wiki";
/** Most pages `/recent` lists. */
export const MAX_RECENT = 20;

const OFF = "`web.public.wiki` is off: visitors may not read the wiki";
const STUB = {
  type: "object",
  properties: { path: { type: "string" }, title: { type: "string" }, type: { const: "page" } },
};

const SEARCH = describe({
  summary: "Search the wiki's pages as a visitor (every word must match; title matches first)",
  auth: "none",
  query: { params: { q: SEARCH_WORDS }, paging: true, only: true },
  responses: {
    "200": { description: "page stubs", schema: { type: "array", items: STUB } },
    "400": `q over ${MAX_QUERY} characters, a bad limit or offset, or another query`,
    "403": OFF,
  },
});

const RECENT = describe({
  summary: "The newest pages by their `date`, newest first",
  auth: "none",
  query: {
    params: {
      limit: {
        schema: s.custom({ type: "integer", minimum: 1, maximum: MAX_RECENT }, (v) => {
          const n = /^[0-9]{1,3}$/.test(String(v)) ? Number(v) : 0;
          if (n < 1 || n > MAX_RECENT) {
            throw new ValidationError(`limit must be a whole number from 1 to ${MAX_RECENT}.`);
          }
          return n;
        }),
        description: `how many (1 to ${MAX_RECENT}; default 5)`,
      },
    },
    only: true,
  },
  responses: {
    "200": {
      description: "page stubs with their date",
      schema: {
        type: "array",
        items: { ...STUB, properties: { ...STUB.properties, date: { type: "string" } } },
      },
    },
    "400": `a limit that is not 1 to ${MAX_RECENT}, or another query`,
    "403": OFF,
  },
});

const READ = describe({
  summary: "A page, or a folder (its index.md or its listing), as a visitor reads it",
  auth: "none",
  params: { path: PATH },
  responses: {
    "200": { description: "the page, or the folder's listing", schema: { oneOf: [PAGE, LISTING] } },
    "400": `${BAD_PATH}; an asset (read it at /api/v1/wiki/<path.ext>)`,
    "403": OFF,
    "404": "not found",
  },
});

/** Adds the visitors' wiki routes; `open()` reads `web.public.wiki` at each request. */
export function publicWikiRoutes(app: PluginApp, store: WikiStore, open: () => boolean): void {
  // A logged-in caller reads what any player may; the switch is the visitors'.
  app.use("*", async (c, next) => {
    if (!c.var.player && !open()) {
      throw new ForbiddenError("This game does not show its wiki to visitors.");
    }
    await next();
  });

  app.get("/", SEARCH, async (c) => {
    const { q = "", page: { limit, offset } } = SEARCH.query(c);
    return c.json((await store.search(q)).slice(offset, offset + limit));
  });

  app.get("/recent", RECENT, async (c) => {
    return c.json(await store.newest(RECENT.query(c).limit ?? 5));
  });

  app.get("/*", READ, async (c) => {
    const p = pathOf(c, true, PUBLIC_PREFIX);
    if (p.asset) {
      throw new ValidationError("Assets are read at /api/v1/wiki/<path.ext>.");
    }
    const found = await store.lookup(p);
    return c.json("page" in found ? pageJson(found.page) : found.listing);
  });
}
