/** Who may do what with a scene (SPEC Scenes rules 3-5, "Private scene access"). */
import { type DbObject, isStaff } from "../../src/plugins/mod.ts";
import type { Pose, SceneRecord } from "./types.ts";

/** Owner, participant or allowed. */
export function involved(s: SceneRecord, id: string): boolean {
  return s.owner === id || s.participants.includes(id) || s.allowed.includes(id);
}

/** A public scene is open to every player; a private one to those involved and staff. */
export function mayView(s: SceneRecord, who: DbObject): boolean {
  return !s.private || involved(s, who.id) || isStaff(who.flags);
}

/** Posting follows viewing (rule 5). */
export const mayPost = mayView;

/** Owner, admin or wizard (rule 4). */
export function mayManage(s: SceneRecord, who: DbObject): boolean {
  return s.owner === who.id || isStaff(who.flags);
}

/** Joining: anyone for a public scene; the allowed list (and staff) for a private one. */
export function mayJoin(s: SceneRecord, who: DbObject): boolean {
  return !s.private || s.allowed.includes(who.id) || s.owner === who.id || isStaff(who.flags);
}

/** Inviting: owner, anyone in the allowed list, admin or wizard. */
export function mayInvite(s: SceneRecord, who: DbObject): boolean {
  return s.owner === who.id || s.allowed.includes(who.id) || isStaff(who.flags);
}

/** Editing a pose: its author or the scene's owner (rule 3). */
export function mayEditPose(s: SceneRecord, pose: Pose, who: DbObject): boolean {
  return pose.charId === `#${who.id}` || s.owner === who.id;
}
