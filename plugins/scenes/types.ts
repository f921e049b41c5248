/** The scene and pose records, their views, and the payloads of the scene events. */
import type { EventList } from "../../src/plugins/mod.ts";

/** Scene statuses (SPEC "Scene status"). */
export const STATUSES = ["active", "paused", "closed"] as const;
/** Scene types; `social` is the default. */
export const SCENE_TYPES = ["social", "event", "vignette", "plot", "training", "other"] as const;
/** Pose types; `pose` is the default. */
export const POSE_TYPES = ["pose", "ooc", "set"] as const;

export type SceneStatus = typeof STATUSES[number];
export type SceneType = typeof SCENE_TYPES[number];
export type PoseType = typeof POSE_TYPES[number];

/** Longest pose text, in characters (SPEC "Limits"). */
export const MAX_POSE = 4000;
/** Longest scene title. */
export const MAX_NAME = 120;
/** Longest scene description. */
export const MAX_DESC = 4000;
/** Latest `endTime` accepted (the end of year 9999), so every stamp prints as a date. */
export const MAX_TIME = Date.UTC(9999, 11, 31, 23, 59);
/** Most players in a scene's participants or allowed list (keeps the record small). */
export const MAX_MEMBERS = 500;

/**
 * A scene as stored: small whatever the scene's length (poses are their own keys). Ids are
 * bare (`12`); the API shows dbrefs (`#12`).
 */
export interface SceneRecord {
  id: string;
  name: string;
  location: string;
  desc: string;
  owner: string;
  participants: string[];
  allowed: string[];
  private: boolean;
  startTime: number;
  endTime?: number;
  status: SceneStatus;
  sceneType: SceneType;
  /** Number of the last pose (poses are numbered 1, 2, ... within the scene). */
  poseCount: number;
  /** Time of the last pose or change (idle times, "most recently active"). */
  lastActivity: number;
  /** Each participant's last pose time, for the pose order. */
  lastPosed: Record<string, number>;
  /**
   * UTF-8 bytes of the scene's pose texts (`plugins.scenes.maxSceneBytes`); absent on scenes
   * from before the byte quota, which count from their next pose.
   */
  poseBytes?: number;
  /**
   * Shared by its owner (`+scene/share`): visitors may read it while it is also public
   * (`web.public.scenes`). Absent on scenes from before sharing: not shared.
   */
  shared?: boolean;
}

/** A pose (SPEC "Pose"); `charId` is a dbref. */
export interface Pose {
  id: string;
  charId: string;
  charName: string;
  moniker: string;
  msg: string;
  type: PoseType;
  timestamp: number;
}

/** A scene as the API answers it (list entries leave `poses` out). */
export interface SceneView {
  id: string;
  name: string;
  location: string;
  desc: string;
  owner: string;
  participants: string[];
  allowed: string[];
  private: boolean;
  /** Shared with visitors by its owner (shown to them only while public too). */
  shared: boolean;
  poses?: Pose[];
  startTime: number;
  endTime?: number;
  status: SceneStatus;
  sceneType: SceneType;
  poseCount: number;
  lastActivity: number;
  /** In a detail cut to the newest poses: how many poses come before the first shown. */
  olderPoses?: number;
}

/** The bus the scene events travel on (SPEC "Events": `gameHooks`). */
export const SCENE_BUS = "gameHooks";

/** The scene events on `gameHooks`, with exactly the fields of SPEC "Scene events". */
export interface SceneEvents {
  "scene:created": {
    sceneId: string;
    sceneName: string;
    roomId: string;
    actorId: string;
    actorName: string;
    sceneType: SceneType;
  };
  "scene:pose": {
    sceneId: string;
    sceneName: string;
    roomId: string;
    actorId: string;
    actorName: string;
    msg: string;
    type: PoseType;
  };
  "scene:set": {
    sceneId: string;
    sceneName: string;
    roomId: string;
    actorId: string;
    actorName: string;
    description: string;
  };
  "scene:title": {
    sceneId: string;
    oldName: string;
    newName: string;
    actorId: string;
    actorName: string;
  };
  "scene:clear": {
    sceneId: string;
    sceneName: string;
    actorId: string;
    actorName: string;
    status: SceneStatus;
  };
}

/** When each scene event fires (SPEC "Scene events"). */
export const SCENE_EVENTS: EventList<SceneEvents> = {
  "scene:created": "a scene is created",
  "scene:pose": "any pose is posted",
  "scene:set": "a pose of type set is posted (with scene:pose)",
  "scene:title": "a scene is renamed",
  "scene:clear": "a scene is closed, finished or archived",
};
