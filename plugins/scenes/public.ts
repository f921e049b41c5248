/**
 * What visitors read of scenes, under `/api/v1/public/scenes` while `web.public.scenes` is on
 * (docs/scenes.md, "Shared scenes"): the scenes their owners shared (and did not make private),
 * with their logs; and which public scenes are running now, without their poses. Private
 * scenes, the allowed lists and unshared logs are never shown here.
 */
import {
  describe,
  ForbiddenError,
  NotFoundError,
  type PluginApp,
  type PluginWorld,
  s,
  stripColour,
  ValidationError,
} from "../../src/plugins/mod.ts";
import { isPublic, type SceneStore } from "./store.ts";
import { POSE_TYPES, SCENE_TYPES, STATUSES } from "./types.ts";
import type { Pose, SceneRecord } from "./types.ts";

/** The prefix the visitors' routes are mounted on. */
export const PUBLIC_PREFIX = "/api/v1/public/scenes";

/** A name and where it links: a player or a room. */
interface Named {
  id: string;
  name: string;
}

/** A scene as visitors see it. */
export interface PublicScene {
  id: string;
  name: string;
  desc: string;
  location: Named;
  owner: Named;
  participants: Named[];
  status: string;
  sceneType: string;
  startTime: number;
  endTime?: number;
  poseCount: number;
  lastActivity: number;
  poses?: PublicPose[];
  olderPoses?: number;
}

/** A pose as visitors see it. */
export type PublicPose = Pick<Pose, "id" | "charId" | "charName" | "msg" | "type" | "timestamp">;

const NAMED = {
  type: "object",
  properties: { id: { type: "string", examples: ["#12"] }, name: { type: "string" } },
};
const SCENE = {
  type: "object",
  properties: {
    id: { type: "string" },
    name: { type: "string" },
    desc: { type: "string" },
    location: NAMED,
    owner: NAMED,
    participants: { type: "array", items: NAMED },
    status: { enum: [...STATUSES] },
    sceneType: { enum: [...SCENE_TYPES] },
    startTime: { type: "number" },
    endTime: { type: "number" },
    poseCount: { type: "integer" },
    lastActivity: { type: "number" },
  },
};
const POSE = {
  type: "object",
  properties: {
    id: { type: "string" },
    charId: { type: "string" },
    charName: { type: "string" },
    msg: { type: "string" },
    type: { enum: [...POSE_TYPES] },
    timestamp: { type: "number" },
  },
};
const OFF = "`web.public.scenes` is off: visitors may not read scenes on this game";

const PLAYER = s.custom({ type: "string", examples: ["#12"] }, (v) => {
  const id = String(v).trim().replace(/^#/, "");
  if (!/^[0-9]{1,15}$/.test(id)) throw new ValidationError("player must be a dbref such as #12");
  return String(Number(id));
});

const SHARED = describe({
  summary: "Scenes their owners shared with visitors, newest first",
  auth: "none",
  query: {
    params: { player: { schema: PLAYER, description: "only the scenes this player was in" } },
    paging: true,
    only: true,
  },
  responses: {
    "200": { description: "shared scenes, without poses", schema: { type: "array", items: SCENE } },
    "400": "a bad limit, offset or player, or another query",
    "403": OFF,
  },
});

const ACTIVE = describe({
  summary: "Public scenes running now (no poses: their logs are shown once shared)",
  auth: "none",
  query: { paging: true, only: true },
  responses: {
    "200": { description: "active public scenes", schema: { type: "array", items: SCENE } },
    "400": "a bad limit or offset, or another query",
    "403": OFF,
  },
});

const ONE = describe({
  summary: "A shared scene with its log",
  auth: "none",
  params: { id: "the scene's id" },
  responses: {
    "200": {
      description:
        "the scene; `poses` cut to the newest `plugins.scenes.detailPoses` as for players",
      schema: {
        ...SCENE,
        properties: {
          ...SCENE.properties,
          poses: { type: "array", items: POSE },
          olderPoses: { type: "integer" },
        },
      },
    },
    "403": OFF,
    "404": "no such scene, or one its owner has not shared (or made private)",
  },
});

/** What the visitors' routes need. */
export interface PublicSceneDeps {
  store: SceneStore;
  world: Pick<PluginWorld, "getMany">;
  /** `web.public.scenes`, read at each request (`@reload/config` changes it). */
  open(): boolean;
  /** Poses a detail carries (`plugins.scenes.detailPoses`). */
  detailPoses(): number;
}

/** Adds the visitors' scene routes to their app. */
export function publicSceneRoutes(app: PluginApp, d: PublicSceneDeps): void {
  // A logged-in caller reads what any player may; the switch is the visitors'.
  app.use("*", async (c, next) => {
    if (!c.var.player && !d.open()) {
      throw new ForbiddenError("This game does not show scenes to visitors.");
    }
    await next();
  });

  app.get("/", SHARED, async (c) => {
    const q = SHARED.query(c);
    const list = q.player === undefined
      ? await d.store.shared(q.page)
      : await d.store.sharedWith(q.player, q.page);
    return c.json(await views(d, list));
  });

  app.get("/active", ACTIVE, async (c) => {
    return c.json(await views(d, await d.store.open(ACTIVE.query(c).page)));
  });

  app.get("/:id", ONE, async (c) => {
    const scene = await d.store.get(c.req.param("id"));
    if (!scene || !isPublic(scene)) throw new NotFoundError("Scene not found");
    const max = d.detailPoses();
    const poses = scene.poseCount <= max
      ? await d.store.poses(scene.id)
      : await d.store.posesAround(scene.id, { before: scene.poseCount + 1 }, max);
    const [view] = await views(d, [scene]);
    view.poses = poses.map(publicPose);
    if (scene.poseCount > max) view.olderPoses = poses.length ? Number(poses[0].id) - 1 : 0;
    return c.json(view);
  });
}

/** The scenes with their room's and people's names, read in one batch. */
async function views(d: PublicSceneDeps, list: SceneRecord[]): Promise<PublicScene[]> {
  const ids = new Set<string>();
  for (const sc of list) {
    ids.add(sc.location);
    ids.add(sc.owner);
    for (const p of sc.participants) ids.add(p);
  }
  const names = new Map((await d.world.getMany([...ids])).map((o) => [o.id, o.name]));
  const named = (id: string): Named => ({ id: `#${id}`, name: names.get(id) ?? `#${id}` });
  return list.map((sc) => ({
    id: sc.id,
    name: sc.name,
    desc: sc.desc,
    location: {
      ...named(sc.location),
      name: stripColour(names.get(sc.location) ?? `#${sc.location}`),
    },
    owner: named(sc.owner),
    participants: sc.participants.map(named),
    status: sc.status,
    sceneType: sc.sceneType,
    startTime: sc.startTime,
    ...(sc.endTime !== undefined ? { endTime: sc.endTime } : {}),
    poseCount: sc.poseCount,
    lastActivity: sc.lastActivity,
  }));
}

function publicPose(p: Pose): PublicPose {
  return {
    id: p.id,
    charId: p.charId,
    charName: p.charName,
    msg: p.msg,
    type: p.type,
    timestamp: p.timestamp,
  };
}
