/**
 * Wiki paths: what a client may name, checked before any file is touched. A path is
 * folder-style (`setting/places/harbour`), relative to the wiki directory, without `.md`; a
 * last segment ending in one of the asset extensions names an asset. Nothing that could
 * leave the directory or reach a hidden file (`..`, absolute paths, backslashes, NUL,
 * encoded separators, dot files such as `.git`) is accepted.
 */
import { ValidationError } from "../../src/plugins/mod.ts";

/** The asset types of the spec, by lower-case extension. */
export const ASSET_TYPES: Readonly<Record<string, string>> = Object.freeze({
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  gif: "image/gif",
  webp: "image/webp",
  svg: "image/svg+xml",
  pdf: "application/pdf",
});

/** Longest path accepted, in characters. */
export const MAX_PATH_LENGTH = 512;
/** Deepest path accepted, in segments. */
export const MAX_DEPTH = 16;
/** Longest segment accepted, in characters. */
const MAX_SEGMENT = 100;

/** A checked wiki path. */
export interface WikiPath {
  /** The segments, each safe as a file or folder name. */
  readonly segments: readonly string[];
  /** The segments joined with `/` (`""` for the wiki's root). */
  readonly path: string;
  /** True when the last segment names an asset (`.png`, `.pdf`, ...). */
  readonly asset: boolean;
  /** The asset's content type (assets only). */
  readonly contentType?: string;
  /**
   * The path was written `<folder>/index`: the folder's own page, `<folder>/index.md` and no
   * other file (`path` and `segments` name the folder).
   */
  readonly folderPage?: true;
}

/** Letters, digits, `_`, `-`, `.` and inner spaces; never a leading dot. */
const SEGMENT_RE = /^[\p{L}\p{N}_-](?:[\p{L}\p{N}_. -]*[\p{L}\p{N}_-])?$/u;

function refuse(why: string): never {
  throw new ValidationError(`Invalid wiki path: ${why}.`);
}

/** The content type of an asset file name, or undefined when it is not one. */
export function assetType(name: string): string | undefined {
  const dot = name.lastIndexOf(".");
  if (dot <= 0) return undefined;
  const ext = name.slice(dot + 1).toLowerCase();
  return Object.hasOwn(ASSET_TYPES, ext) ? ASSET_TYPES[ext] : undefined;
}

/**
 * Checks a path given as text (a body's `path`, a command argument). `root: true` lets the
 * empty path through as the wiki's root (for listings).
 */
export function parseWikiPath(text: unknown, opts: { root?: boolean } = {}): WikiPath {
  if (typeof text !== "string") refuse("it must be a string");
  if (text.length > MAX_PATH_LENGTH) refuse(`it is longer than ${MAX_PATH_LENGTH} characters`);
  // deno-lint-ignore no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(text)) refuse("control characters and NUL are not allowed");
  if (text.includes("\\")) refuse("backslashes are not allowed");
  if (text.startsWith("/")) refuse("absolute paths are not allowed");
  const trimmed = text.endsWith("/") ? text.slice(0, -1) : text;
  if (trimmed === "") {
    if (opts.root) return { segments: [], path: "", asset: false };
    refuse("it is empty");
  }
  return fromSegments(trimmed.split("/"));
}

/**
 * Checks a path taken from a request URL (the part below the route prefix, still
 * percent-encoded). An encoded `/` or `\` inside a segment is refused, not decoded into a
 * separator.
 */
export function parseUrlPath(raw: string, opts: { root?: boolean } = {}): WikiPath {
  // One leading slash separates the path from the prefix; a second one makes it absolute.
  const rest = raw.startsWith("/") ? raw.slice(1) : raw;
  const trimmed = rest.endsWith("/") ? rest.slice(0, -1) : rest;
  if (trimmed.startsWith("/")) refuse("absolute paths are not allowed");
  if (trimmed === "") return parseWikiPath("", opts);
  const segments = trimmed.split("/").map((s) => {
    let d: string;
    try {
      d = decodeURIComponent(s);
    } catch {
      refuse("bad percent-encoding");
    }
    if (d.includes("/") || d.includes("\\")) refuse("encoded separators are not allowed");
    return d;
  });
  return parseWikiPath(segments.join("/"), opts);
}

function fromSegments(segments: string[]): WikiPath {
  if (segments.length > MAX_DEPTH) refuse(`it is deeper than ${MAX_DEPTH} folders`);
  for (const s of segments) {
    if (s === "") refuse("empty segments are not allowed");
    if (s === "." || s === "..") refuse("'.' and '..' are not allowed");
    if (s.startsWith(".")) refuse("names may not start with a dot");
    if (s.length > MAX_SEGMENT) refuse(`a name is longer than ${MAX_SEGMENT} characters`);
    if (!SEGMENT_RE.test(s)) {
      refuse(`'${s}' may hold only letters, digits, spaces, '_', '-' and '.'`);
    }
  }
  const last = segments[segments.length - 1];
  const contentType = assetType(last);
  if (!contentType) {
    if (/\.md$/i.test(last)) refuse("give a page's path without '.md'");
    if (last.toLowerCase() === "readme") refuse("README files are not wiki pages");
    if (last.toLowerCase() === "index") {
      const folder = segments.slice(0, -1);
      return { segments: folder, path: folder.join("/"), asset: false, folderPage: true };
    }
  }
  return {
    segments,
    path: segments.join("/"),
    asset: contentType !== undefined,
    ...(contentType ? { contentType } : {}),
  };
}
