/** Shapes of game objects. */

/** The four kinds of database object; the kind is also carried as a flag. */
export type ObjectType = "player" | "room" | "thing" | "exit";

/** Every object type, for validation. */
export const OBJECT_TYPES: readonly ObjectType[] = ["player", "room", "thing", "exit"];

/** Free-form data of an object; the named keys are the ones the engine itself reads. */
export interface ObjectData {
  description?: string;
  avatar?: string;
  state?: Record<string, unknown>;
  /** Colour-coded display name set by `@moniker`. */
  moniker?: string;
  /** Home room id of a player or thing. */
  home?: string;
  /** Destination room id of an exit. */
  destination?: string;
  /** Extra names an exit or thing answers to. */
  aliases?: string[];
  /** Lock expressions by lock type (`enter`, `use`, ...). */
  locks?: Record<string, string>;
  [key: string]: unknown;
}

/** A stored game object. Ids are decimal strings; the dbref is `#` + id. */
export interface DbObject {
  id: string;
  name: string;
  flags: string[];
  /** Id of the containing object; rooms have "". */
  location: string;
  owner: string;
  data: ObjectData;
  createdAt: number;
  updatedAt: number;
}

/**
 * What names, display and control checks read of an object. A DbObject is one; so is a
 * connected player's card in the hub, which holds only this.
 */
export interface ObjectHead {
  id: string;
  name: string;
  flags: readonly string[];
  owner: string;
  data: Pick<ObjectData, "moniker">;
}

/** Fields accepted when creating an object. */
export interface NewObject {
  name: string;
  type: ObjectType;
  location?: string;
  owner?: string;
  flags?: string[];
  data?: ObjectData;
}

/** A committed change to an object: `before` is null for a create, `after` null for a delete. */
export interface ObjectChange {
  before: DbObject | null;
  after: DbObject | null;
}
