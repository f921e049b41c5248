/**
 * REST routes of the scenes plugin under `/api/v1/scenes` (SPEC "Scenes", rules 1-6). Bodies are
 * read through an allow-list of fields; the spec's other reference forms (`roomId` and `type`
 * on create, `playerId` on invite) are accepted too.
 */
import {
  caller,
  describe,
  type PluginApp,
  type PluginRates,
  requireUser,
  REST_WRITE_LIMITED,
  s,
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
import {
  MAX_DESC,
  MAX_MEMBERS,
  MAX_NAME,
  MAX_POSE,
  MAX_TIME,
  POSE_TYPES,
  SCENE_TYPES,
  STATUSES,
} from "./types.ts";

/** The prefix the routes are mounted on. */
export const PREFIX = "/api/v1/scenes";

/** Largest body accepted (a 4000-character pose in 4-byte characters, with room to spare). */
const BODY_LIMIT = 64 * 1024;

const POSE = {
  type: "object",
  properties: {
    id: { type: "string" },
    charId: { type: "string", examples: ["#12"] },
    charName: { type: "string" },
    moniker: { type: "string" },
    msg: { type: "string" },
    type: { enum: [...POSE_TYPES] },
    timestamp: { type: "number" },
  },
};

const DBREFS = { type: "array", items: { type: "string", examples: ["#12"] } };

const SCENE = {
  type: "object",
  properties: {
    id: { type: "string" },
    name: { type: "string" },
    location: { type: "string", examples: ["#3"] },
    desc: { type: "string" },
    owner: { type: "string" },
    participants: DBREFS,
    allowed: DBREFS,
    private: { type: "boolean" },
    shared: { type: "boolean", description: "shared with visitors by its owner" },
    startTime: { type: "number" },
    endTime: { type: "number", description: "when ended" },
    status: { enum: [...STATUSES] },
    sceneType: { enum: [...SCENE_TYPES] },
    poseCount: { type: "integer" },
    lastActivity: { type: "number" },
  },
};

const WITH_POSES = {
  ...SCENE,
  properties: { ...SCENE.properties, poses: { type: "array", items: POSE } },
};

const DETAIL = {
  ...SCENE,
  properties: {
    ...SCENE.properties,
    poses: {
      type: "array",
      items: POSE,
      description:
        "every pose, or the newest `plugins.scenes.detailPoses` (1000) of a longer scene",
    },
    olderPoses: {
      type: "integer",
      description:
        "only when `poses` was cut: how many poses come before the first one shown (page back with GET /scenes/:id/poses?before=<poses[0].id>)",
    },
  },
};

const SUCCESS = {
  type: "object",
  properties: { success: { const: true }, scene: SCENE },
};

const ID = "the scene's id";
const BUSY = "the scene is busy; try again";

const NAME = s.custom({ type: "string", minLength: 1, maxLength: MAX_NAME }, checkName);
const DESC = s.custom({ type: "string", maxLength: MAX_DESC }, checkDesc);
const SCENE_TYPE = s.custom(
  { enum: [...SCENE_TYPES] },
  (v, name) => checkEnum(v, SCENE_TYPES, name),
);
const PRIVATE = s.bool();
const MSG = s.custom({ type: "string", maxLength: MAX_POSE }, checkPoseText);

/** A pose number of the query: a whole number. */
const POSE_NUMBER = s.custom(
  { type: "integer", minimum: 0 },
  (v, name) => poseNumber(String(v), name),
);

/** A paged list of scenes, without their poses. */
const sceneList = (summary: string) =>
  describe({
    summary,
    auth: "user",
    query: { paging: true },
    responses: {
      "200": { description: "scenes, without poses", schema: { type: "array", items: SCENE } },
      "400": "a bad limit or offset",
      "401": "no token",
    },
  });

const LIST = sceneList(
  "Scenes the caller owns, takes part in or is allowed into (staff: all), newest first",
);
const OPEN = sceneList("Active public scenes anywhere, newest first");

const LOCATIONS = describe({
  summary: "Rooms the caller may start a scene in (passes the enter lock of), by name",
  auth: "user",
  responses: {
    "200": {
      description: "rooms",
      schema: {
        type: "array",
        items: {
          type: "object",
          properties: {
            id: { type: "string", examples: ["#1"] },
            name: { type: "string" },
            type: { enum: ["public", "private"] },
          },
        },
      },
    },
    "401": "no token",
  },
});

const START = describe({
  summary: "Start a scene in a room",
  auth: "user",
  body: {
    // In the order the route always checked them: private before the desc and the type.
    schema: s.object({
      name: NAME,
      location: s.custom({ type: "string", description: "a room dbref" }, (v) => {
        if (typeof v !== "string" || !v.trim()) {
          throw new ValidationError("location is required (a room dbref)");
        }
        return v;
      }),
      private: s.optional(s.about(PRIVATE, "default false")),
      desc: s.optional(DESC),
      sceneType: s.optional(s.about(SCENE_TYPE, "default social")),
    }, { aliases: { roomId: "location", type: "sceneType" } }),
    limit: BODY_LIMIT,
  },
  responses: {
    "201": { description: "the scene (`poses: []`)", schema: WITH_POSES },
    "400": "no or too long name, no location or not a room, too long desc, a bad sceneType",
    "401": "no token",
    "403": "the room's enter lock keeps a non-staff caller out",
    "409": "the caller owns `plugins.scenes.maxScenes` scenes (1000 by default; staff: no limit)",
  },
});

const ONE = describe({
  summary: "A scene with its poses",
  auth: "user",
  params: { id: ID },
  responses: {
    "200": { description: "the scene", schema: DETAIL },
    "401": "no token",
    "403": "a private scene the caller is not allowed into",
    "404": "no such scene",
  },
});

const POSES = describe({
  summary: "A page of a scene's poses, oldest first",
  description:
    "Pose ids are the numbers 1, 2, ... in posting order. `before=n`: the newest `limit` poses below n (page back from a cut detail with `before=<poses[0].id>`); `after=n`: the oldest `limit` above n; neither: from the first pose.",
  auth: "user",
  params: { id: ID },
  query: {
    params: {
      before: { schema: POSE_NUMBER, description: "poses numbered below this" },
      after: { schema: POSE_NUMBER, description: "poses numbered above this" },
      // Checked after before and after are (both at once is refused first).
      limit: {
        schema: s.later(s.about(POSE_NUMBER, "at least 1")),
        description: "most poses (default and cap: `plugins.scenes.detailPoses`, 1000)",
      },
    },
    only: true,
  },
  responses: {
    "200": { description: "poses, oldest first", schema: { type: "array", items: POSE } },
    "400": "a value that is not a whole number, both before and after, limit 0, another query",
    "401": "no token",
    "403": "a private scene the caller is not allowed into",
    "404": "no such scene",
  },
});

const CHANGE = describe({
  summary: "Change a scene (its owner, an admin or a wizard)",
  auth: "user",
  params: { id: ID },
  body: {
    // An unknown field (owner, poses, ...) or none at all is refused, before anything is
    // written: an empty PATCH must not count as activity.
    schema: s.object({
      name: s.optional(NAME),
      desc: s.optional(DESC),
      status: s.optional(s.custom(
        { enum: [...STATUSES] },
        (v, name) => checkEnum(v, STATUSES, name),
      )),
      sceneType: s.optional(SCENE_TYPE),
      private: s.optional(PRIVATE),
      endTime: s.optional(s.custom({
        oneOf: [{ type: "number", minimum: 0, maximum: MAX_TIME }, { type: "null" }],
        description: "ms since 1970, or null",
      }, (v) => {
        if (v === null) return null;
        if (typeof v !== "number" || !Number.isFinite(v) || v < 0 || v > MAX_TIME) {
          throw new ValidationError(
            "endTime must be a time in ms since the epoch (up to year 9999)",
          );
        }
        return Math.floor(v);
      })),
      shared: s.optional(s.about(s.bool(), "share with visitors (not a private scene)")),
    }, { only: true }),
    limit: BODY_LIMIT,
  },
  responses: {
    "200": { description: "the scene, without poses", schema: SCENE },
    "400":
      "nothing to change, an unknown field, a bad or too long field, a bad enum value (the allowed ones named), or sharing a private scene",
    "401": "no token",
    "403": "not the owner, an admin or a wizard",
    "404": "no such scene",
    "409": BUSY,
  },
});

const POSE_IN = describe({
  summary: "Pose in a scene (broadcast to its room)",
  description: "A `set` without `msg` sets the scene's desc.",
  auth: "user",
  params: { id: ID },
  body: {
    schema: s.object({
      type: s.optional(s.about(
        s.custom({ enum: [...POSE_TYPES] }, (v, name) => checkEnum(v, POSE_TYPES, name)),
        "default pose",
      )),
      msg: s.optional(MSG),
    }),
    limit: BODY_LIMIT,
  },
  responses: {
    "201": { description: "the pose", schema: POSE },
    "400": `no or too long msg, a bad type, a closed scene, or ${MAX_MEMBERS} participants already`,
    "401": "no token",
    "403": "a private scene the caller is not allowed into",
    "404": "no such scene",
    "409":
      `${BUSY}; or the scene holds \`plugins.scenes.maxPoses\` poses (20000 by default), or the text would pass the scene's \`plugins.scenes.maxSceneBytes\` (4 MiB) or the poster's \`plugins.scenes.maxPoseBytes\` (64 MiB; staff: no limit); nothing stored`,
    "429": REST_WRITE_LIMITED,
  },
});

const EDIT_POSE = describe({
  summary: "Edit a pose (its author or the scene's owner)",
  auth: "user",
  params: { id: ID, poseId: "the pose's id" },
  body: { schema: s.object({ msg: MSG }, { present: ["msg"] }), limit: BODY_LIMIT },
  responses: {
    "200": { description: "the pose", schema: POSE },
    "400": "no or too long msg",
    "401": "no token",
    "403": "not the pose's author or the scene's owner",
    "404": "no such scene or pose",
    "409":
      `${BUSY}; or what the text grows by would pass the scene's \`plugins.scenes.maxSceneBytes\` or its author's \`plugins.scenes.maxPoseBytes\`; nothing changed`,
  },
});

const JOIN = describe({
  summary: "Join a scene as a participant",
  auth: "user",
  params: { id: ID },
  responses: {
    "200": { description: "joined", schema: SUCCESS },
    "400": `a closed scene, or ${MAX_MEMBERS} participants already`,
    "401": "no token",
    "403": "a private scene the caller is not invited to",
    "404": "no such scene",
    "409": BUSY,
  },
});

const INVITE = describe({
  summary: "Allow a player into a private scene (owner, invited players, staff)",
  auth: "user",
  params: { id: ID },
  body: {
    schema: s.object({
      target: s.custom({ type: "string", description: "a dbref or player name" }, (v) => {
        if (typeof v !== "string" || !v.trim()) {
          throw new ValidationError("target is required (a dbref or player name)");
        }
        return v;
      }),
    }, { aliases: { playerId: "target" } }),
    limit: BODY_LIMIT,
  },
  responses: {
    "200": { description: "invited", schema: SUCCESS },
    "400": `no target, or ${MAX_MEMBERS} players allowed already`,
    "401": "no token",
    "403": "not the owner, an invited player or staff",
    "404": "no such scene or player",
    "409": BUSY,
    "429": REST_WRITE_LIMITED,
  },
});

const EXPORT = describe({
  summary: "Download a scene's log as Markdown or JSON",
  auth: "user",
  params: { id: ID },
  query: {
    params: {
      format: {
        schema: s.custom(
          { enum: ["markdown", "json"], default: "markdown" },
          (v) => {
            if (v !== "json" && v !== "markdown") {
              throw new ValidationError("format must be one of: markdown, json");
            }
            return v;
          },
        ),
        description: "markdown (default) or json",
      },
    },
  },
  responses: {
    "200": {
      description:
        "the log (`Content-Disposition: attachment`), streamed as the poses are read; JSON: the scene with every pose",
      contentType: "text/markdown",
      schema: { type: "string" },
    },
    "400": "a bad format",
    "401": "no token",
    "403": "a private scene the caller is not allowed into",
    "404": "no such scene",
  },
});

/** Adds the scene routes to the plugin's app; `rates` meters the writes others hear. */
export function sceneRoutes(app: PluginApp, svc: SceneService, rates: PluginRates): void {
  app.use("*", requireUser());

  app.get(
    "/",
    LIST,
    async (c) => c.json((await svc.list(caller(c), LIST.query(c).page)).map((s) => sceneView(s))),
  );

  app.get(
    "/open",
    OPEN,
    async (c) => c.json((await svc.open(OPEN.query(c).page)).map((s) => sceneView(s))),
  );

  app.get("/locations", LOCATIONS, async (c) => c.json(await svc.locations(caller(c))));

  app.post("/", START, async (c) => {
    const b = await START.body(c);
    const scene = await svc.create(caller(c), {
      name: b.name,
      location: b.location,
      desc: b.desc ?? "",
      sceneType: b.sceneType ?? "social",
      private: b.private === true,
    });
    return c.json(sceneView(scene, []), 201);
  });

  app.get("/:id", ONE, async (c) => c.json(await svc.detail(caller(c), c.req.param("id"))));

  app.get("/:id/poses", POSES, async (c) => {
    const q = POSES.query(c);
    const { before, after } = q;
    if (before !== undefined && after !== undefined) {
      throw new ValidationError("give before or after, not both");
    }
    const limit = q.limit === undefined ? undefined : POSE_NUMBER.parse(q.limit, "limit");
    if (limit === 0) throw new ValidationError("limit must be 1 or more");
    const at: PoseCursor = before !== undefined ? { before } : { after: after ?? 0 };
    return c.json(await svc.posePage(caller(c), c.req.param("id"), at, limit));
  });

  app.patch("/:id", CHANGE, async (c) => {
    const ch: SceneChanges = await CHANGE.body(c);
    return c.json(sceneView(await svc.patch(caller(c), c.req.param("id"), ch)));
  });

  app.post("/:id/pose", POSE_IN, rates.restWrite(), async (c) => {
    const { type = "pose", msg } = await POSE_IN.body(c);
    if (msg === undefined && type !== "set") throw new ValidationError("msg is required");
    const { pose } = await svc.pose(caller(c), c.req.param("id"), { msg, type }, {
      broadcast: true,
    });
    return c.json(pose, 201);
  });

  app.patch("/:id/pose/:poseId", EDIT_POSE, async (c) => {
    const { msg } = await EDIT_POSE.body(c);
    return c.json(await svc.editPose(caller(c), c.req.param("id"), c.req.param("poseId"), msg));
  });

  app.post("/:id/join", JOIN, async (c) => {
    const scene = await svc.join(caller(c), c.req.param("id"));
    return c.json({ success: true, scene: sceneView(scene) });
  });

  app.post("/:id/invite", INVITE, rates.restWrite(), async (c) => {
    const { target } = await INVITE.body(c);
    const scene = await svc.invite(caller(c), c.req.param("id"), target);
    return c.json({ success: true, scene: sceneView(scene) });
  });

  // Both forms stream: the poses are read as the client takes them, never held whole.
  app.get("/:id/export", EXPORT, async (c) => {
    const format = EXPORT.query(c).format ?? "markdown";
    const id = c.req.param("id");
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

/** A whole number from a query value; a 400 naming `field` otherwise. */
function poseNumber(raw: string, field: string): number {
  if (!/^[0-9]{1,9}$/.test(raw)) throw new ValidationError(`${field} must be a whole number`);
  return Number(raw);
}
