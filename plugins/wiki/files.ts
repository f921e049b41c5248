/**
 * The wiki's files on disk, which are the truth: pages are `<path>.md` or `<path>/index.md`,
 * assets are stored under their own names. Every path is resolved and checked to stay
 * inside the wiki directory (symlinks that lead out are refused), and every write goes to a
 * temporary file in the same folder that is then renamed (or hard-linked, for a create that
 * must not overwrite) into place, so a reader never sees half a file.
 */
import { dirname, join, resolve, sep } from "node:path";
import { ConflictError, ValidationError } from "../../src/plugins/mod.ts";
import { assetType, type WikiPath } from "./paths.ts";

/** Largest page file read (the spec's body cap plus room for front matter). */
export const MAX_PAGE_FILE = 10 * 1024 * 1024 + 256 * 1024;
/** Most entries a directory listing reads. */
export const MAX_LISTING = 2000;

/** Where a page lives on disk. */
export interface PageFile {
  /** Absolute (real) path of the `.md` file. */
  file: string;
  /** `page` for `<path>.md`, `index` for `<path>/index.md`. */
  kind: "page" | "index";
}

/** One entry of a folder. */
export interface DirEntry {
  name: string;
  kind: "page" | "directory" | "asset";
  /** Absolute path of the entry. */
  file: string;
}

/** Marks the temporary files of this plugin (hidden: listings and search skip them). */
const TEMP_PREFIX = ".wiki-tmp-";

/** A path outside the wiki directory: refused like a hostile path. */
function escapes(): never {
  throw new ValidationError("Invalid wiki path: it leads outside the wiki directory.");
}

/** The file system side of the wiki, rooted at `root()` (read on every call). */
export class WikiFiles {
  readonly #root: () => string;

  constructor(root: () => string) {
    this.#root = root;
  }

  /**
   * The wiki directory's real path; while it does not exist, its absolute path (lookups then
   * find nothing). Reading never creates it: a game without a wiki gets no empty folder.
   */
  async root(): Promise<string> {
    const dir = resolve(this.#root());
    try {
      return await Deno.realPath(dir);
    } catch (e) {
      if (e instanceof Deno.errors.NotFound) return dir;
      throw e;
    }
  }

  /** The wiki directory's real path, created when missing (before a write). */
  async #ensureRoot(): Promise<string> {
    const dir = resolve(this.#root());
    await Deno.mkdir(dir, { recursive: true });
    return await Deno.realPath(dir);
  }

  /** The real path of `abs` when it exists: inside the wiki, else a 400; null when missing. */
  async #real(root: string, abs: string): Promise<string | null> {
    let real: string;
    try {
      real = await Deno.realPath(abs);
    } catch (e) {
      if (e instanceof Deno.errors.NotFound) return null;
      throw e;
    }
    if (real !== root && !real.startsWith(root + sep)) escapes();
    return real;
  }

  async #stat(root: string, abs: string): Promise<{ real: string; info: Deno.FileInfo } | null> {
    const real = await this.#real(root, abs);
    if (!real) return null;
    const info = await Deno.stat(real).catch(() => null);
    return info ? { real, info } : null;
  }

  /**
   * Where the page of `p` is: `<path>.md`, else `<path>/index.md` (only the latter for a path
   * written `<folder>/index`); null when neither.
   */
  async locatePage(p: WikiPath): Promise<PageFile | null> {
    const root = await this.root();
    if (p.segments.length && !p.folderPage) {
      const f = await this.#stat(root, join(root, ...p.segments) + ".md");
      if (f?.info.isFile) return { file: f.real, kind: "page" };
    }
    const i = await this.#stat(root, join(root, ...p.segments, "index.md"));
    if (i?.info.isFile) return { file: i.real, kind: "index" };
    return null;
  }

  /** The real path of the folder `p`, or null when there is none. */
  async directory(p: WikiPath): Promise<string | null> {
    const root = await this.root();
    const d = await this.#stat(root, join(root, ...p.segments));
    return d?.info.isDirectory ? d.real : null;
  }

  /** The real path and size of the asset `p`, or null. */
  async asset(p: WikiPath): Promise<{ file: string; size: number } | null> {
    const root = await this.root();
    const a = await this.#stat(root, join(root, ...p.segments));
    return a?.info.isFile ? { file: a.real, size: a.info.size } : null;
  }

  /** Reads a page file's text (null when it went away or is too large to be a page). */
  async readText(file: string): Promise<string | null> {
    try {
      const info = await Deno.stat(file);
      if (!info.isFile || info.size > MAX_PAGE_FILE) return null;
      return await Deno.readTextFile(file);
    } catch {
      return null;
    }
  }

  /** The entries of a folder: pages, sub-folders and assets (hidden files, READMEs skipped). */
  async entries(dir: string): Promise<DirEntry[]> {
    const root = await this.root();
    const out: DirEntry[] = [];
    let seen = 0;
    for await (const e of Deno.readDir(dir)) {
      if (++seen > MAX_LISTING) break;
      if (e.name.startsWith(".") || e.name.toLowerCase() === "readme.md") continue;
      const abs = join(dir, e.name);
      let found: { real: string; info: Deno.FileInfo } | null;
      try {
        found = await this.#stat(root, abs);
      } catch {
        continue; // a symlink out of the wiki is not shown
      }
      if (!found) continue;
      if (found.info.isDirectory) out.push({ name: e.name, kind: "directory", file: abs });
      else if (!found.info.isFile) continue;
      else if (/\.md$/i.test(e.name) && e.name.toLowerCase() !== "index.md") {
        out.push({ name: e.name.slice(0, -3), kind: "page", file: abs });
      } else if (assetType(e.name)) out.push({ name: e.name, kind: "asset", file: abs });
    }
    return out.sort((a, b) => a.name.localeCompare(b.name));
  }

  /**
   * The folder a new file of `p` goes into, created as needed: every existing part is
   * checked to be a real folder inside the wiki.
   */
  async #parentFor(segments: readonly string[]): Promise<string> {
    const root = await this.#ensureRoot();
    let dir = root;
    for (const s of segments) {
      const next = join(dir, s);
      const found = await this.#stat(root, next);
      if (!found) {
        await Deno.mkdir(next).catch((e) => {
          if (!(e instanceof Deno.errors.AlreadyExists)) throw e;
        });
        const made = await this.#stat(root, next);
        if (!made?.info.isDirectory) escapes();
        dir = made.real;
      } else if (!found.info.isDirectory) {
        throw new ConflictError(`'${segments.join("/")}' is not a folder.`);
      } else {
        dir = found.real;
      }
    }
    return dir;
  }

  /**
   * Where a new page of `p` is written: `<path>/index.md` when `<path>` is already a folder or
   * was written `<folder>/index` (the folder created as needed), else `<path>.md` (its folder
   * created as needed).
   */
  async newPageFile(p: WikiPath): Promise<string> {
    if (p.folderPage) return join(await this.#parentFor(p.segments), "index.md");
    const dir = await this.directory(p);
    if (dir) return join(dir, "index.md");
    const parent = await this.#parentFor(p.segments.slice(0, -1));
    return join(parent, p.segments[p.segments.length - 1] + ".md");
  }

  /** Where the asset `p` is written (its folder created as needed). */
  async assetFile(p: WikiPath): Promise<string> {
    const parent = await this.#parentFor(p.segments.slice(0, -1));
    const target = join(parent, p.segments[p.segments.length - 1]);
    const root = await this.root();
    const existing = await this.#stat(root, target);
    if (existing && !existing.info.isFile) {
      throw new ConflictError(`'${p.path}' is a folder, not an asset.`);
    }
    return target;
  }

  /**
   * Writes `data` to `file` atomically. `exclusive`: fail with 409 when the file exists
   * (a hard link never replaces its target, so two creates cannot both win).
   */
  async write(
    file: string,
    data: Uint8Array | string | ReadableStream<Uint8Array>,
    opts: { exclusive?: boolean } = {},
  ): Promise<void> {
    const tmp = join(dirname(file), `${TEMP_PREFIX}${crypto.randomUUID()}`);
    try {
      if (data instanceof ReadableStream) {
        await Deno.writeFile(tmp, data, { createNew: true, mode: 0o644 });
      } else if (typeof data === "string") {
        await Deno.writeTextFile(tmp, data, { createNew: true, mode: 0o644 });
      } else {
        await Deno.writeFile(tmp, data, { createNew: true, mode: 0o644 });
      }
      if (opts.exclusive) {
        try {
          await Deno.link(tmp, file);
        } catch (e) {
          if (e instanceof Deno.errors.AlreadyExists) {
            throw new ConflictError("A wiki page already exists at that path.");
          }
          throw e;
        }
        await Deno.remove(tmp).catch(() => {});
      } else {
        await Deno.rename(tmp, file);
      }
    } catch (e) {
      await Deno.remove(tmp).catch(() => {});
      throw e;
    }
  }

  /** Removes a file (the real path a lookup gave). */
  async remove(file: string): Promise<void> {
    await Deno.remove(file);
  }
}
