/**
 * Reloading a plugin in place. The new code is imported (from a fresh copy, see loader.ts)
 * before the old is stopped, so a syntax error leaves the running version alone; when the new
 * init fails, the previous module is started again. A renamed plugin is loaded afresh.
 */
import type { PluginStatus } from "../engine_admin.ts";
import { errText } from "./error_text.ts";
import { type LoadDeps, loadFolder } from "./load.ts";
import { importEntry, pluginFromModule, type PluginModule } from "./loader.ts";
import { engineMismatch, type PluginManifest, readManifest } from "./manifest.ts";
import type { PluginRecord } from "./records.ts";

/** What reloading needs of the manager besides what loading does. */
export interface ReloadDeps extends LoadDeps {
  /** Warnings about the reload itself (a copy that could not be staged). */
  warn(m: string): void;
  /** Parks a plugin's due timer jobs until the returned release is called. */
  hold(key: string): () => void;
}

/** Swaps a record's code for what its folder holds now, and reports how it went. */
export async function reloadRecord(r: PluginRecord, d: ReloadDeps): Promise<PluginStatus> {
  let manifest: PluginManifest;
  try {
    manifest = await readManifest(r.folder.dir);
  } catch (e) {
    return keepOld(r, errText(e, d.pluginsDir), d);
  }
  const newKey = manifest.name.toLowerCase();
  if (newKey !== r.key) {
    // Renamed (or first usable manifest): drop the old record, load under the new name.
    if (r.loaded) await d.lifecycle.stop(r);
    d.records.delete(r);
    return await loadFolder(r.folder, d);
  }
  if (!d.enabled(r.key)) {
    await d.lifecycle.stop(r);
    return d.records.setStatus(r, {
      ok: true,
      enabled: false,
      message: "disabled in configuration",
    });
  }
  const mismatch = engineMismatch(manifest, d.engineVersion);
  if (mismatch) return keepOld(r, mismatch, d);
  const generation = ++r.generation;
  let module: PluginModule;
  try {
    const ns = await importEntry(r.folder.dir, manifest.main, generation, d.warn);
    module = pluginFromModule(ns, manifest);
  } catch (e) {
    return keepOld(r, errText(e, d.pluginsDir), d);
  }
  // While the old version stops and the new one starts, the plugin's due jobs wait:
  // none runs twice and none declared `drop` is lost in the gap.
  const release = d.hold(r.key);
  try {
    return await swap(r, module, manifest, generation, d);
  } finally {
    release();
  }
}

/** Stops the running version and starts `module`; restores the old one when that fails. */
async function swap(
  r: PluginRecord,
  module: PluginModule,
  manifest: PluginManifest,
  generation: number,
  d: ReloadDeps,
): Promise<PluginStatus> {
  const old = r.loaded;
  const removeProblem = await d.lifecycle.stop(r);
  const note = removeProblem ? ` (old ${removeProblem}; released anyway)` : "";
  const problem = await d.lifecycle.start(r, module, manifest, generation);
  if (!problem) {
    return d.records.setStatus(r, { ok: true, message: `reloaded ${manifest.version}${note}` });
  }
  if (old) {
    const back = await d.lifecycle.start(r, old.module, old.manifest, old.generation);
    if (!back) {
      return d.records.setStatus(r, {
        ok: false,
        message: `reload failed: ${problem}; previous version ${old.manifest.version} restored`,
      });
    }
  }
  return d.records.setStatus(r, {
    ok: false,
    loaded: false,
    message: `reload failed: ${problem}; the plugin is not running`,
  });
}

function keepOld(r: PluginRecord, problem: string, d: ReloadDeps): PluginStatus {
  const still = r.loaded ? "; the previous version is still running" : "";
  return d.records.setStatus(r, { ok: false, message: `reload failed: ${problem}${still}` });
}
