/**
 * The scenes plugin: collaborative roleplay logs over REST (`/api/v1/scenes`), in game
 * (`+scene`, `+scenes`, `ooc`), logged automatically from speech in the room, broadcast live to
 * the room (web clients get the pose as data, GMCP clients as `Scene.Pose`), with the five scene
 * events on `gameHooks`.
 */
import type { PluginContext, PluginModule } from "../../src/plugins/mod.ts";
import { stripColour } from "../../src/plugins/mod.ts";
import { SceneStore } from "./store.ts";
import {
  byteSize,
  DEFAULT_DETAIL_POSES,
  DEFAULT_MAX_POSE_BYTES,
  DEFAULT_MAX_POSES,
  DEFAULT_MAX_SCENE_BYTES,
  DEFAULT_MAX_SCENES,
  POSE_DATA,
  SceneService,
} from "./service.ts";
import { PREFIX, sceneRoutes } from "./routes.ts";
import { PUBLIC_PREFIX, publicSceneRoutes } from "./public.ts";
import { sceneCommands } from "./commands.ts";
import { AutoLog } from "./autolog.ts";
import {
  MAX_DESC,
  MAX_NAME,
  MAX_POSE,
  type Pose,
  SCENE_BUS,
  SCENE_EVENTS,
  type SceneEvents,
} from "./types.ts";

const plugin: PluginModule = {
  name: "scenes",
  init(ctx: PluginContext) {
    // Speech in a room without a scene then reads nothing (see SceneStore.activeIn).
    const store = new SceneStore(ctx.kv, { soleWriter: ctx.engine.soleWriter });
    const svc = new SceneService({
      store,
      world: ctx.world,
      players: ctx.players,
      deliver: ctx.deliver,
      hooks: ctx.hooks.declare<SceneEvents>(SCENE_BUS, SCENE_EVENTS),
      limits: {
        maxPoses: () => setting(ctx.config.maxPoses, DEFAULT_MAX_POSES),
        detailPoses: () => setting(ctx.config.detailPoses, DEFAULT_DETAIL_POSES),
        sceneBytes: () => limitSetting(ctx.config.maxSceneBytes, DEFAULT_MAX_SCENE_BYTES),
        poseBytes: ctx.quota({
          name: "pose-bytes",
          setting: "maxPoseBytes",
          default: DEFAULT_MAX_POSE_BYTES,
          ceiling: Number.MAX_SAFE_INTEGER,
          message: (max) =>
            `That would take your poses past ${byteSize(max)}, the most scene text a player ` +
            "may store. Staff can raise plugins.scenes.maxPoseBytes.",
        }),
        owned: ctx.quota({
          name: "scenes",
          setting: "maxScenes",
          default: DEFAULT_MAX_SCENES,
          message: (max) =>
            `You own ${max} scenes, the most a player may. Staff can raise plugins.scenes.maxScenes.`,
          // Scenes started before the quota: the player's index, once.
          seed: (owner) => store.countOwned(owner),
        }),
      },
      now: () => ctx.timers.now(),
    });
    const autolog = new AutoLog(
      svc,
      ctx.world,
      ctx.log,
      (id, msg) => ctx.deliver.toPlayer(id, { msg }),
    );
    ctx.hooks.worldHooks.on("room:speech", (p) => autolog.heard(p));
    ctx.onRemove(() => autolog.idle());
    // Telnet clients that speak GMCP get each pose posted through REST or +scene/set.
    ctx.gmcp(POSE_DATA, "Scene.Pose", (data, msg) => {
      const pose = data.pose as Pose;
      return {
        sceneId: String(data.sceneId ?? ""),
        sceneName: stripColour(String(data.sceneName ?? "")),
        id: pose.id,
        charId: pose.charId,
        charName: pose.charName,
        type: pose.type,
        msg: pose.msg,
        timestamp: pose.timestamp,
        text: msg,
      };
    });
    sceneRoutes(ctx.http(PREFIX), svc, ctx.rates);
    publicSceneRoutes(ctx.http(PUBLIC_PREFIX), {
      store,
      world: ctx.world,
      open: () => ctx.engine.config().web.public.scenes,
      detailPoses: () => setting(ctx.config.detailPoses, DEFAULT_DETAIL_POSES),
    });
    for (
      const spec of sceneCommands({
        svc,
        store,
        autolog,
        world: ctx.world,
        players: ctx.players,
        deliver: ctx.deliver,
      })
    ) ctx.commands.add(spec);
    ctx.provide({ service: svc });
    ctx.portal.section({
      path: "scenes",
      label: "Scenes",
      order: 10,
      module: "scenes.js",
      styles: "scenes.css",
      settings: { maxName: MAX_NAME, maxDesc: MAX_DESC, maxPose: MAX_POSE },
      visitors: () => ctx.engine.config().web.public.scenes,
    });
    // Active and shared scenes on the front page; a character's shared scenes on its page.
    for (const place of ["front", "character"] as const) {
      ctx.portal.card({
        place,
        module: "scene_cards.js",
        order: 10,
        visitors: () => ctx.engine.config().web.public.scenes,
      });
    }
    return true;
  },
  // Routes, commands, help, hooks and the GMCP mapping are released by the engine.
  remove() {},
};

export default plugin;

/** A positive whole number from the configuration, or the default. */
function setting(v: unknown, fallback: number): number {
  const n = Number(v);
  return v !== undefined && v !== null && Number.isInteger(n) && n > 0 ? n : fallback;
}

/** A whole number 0 or more from the configuration (0: no limit), or the default. */
function limitSetting(v: unknown, fallback: number): number {
  const n = Number(v);
  return v !== undefined && v !== null && Number.isInteger(n) && n >= 0 ? n : fallback;
}
