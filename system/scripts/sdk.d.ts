/**
 * The SDK of UrsaMU system scripts: the `u` a script's default export receives.
 * Ambient (no import needed): start a script with
 *   /// <reference path="./sdk.d.ts" />
 * so editors and `@script/check` know these types. Every method that reaches the game is a
 * request to the engine and returns a Promise; await it. Reference: docs/scripts.md.
 */

/** What a script sees of an object (one the actor may see). */
interface ScriptObject {
  /** Id without `#` ("12"). */
  readonly id: string;
  /** "#12". */
  readonly dbref: string;
  readonly name: string;
  /** The name with its @moniker colours. */
  readonly displayName: string;
  readonly flags: readonly string[];
  /** Id of what holds it ("" for rooms). */
  readonly location: string;
  /** Id of its owner. */
  readonly owner: string;
  readonly description: string;
  /** The REST client's JSON (the object's data.state); attributes are read with u.attr. */
  readonly state: Readonly<Record<string, unknown>>;
}

/** An attribute, as softcode, `examine` and REST see it (docs/softcode.md). */
interface ScriptAttribute {
  /** Upper-case name ("FINGER.QUOTE"). */
  readonly name: string;
  readonly value: string;
  /** Id of the player who owns it. */
  readonly owner: string;
  /** Its flags ("visual", "locked", ...). */
  readonly flags: readonly string[];
}

/** A player as `u.player` finds it: the object plus whether (and how long) it is connected. */
interface ScriptPlayer extends ScriptObject {
  readonly online: boolean;
  /** Seconds connected (when online). */
  readonly onFor?: number;
  /** Seconds since the last command (when online). */
  readonly idle?: number;
}

/** A connected player the actor may see (`u.online()`). */
interface ScriptOnline {
  readonly id: string;
  readonly dbref: string;
  readonly name: string;
  readonly displayName: string;
  readonly flags: readonly string[];
  readonly onFor: number;
  readonly idle: number;
}

/**
 * A connected player as `u.who()` gives it, a plain row (compact to cross, cheap to read):
 * `[id, name, onFor, idle, staff]`: its id without `#`, its name, seconds connected, seconds since
 * its last command, and whether it is staff (admin, wizard or superuser).
 */
type ScriptWhoRow = readonly [
  id: string,
  name: string,
  onFor: number,
  idle: number,
  staff: boolean,
];

/** The room the actor is in, with a way to speak to everyone there. */
interface ScriptRoom extends ScriptObject {
  /** Sends a message to everyone connected in the room (minus `exclude`, dbrefs or ids). */
  broadcast(msg: string, opts?: { exclude?: string[] }): Promise<void>;
}

/** Structured data sent beside a message to web clients; `type` names it. */
interface ScriptData {
  type?: string;
  [key: string]: unknown;
}

/** The parsed command line. */
interface ScriptCommandLine {
  /** The line as typed. */
  readonly raw: string;
  /** The command word as typed, lower-cased (an alias when one was used). */
  readonly name: string;
  /** Switches, lower-cased: ["all"] for `+finger/all`. */
  readonly switches: readonly string[];
  /** Everything after the command word and switches. */
  readonly args: string;
  /** Args before the first `=`, trimmed (all of args when there is none). */
  readonly lhs: string;
  /** Args after the first `=`, trimmed; null when there is no `=`. */
  readonly rhs: string | null;
}

/** The SDK object a script receives. */
interface ScriptSdk {
  /** The acting player. */
  readonly me: ScriptObject;
  /** The actor's room, or null. */
  readonly here: ScriptRoom | null;
  /** The command line. */
  readonly cmd: ScriptCommandLine;
  /** Always empty for scripts (kept for the shape of the command SDK). */
  readonly args: readonly string[];
  /** Sends a message (colour codes allowed, at most 32,000 characters) to the actor. */
  send(msg: string, data?: ScriptData): Promise<void>;
  /**
   * Finds an object as the built-in commands do: `me`, `here`, `#dbref`, `*player`, or a name
   * among what the actor holds and sees. Rejects with the usual message ("I don't see that
   * here.") when nothing, or more than one thing, matches, or the actor may not see it.
   */
  target(ref: string): Promise<ScriptObject>;
  /** Finds a player anywhere by name, alias, `*name` or dbref. */
  player(ref: string): Promise<ScriptPlayer>;
  /** The connected players the actor may see, in order of login. */
  online(): Promise<ScriptOnline[]>;
  /**
   * What a who-listing needs of the connected players the actor may see, in order of login, as
   * rows (see ScriptWhoRow): the players `online()` gives, without their dbrefs, monikers and
   * flags, in one crossing of plain arrays.
   */
  who(): Promise<ScriptWhoRow[]>;
  /** What the actor may see inside an object (at most 200). */
  contents(ref: string): Promise<ScriptObject[]>;
  /** True when the actor passes a lock expression (`admin+`, `builder|storyteller`, ...). */
  passes(lock: string): Promise<boolean>;
  /** Sets the description of an object the actor controls ("" clears it; at most 8000). */
  describe(ref: string, text: string): Promise<void>;
  /**
   * Attributes, the ones softcode and `&` set (names any case, stored upper-case): read what
   * the actor may see, write on objects it controls, within its quota of attribute bytes.
   */
  readonly attr: {
    /** An attribute's value, or null (missing, or not one the actor may see). */
    get(ref: string, name: string): Promise<string | null>;
    /**
     * Sets an attribute (text of up to 8,000 characters; any other JSON value is kept as its
     * JSON text); null or "" removes it.
     */
    set(ref: string, name: string, value: unknown): Promise<void>;
    /** Sets (`on`, the default) or clears a flag of an attribute ("visual", "locked", ...). */
    flag(ref: string, name: string, flag: string, on?: boolean): Promise<void>;
    /** The attributes the actor may see, in name order, matching a `*`/`?` pattern (at most 500). */
    list(ref: string, pattern?: string): Promise<ScriptAttribute[]>;
  };
}
