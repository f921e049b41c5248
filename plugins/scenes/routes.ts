/**
 * REST routes of the scenes plugin under `/api/v1/scenes` (SPEC "Scenes", rules 1-6). Bodies are
 * read through an allow-list of fields; the spec's other reference forms (`roomId` and `type`
 * on create, `playerId` on invite) are accepted too.
 */
import {
  caller,
  onlyFields,
  page,
  type PluginApp,
  type PluginRates,
  readJson,
  requireUser,
  ValidationError,
} from "../../src/plugins/mod.ts";
import {
  checkDesc,
  checkEnum,
  checkName,
  checkPoseText,
  type PoseCursor,
  type SceneChanges,
  type SceneService,
  sceneView,
} from "./service.ts";
import { textStream } from "./format.ts";
import { MAX_TIME, POSE_TYPES, SCENE_TYPES, STATUSES } from "./types.ts";

/** The prefix the routes are mounted on. */
export const PREFIX = "/api/v1/scenes";

/** The fields a scene PATCH may change. */
const PATCH_FIELDS = ["name", "desc", "status", "sceneType", "private", "endTime"];

/** Largest body accepted (a 4000-character pose in 4-byte characters, with room to spare). */
const BODY_LIMIT = 64 * 1024;

/** Adds the scene routes to the plugin's app; `rates` meters the writes others hear. */
export function sceneRoutes(app: PluginApp, svc: SceneService, rates: PluginRates): void {
  app.use("*", requireUser());

  app.get("/", async (c) => c.json((await svc.list(caller(c), page(c))).map((s) => sceneView(s))));

  app.get("/open", async (c) => c.json((await svc.open(page(c))).map((s) => sceneView(s))));

  app.get("/locations", async (c) => c.json(await svc.locations(caller(c))));

  app.post("/", async (c) => {
    const b = await readJson(c, { limit: BODY_LIMIT });
    const name = checkName(b.name);
    const where = b.location ?? b.roomId;
    if (typeof where !== "string" || !where.trim()) {
      throw new ValidationError("location is required (a room dbref)");
    }
    const kind = b.sceneType ?? b.type;
    if (b.private !== undefined && typeof b.private !== "boolean") {
      throw new ValidationError("private must be true or false");
    }
    const s = await svc.create(caller(c), {
      name,
      location: where,
      desc: b.desc === undefined ? "" : checkDesc(b.desc),
      sceneType: kind === undefined ? "social" : checkEnum(kind, SCENE_TYPES, "sceneType"),
      private: b.private === true,
    });
    return c.json(sceneView(s, []), 201);
  });

  app.get("/:id", async (c) => c.json(await svc.detail(caller(c), c.req.param("id"))));

  app.get("/:id/poses", async (c) => {
    const q = new URL(c.req.url).searchParams;
    for (const k of q.keys()) {
      if (!["before", "after", "limit"].includes(k)) {
        throw new ValidationError(
          `unknown query '${k.slice(0, 40)}'; allowed: before, after, limit`,
        );
      }
    }
    const before = poseNumber(q.get("before"), "before");
    const after = poseNumber(q.get("after"), "after");
    if (before !== null && after !== null) {
      throw new ValidationError("give before or after, not both");
    }
    const limit = poseNumber(q.get("limit"), "limit");
    if (limit === 0) throw new ValidationError("limit must be 1 or more");
    const at: PoseCursor = before !== null ? { before } : { after: after ?? 0 };
    return c.json(await svc.posePage(caller(c), c.req.param("id"), at, limit ?? undefined));
  });

  app.patch("/:id", async (c) => {
    const b = await readJson(c, { limit: BODY_LIMIT });
    // An unknown field (owner, poses, ...) or none at all is refused, before anything is
    // written: an empty PATCH must not count as activity.
    onlyFields(b, PATCH_FIELDS);
    const ch: SceneChanges = {};
    if (b.name !== undefined) ch.name = checkName(b.name);
    if (b.desc !== undefined) ch.desc = checkDesc(b.desc);
    if (b.status !== undefined) ch.status = checkEnum(b.status, STATUSES, "status");
    if (b.sceneType !== undefined) ch.sceneType = checkEnum(b.sceneType, SCENE_TYPES, "sceneType");
    if (b.private !== undefined) {
      if (typeof b.private !== "boolean") {
        throw new ValidationError("private must be true or false");
      }
      ch.private = b.private;
    }
    if (b.endTime !== undefined) {
      if (
        b.endTime !== null && (typeof b.endTime !== "number" || !Number.isFinite(b.endTime) ||
          b.endTime < 0 || b.endTime > MAX_TIME)
      ) {
        throw new ValidationError("endTime must be a time in ms since the epoch (up to year 9999)");
      }
      ch.endTime = b.endTime === null ? null : Math.floor(b.endTime);
    }
    return c.json(sceneView(await svc.patch(caller(c), c.req.param("id"), ch)));
  });

  app.post("/:id/pose", rates.restWrite(), async (c) => {
    const b = await readJson(c, { limit: BODY_LIMIT });
    const type = b.type === undefined ? "pose" : checkEnum(b.type, POSE_TYPES, "type");
    if (b.msg === undefined && type !== "set") throw new ValidationError("msg is required");
    const msg = b.msg === undefined ? undefined : checkPoseText(b.msg);
    const { pose } = await svc.pose(caller(c), c.req.param("id"), { msg, type }, {
      broadcast: true,
    });
    return c.json(pose, 201);
  });

  app.patch("/:id/pose/:poseId", async (c) => {
    const b = await readJson(c, { limit: BODY_LIMIT });
    if (b.msg === undefined) throw new ValidationError("msg is required");
    const msg = checkPoseText(b.msg);
    return c.json(await svc.editPose(caller(c), c.req.param("id"), c.req.param("poseId"), msg));
  });

  app.post("/:id/join", async (c) => {
    const s = await svc.join(caller(c), c.req.param("id"));
    return c.json({ success: true, scene: sceneView(s) });
  });

  app.post("/:id/invite", rates.restWrite(), async (c) => {
    const b = await readJson(c, { limit: BODY_LIMIT });
    const target = b.target ?? b.playerId;
    if (typeof target !== "string" || !target.trim()) {
      throw new ValidationError("target is required (a dbref or player name)");
    }
    const s = await svc.invite(caller(c), c.req.param("id"), target);
    return c.json({ success: true, scene: sceneView(s) });
  });

  // Both forms stream: the poses are read as the client takes them, never held whole.
  app.get("/:id/export", async (c) => {
    const format = c.req.query("format") ?? "markdown";
    const id = c.req.param("id");
    if (format !== "json" && format !== "markdown") {
      throw new ValidationError("format must be one of: markdown, json");
    }
    const json = format === "json";
    const pieces = json
      ? await svc.jsonStream(caller(c), id)
      : await svc.markdownStream(caller(c), id);
    return c.body(textStream(pieces), 200, {
      "Content-Type": json ? "application/json; charset=UTF-8" : "text/markdown; charset=utf-8",
      "Content-Disposition": `attachment; filename="scene-${id.replace(/[^0-9]/g, "")}.${
        json ? "json" : "md"
      }"`,
    });
  });
}

/** A whole number from a query value (null when absent); a 400 naming `field` otherwise. */
function poseNumber(raw: string | null, field: string): number | null {
  if (raw === null) return null;
  if (!/^[0-9]{1,9}$/.test(raw)) throw new ValidationError(`${field} must be a whole number`);
  return Number(raw);
}
