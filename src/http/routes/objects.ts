/** Game object routes: list accessible objects, read one, patch one; their attributes. */
import { Hono } from "hono";
import type { AppEnv } from "../env.ts";
import { ensure, me, requireAuth } from "../middleware/auth.ts";
import { readJsonObject } from "../middleware/body.ts";
import { NotFoundError, ValidationError } from "../../errors.ts";
import { normalizeId } from "../../world/ids.ts";
import { canSee, controls, listVisible } from "../../world/access.ts";
import type { ControlWorld } from "../../world/control.ts";
import { visibleContents } from "../../world/visibility.ts";
import type { DbObject } from "../../world/types.ts";
import { objectView } from "../../world/views.ts";
import { applyObjectPatch } from "../../world/patch.ts";
import { pageParams } from "../pagination.ts";
import { isStaff } from "../../world/flags.ts";
import { repairObject } from "../../world/repair.ts";
import { addAttributeRoutes } from "./attributes.ts";
import type { ObjectStore } from "../../world/objects.ts";
import type { AttributeStore } from "../../world/attributes/store.ts";
import type { SecurityLog } from "../../auth/security_log.ts";

/** What the object routes use: the store and its attributes, and the security log for repairs. */
export interface ObjectRouteDeps {
  objects: ObjectStore;
  attributes: AttributeStore;
  /** What control reads (the engine's lock world; null on a shared database). */
  locks: ControlWorld | null;
  securityLog: Pick<SecurityLog, "write">;
}

/** What of an object's contents (at most 200) the caller may see listed. */
async function contentsFor(
  s: Pick<ObjectRouteDeps, "objects" | "locks">,
  viewer: DbObject,
  obj: DbObject,
): Promise<DbObject[]> {
  return visibleContents(viewer, obj, await s.objects.contents(obj.id, 200), s.locks);
}

/** Routes for /api/v1/dbos and /api/v1/dbobj/:id. */
export function objectRoutes(s: ObjectRouteDeps): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.use("/dbos", requireAuth());
  r.use("/dbobj/*", requireAuth());

  r.get("/dbos", async (c) => {
    const flags = (c.req.query("flags") ?? "").split(/[\s,]+/).filter(Boolean);
    if (flags.some((f) => !/^[a-z0-9_-]{1,32}$/i.test(f))) {
      throw new ValidationError("flags must be flag names separated by commas or spaces.");
    }
    const { limit, offset } = pageParams(c.req.query("limit"), c.req.query("offset"));
    const objs = await listVisible(s.objects, me(c), flags, limit, offset, s.locks);
    return c.json(objs.map((o) => objectView(o, me(c), s.locks)));
  });

  r.get("/dbobj/:id", async (c) => {
    const id = normalizeId(c.req.param("id"));
    const obj = id ? await s.objects.get(id) : null;
    if (!obj || !(await canSee(s.objects, me(c), obj, s.locks))) {
      throw new NotFoundError("No such object.");
    }
    return c.json(objectView(obj, me(c), s.locks, await contentsFor(s, me(c), obj)));
  });

  r.patch("/dbobj/:id", async (c) => {
    const id = normalizeId(c.req.param("id"));
    const obj = id ? await s.objects.get(id) : null;
    if (!obj || !(await canSee(s.objects, me(c), obj, s.locks))) {
      throw new NotFoundError("No such object.");
    }
    ensure(controls(me(c), obj, s.locks), "Only the owner or an admin may change this object.");
    const body = await readJsonObject(c);
    const updated = await applyObjectPatch(s.objects, obj, body);
    return c.json(objectView(updated, me(c), s.locks, await contentsFor(s, me(c), updated)));
  });

  // Staff only: rebuilds an object whose stored record cannot be read back (see @repair).
  r.post("/dbobj/:id/repair", async (c) => {
    ensure(isStaff(me(c).flags), "Only staff may repair objects.");
    const id = normalizeId(c.req.param("id"));
    if (!id) throw new NotFoundError("No such object.");
    const { object, detail } = await repairObject(s, id, { actor: me(c).id, ip: c.var.ip });
    return c.json({
      repaired: object !== null,
      detail,
      object: object ? objectView(object, me(c), s.locks) : null,
    });
  });

  addAttributeRoutes(r, s);
  return r;
}
