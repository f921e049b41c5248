/**
 * Help files on disk: Markdown or text, optional YAML front matter (`topic`,
 * `section`, `aliases`). Paths are resolved and must stay inside their folder;
 * symlinks that lead out are refused. Reading is bounded in depth, count and size.
 */
import { basename, extname, join, relative, resolve, sep } from "node:path";
import YAML from "yaml";
import { toSection, toSlug } from "./slug.ts";

/** One topic read from a file. */
export interface FileTopic {
  slug: string;
  section: string;
  content: string;
  aliases: string[];
  /** The file, relative to its folder (for messages). */
  file: string;
}

/** A folder to read and the section its top-level files belong to. */
export interface HelpFolder {
  dir: string;
  defaultSection: string;
}

const MAX_FILE_BYTES = 256 * 1024;
const MAX_FILES = 5000;
const MAX_DEPTH = 8;
const EXTENSIONS = new Set([".md", ".txt"]);

/** True when `path` is `dir` or inside it. */
function inside(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel === "" || (!rel.startsWith("..") && !rel.startsWith(sep));
}

/** Splits optional front matter from the body; bad YAML leaves the whole text as the body. */
export function splitFrontMatter(
  text: string,
  warn: (m: string) => void = () => {},
): { meta: Record<string, unknown>; body: string } {
  const m = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  if (!m) return { meta: {}, body: text };
  try {
    const meta = YAML.parse(m[1], { maxAliasCount: 50 });
    if (meta && typeof meta === "object" && !Array.isArray(meta)) {
      return { meta: meta as Record<string, unknown>, body: text.slice(m[0].length) };
    }
    return { meta: {}, body: text.slice(m[0].length) };
  } catch (e) {
    warn(`front matter is not valid YAML (${(e as Error).message.split("\n")[0]})`);
    return { meta: {}, body: text };
  }
}

/** Reads every help file of a folder. Problems are reported through `warn`, never thrown. */
export async function readHelpFolder(
  folder: HelpFolder,
  warn: (m: string) => void,
): Promise<FileTopic[]> {
  let root: string;
  try {
    root = await Deno.realPath(resolve(folder.dir));
  } catch {
    return [];
  }
  const out: FileTopic[] = [];
  let seen = 0;
  const walk = async (dir: string, depth: number, section: string | null) => {
    if (depth > MAX_DEPTH) return;
    let entries: Deno.DirEntry[];
    try {
      entries = (await Array.fromAsync(Deno.readDir(dir))).sort((a, b) =>
        a.name.localeCompare(b.name)
      );
    } catch (e) {
      warn(`cannot read ${dir}: ${(e as Error).message}`);
      return;
    }
    for (const e of entries) {
      if (e.name.startsWith(".") || ++seen > MAX_FILES) continue;
      const path = join(dir, e.name);
      let real: string;
      try {
        real = await Deno.realPath(path);
      } catch {
        continue;
      }
      if (!inside(root, real)) {
        warn(`${relative(root, path)} leads outside ${root}; skipped`);
        continue;
      }
      const info = await Deno.stat(real).catch(() => null);
      if (!info) continue;
      if (info.isDirectory) {
        await walk(path, depth + 1, section ?? toSection(e.name));
        continue;
      }
      if (!info.isFile || !EXTENSIONS.has(extname(e.name).toLowerCase())) continue;
      const rel = relative(root, path);
      if (info.size > MAX_FILE_BYTES) {
        warn(`${rel} is larger than ${MAX_FILE_BYTES} bytes; skipped`);
        continue;
      }
      const topic = await readTopic(real, rel, section ?? folder.defaultSection, warn);
      if (topic) out.push(topic);
    }
  };
  await walk(root, 0, null);
  return out;
}

async function readTopic(
  path: string,
  rel: string,
  section: string,
  warn: (m: string) => void,
): Promise<FileTopic | null> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (e) {
    warn(`cannot read ${rel}: ${(e as Error).message}`);
    return null;
  }
  const { meta, body } = splitFrontMatter(text, (m) => warn(`${rel}: ${m}`));
  const name = typeof meta.topic === "string" ? meta.topic : basename(rel, extname(rel));
  const slug = toSlug(name);
  if (!slug) {
    warn(`${rel}: '${name}' is not a valid topic name; skipped`);
    return null;
  }
  const aliases = Array.isArray(meta.aliases)
    ? meta.aliases.map(toSlug).filter((a): a is string => !!a && a !== slug)
    : [];
  return {
    slug,
    section: toSection(meta.section) ?? section,
    content: body.replace(/^\s*\n/, "").trimEnd(),
    aliases,
    file: rel,
  };
}
