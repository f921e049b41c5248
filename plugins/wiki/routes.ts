/**
 * REST routes of the wiki under `/api/v1/wiki`: search, pages, folder listings and raw assets
 * for readers; create, edit, delete and asset upload for staff. Pages, listings and search
 * need a token; raw assets are open (docs/wiki.md says why).
 */
import {
  caller,
  describe,
  NotFoundError,
  type PluginApp,
  type PluginHttpContext,
  requireStaff,
  requireUser,
  s,
  ValidationError,
} from "../../src/plugins/mod.ts";
import { parseUrlPath, parseWikiPath, type WikiPath } from "./paths.ts";
import { MAX_ASSET_BYTES, MAX_BODY_BYTES, pageJson, type WikiStore } from "./store.ts";
import { MAX_TITLE } from "./frontmatter.ts";

/** The prefix the routes are mounted on. */
export const PREFIX = "/api/v1/wiki";

/** A JSON body: a page body up to the spec's 10 MB plus its metadata and JSON escapes. */
const JSON_LIMIT = MAX_BODY_BYTES + 256 * 1024;

/** Longest search query. */
export const MAX_QUERY = 200;
const ASSET_EXTENSIONS = ".jpg, .jpeg, .png, .gif, .webp, .svg or .pdf";
export const PATH =
  `a folder-style wiki path without .md (\`setting/harbour\`); a last segment ending in ${ASSET_EXTENSIONS} names an asset`;

/** Metadata keys are letters, digits, `_` and `-`; values strings, numbers, booleans or arrays. */
const META_VALUE = {
  oneOf: [
    { type: "string" },
    { type: "number" },
    { type: "boolean" },
    { type: "array", items: { type: ["string", "number", "boolean"] } },
  ],
};

export const PAGE = {
  type: "object",
  description: "the page's front matter merged with its path and body",
  properties: {
    path: { type: "string" },
    title: { type: "string" },
    date: { type: "string" },
    author: { type: "string" },
    tags: { type: "array", items: { type: "string" } },
    body: { type: "string" },
  },
  additionalProperties: META_VALUE,
};

const STUB = {
  type: "object",
  properties: {
    path: { type: "string" },
    title: { type: "string" },
    type: { enum: ["page", "directory", "asset"] },
  },
};

export const LISTING = {
  type: "object",
  properties: {
    path: { type: "string" },
    type: { const: "directory" },
    children: { type: "array", items: STUB },
  },
};

export const BAD_PATH = "a hostile path (`..`, empty segments, a hidden name, ...)";

/** What a page body holds besides its metadata: the path (on create) and the text. */
interface PageBody {
  path: unknown;
  text: unknown;
  meta: Record<string, unknown>;
}

/** A page body's parts: `path` and `body` apart, every other key metadata (the store checks it). */
function pageBody(v: unknown): PageBody {
  const { path, body: text, ...meta } = v as Record<string, unknown>;
  return { path, text, meta };
}

/** A search's words: at most MAX_QUERY characters (players' and visitors' search alike). */
export const SEARCH_WORDS = {
  schema: s.custom({ type: "string", maxLength: MAX_QUERY }, (v) => {
    const q = String(v);
    if (q.length > MAX_QUERY) {
      throw new ValidationError(`q must be at most ${MAX_QUERY} characters.`);
    }
    return q;
  }),
  description: "words; none: every page",
};

const SEARCH = describe({
  summary: "Search the wiki's pages (every word must match; title matches first)",
  auth: "user",
  query: { params: { q: SEARCH_WORDS }, paging: true },
  responses: {
    "200": {
      description: "page stubs",
      schema: {
        type: "array",
        items: {
          type: "object",
          properties: {
            path: { type: "string" },
            title: { type: "string" },
            type: { const: "page" },
          },
        },
      },
    },
    "400": `q over ${MAX_QUERY} characters, or a bad limit or offset`,
    "401": "no token",
  },
});

const CREATE = describe({
  summary: "Create a page",
  description:
    `author and date default to the caller and today. The body may be up to ${MAX_BODY_BYTES} bytes (the JSON up to 256 KiB more).`,
  auth: "staff",
  body: {
    schema: s.custom({
      type: "object",
      properties: {
        path: { type: "string", description: PATH },
        title: { type: "string", minLength: 1, maxLength: MAX_TITLE },
        date: { type: "string" },
        author: { type: "string" },
        tags: { type: "array", items: { type: "string" } },
        body: { type: "string", description: `at most ${MAX_BODY_BYTES} bytes` },
      },
      required: ["path", "title"],
      additionalProperties: META_VALUE,
    }, (v) => {
      const b = pageBody(v);
      const p = parseWikiPath(b.path);
      if (p.asset) throw new ValidationError("Assets are uploaded with PUT /api/v1/wiki/<path>.");
      if (typeof b.meta.title !== "string" || !b.meta.title.trim()) {
        throw new ValidationError("title is required.");
      }
      return { ...b, path: p, text: b.text === undefined ? "" : b.text };
    }),
    limit: JSON_LIMIT,
  },
  responses: {
    "201": { description: "the page", schema: PAGE },
    "400": `${BAD_PATH}, an asset path, no or too long title, a bad metadata key or value`,
    "401": "no token",
    "403": "not staff",
    "409": "a wiki page already exists at that path",
  },
});

const READ = describe({
  summary: "A page, a folder (its index.md or its listing), or a raw asset",
  description:
    "Pages and listings need a token; a raw asset does not, and is served with its Content-Type, `Cache-Control: public, max-age=3600` and a sandboxing Content-Security-Policy.",
  auth: "optional",
  params: { path: PATH },
  responses: {
    "200": {
      description: "the page, or the folder's listing (an asset: its bytes)",
      schema: { oneOf: [PAGE, LISTING] },
    },
    "400": BAD_PATH,
    "401": "no token (pages and listings)",
    "404": "not found",
  },
});

const EDIT = describe({
  summary: "Edit a page's body and metadata (`null` removes a key)",
  description: "`body` alone keeps the front matter as it was; `path` cannot change.",
  auth: "staff",
  params: { path: PATH },
  body: {
    schema: s.custom({
      type: "object",
      properties: {
        title: { type: "string", minLength: 1, maxLength: MAX_TITLE },
        body: { type: "string", description: `at most ${MAX_BODY_BYTES} bytes` },
      },
      additionalProperties: { oneOf: [META_VALUE, { type: "null" }] },
    }, pageBody),
    limit: JSON_LIMIT,
  },
  responses: {
    "200": { description: "the updated page", schema: PAGE },
    "400":
      `${BAD_PATH}, an asset path, a changed path, a bad metadata key or value, a removed or too long title`,
    "401": "no token",
    "403": "not staff",
    "404": "no such page",
  },
});

const DELETE = describe({
  summary: "Delete a page (`<path>.md`, else `<path>/index.md`) or an asset",
  auth: "staff",
  params: { path: PATH },
  responses: {
    "200": {
      description: "deleted",
      schema: { type: "object", properties: { deleted: { const: true } } },
    },
    "400": BAD_PATH,
    "401": "no token",
    "403": "not staff",
    "404": "not found",
  },
});

const ASSET = {
  type: "object",
  properties: {
    path: { type: "string" },
    type: { const: "asset" },
    contentType: { type: "string" },
    size: { type: "integer" },
  },
};

const UPLOAD = describe({
  summary: "Upload or replace an asset (the raw bytes, with the extension's Content-Type)",
  description:
    `The request body is the file itself (not JSON), at most ${MAX_ASSET_BYTES} bytes, counted while it streams; an upload over that keeps nothing.`,
  auth: "staff",
  params: { path: `a wiki path ending in ${ASSET_EXTENSIONS}` },
  rawBody: {
    description: "the file's bytes, with the Content-Type of its extension",
    contentType: "application/octet-stream",
  },
  responses: {
    "200": { description: "replaced", schema: ASSET },
    "201": { description: "stored", schema: ASSET },
    "400":
      `${BAD_PATH}, not an asset path, a missing or wrong Content-Type, an empty upload or one over ${MAX_ASSET_BYTES} bytes`,
    "401": "no token",
    "403": "not staff",
  },
});

/** How long browsers and proxies may keep an asset (SPEC "Asset cache"). */
const ASSET_CACHE = "public, max-age=3600";
/** An SVG is a document that can run script: served assets never may. */
const ASSET_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

/**
 * The wiki path of a request: the URL below the prefix, still percent-encoded and with any
 * `..` segments a raw client sent kept (so they are refused, never resolved away).
 */
export function pathOf(c: PluginHttpContext, root = false, prefix = PREFIX): WikiPath {
  const url = c.req.url;
  const start = url.indexOf("/", url.indexOf("//") + 2);
  let pathname = start === -1 ? "/" : url.slice(start);
  const end = pathname.search(/[?#]/);
  if (end !== -1) pathname = pathname.slice(0, end);
  const rest = pathname.slice(prefix.length);
  if (!pathname.startsWith(prefix) || (rest !== "" && !rest.startsWith("/"))) {
    throw new ValidationError("Invalid wiki path.");
  }
  return parseUrlPath(rest, { root });
}

function actorOf(c: PluginHttpContext) {
  const me = caller(c);
  return { actorId: me.id, actorName: me.name };
}

/** Adds the wiki routes to the plugin's app. */
export function wikiRoutes(app: PluginApp, store: WikiStore): void {
  app.get("/", SEARCH, requireUser(), async (c) => {
    const { q = "", page: { limit, offset } } = SEARCH.query(c);
    const hits = await store.search(q);
    return c.json(hits.slice(offset, offset + limit));
  });

  app.get("/*", READ, async (c) => {
    const p = pathOf(c, true);
    if (p.asset) return await serveAsset(c, store, p);
    caller(c); // pages and listings need a token
    const found = await store.lookup(p);
    return c.json("page" in found ? pageJson(found.page) : found.listing);
  });

  app.post("/", CREATE, requireStaff(), async (c) => {
    const { path, meta, text } = await CREATE.body(c);
    const created = await store.create(path, meta, text, actorOf(c));
    return c.json(pageJson(created), 201);
  });

  app.patch("/*", EDIT, requireStaff(), async (c) => {
    const p = pathOf(c);
    if (p.asset) throw new ValidationError("Assets are replaced with PUT.");
    const { path, text, meta } = await EDIT.body(c);
    if (path !== undefined && path !== p.path) {
      throw new ValidationError("path cannot be changed.");
    }
    const updated = await store.update(p, { body: text, meta }, actorOf(c));
    return c.json(pageJson(updated));
  });

  app.delete("/*", DELETE, requireStaff(), async (c) => {
    const p = pathOf(c);
    await store.remove(p, actorOf(c));
    return c.json({ deleted: true });
  });

  app.put("/*", UPLOAD, requireStaff(), async (c) => {
    const p = pathOf(c);
    if (!p.asset || !p.contentType) {
      throw new ValidationError(
        "PUT stores assets: the path must end in .jpg, .jpeg, .png, .gif, .webp, .svg or .pdf.",
      );
    }
    const sent = (c.req.header("content-type") ?? "").split(";")[0].trim().toLowerCase();
    if (sent !== p.contentType) {
      throw new ValidationError(
        sent
          ? `Content-Type ${sent.slice(0, 100)} does not match ${p.contentType}.`
          : `Content-Type ${p.contentType} is required.`,
      );
    }
    const declared = c.req.header("content-length");
    if (declared !== undefined && Number(declared) > MAX_ASSET_BYTES) {
      throw new ValidationError(`The file is larger than ${MAX_ASSET_BYTES} bytes.`);
    }
    if (declared === "0" || !c.req.raw.body) throw new ValidationError("The file is empty.");
    const r = await store.putAsset(p, uploaded(c.req.raw.body), actorOf(c));
    return c.json(
      { path: p.path, type: "asset", contentType: p.contentType, size: r.size },
      r.created ? 201 : 200,
    );
  });
}

/** The request body, with a client that goes away mid-upload turned into a clear 400. */
function uploaded(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(ctl) {
      let step: ReadableStreamReadResult<Uint8Array>;
      try {
        step = await reader.read();
      } catch {
        ctl.error(new ValidationError("The upload could not be read to its end."));
        return;
      }
      if (step.done) ctl.close();
      else ctl.enqueue(step.value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

/** A raw asset, readable without a token, cacheable by anyone. */
async function serveAsset(c: PluginHttpContext, store: WikiStore, p: WikiPath) {
  const found = await store.asset(p);
  if (!found) throw new NotFoundError("Not found");
  const headers = (size: number) => ({
    "content-type": p.contentType!,
    "content-length": String(size),
    "cache-control": ASSET_CACHE,
    "content-security-policy": ASSET_CSP,
  });
  if (c.req.method === "HEAD") return new Response(null, { headers: headers(found.size) });
  // The length comes from the opened file: a replace after the lookup swaps the whole file
  // (rename), so the open handle and its size always agree.
  const file = await Deno.open(found.file);
  let size: number;
  try {
    size = (await file.stat()).size;
  } catch (e) {
    file.close();
    throw e;
  }
  return new Response(file.readable, { headers: headers(size) });
}
