/**
 * The portal's parts that plugins ship (docs/web.md, "Portal sections"): sections (pages under
 * `/<path>` with a menu entry, rendered by a module in the plugin's web folder) and panes beside
 * the play client's output. The shell asks `GET /api/v1/portal` what there is; deep links to a
 * section's paths serve the shell. The engine knows no plugin's section: each declares its own.
 */
/** What a plugin hands its pages (its limits and the like), fresh at each request when a function. */
export type PortalSettings = Record<string, unknown> | (() => Record<string, unknown>);

/** A portal section a plugin declares (`ctx.portal.section`). */
export interface PortalSection {
  /** The first segment of the section's addresses: `kettles` serves `/kettles`, `/kettles/2/7`. */
  path: string;
  /** The menu entry's text. */
  label: string;
  /** The module in the plugin's web folder whose `render(parts, ctx)` builds each page. */
  module: string;
  /** Place in the menu, lowest first (Play is first; Profile and Settings come last). */
  order?: number;
  /** A style sheet in the plugin's web folder, loaded with the module. */
  styles?: string;
  /** JSON the pages get as `ctx.section.settings`: the plugin's limits, never a copy of them. */
  settings?: PortalSettings;
}

/** A pane beside the play client's output (`ctx.portal.pane`). */
export interface PortalPane {
  /** The module in the plugin's web folder whose `pane(ctx)` builds the pane. */
  module: string;
  /** Place among the panes, lowest first (the room and who is online come first). */
  order?: number;
  styles?: string;
  settings?: PortalSettings;
}

/** A section or pane as `GET /api/v1/portal` lists it: addresses on the site, settings read. */
export interface PortalEntry {
  owner: string;
  order: number;
  module: string;
  styles: string | null;
  settings: Record<string, unknown>;
}

/** What `GET /api/v1/portal` answers. */
export interface PortalView {
  sections: (PortalEntry & { path: string; label: string })[];
  panes: PortalEntry[];
}

/** Client paths the core serves itself; no section may take them (nor the server's own roots). */
export const CORE_CLIENT_PATHS: readonly string[] = [
  "play",
  "login",
  "register",
  "reset",
  "settings",
  "profile",
];
const RESERVED = new Set([...CORE_CLIENT_PATHS, "api", "assets", "plugins", "ws", "health"]);

/** Most sections, and panes, one plugin declares. */
export const MAX_PORTAL_PARTS = 8;
const PATH_RE = /^[a-z][a-z0-9-]{0,31}$/;
const FILE_RE = /^(?:[A-Za-z0-9_-][A-Za-z0-9._-]*\/)*[A-Za-z0-9_-][A-Za-z0-9._-]*$/;
const DEFAULT_ORDER = 100;

interface Stored {
  owner: string;
  order: number;
  module: string;
  styles: string | null;
  settings: PortalSettings;
}

/** Sections and panes by owner (lower-cased plugin name), released with the owner. */
export class Portal {
  #sections: (Stored & { path: string; label: string })[] = [];
  #panes: Stored[] = [];
  readonly #prefix: (owner: string) => string;

  /** `prefix(owner)` is where an owner's web folder is served (`/plugins/<owner>`). */
  constructor(prefix: (owner: string) => string) {
    this.#prefix = prefix;
  }

  /** Adds a section for `owner`; `exists(file)` says whether a file is in its web folder. */
  section(owner: string, spec: PortalSection, exists: (file: string) => boolean): void {
    if (typeof spec !== "object" || spec === null) throw new Error("portal section: no spec");
    const path = spec.path;
    if (typeof path !== "string" || !PATH_RE.test(path)) {
      throw new Error(`portal section: bad path '${String(path)}' (a-z, 0-9, -; 32 at most)`);
    }
    if (RESERVED.has(path)) throw new Error(`portal section: '${path}' is the engine's own`);
    const taken = this.#sections.find((s) => s.path === path);
    if (taken) throw new Error(`portal section: '/${path}' is plugin ${taken.owner}'s`);
    const label = typeof spec.label === "string" ? spec.label.trim() : "";
    // deno-lint-ignore no-control-regex
    if (!label || [...label].length > 32 || /[\u0000-\u001f\u007f]/.test(label)) {
      throw new Error("portal section: label must be 1 to 32 characters on one line");
    }
    if (this.#sections.filter((s) => s.owner === owner).length >= MAX_PORTAL_PARTS) {
      throw new Error(`portal section: at most ${MAX_PORTAL_PARTS} a plugin`);
    }
    this.#sections = [...this.#sections, { ...stored(owner, spec, exists), path, label }];
  }

  /** Adds a play pane for `owner`. */
  pane(owner: string, spec: PortalPane, exists: (file: string) => boolean): void {
    if (typeof spec !== "object" || spec === null) throw new Error("portal pane: no spec");
    if (this.#panes.filter((p) => p.owner === owner).length >= MAX_PORTAL_PARTS) {
      throw new Error(`portal pane: at most ${MAX_PORTAL_PARTS} a plugin`);
    }
    this.#panes = [...this.#panes, stored(owner, spec, exists)];
  }

  /** Drops an owner's sections and panes; how many went. */
  removeOwner(owner: string): number {
    const before = this.#sections.length + this.#panes.length;
    this.#sections = this.#sections.filter((s) => s.owner !== owner);
    this.#panes = this.#panes.filter((p) => p.owner !== owner);
    return before - this.#sections.length - this.#panes.length;
  }

  /** True when `first` (a path's first segment) is a section's. */
  has(first: string): boolean {
    return this.#sections.some((s) => s.path === first);
  }

  /** Everything, in order, as the shell reads it; a failing settings function is logged. */
  view(log: (message: string, error: unknown) => void = console.error): PortalView {
    const entry = (s: Stored): PortalEntry => ({
      owner: s.owner,
      order: s.order,
      module: `${this.#prefix(s.owner)}/${s.module}`,
      styles: s.styles ? `${this.#prefix(s.owner)}/${s.styles}` : null,
      settings: settingsOf(s, log),
    });
    const byOrder = (a: { order: number; key: string }, b: { order: number; key: string }) =>
      a.order - b.order || a.key.localeCompare(b.key);
    return {
      sections: this.#sections
        .map((s) => ({ ...entry(s), path: s.path, label: s.label, key: s.path }))
        .sort(byOrder)
        .map(({ key: _key, ...s }) => s),
      panes: this.#panes
        .map((p) => ({ ...entry(p), key: `${p.owner}/${p.module}` }))
        .sort(byOrder)
        .map(({ key: _key, ...p }) => p),
    };
  }
}

function stored(
  owner: string,
  spec: PortalSection | PortalPane,
  exists: (file: string) => boolean,
): Stored {
  const file = (v: unknown, what: string, ext: RegExp): string => {
    if (typeof v !== "string" || !FILE_RE.test(v) || !ext.test(v)) {
      throw new Error(`portal: bad ${what} '${String(v)}' (a path in the plugin's web folder)`);
    }
    if (!exists(v)) throw new Error(`portal: ${what} '${v}' is not in the plugin's web folder`);
    return v;
  };
  const order = spec.order ?? DEFAULT_ORDER;
  if (typeof order !== "number" || !Number.isFinite(order)) {
    throw new Error("portal: order must be a number");
  }
  const settings = spec.settings ?? {};
  if (typeof settings !== "function" && (typeof settings !== "object" || settings === null)) {
    throw new Error("portal: settings must be an object or a function answering one");
  }
  return {
    owner,
    order,
    module: file(spec.module, "module", /\.m?js$/),
    styles: spec.styles === undefined ? null : file(spec.styles, "styles", /\.css$/),
    settings,
  };
}

function settingsOf(
  s: Stored,
  log: (message: string, error: unknown) => void,
): Record<string, unknown> {
  if (typeof s.settings !== "function") return s.settings;
  try {
    const v = s.settings();
    return typeof v === "object" && v !== null ? v : {};
  } catch (e) {
    log(`plugin ${s.owner}: portal settings failed`, e);
    return {};
  }
}
