/**
 * The wiki's operations over its files: read a page or a folder, create, edit and delete
 * pages, store and delete assets. REST routes and in-game commands both go through here, so
 * the size caps, the search index and the `wikiHooks` events are the same for both. Writes
 * are serialised in this process, so an edit's read-modify-write is never interleaved.
 */
import { relative } from "node:path";
import {
  ConflictError,
  NotFoundError,
  type PluginBus,
  ValidationError,
} from "../../src/plugins/mod.ts";
import { checkMeta, formatPage, type Meta, parsePage, withBlock } from "./frontmatter.ts";
import { type WikiFiles } from "./files.ts";
import type { WikiPath } from "./paths.ts";
import type { PageStub, SearchIndex } from "./search_index.ts";
import type { WikiActor, WikiEventMap } from "./events.ts";

/** Largest page body, in bytes (SPEC "Wiki body size"). */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;
/** Largest asset, in bytes (SPEC "Wiki upload size"). */
export const MAX_ASSET_BYTES = 10 * 1024 * 1024;

/** A page: its metadata, body and path. */
export interface Page {
  path: string;
  meta: Meta;
  body: string;
}

/** An entry of a folder listing. */
export interface ChildStub {
  path: string;
  title: string;
  type: "page" | "directory" | "asset";
}

/** A folder without an `index.md`. */
export interface Listing {
  path: string;
  type: "directory";
  children: ChildStub[];
}

/** A page as the REST API and events show it: metadata merged with `path` and `body`. */
export function pageJson(p: Page): Record<string, unknown> {
  return { ...p.meta, path: p.path, body: p.body };
}

/** Metadata changes: a value sets a key, `null` removes it. */
export type MetaChanges = Record<string, unknown>;

function checkBody(body: unknown): string {
  if (typeof body !== "string") throw new ValidationError("body must be a string.");
  if (new TextEncoder().encode(body).byteLength > MAX_BODY_BYTES) {
    throw new ValidationError(`body must be at most ${MAX_BODY_BYTES} bytes.`);
  }
  return body;
}

/** A stream that passes at most `max` bytes and fails with a 400 past that. */
export function capped(max: number): TransformStream<Uint8Array, Uint8Array> {
  let seen = 0;
  return new TransformStream({
    transform(chunk, ctl) {
      seen += chunk.byteLength;
      if (seen > max) ctl.error(new ValidationError(`The file is larger than ${max} bytes.`));
      else ctl.enqueue(chunk);
    },
  });
}

/** The wiki over its files, its search index and its events. */
export class WikiStore {
  readonly #files: WikiFiles;
  readonly #index: SearchIndex;
  readonly #bus: PluginBus<WikiEventMap>;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(files: WikiFiles, index: SearchIndex, bus: PluginBus<WikiEventMap>) {
    this.#files = files;
    this.#index = index;
    this.#bus = bus;
  }

  /** Runs `fn` after every earlier write has finished. */
  #serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(fn, fn);
    this.#queue = run.catch(() => {});
    return run;
  }

  async #rel(file: string): Promise<string> {
    return relative(await this.#files.root(), file);
  }

  /** Pages matching `query` (every word in title, tags or body). */
  search(query: string): Promise<PageStub[]> {
    return this.#index.search(query);
  }

  /** The `limit` pages of the latest `date`, newest first. */
  newest(limit: number): Promise<(PageStub & { date: string })[]> {
    return this.#index.newest(limit);
  }

  /** The file and size of the asset `p`, or null. */
  asset(p: WikiPath): Promise<{ file: string; size: number } | null> {
    return this.#files.asset(p);
  }

  /** The page at `p`, or null. */
  async readPage(p: WikiPath): Promise<Page | null> {
    const loc = await this.#files.locatePage(p);
    if (!loc) return null;
    const text = await this.#files.readText(loc.file);
    if (text === null) return null;
    const { meta, body } = parsePage(text);
    const title = typeof meta.title === "string" && meta.title.trim()
      ? meta.title
      : p.segments[p.segments.length - 1] ?? "index";
    return { path: p.path, meta: { ...meta, title }, body };
  }

  /** The folder `p` as a listing, or null when it is not a folder. */
  async listing(p: WikiPath): Promise<Listing | null> {
    const dir = await this.#files.directory(p);
    if (!dir) return null;
    await this.#index.refresh();
    const children: ChildStub[] = [];
    for (const e of await this.#files.entries(dir)) {
      const path = p.path ? `${p.path}/${e.name}` : e.name;
      const title = e.kind === "page"
        ? this.#index.titleOf(await this.#rel(e.file)) ?? e.name
        : e.name;
      children.push({ path, title, type: e.kind });
    }
    return { path: p.path, type: "directory", children };
  }

  /** The page at `p`, else the listing of the folder `p`; 404 when neither exists. */
  async lookup(p: WikiPath): Promise<{ page: Page } | { listing: Listing }> {
    const page = await this.readPage(p);
    if (page) return { page };
    const listing = await this.listing(p);
    if (listing) return { listing };
    // A game whose wiki folder does not exist yet has an empty wiki, not a missing one.
    if (p.path === "") return { listing: { path: "", type: "directory", children: [] } };
    throw new NotFoundError("Not found");
  }

  /**
   * Creates a page; 409 when one exists at `p`. `author` defaults to the actor's name and
   * `date` to today (UTC, `YYYY-MM-DD`). Fires `wiki:created`.
   */
  create(p: WikiPath, given: Meta, body: unknown, actor: WikiActor): Promise<Page> {
    if (p.asset) throw new ValidationError("A page path may not end in an asset extension.");
    const meta: Meta = {
      ...given,
      author: given.author ?? actor.actorName,
      date: given.date ?? new Date().toISOString().slice(0, 10),
    };
    checkMeta(meta);
    const text = checkBody(body);
    if (typeof meta.title !== "string") throw new ValidationError("title is required.");
    return this.#serial(async () => {
      if (await this.#files.locatePage(p)) {
        throw new ConflictError("A wiki page already exists at that path.");
      }
      // `<folder>/index.md` beside a `<folder>.md` would never be read at `<folder>`.
      if (
        p.folderPage && p.segments.length &&
        await this.#files.locatePage({ ...p, folderPage: undefined })
      ) {
        throw new ConflictError(
          `A wiki page already exists at '${p.path}' (${p.path}.md); edit that one instead.`,
        );
      }
      const file = await this.#files.newPageFile(p);
      const content = formatPage(meta, text);
      await this.#files.write(file, content, { exclusive: true });
      this.#index.put(await this.#rel(file), content);
      const page: Page = { path: p.path, meta, body: text };
      void this.#bus.emit("wiki:created", {
        ...actor,
        path: p.path,
        type: "page",
        meta: { ...meta, title: meta.title as string },
      });
      return page;
    });
  }

  /**
   * Changes a page: `body` when given, and each metadata key in `changes` (null removes
   * it); everything else stays as it was. Fires `wiki:edited`.
   */
  update(
    p: WikiPath,
    changes: { body?: unknown; meta?: MetaChanges },
    actor: WikiActor,
  ): Promise<Page> {
    const metaChanges = changes.meta ?? {};
    checkMeta(metaChanges, { allowNull: true });
    if (metaChanges.title === null) throw new ValidationError("title cannot be removed.");
    const body = changes.body === undefined ? undefined : checkBody(changes.body);
    return this.#serial(async () => {
      const loc = await this.#files.locatePage(p);
      const text = loc ? await this.#files.readText(loc.file) : null;
      if (!loc || text === null) throw new NotFoundError("Not found");
      const old = parsePage(text);
      const meta: Meta = { ...old.meta };
      for (const [k, v] of Object.entries(metaChanges)) {
        if (v === null) delete meta[k];
        else meta[k] = v;
      }
      const newBody = body ?? old.body;
      // A body-only edit keeps the front matter block byte for byte (hand-written comments
      // and order included); a metadata change writes it anew.
      const content = Object.keys(metaChanges).length === 0
        ? withBlock(old.block, newBody)
        : formatPage(meta, newBody);
      if (new TextEncoder().encode(content).byteLength > MAX_BODY_BYTES + 256 * 1024) {
        throw new ValidationError("The page is too large.");
      }
      await this.#files.write(loc.file, content);
      this.#index.put(await this.#rel(loc.file), content);
      void this.#bus.emit("wiki:edited", { ...actor, path: p.path, type: "page", meta });
      const title = typeof meta.title === "string" ? meta.title : p.segments.at(-1) ?? "index";
      return { path: p.path, meta: { ...meta, title }, body: newBody };
    });
  }

  /** Removes the page (`<path>.md`, else `<path>/index.md`) or the asset. Fires `wiki:deleted`. */
  remove(p: WikiPath, actor: WikiActor): Promise<void> {
    return this.#serial(async () => {
      let file: string | undefined;
      if (p.asset) file = (await this.#files.asset(p))?.file;
      else file = (await this.#files.locatePage(p))?.file;
      if (!file) throw new NotFoundError("Not found");
      await this.#files.remove(file);
      if (!p.asset) this.#index.drop(await this.#rel(file));
      void this.#bus.emit("wiki:deleted", {
        ...actor,
        path: p.path,
        type: p.asset ? "asset" : "page",
      });
    });
  }

  /**
   * Stores an asset from a stream (at most `MAX_ASSET_BYTES`, checked while it is read) or
   * from bytes already read. Fires `wiki:created` for a new asset, `wiki:edited` for a
   * replaced one; `created` says which.
   */
  putAsset(
    p: WikiPath,
    data: ReadableStream<Uint8Array> | Uint8Array,
    actor: WikiActor,
  ): Promise<{ created: boolean; size: number }> {
    if (!p.asset) throw new ValidationError("An asset path must end in an asset extension.");
    if (data instanceof Uint8Array && data.byteLength > MAX_ASSET_BYTES) {
      throw new ValidationError(`The file is larger than ${MAX_ASSET_BYTES} bytes.`);
    }
    return this.#serial(async () => {
      const file = await this.#files.assetFile(p);
      const existed = (await this.#files.asset(p)) !== null;
      const source = data instanceof Uint8Array ? data : data.pipeThrough(capped(MAX_ASSET_BYTES));
      await this.#files.write(file, source);
      const size = (await this.#files.asset(p))?.size ?? 0;
      const name = p.segments[p.segments.length - 1];
      const meta = { title: name, contentType: p.contentType ?? "", size };
      if (existed) {
        void this.#bus.emit("wiki:edited", { ...actor, path: p.path, type: "asset", meta });
      } else {
        void this.#bus.emit("wiki:created", { ...actor, path: p.path, type: "asset", meta });
      }
      return { created: !existed, size };
    });
  }
}
