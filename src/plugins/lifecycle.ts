/**
 * Starting and stopping one plugin version: `init` in a fresh context (with the plugin's help
 * folder), `remove`, each under a deadline, and the release of everything the context
 * registered, whether the plugin's own code succeeded or not.
 */
import { join } from "node:path";
import { type ContextHost, ContextImpl } from "./context.ts";
import { withDeadline } from "./deadline.ts";
import { errText } from "./error_text.ts";
import type { PluginModule } from "./loader.ts";
import type { PluginManifest } from "./manifest.ts";
import type { PluginRecord } from "./records.ts";

/** Settings for {@linkcode PluginLifecycle}. */
export interface LifecycleOptions {
  /** What every plugin context is built on. */
  host: ContextHost;
  /** Longest an `init` or `remove` may take (ms). */
  timeoutMs: number;
  /** The plugins directory (error paths are shown relative to it). */
  pluginsDir: string;
}

/** Runs plugins' `init` and `remove`. */
export class PluginLifecycle {
  readonly #o: LifecycleOptions;

  constructor(opts: LifecycleOptions) {
    this.#o = opts;
  }

  /** Runs init in a fresh context; on success the record holds it. Returns a problem or null. */
  async start(
    r: PluginRecord,
    module: PluginModule,
    manifest: PluginManifest,
    generation: number,
  ): Promise<string | null> {
    const ctx = new ContextImpl(this.#o.host, manifest, r.folder.dir);
    const helpDir = join(r.folder.dir, "help");
    try {
      if ((await Deno.stat(helpDir)).isDirectory) ctx.help.addDir(helpDir);
    } catch { /* no help folder */ }
    let result: unknown;
    try {
      result = await this.#timed(() => module.init(ctx), `init() of ${manifest.name}`);
    } catch (e) {
      await this.#cleanupFailed(module, ctx);
      return `init() failed: ${errText(e, this.#o.pluginsDir)}`;
    }
    if (result === false) {
      await this.#cleanupFailed(module, ctx);
      return "init() returned false";
    }
    r.loaded = { module, ctx, manifest, generation };
    r.status = {
      ...r.status,
      version: manifest.version,
      description: manifest.description,
      name: manifest.name,
      loaded: true,
      enabled: true,
    };
    return null;
  }

  /** Calls remove() and releases the context; always leaves the plugin unloaded. */
  async stop(r: PluginRecord): Promise<string | null> {
    const l = r.loaded;
    if (!l) return null;
    r.loaded = undefined;
    let problem: string | null = null;
    if (l.module.remove) {
      try {
        await this.#timed(() => l.module.remove!(), `remove() of ${l.manifest.name}`);
      } catch (e) {
        problem = `remove() failed: ${errText(e, this.#o.pluginsDir)}`;
      }
    }
    await l.ctx.release();
    r.status = { ...r.status, loaded: false };
    return problem;
  }

  async #cleanupFailed(module: PluginModule, ctx: ContextImpl): Promise<void> {
    if (module.remove) {
      try {
        await this.#timed(() => module.remove!(), `remove() of ${ctx.name}`);
      } catch { /* it failed to start; its remove may well fail too */ }
    }
    await ctx.release();
  }

  #timed<T>(fn: () => T | Promise<T>, what: string): Promise<T> {
    return withDeadline(fn, this.#o.timeoutMs, what);
  }
}
