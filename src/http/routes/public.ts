/**
 * What visitors read without a login under `/api/v1/public/` (docs/web.md, "Visitors"), each
 * part switched by `web.public.<part>` (read at every request, so `@reload/config` applies it):
 * the front page's data, who is online, and character pages with the gallery. Every rule of
 * what players see applies: dark players never show, unfindable ones never with their room,
 * guests have no page, and hidden attributes stay hidden. Plugins add their own parts under the
 * same prefix (scenes, wiki, events).
 */
import { type Context, Hono } from "hono";
import type { AppEnv } from "../env.ts";
import { onlineEntries } from "../../hub/online.ts";
import { pageOf, pageParams } from "../pagination.ts";
import { ForbiddenError, NotFoundError, ValidationError } from "../../errors.ts";
import { profileFieldAttr, type PublicWeb } from "../../config/defaults.ts";
import { normalizeId } from "../../world/ids.ts";
import { hasFlag, isGuest } from "../../world/flags.ts";
import { stripColour } from "../../text/colour.ts";
import type { Config } from "../../config/load.ts";
import type { Presence } from "../../hub/types.ts";
import type { ObjectStore } from "../../world/objects.ts";
import type { AttributeStore } from "../../world/attributes/store.ts";
import type { DbObject } from "../../world/types.ts";

/** Most players the gallery reads (one flag index page, from memory). */
export const MAX_GALLERY = 10_000;
/** Longest gallery search. */
const MAX_QUERY = 64;

/** What the visitors' routes read. */
export interface PublicRouteDeps {
  config: Config;
  presence: Presence;
  objects: Pick<ObjectStore, "get" | "getMany" | "idsWithFlag">;
  attributes: Pick<AttributeStore, "get">;
}

/** A profile field as pages show it: its label, its attribute, its value. */
export interface FieldView {
  label: string;
  attr: string;
  value: string;
}

/** The fields `web.profileFields` names, with their attributes. */
export function profileFields(cfg: Config): { label: string; attr: string }[] {
  return cfg.value.web.profileFields.map((label) => ({ label, attr: profileFieldAttr(label) }));
}

/** The host players reach the game at: `web.publicUrl`'s, else the one this request named. */
function gameHost(publicUrl: string, requestUrl: string): string {
  for (const url of [publicUrl.trim(), requestUrl]) {
    try {
      if (url) return new URL(url).hostname;
    } catch { /* not a URL: the next */ }
  }
  return "localhost";
}

/** Routes under /api/v1/public (the core's parts). */
export function publicRoutes(s: PublicRouteDeps): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  // A logged-in caller reads what any player may; the switches are the visitors'.
  const open = (c: Context<AppEnv>, part: keyof PublicWeb, what: string) => {
    if (!c.var.player && !s.config.value.web.public[part]) {
      throw new ForbiddenError(`This game does not show ${what} to visitors.`);
    }
  };

  r.get("/public/game", (c) => {
    open(c, "front", "its front page");
    const cfg = s.config.value;
    return c.json({
      name: cfg.server.name && cfg.server.name !== "UrsaMU" ? cfg.server.name : cfg.game.name,
      description: cfg.game.description || cfg.server.description,
      banner: cfg.web.banner,
      connect: {
        host: gameHost(cfg.web.publicUrl, c.req.url),
        telnet: cfg.server.telnet,
        ...(cfg.server.ssl.enabled ? { telnetTls: cfg.server.telnetTls } : {}),
        web: "/play",
      },
      registration: cfg.game.registerEnabled,
      guests: cfg.game.guestEnabled,
      // How many are on, while visitors may see who (dark players are not counted).
      online: cfg.web.public.online ? onlineCount(s.presence) : null,
      public: { ...cfg.web.public },
    });
  });

  r.get("/public/online", async (c) => {
    open(c, "online", "who is online");
    const page = pageParams(c.req.query("limit"), c.req.query("offset"));
    const list = await onlineEntries(s, null);
    return c.json(
      pageOf(list, page).map((p) => ({
        ...p,
        doing: s.presence.playerCard(p.id)?.doing ?? "",
      })),
    );
  });

  r.get("/public/characters", async (c) => {
    open(c, "characters", "its characters");
    const page = pageParams(c.req.query("limit"), c.req.query("offset"));
    const q = (c.req.query("q") ?? "").trim().toLowerCase();
    if (q.length > MAX_QUERY) {
      throw new ValidationError(`q must be ${MAX_QUERY} characters or fewer.`);
    }
    const list = pageOf(await characters(s, q), page);
    return c.json(await Promise.all(list.map((p) => card(s, p))));
  });

  r.get("/public/characters/:id", async (c) => {
    open(c, "characters", "its characters");
    const id = normalizeId(c.req.param("id"));
    const p = id ? await s.objects.get(id) : null;
    if (!p || !shown(p)) throw new NotFoundError("No such character.");
    return c.json({
      ...await card(s, p),
      description: p.data.description ?? "",
    });
  });

  return r;
}

/** How many are online as a visitor sees them (the front page's count). */
function onlineCount(presence: Presence): number {
  let n = 0;
  for (const id of presence.onlinePlayers()) {
    const card = presence.playerCard(id);
    if (card && !hasFlag(card.flags, "dark")) n++;
  }
  return n;
}

/** True for a character visitors may see: a player, not a guest, not dark. */
export function shown(p: DbObject): boolean {
  return hasFlag(p.flags, "player") && !isGuest(p.flags) && !hasFlag(p.flags, "dark");
}

/** The characters visitors may see, by name; those whose name holds `q` when given. */
async function characters(s: PublicRouteDeps, q: string): Promise<DbObject[]> {
  const all = await s.objects.getMany(await s.objects.idsWithFlag("player", MAX_GALLERY));
  return all
    .filter((p) => shown(p) && (!q || stripColour(p.name).toLowerCase().includes(q)))
    .sort((a, b) => a.name.localeCompare(b.name) || Number(a.id) - Number(b.id));
}

/** A character as the gallery and its page show it. */
async function card(s: PublicRouteDeps, p: DbObject) {
  return {
    id: p.id,
    dbref: `#${p.id}`,
    name: p.name,
    ...(p.data.moniker ? { moniker: p.data.moniker } : {}),
    avatar: typeof p.data.avatar === "string" ? p.data.avatar : "",
    online: s.presence.isOnline(p.id),
    fields: await fieldsOf(s, p),
  };
}

/** The profile fields of a character, from its attributes (staff-hidden ones left out). */
export function fieldsOf(
  s: Pick<PublicRouteDeps, "config" | "attributes">,
  p: DbObject,
): Promise<FieldView[]> {
  return Promise.all(
    profileFields(s.config).map(async (f) => {
      const a = await s.attributes.get(p.id, f.attr);
      const value = a && !a.flags.includes("hidden") ? a.value : "";
      return { ...f, value };
    }),
  );
}
