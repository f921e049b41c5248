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
  /**
   * Whether visitors (no login) may open the section, read at each request (a `web.public.*`
   * switch): its module then renders with `me` null, from `/api/v1/public/` routes. Absent:
   * players only.
   */
  visitors?: () => boolean;
  /**
   * The plugin's own route (under `/api/v1/`, asked with the player's token) answering
   * `{ unread }`: the menu shows the number beside the label while it is above 0.
   */
  unread?: string;
}

/** Where a card shows: the front page, or each character's page. */
export type CardPlace = "front" | "character";

/**
 * A card a plugin adds to a core page (`ctx.portal.card`): the front page's active scenes or
 * upcoming events, a character's shared scenes. Its module exports `card(ctx)` answering a node
 * (or null for nothing to show); `ctx` is `{ me, settings, navigate }`, and on a character's
 * page `character` (`{ id, name }`).
 */
export interface PortalCard {
  place: CardPlace;
  module: string;
  /** Place among the page's cards, lowest first. */
  order?: number;
  styles?: string;
  settings?: PortalSettings;
  /** Whether visitors see it, read at each request (a `web.public.*` switch). Absent: no. */
  visitors?: () => boolean;
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
  sections: (PortalEntry & {
    path: string;
    label: string;
    visitors: boolean;
    unread: string | null;
  })[];
  panes: PortalEntry[];
  cards: (PortalEntry & { place: CardPlace; visitors: boolean })[];
}

/** Client paths the core serves itself; no section may take them (nor the server's own roots). */
export const CORE_CLIENT_PATHS: readonly string[] = [
  "play",
  "login",
  "register",
  "reset",
  "settings",
  "profile",
  "home",
  "characters",
];
const RESERVED = new Set([...CORE_CLIENT_PATHS, "api", "assets", "plugins", "ws", "health"]);

/** Most sections, and panes, one plugin declares. */
export const MAX_PORTAL_PARTS = 8;
const PATH_RE = /^[a-z][a-z0-9-]{0,31}$/;
/** A route of the site's own API, without a query: the menu asks it with the player's token. */
const UNREAD_RE = /^\/api\/v1(?:\/(?!\.\.?(?:\/|$))[A-Za-z0-9._~-]+)+$/;
const FILE_RE = /^(?:[A-Za-z0-9_-][A-Za-z0-9._-]*\/)*[A-Za-z0-9_-][A-Za-z0-9._-]*$/;
const DEFAULT_ORDER = 100;

interface Stored {
  owner: string;
  order: number;
  module: string;
  styles: string | null;
  settings: PortalSettings;
  visitors: (() => boolean) | null;
}

/** Sections and panes by owner (lower-cased plugin name), released with the owner. */
export class Portal {
  #sections: (Stored & { path: string; label: string; unread: string | null })[] = [];
  #panes: Stored[] = [];
  #cards: (Stored & { place: CardPlace })[] = [];
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
    const unread = spec.unread ?? null;
    if (unread !== null && (typeof unread !== "string" || !UNREAD_RE.test(unread))) {
      throw new Error(
        `portal section: unread must be a route under /api/v1/ ('${String(unread)}')`,
      );
    }
    this.#sections = [...this.#sections, { ...stored(owner, spec, exists), path, label, unread }];
  }

  /** Adds a play pane for `owner`. */
  pane(owner: string, spec: PortalPane, exists: (file: string) => boolean): void {
    if (typeof spec !== "object" || spec === null) throw new Error("portal pane: no spec");
    if (this.#panes.filter((p) => p.owner === owner).length >= MAX_PORTAL_PARTS) {
      throw new Error(`portal pane: at most ${MAX_PORTAL_PARTS} a plugin`);
    }
    this.#panes = [...this.#panes, stored(owner, spec, exists)];
  }

  /** Adds a card of a core page for `owner`. */
  card(owner: string, spec: PortalCard, exists: (file: string) => boolean): void {
    if (typeof spec !== "object" || spec === null) throw new Error("portal card: no spec");
    if (spec.place !== "front" && spec.place !== "character") {
      throw new Error(`portal card: place must be front or character, not '${String(spec.place)}'`);
    }
    if (this.#cards.filter((c) => c.owner === owner).length >= MAX_PORTAL_PARTS) {
      throw new Error(`portal card: at most ${MAX_PORTAL_PARTS} a plugin`);
    }
    this.#cards = [...this.#cards, { ...stored(owner, spec, exists), place: spec.place }];
  }

  /** Drops an owner's sections, panes and cards; how many went. */
  removeOwner(owner: string): number {
    const count = () => this.#sections.length + this.#panes.length + this.#cards.length;
    const before = count();
    this.#sections = this.#sections.filter((s) => s.owner !== owner);
    this.#panes = this.#panes.filter((p) => p.owner !== owner);
    this.#cards = this.#cards.filter((c) => c.owner !== owner);
    return before - count();
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
    const visitors = (s: Stored) => {
      try {
        return s.visitors?.() === true;
      } catch (e) {
        log(`plugin ${s.owner}: portal visitors check failed`, e);
        return false;
      }
    };
    return {
      sections: this.#sections
        .map((s) => ({
          ...entry(s),
          path: s.path,
          label: s.label,
          visitors: visitors(s),
          unread: s.unread,
          key: s.path,
        }))
        .sort(byOrder)
        .map(({ key: _key, ...s }) => s),
      panes: this.#panes
        .map((p) => ({ ...entry(p), key: `${p.owner}/${p.module}` }))
        .sort(byOrder)
        .map(({ key: _key, ...p }) => p),
      cards: this.#cards
        .map((c) => ({
          ...entry(c),
          place: c.place,
          visitors: visitors(c),
          key: `${c.owner}/${c.module}`,
        }))
        .sort(byOrder)
        .map(({ key: _key, ...c }) => c),
    };
  }
}

function stored(
  owner: string,
  spec: PortalSection | PortalPane | PortalCard,
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
  const visitors = "visitors" in spec ? spec.visitors : undefined;
  if (visitors !== undefined && typeof visitors !== "function") {
    throw new Error("portal: visitors must be a function answering true or false");
  }
  return {
    owner,
    order,
    module: file(spec.module, "module", /\.m?js$/),
    styles: spec.styles === undefined ? null : file(spec.styles, "styles", /\.css$/),
    settings,
    visitors: visitors ?? null,
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
