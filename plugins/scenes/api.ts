/** The scenes routes as `GET /api/v1/openapi.json` describes them (given to ctx.openapi). */
import { API_PAGING, type ApiDocs, REST_WRITE_LIMITED } from "../../src/plugins/mod.ts";
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

/** Route descriptions of the scenes plugin. */
export const SCENES_API: ApiDocs = {
  "GET /api/v1/scenes": {
    summary: "Scenes the caller owns, takes part in or is allowed into (staff: all), newest first",
    auth: "user",
    query: API_PAGING,
    responses: {
      "200": { description: "scenes, without poses", schema: { type: "array", items: SCENE } },
      "400": "a bad limit or offset",
      "401": "no token",
    },
  },
  "GET /api/v1/scenes/open": {
    summary: "Active public scenes anywhere, newest first",
    auth: "user",
    query: API_PAGING,
    responses: {
      "200": { description: "scenes, without poses", schema: { type: "array", items: SCENE } },
      "400": "a bad limit or offset",
      "401": "no token",
    },
  },
  "GET /api/v1/scenes/locations": {
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
  },
  "POST /api/v1/scenes": {
    summary: "Start a scene in a room",
    auth: "user",
    body: {
      type: "object",
      properties: {
        name: { type: "string", minLength: 1, maxLength: MAX_NAME },
        location: { type: "string", description: "a room dbref (`roomId` is accepted too)" },
        roomId: { type: "string", description: "alias of location" },
        desc: { type: "string", maxLength: MAX_DESC },
        sceneType: { enum: [...SCENE_TYPES], default: "social" },
        type: { enum: [...SCENE_TYPES], description: "alias of sceneType" },
        private: { type: "boolean", default: false },
      },
      required: ["name"],
    },
    responses: {
      "201": { description: "the scene (`poses: []`)", schema: WITH_POSES },
      "400": "no or too long name, no location or not a room, too long desc, a bad sceneType",
      "401": "no token",
      "403": "the room's enter lock keeps a non-staff caller out",
      "409": "the caller owns `plugins.scenes.maxScenes` scenes (1000 by default; staff: no limit)",
    },
  },
  "GET /api/v1/scenes/:id": {
    summary: "A scene with its poses",
    auth: "user",
    params: { id: ID },
    responses: {
      "200": { description: "the scene", schema: DETAIL },
      "401": "no token",
      "403": "a private scene the caller is not allowed into",
      "404": "no such scene",
    },
  },
  "GET /api/v1/scenes/:id/poses": {
    summary: "A page of a scene's poses, oldest first",
    description:
      "Pose ids are the numbers 1, 2, ... in posting order. `before=n`: the newest `limit` poses below n (page back from a cut detail with `before=<poses[0].id>`); `after=n`: the oldest `limit` above n; neither: from the first pose.",
    auth: "user",
    params: { id: ID },
    query: {
      before: { description: "poses numbered below this", schema: { type: "integer", minimum: 0 } },
      after: { description: "poses numbered above this", schema: { type: "integer", minimum: 0 } },
      limit: {
        description: "most poses (default and cap: `plugins.scenes.detailPoses`, 1000)",
        schema: { type: "integer", minimum: 1 },
      },
    },
    responses: {
      "200": { description: "poses, oldest first", schema: { type: "array", items: POSE } },
      "400": "a value that is not a whole number, both before and after, limit 0, another query",
      "401": "no token",
      "403": "a private scene the caller is not allowed into",
      "404": "no such scene",
    },
  },
  "PATCH /api/v1/scenes/:id": {
    summary: "Change a scene (its owner, an admin or a wizard)",
    auth: "user",
    params: { id: ID },
    body: {
      type: "object",
      properties: {
        name: { type: "string", minLength: 1, maxLength: MAX_NAME },
        desc: { type: "string", maxLength: MAX_DESC },
        status: { enum: [...STATUSES] },
        sceneType: { enum: [...SCENE_TYPES] },
        endTime: {
          oneOf: [{ type: "number", minimum: 0, maximum: MAX_TIME }, { type: "null" }],
          description: "ms since 1970, or null",
        },
        private: { type: "boolean" },
      },
    },
    responses: {
      "200": { description: "the scene, without poses", schema: SCENE },
      "400":
        "nothing to change, an unknown field, a bad or too long field, or a bad enum value (the allowed ones named)",
      "401": "no token",
      "403": "not the owner, an admin or a wizard",
      "404": "no such scene",
      "409": BUSY,
    },
  },
  "POST /api/v1/scenes/:id/pose": {
    summary: "Pose in a scene (broadcast to its room)",
    description: "A `set` without `msg` sets the scene's desc.",
    auth: "user",
    params: { id: ID },
    body: {
      type: "object",
      properties: {
        msg: { type: "string", maxLength: MAX_POSE },
        type: { enum: [...POSE_TYPES], default: "pose" },
      },
    },
    responses: {
      "201": { description: "the pose", schema: POSE },
      "400":
        `no or too long msg, a bad type, a closed scene, or ${MAX_MEMBERS} participants already`,
      "401": "no token",
      "403": "a private scene the caller is not allowed into",
      "404": "no such scene",
      "409": `${BUSY}; or the scene holds \`plugins.scenes.maxPoses\` poses (20000 by default)`,
      "429": REST_WRITE_LIMITED,
    },
  },
  "PATCH /api/v1/scenes/:id/pose/:poseId": {
    summary: "Edit a pose (its author or the scene's owner)",
    auth: "user",
    params: { id: ID, poseId: "the pose's id" },
    body: {
      type: "object",
      properties: { msg: { type: "string", maxLength: MAX_POSE } },
      required: ["msg"],
    },
    responses: {
      "200": { description: "the pose", schema: POSE },
      "400": "no or too long msg, or the pose is busy",
      "401": "no token",
      "403": "not the pose's author or the scene's owner",
      "404": "no such scene or pose",
    },
  },
  "POST /api/v1/scenes/:id/join": {
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
  },
  "POST /api/v1/scenes/:id/invite": {
    summary: "Allow a player into a private scene (owner, invited players, staff)",
    auth: "user",
    params: { id: ID },
    body: {
      type: "object",
      properties: {
        target: { type: "string", description: "a dbref or player name (`playerId` too)" },
        playerId: { type: "string", description: "alias of target" },
      },
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
  },
  "GET /api/v1/scenes/:id/export": {
    summary: "Download a scene's log as Markdown or JSON",
    auth: "user",
    params: { id: ID },
    query: {
      format: {
        description: "markdown (default) or json",
        schema: { enum: ["markdown", "json"], default: "markdown" },
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
  },
};
