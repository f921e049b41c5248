/**
 * Reads and validates a plugin's `ursamu.plugin.json`. Every problem becomes a
 * ManifestError with a message an admin can act on; nothing here throws anything else.
 */
import { isAbsolute, join, normalize } from "node:path";
// @ts-types="@types/semver"
import semver from "semver";

/** The manifest file name inside a plugin folder. */
export const MANIFEST_FILE = "ursamu.plugin.json";

/** Largest manifest accepted, in bytes. */
const MAX_MANIFEST_BYTES = 64 * 1024;

/** Plugin names: what `plugins.<name>` and `@reload/plugin <name>` use. */
export const PLUGIN_NAME_RE = /^[a-z][a-z0-9_-]{0,63}$/i;

/** A validated manifest. */
export interface PluginManifest {
  name: string;
  version: string;
  description: string;
  /** Compatible engine range; `*` when the manifest declares none. */
  ursamu: string;
  author: string;
  license: string;
  /** Entry module, relative to the plugin folder (default `mod.ts`). */
  main: string;
}

/** A manifest that cannot be used. */
export class ManifestError extends Error {
  override name = "ManifestError";
}

function str(raw: Record<string, unknown>, key: string, required: boolean): string {
  const value = raw[key];
  if (value === undefined || value === null) {
    if (required) throw new ManifestError(`${MANIFEST_FILE}: '${key}' is required`);
    return "";
  }
  if (typeof value !== "string") {
    throw new ManifestError(`${MANIFEST_FILE}: '${key}' must be a string`);
  }
  if (value.length > 1000) throw new ManifestError(`${MANIFEST_FILE}: '${key}' is too long`);
  return value;
}

/** Validates parsed manifest JSON; throws ManifestError naming the first problem. */
export function validateManifest(raw: unknown): PluginManifest {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new ManifestError(`${MANIFEST_FILE} must hold a JSON object`);
  }
  const o = raw as Record<string, unknown>;
  const name = str(o, "name", true);
  if (!PLUGIN_NAME_RE.test(name)) {
    throw new ManifestError(
      `${MANIFEST_FILE}: name '${name}' must be 1-64 letters, digits, _ or -, starting with a letter`,
    );
  }
  const version = str(o, "version", true);
  if (!semver.valid(version)) {
    throw new ManifestError(`${MANIFEST_FILE}: version '${version}' is not a semantic version`);
  }
  const ursamu = str(o, "ursamu", false).trim() || "*";
  if (!semver.validRange(ursamu)) {
    throw new ManifestError(`${MANIFEST_FILE}: engine range '${ursamu}' cannot be parsed`);
  }
  const main = str(o, "main", false).trim() || "mod.ts";
  const clean = normalize(main);
  if (isAbsolute(main) || clean.startsWith("..") || !/\.(ts|tsx|js|mjs)$/.test(clean)) {
    throw new ManifestError(
      `${MANIFEST_FILE}: main '${main}' must be a .ts or .js file inside the plugin folder`,
    );
  }
  return {
    name,
    version,
    description: str(o, "description", true),
    ursamu,
    author: str(o, "author", false),
    license: str(o, "license", false),
    main: clean,
  };
}

/** Reads and validates the manifest in `dir`. */
export async function readManifest(dir: string): Promise<PluginManifest> {
  const path = join(dir, MANIFEST_FILE);
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(path);
  } catch {
    throw new ManifestError(`no ${MANIFEST_FILE} in ${dir}`);
  }
  if (!info.isFile) throw new ManifestError(`${path} is not a file`);
  if (info.size > MAX_MANIFEST_BYTES) throw new ManifestError(`${path} is too large`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(await Deno.readTextFile(path));
  } catch (e) {
    throw new ManifestError(`${MANIFEST_FILE} is not valid JSON: ${(e as Error).message}`);
  }
  return validateManifest(parsed);
}

/** Null when the engine version satisfies the manifest's range, else the refusal. */
export function engineMismatch(manifest: PluginManifest, engineVersion: string): string | null {
  return semver.satisfies(engineVersion, manifest.ursamu)
    ? null
    : `needs engine ${manifest.ursamu}, this engine is ${engineVersion}`;
}
