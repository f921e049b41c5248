/**
 * Every Deno KV key of the engine is built here, so the key space is visible
 * in one file. Keys start with a collection name; indexes hold ids, not copies.
 */

/** A Deno KV key. */
export type Key = Deno.KvKey;

/** Key builders, grouped by collection. */
export const keys = {
  /** Atomic counters (dbrefs, and whatever a plugin numbers). */
  counter: (name: string): Key => ["counter", name],

  /** A game object by id. */
  object: (id: string): Key => ["obj", id],
  /** Prefix of every game object. */
  objects: (): Key => ["obj"],
  /** Unique player name index (lower-cased) → id. */
  playerByName: (lowerName: string): Key => ["player_by_name", lowerName],
  /**
   * Unique player alias index (lower-cased) → id. A word is a player's name or one player's
   * alias, never both: creates, renames and alias changes check both indexes.
   */
  playerByAlias: (lowerAlias: string): Key => ["player_by_alias", lowerAlias],
  /** Object name index (lower-cased, not unique) → id. */
  objectByName: (lowerName: string, id: string): Key => ["obj_by_name", lowerName, id],
  /** Prefix of objects with one lower-cased name. */
  objectsByName: (lowerName: string): Key => ["obj_by_name", lowerName],
  /** Contents index: objects located in `location`. */
  contents: (location: string, id: string): Key => ["obj_by_loc", location, id],
  /** Prefix of everything in `location`. */
  contentsOf: (location: string): Key => ["obj_by_loc", location],
  /** Contents by type (exits, things, players of a room) so a room's exits need no full read. */
  contentsByType: (location: string, type: string, id: string): Key => [
    "obj_by_loc_type",
    location,
    type,
    id,
  ],
  /** Prefix of everything of one type in `location`. */
  contentsOfType: (location: string, type: string): Key => ["obj_by_loc_type", location, type],
  /** Flag index: objects carrying `flag`. */
  byFlag: (flag: string, id: string): Key => ["obj_by_flag", flag, id],
  /** Prefix of every object carrying `flag`. */
  withFlag: (flag: string): Key => ["obj_by_flag", flag],
  /** Exits by destination: `exit` leads to room `dest` (so a destroyed room's inbound exits are found). */
  exitTo: (dest: string, exit: string): Key => ["obj_by_dest", dest, exit],
  /** Prefix of every exit leading to `dest`. */
  exitsTo: (dest: string): Key => ["obj_by_dest", dest],
  /** Ownership index. */
  byOwner: (owner: string, id: string): Key => ["obj_by_owner", owner, id],
  /** Prefix of everything owned by `owner`. */
  ownedBy: (owner: string): Key => ["obj_by_owner", owner],

  /**
   * A whole index collection (`name`, `flag`, `loc`, `owner`, `dest`, `player`, `alias`): only for
   * the full scan of `@repair`, which rebuilds an unreadable object from its index entries.
   */
  indexCollection: (
    kind: "name" | "flag" | "loc" | "owner" | "dest" | "player" | "alias",
  ): Key => [
    {
      name: "obj_by_name",
      flag: "obj_by_flag",
      loc: "obj_by_loc",
      owner: "obj_by_owner",
      dest: "obj_by_dest",
      player: "player_by_name",
      alias: "player_by_alias",
    }[kind],
  ],

  /**
   * An attribute of an object (src/world/attributes): its value, owner and flags. Never inside
   * the object record; listing `attributesOf` yields an object's attributes in name order.
   */
  attribute: (objectId: string, name: string): Key => ["attr", objectId, name],
  /** Prefix of every attribute of one object. */
  attributesOf: (objectId: string): Key => ["attr", objectId],
  /** Prefix of every attribute (read once at start while the engine holds the world). */
  attributes: (): Key => ["attr"],
  /** Bytes of attributes a player owns: a Deno.KvU64 every attribute write sums into. */
  attributeBytes: (owner: string): Key => ["attr_bytes", owner],
  /** Prefix of every owner's attribute bytes. */
  attributeBytesAll: (): Key => ["attr_bytes"],

  /** A global user-defined softcode function (`@function`) by upper-case name. */
  userFunction: (name: string): Key => ["softcode_function", name],
  /** Prefix of every user-defined function. */
  userFunctions: (): Key => ["softcode_function"],

  /** Credentials of a player (password hash, e-mail, reset token); never sent to clients. */
  credentials: (id: string): Key => ["auth", id],

  /**
   * A player's token generation (a number; absent means 0). Session tokens carry the generation
   * they were issued in; advancing it revokes every earlier token (src/auth/generations.ts).
   */
  tokenGeneration: (id: string): Key => ["token_gen", id],

  /** Password-reset token → player id (expires with the token). */
  resetToken: (token: string): Key => ["reset_token", token],

  /** A player created while no engine ran, to be announced (`player:created`) at the next start. */
  announcePending: (id: string): Key => ["announce_pending", id],
  /** Prefix of every player waiting to be announced. */
  announcesPending: (): Key => ["announce_pending"],

  /** Online players (presence) index. */
  online: (id: string): Key => ["online", id],
  /** Prefix of online players. */
  onlineAll: (): Key => ["online"],

  /** Who was online when the engine last stopped for a restart (the next one waits for them). */
  restartResumes: (): Key => ["meta", "restart_resumes"],

  /** The header of `who`'s doing column, set with `@doing/header` (MUX's poll). */
  doingHeader: (): Key => ["doing_header"],

  /** The most player connections logged in at once since the database was made (`connrecord()`). */
  connectionRecord: (): Key => ["connection_record"],

  /** A runtime site setting made with `@site` (config path → value). */
  siteSetting: (path: string): Key => ["site", path],
  /** Prefix of every stored site setting. */
  siteSettings: (): Key => ["site"],

  /** A persistent timer record by id (the scheduler's jobs). */
  timer: (id: string): Key => ["timer", id],
  /** Due-time index of timers: listing it in key order yields the soonest first. */
  timerDue: (due: number, id: string): Key => ["timer_due", due, id],
  /** Prefix of the due-time index. */
  timersDue: (): Key => ["timer_due"],
  /** Timers by owning plugin. */
  timerByOwner: (owner: string, id: string): Key => ["timer_by_owner", owner, id],
  /** Prefix of one owner's timers. */
  timersOf: (owner: string): Key => ["timer_by_owner", owner],
  /** A due timer set aside because its owner has no handler for it (out of the due index). */
  timerParked: (owner: string, id: string): Key => ["timer_parked", owner, id],
  /** Prefix of one owner's parked timers. */
  timersParked: (owner: string): Key => ["timer_parked", owner],

  /** Everything under a plugin's own key space. */
  plugin: (plugin: string, ...rest: Deno.KvKeyPart[]): Key => ["plugin", plugin, ...rest],

  /** The stored layout's version (src/storage/layout.ts). */
  layout: (): Key => ["meta", "layout"],
} as const;
