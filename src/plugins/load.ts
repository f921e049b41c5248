/**
 * The first load of a plugin folder: its manifest read and checked (a name of its own, not
 * reserved; enabled in the configuration; an engine range that matches), its entry module
 * imported and started. Every outcome is a record with a status; nothing here throws.
 */
import type { PluginStatus } from "../engine_admin.ts";
import { errText } from "./error_text.ts";
import type { PluginLifecycle } from "./lifecycle.ts";
import { importEntry, type PluginFolder, pluginFromModule, type PluginModule } from "./loader.ts";
import { engineMismatch, type PluginManifest, readManifest } from "./manifest.ts";
import { newStatus, type PluginRecord, type PluginRecords } from "./records.ts";

/** Names plugins may not take (route and command owners use them). */
const RESERVED: ReadonlySet<string> = new Set(["core", "engine", "plugins"]);

/** What loading needs of the manager. */
export interface LoadDeps {
  records: PluginRecords;
  lifecycle: Pick<PluginLifecycle, "start" | "stop">;
  /** False when `plugins.<key>.enabled` is false in the configuration. */
  enabled(key: string): boolean;
  /** Engine version matched against each manifest's range. */
  engineVersion: string;
  /** The plugins directory (error paths are shown relative to it). */
  pluginsDir: string;
}

/** First load of a folder: creates its record and reports how it went. */
export async function loadFolder(folder: PluginFolder, d: LoadDeps): Promise<PluginStatus> {
  const fail = (name: string, message: string): PluginStatus => {
    const r: PluginRecord = {
      key: `folder:${folder.folder}`,
      folder,
      generation: 0,
      status: newStatus(name, folder.folder, { ok: false, message }),
    };
    d.records.add(r);
    return d.records.setStatus(r, {});
  };
  let manifest: PluginManifest;
  try {
    manifest = await readManifest(folder.dir);
  } catch (e) {
    return fail(folder.folder, `not loaded: ${(e as Error).message}`);
  }
  const key = manifest.name.toLowerCase();
  if (RESERVED.has(key)) return fail(manifest.name, `not loaded: the name '${key}' is reserved`);
  const clash = d.records.get(key);
  if (clash) {
    return fail(
      folder.folder,
      `not loaded: plugin name '${manifest.name}' is already used by folder ${clash.folder.folder}`,
    );
  }
  const r: PluginRecord = {
    key,
    folder,
    generation: 0,
    status: newStatus(manifest.name, folder.folder, {
      version: manifest.version,
      description: manifest.description,
    }),
  };
  d.records.add(r);
  if (!d.enabled(key)) {
    return d.records.setStatus(r, { enabled: false, message: "disabled in configuration" });
  }
  const mismatch = engineMismatch(manifest, d.engineVersion);
  if (mismatch) return d.records.setStatus(r, { ok: false, message: `not loaded: ${mismatch}` });
  let module: PluginModule;
  try {
    module = pluginFromModule(await importEntry(folder.dir, manifest.main, 0), manifest);
  } catch (e) {
    return d.records.setStatus(r, {
      ok: false,
      message: `not loaded: ${errText(e, d.pluginsDir)}`,
    });
  }
  const problem = await d.lifecycle.start(r, module, manifest, 0);
  if (problem) return d.records.setStatus(r, { ok: false, message: `not loaded: ${problem}` });
  return d.records.setStatus(r, { ok: true, message: `loaded ${manifest.version}` });
}
