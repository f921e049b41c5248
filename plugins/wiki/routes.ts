/**
 * REST routes of the wiki under `/api/v1/wiki`: search, pages, folder listings and raw assets
 * for readers; create, edit, delete and asset upload for staff. Pages, listings and search
 * need a token; raw assets are open (docs/wiki.md says why).
 */
import {
  caller,
  NotFoundError,
  page,
  type PluginApp,
  type PluginHttpContext,
  readJson,
  requireStaff,
  requireUser,
  ValidationError,
} from "../../src/plugins/mod.ts";
import { parseUrlPath, parseWikiPath, type WikiPath } from "./paths.ts";
import { MAX_ASSET_BYTES, MAX_BODY_BYTES, pageJson, type WikiStore } from "./store.ts";

/** The prefix the routes are mounted on. */
export const PREFIX = "/api/v1/wiki";

/** A JSON body: a page body up to the spec's 10 MB plus its metadata and JSON escapes. */
const JSON_LIMIT = MAX_BODY_BYTES + 256 * 1024;

/** Longest search query. */
export const MAX_QUERY = 200;
/** How long browsers and proxies may keep an asset (SPEC "Asset cache"). */
const ASSET_CACHE = "public, max-age=3600";
/** An SVG is a document that can run script: served assets never may. */
const ASSET_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

/**
 * The wiki path of a request: the URL below the prefix, still percent-encoded and with any
 * `..` segments a raw client sent kept (so they are refused, never resolved away).
 */
function pathOf(c: PluginHttpContext, root = false): WikiPath {
  const url = c.req.url;
  const start = url.indexOf("/", url.indexOf("//") + 2);
  let pathname = start === -1 ? "/" : url.slice(start);
  const end = pathname.search(/[?#]/);
  if (end !== -1) pathname = pathname.slice(0, end);
  const rest = pathname.slice(PREFIX.length);
  if (!pathname.startsWith(PREFIX) || (rest !== "" && !rest.startsWith("/"))) {
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
  app.get("/", requireUser(), async (c) => {
    const q = c.req.query("q") ?? "";
    if (q.length > MAX_QUERY) {
      throw new ValidationError(`q must be at most ${MAX_QUERY} characters.`);
    }
    const { limit, offset } = page(c);
    const hits = await store.search(q);
    return c.json(hits.slice(offset, offset + limit));
  });

  app.get("/*", async (c) => {
    const p = pathOf(c, true);
    if (p.asset) return await serveAsset(c, store, p);
    caller(c); // pages and listings need a token
    const found = await store.lookup(p);
    return c.json("page" in found ? pageJson(found.page) : found.listing);
  });

  app.post("/", requireStaff(), async (c) => {
    const body = await readJson(c, { limit: JSON_LIMIT });
    const p = parseWikiPath(body.path);
    if (p.asset) throw new ValidationError("Assets are uploaded with PUT /api/v1/wiki/<path>.");
    const { path: _path, body: text = "", ...meta } = body;
    if (typeof meta.title !== "string" || !meta.title.trim()) {
      throw new ValidationError("title is required.");
    }
    const created = await store.create(p, meta, text, actorOf(c));
    return c.json(pageJson(created), 201);
  });

  app.patch("/*", requireStaff(), async (c) => {
    const p = pathOf(c);
    if (p.asset) throw new ValidationError("Assets are replaced with PUT.");
    const body = await readJson(c, { limit: JSON_LIMIT });
    const { path, body: text, ...meta } = body;
    if (path !== undefined && path !== p.path) {
      throw new ValidationError("path cannot be changed.");
    }
    const updated = await store.update(p, { body: text, meta }, actorOf(c));
    return c.json(pageJson(updated));
  });

  app.delete("/*", requireStaff(), async (c) => {
    const p = pathOf(c);
    await store.remove(p, actorOf(c));
    return c.json({ deleted: true });
  });

  app.put("/*", requireStaff(), async (c) => {
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
