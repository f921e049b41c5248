/**
 * A player's own character page (docs/web.md, "Character pages and profile fields"):
 * `PATCH /me/profile` sets the description and the fields `web.profileFields` names, each kept
 * as the `FINGER.<FIELD>` attribute the shipped `+finger` reads, flagged `visual` as `+finger/set`
 * does (so anyone's softcode `get()` reads it). Everything is checked before anything is written.
 */
import { Hono } from "hono";
import type { AppEnv } from "../env.ts";
import { me, requireAuth } from "../middleware/auth.ts";
import { readJsonObject } from "../middleware/body.ts";
import { ValidationError } from "../../errors.ts";
import { checkDescription } from "../../world/building.ts";
import { isPlainObject } from "../../config/load.ts";
import { profileFields, type PublicRouteDeps } from "./public.ts";
import type { ObjectStore } from "../../world/objects.ts";
import type { AttributeStore } from "../../world/attributes/store.ts";

/** Longest field value (what `+finger/set` keeps). */
export const MAX_FIELD = 400;

/** What the route uses. */
export interface ProfileRouteDeps extends Pick<PublicRouteDeps, "config"> {
  objects: Pick<ObjectStore, "update">;
  attributes: Pick<AttributeStore, "set" | "setFlag">;
}

/** Routes for /api/v1/me/profile. */
export function profileRoutes(s: ProfileRouteDeps): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  r.patch("/me/profile", requireAuth(), async (c) => {
    const player = me(c);
    const body = await readJsonObject(c);
    const extra = Object.keys(body).filter((k) => k !== "description" && k !== "fields");
    if (extra.length) {
      throw new ValidationError(
        `Unknown field(s): ${extra.slice(0, 5).join(", ")}. Allowed: description, fields.`,
      );
    }
    if (body.description === undefined && body.fields === undefined) {
      throw new ValidationError("Nothing to change. Allowed: description, fields.");
    }
    const description = body.description === undefined
      ? undefined
      : checkDescription(body.description);
    const known = new Map(profileFields(s.config).map((f) => [f.attr, f]));
    const fields: [string, string][] = [];
    if (body.fields !== undefined) {
      if (!isPlainObject(body.fields)) {
        throw new ValidationError("fields must be an object of attribute names and texts.");
      }
      for (const [name, value] of Object.entries(body.fields)) {
        const attr = name.toUpperCase();
        if (!known.has(attr)) {
          throw new ValidationError(
            `${name} is not a profile field of this game. Fields: ${
              [...known.keys()].join(", ") || "none"
            }.`,
          );
        }
        if (typeof value !== "string" || value.length > MAX_FIELD || /[\r\n]/.test(value)) {
          throw new ValidationError(
            `${known.get(attr)!.label} must be one line of at most ${MAX_FIELD} characters.`,
          );
        }
        fields.push([attr, value.trim()]);
      }
    }
    if (description !== undefined) {
      await s.objects.update(player.id, (o) => {
        if (description) o.data.description = description;
        else delete o.data.description;
      });
    }
    for (const [attr, value] of fields) {
      await s.attributes.set(player, player.id, attr, value);
      if (value) await s.attributes.setFlag(player, player.id, attr, "visual", true);
    }
    return c.json({ saved: true });
  });

  return r;
}
