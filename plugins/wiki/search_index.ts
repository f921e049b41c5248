/**
 * The in-memory search index: title, tags and body of every page, built once from the files
 * and then kept current two ways: the store updates it on every write it makes, and a file
 * watcher marks pages changed on disk by anyone else (an editor, `git pull`), which are read
 * again before the next search. A search never reads every file.
 */
import { join, relative, sep } from "node:path";
import { parsePage } from "./frontmatter.ts";
import { assetType, MAX_DEPTH } from "./paths.ts";
import { MAX_PAGE_FILE } from "./files.ts";

/** One indexed page file. */
interface Entry {
  /** The page's wiki path. */
  path: string;
  title: string;
  /** Lower-cased title, tags and body, for matching. */
  titleLc: string;
  tagsLc: string;
  bodyLc: string;
  /** The front matter's `date` (`YYYY-MM-DD`; empty when none), for the newest pages. */
  date: string;
}

/** A search hit: a page stub. */
export interface PageStub {
  path: string;
  title: string;
  type: "page";
}

/** Most page files indexed. */
const MAX_FILES = 20_000;
/** Most words in a query. */
const MAX_TERMS = 16;
/** Without a file watcher, a search re-reads the folder at most this often (ms). */
const POLL_MS = 2000;

/** The wiki path of a page file relative to the wiki root, or null when it is not a page. */
export function pagePathOf(rel: string): string | null {
  const parts = rel.split(sep);
  const name = parts[parts.length - 1];
  if (!/\.md$/i.test(name) || parts.some((p) => p.startsWith("."))) return null;
  if (name.toLowerCase() === "readme.md") return null;
  if (name === "index.md") return parts.slice(0, -1).join("/");
  return [...parts.slice(0, -1), name.slice(0, -3)].join("/");
}

/** The searchable form of a page. */
function entryOf(path: string, text: string): Entry {
  const { meta, body } = parsePage(text);
  const title = typeof meta.title === "string" && meta.title.trim()
    ? meta.title
    : path.split("/").pop() || "index";
  const tags = Array.isArray(meta.tags) ? meta.tags.map(String) : [];
  return {
    path,
    title,
    titleLc: title.toLowerCase(),
    tagsLc: tags.join("\n").toLowerCase(),
    bodyLc: body.toLowerCase(),
    date: typeof meta.date === "string" ? meta.date : "",
  };
}

/** The search index over the wiki directory. */
export class SearchIndex {
  /** By file path relative to the root (a page may have both `x.md` and `x/index.md`). */
  readonly #entries = new Map<string, Entry>();
  readonly #dirty = new Set<string>();
  readonly #root: () => Promise<string>;
  readonly #log: (m: string) => void;
  #builtFor: string | null = null;
  #builtAt = 0;
  #full = true;
  #watcher: Deno.FsWatcher | null = null;
  #closed = false;
  #warned = false;

  constructor(root: () => Promise<string>, log: (m: string) => void) {
    this.#root = root;
    this.#log = log;
  }

  /** Stops watching (the plugin is unloaded). */
  close(): void {
    this.#closed = true;
    this.#stopWatching();
  }

  #stopWatching(): void {
    try {
      this.#watcher?.close();
    } catch {
      // already closed
    }
    this.#watcher = null;
  }

  /** Watches `root` for changes made behind the store's back. */
  #watch(root: string): void {
    this.#stopWatching();
    let w: Deno.FsWatcher;
    try {
      w = Deno.watchFs(root, { recursive: true });
    } catch (e) {
      // A wiki folder that does not exist yet is watched once the first write makes it.
      if (!(e instanceof Deno.errors.NotFound) && !this.#warned) {
        this.#warned = true;
        this.#log(`cannot watch ${root} (${(e as Error).message}); searches will re-read it`);
      }
      return;
    }
    this.#watcher = w;
    (async () => {
      try {
        for await (const ev of w) {
          for (const p of ev.paths) {
            const rel = relative(root, p);
            if (rel.startsWith("..") || rel === "") continue;
            const name = rel.split(sep).pop() ?? "";
            // Hidden files (the store's temporary files among them) and assets hold no pages.
            if (name.startsWith(".") || assetType(name)) continue;
            if (/\.md$/i.test(name)) this.#dirty.add(rel);
            else this.#full = true; // a folder came, moved or went: read everything again
          }
        }
      } catch (e) {
        if (!this.#closed) this.#log(`watching ${root} failed: ${(e as Error).message}`);
      }
      if (this.#watcher === w) {
        this.#watcher = null;
        this.#full = true;
      }
    })();
  }

  /** Brings the index up to date: a full build when needed, else the changed files. */
  async refresh(): Promise<void> {
    const root = await this.#root();
    if (root !== this.#builtFor) {
      this.#builtFor = root;
      this.#full = true;
      if (!this.#closed) this.#watch(root);
    } else if (!this.#watcher && !this.#closed) {
      this.#watch(root);
      if (this.#watcher) this.#full = true;
    }
    if (!this.#watcher && Date.now() - this.#builtAt > POLL_MS) this.#full = true;
    if (this.#full) {
      this.#full = false;
      this.#dirty.clear();
      await this.#build(root);
      return;
    }
    const dirty = [...this.#dirty];
    this.#dirty.clear();
    for (const rel of dirty) await this.#reread(root, rel);
  }

  async #build(root: string): Promise<void> {
    this.#entries.clear();
    this.#builtAt = Date.now();
    let count = 0;
    const walk = async (dir: string, depth: number): Promise<void> => {
      if (depth > MAX_DEPTH) return;
      let list: Deno.DirEntry[];
      try {
        list = await Array.fromAsync(Deno.readDir(dir));
      } catch {
        return;
      }
      for (const e of list) {
        if (e.name.startsWith(".") || count >= MAX_FILES) continue;
        const abs = join(dir, e.name);
        // Symlinks are not followed here: a link out of the wiki must not be searched.
        if (e.isDirectory) await walk(abs, depth + 1);
        else if (e.isFile && /\.md$/i.test(e.name)) {
          count++;
          await this.#reread(root, relative(root, abs));
        }
      }
    };
    await walk(root, 0);
  }

  async #reread(root: string, rel: string): Promise<void> {
    const path = pagePathOf(rel);
    if (path === null) return;
    const abs = join(root, rel);
    try {
      const info = await Deno.lstat(abs);
      if (!info.isFile || info.size > MAX_PAGE_FILE) {
        this.#entries.delete(rel);
        return;
      }
      this.#entries.set(rel, entryOf(path, await Deno.readTextFile(abs)));
    } catch {
      this.#entries.delete(rel);
    }
  }

  /** Records a page the store just wrote (`rel`: its file relative to the root). */
  put(rel: string, text: string): void {
    const path = pagePathOf(rel);
    if (path !== null) this.#entries.set(rel, entryOf(path, text));
  }

  /** Forgets a page file the store just removed. */
  drop(rel: string): void {
    this.#entries.delete(rel);
  }

  /** The indexed title of a page file (`rel`: relative to the root). */
  titleOf(rel: string): string | undefined {
    return this.#entries.get(rel)?.title;
  }

  /** The `limit` pages of the latest `date`, newest first (then by path). */
  async newest(limit: number): Promise<(PageStub & { date: string })[]> {
    await this.refresh();
    const byPath = new Map<string, Entry>();
    for (const e of this.#entries.values()) byPath.set(e.path, e);
    return [...byPath.values()]
      .sort((a, b) => b.date.localeCompare(a.date) || a.path.localeCompare(b.path))
      .slice(0, limit)
      .map((e) => ({ path: e.path, title: e.title, type: "page" as const, date: e.date }));
  }

  /**
   * Pages whose title, tags or body hold every word of `query` (case-insensitive), title
   * matches first, then tag matches, then by path. An empty query lists every page.
   */
  async search(query: string): Promise<PageStub[]> {
    await this.refresh();
    const terms = query.toLowerCase().split(/\s+/).filter(Boolean).slice(0, MAX_TERMS);
    const best = new Map<string, { e: Entry; score: number }>();
    for (const e of this.#entries.values()) {
      let score = 0;
      let all = true;
      for (const t of terms) {
        if (e.titleLc.includes(t)) score += 4;
        else if (e.tagsLc.includes(t)) score += 2;
        else if (e.bodyLc.includes(t)) score += 1;
        else {
          all = false;
          break;
        }
      }
      if (!all) continue;
      const had = best.get(e.path);
      if (!had || score > had.score) best.set(e.path, { e, score });
    }
    return [...best.values()]
      .sort((a, b) => b.score - a.score || a.e.path.localeCompare(b.e.path))
      .map(({ e }) => ({ path: e.path, title: e.title, type: "page" as const }));
  }
}
