/**
 * Attribute routes under /api/v1/dbobj/:id/attributes: list (paged), read, set, delete, under
 * the attribute rules every other door uses (src/world/attributes/access.ts). An object the
 * caller may not see answers 404, as its own route does; so does an attribute it may not see.
 */
import type { Hono } from "hono";
import type { AppEnv } from "../env.ts";
import type { DbObject } from "../../world/types.ts";
import type { Attribute } from "../../world/attributes/types.ts";
import { me } from "../middleware/auth.ts";
import { readJsonObject } from "../middleware/body.ts";
import { NotFoundError, ValidationError } from "../../errors.ts";
import { normalizeId } from "../../world/ids.ts";
import { canSee } from "../../world/access.ts";
import { canSeeAttr } from "../../world/attributes/access.ts";
import { attrPattern, BAD_NAME, canonicalAttrName } from "../../world/attributes/names.ts";
import { pageParams } from "../pagination.ts";
import type { Context } from "hono";
import type { ObjectStore } from "../../world/objects.ts";
import type { AttributeStore } from "../../world/attributes/store.ts";
import type { ControlWorld } from "../../world/control.ts";

/** What the attribute routes use. */
export interface AttributeRouteDeps {
  objects: Pick<ObjectStore, "get">;
  /** What control reads (the engine's lock world; null on a shared database). */
  locks: ControlWorld | null;
  attributes: Pick<AttributeStore, "visible" | "get" | "set">;
}

/** The JSON view of an attribute. */
export function attributeView(a: Attribute) {
  return { name: a.name, value: a.value, owner: a.owner, flags: [...a.flags] };
}

async function visibleObject(s: AttributeRouteDeps, c: Context<AppEnv>): Promise<DbObject> {
  const id = normalizeId(c.req.param("id") ?? "");
  const obj = id ? await s.objects.get(id) : null;
  if (!obj || !(await canSee(s.objects, me(c), obj, s.locks))) {
    throw new NotFoundError("No such object.");
  }
  return obj;
}

function nameParam(c: Context<AppEnv>): string {
  const name = canonicalAttrName(c.req.param("name") ?? "");
  if (!name) throw new ValidationError(BAD_NAME);
  return name;
}

const NO_ATTRIBUTE = "No such attribute.";

/** Adds the attribute routes to the object routes (which require a token on /dbobj/*). */
export function addAttributeRoutes(r: Hono<AppEnv>, s: AttributeRouteDeps): void {
  r.get("/dbobj/:id/attributes", async (c) => {
    const obj = await visibleObject(s, c);
    const pattern = c.req.query("pattern");
    if (pattern !== undefined && !attrPattern(pattern)) {
      throw new ValidationError("pattern is too long.");
    }
    const { limit, offset } = pageParams(c.req.query("limit"), c.req.query("offset"));
    const shown = await s.attributes.visible(me(c), obj, pattern || undefined);
    return c.json(shown.slice(offset, offset + limit).map(attributeView));
  });

  r.get("/dbobj/:id/attributes/:name", async (c) => {
    const obj = await visibleObject(s, c);
    const a = await s.attributes.get(obj.id, nameParam(c));
    if (!a || !canSeeAttr(me(c), obj, a, s.locks)) throw new NotFoundError(NO_ATTRIBUTE);
    return c.json(attributeView(a));
  });

  r.put("/dbobj/:id/attributes/:name", async (c) => {
    const obj = await visibleObject(s, c);
    const name = nameParam(c);
    const body = await readJsonObject(c);
    const extra = Object.keys(body).filter((k) => k !== "value");
    if (extra.length) {
      throw new ValidationError(
        `Unknown field(s): ${extra.slice(0, 5).join(", ")}. Allowed: value.`,
      );
    }
    if (typeof body.value !== "string" || body.value === "") {
      throw new ValidationError(
        "value must be non-empty text; DELETE removes an attribute.",
      );
    }
    const a = await s.attributes.set(me(c), obj.id, name, body.value);
    return c.json(attributeView(a!));
  });

  r.delete("/dbobj/:id/attributes/:name", async (c) => {
    const obj = await visibleObject(s, c);
    const name = nameParam(c);
    const a = await s.attributes.get(obj.id, name);
    if (!a || !canSeeAttr(me(c), obj, a, s.locks)) throw new NotFoundError(NO_ATTRIBUTE);
    await s.attributes.set(me(c), obj.id, name, "");
    return c.json({ deleted: true });
  });
}
