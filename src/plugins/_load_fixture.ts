/**
 * Test fixture for load_test.ts and reload_test.ts: plugin folders on disk, and the manager's
 * load dependencies on real records with a recording stand-in for init and remove.
 */
import { join } from "node:path";
import type { ContextImpl } from "./context.ts";
import type { PluginModule } from "./loader.ts";
import type { PluginManifest } from "./manifest.ts";
import { PluginRecords } from "./records.ts";
import type { ReloadDeps } from "./reload.ts";
import type { PluginRecord } from "./records.ts";

/** A manifest file's text. */
export function manifest(name: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    name,
    version: "1.0.0",
    description: `${name} plugin`,
    ursamu: ">=1.0.0",
    ...extra,
  });
}

/** A plugin module whose `api` is `tag` (so a test sees which import it runs). */
export function moduleText(name: string, tag: string): string {
  return `export default { name: "${name}", api: "${tag}", init() {} };`;
}

/** Writes (or rewrites) files of a plugin folder. */
export async function writePlugin(dir: string, folder: string, files: Record<string, string>) {
  await Deno.mkdir(join(dir, folder), { recursive: true });
  for (const [f, text] of Object.entries(files)) {
    await Deno.writeTextFile(join(dir, folder, f), text);
  }
}

/** What the stand-in lifecycle saw, and what its next `start` calls answer (null: success). */
export interface LifecycleLog {
  calls: string[];
  answers: (string | null)[];
}

/** Load dependencies over real records in a temp plugins folder; `close` removes the folder. */
export async function loadFixture(opts: { disabled?: string[] } = {}) {
  const dir = await Deno.makeTempDir({ prefix: "ursamu-load-" });
  const logs: string[] = [];
  const records = new PluginRecords({ info: (m) => logs.push(m), error: (m) => logs.push(m) });
  const life: LifecycleLog = { calls: [], answers: [] };
  const holds: string[] = [];
  const deps: ReloadDeps = {
    records,
    lifecycle: {
      start(r: PluginRecord, module: PluginModule, m: PluginManifest, generation: number) {
        life.calls.push(`start ${m.name} ${m.version} gen ${generation} api ${String(module.api)}`);
        const problem = life.answers.shift() ?? null;
        if (problem !== null) return Promise.resolve(problem);
        // The stand-in's context: only `provided` is ever read from it.
        const ctx = { provided: undefined } as unknown as ContextImpl;
        r.loaded = { module, ctx, manifest: m, generation };
        r.status = { ...r.status, name: m.name, version: m.version, loaded: true, enabled: true };
        return Promise.resolve(null);
      },
      stop(r: PluginRecord) {
        life.calls.push(`stop ${r.loaded?.manifest.name ?? "(none)"}`);
        r.loaded = undefined;
        r.status = { ...r.status, loaded: false };
        return Promise.resolve(null);
      },
    },
    enabled: (key) => !(opts.disabled ?? []).includes(key),
    engineVersion: "1.0.0",
    pluginsDir: dir,
    warn: (m) => logs.push(`warn ${m}`),
    hold: (key) => {
      holds.push(`hold ${key}`);
      return () => holds.push(`release ${key}`);
    },
  };
  return {
    dir,
    deps,
    records,
    life,
    logs,
    holds,
    folder: (name: string) => ({ folder: name, dir: join(dir, name) }),
    close: () => Deno.remove(dir, { recursive: true }),
  };
}
