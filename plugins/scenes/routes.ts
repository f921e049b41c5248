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
  readJson,
  requireUser,
  ValidationError,
} from "../../src/plugins/mod.ts";
import {
  checkDesc,
  checkEnum,
  checkName,
  checkPoseText,
  type SceneChanges,
  type SceneService,
  sceneView,
} from "./service.ts";
import { MAX_TIME, POSE_TYPES, SCENE_TYPES, STATUSES } from "./types.ts";

/** The prefix the routes are mounted on. */
export const PREFIX = "/api/v1/scenes";

/** The fields a scene PATCH may change. */
const PATCH_FIELDS = ["name", "desc", "status", "sceneType", "private", "endTime"];

/** Largest body accepted (a 4000-character pose in 4-byte characters, with room to spare). */
const BODY_LIMIT = 64 * 1024;

/** Adds the scene routes to the plugin's app. */
export function sceneRoutes(app: PluginApp, svc: SceneService): void {
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

  app.post("/:id/pose", async (c) => {
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

  app.post("/:id/invite", async (c) => {
    const b = await readJson(c, { limit: BODY_LIMIT });
    const target = b.target ?? b.playerId;
    if (typeof target !== "string" || !target.trim()) {
      throw new ValidationError("target is required (a dbref or player name)");
    }
    const s = await svc.invite(caller(c), c.req.param("id"), target);
    return c.json({ success: true, scene: sceneView(s) });
  });

  app.get("/:id/export", async (c) => {
    const format = c.req.query("format") ?? "markdown";
    const id = c.req.param("id");
    if (format === "json") {
      const scene = await svc.detail(caller(c), id);
      c.header("Content-Disposition", `attachment; filename="scene-${scene.id}.json"`);
      return c.json(scene);
    }
    if (format !== "markdown") throw new ValidationError("format must be one of: markdown, json");
    const md = await svc.markdown(caller(c), id);
    c.header("Content-Type", "text/markdown; charset=utf-8");
    c.header("Content-Disposition", `attachment; filename="scene-${id}.md"`);
    return c.body(md);
  });
}
