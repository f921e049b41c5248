/**
 * The scenes plugin's keys, relative to its KV space. A scene is one small record; each pose is
 * its own key; index entries hold the scene's record key (never a copy) and end with the scene
 * number, so every listing comes out in creation order (reversed: newest first).
 */
export const sceneKeys = {
  /** A scene by number. */
  scene: (n: number) => ["scene", n],
  /** A pose of a scene, by its number within the scene. */
  pose: (n: number, seq: number) => ["pose", n, seq],
  /** Prefix of a scene's poses, in posting order. */
  poses: (n: number) => ["pose", n],
  /** Every scene (staff's list). */
  all: (n: number) => ["all", n],
  allPrefix: () => ["all"],
  /** Scenes a player owns, takes part in or is allowed into. */
  byPlayer: (player: string, n: number) => ["by_player", player, n],
  ofPlayer: (player: string) => ["by_player", player],
  /** Scenes of a room, by status. */
  byRoom: (room: string, status: string, n: number) => ["by_room", room, status, n],
  ofRoom: (room: string, status: string) => ["by_room", room, status],
  /** Scenes by status. */
  byStatus: (status: string, n: number) => ["by_status", status, n],
  ofStatus: (status: string) => ["by_status", status],
  /** Active public scenes (`/scenes/open`). */
  open: (n: number) => ["open", n],
  openPrefix: () => ["open"],
  /** Scenes visitors may read: shared and public (`/api/v1/public/scenes`). */
  shared: (n: number) => ["shared", n],
  sharedPrefix: () => ["shared"],
  /** Those of them a player took part in (the character page's scenes). */
  sharedWith: (player: string, n: number) => ["shared_with", player, n],
  ofSharedWith: (player: string) => ["shared_with", player],
  /** Counter that numbers scenes. */
  counter: "scene",
};
