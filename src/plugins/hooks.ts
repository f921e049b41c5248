/**
 * In-process event buses (docs/plugins.md "Event buses"): the engine's own `worldHooks`
 * (objects destroyed, players toaded, speech in rooms, players connecting and disconnecting),
 * and the buses plugins declare: a plugin names its bus and its events, emits on it, and other
 * plugins listen by the bus's name. The engine knows no plugin's bus, event or payload.
 * A handler that throws or rejects is logged and never breaks the emitter or the other handlers.
 */
import type { ObjectChange } from "../world/types.ts";
import { typeOf } from "../world/objects.ts";

/**
 * Payloads by event name, untyped: what a listener sees of a bus whose owner's payload types it
 * does not import. The plugin that declares a bus owns its payload types.
 */
export type Payloads<N extends string = string> = { [K in N]: Record<string, unknown> };

/** How something was said in a room: the command that said it. */
export type SpeechKind = "say" | "pose" | "semipose" | "emit";

/** Something said in a room (`room:speech`), after the room has heard it. */
export interface SpeechPayload {
  actorId: string;
  /** The actor's name (not the moniker). */
  actorName: string;
  roomId: string;
  /** What the actor wrote (colour codes kept). */
  text: string;
  kind: SpeechKind;
  /** The line the others in the room saw (`Alice says, "hi"`; colour codes kept). */
  msg: string;
}

/**
 * Payloads of the world events. The engine emits them after the change is committed;
 * plugins only listen (memberships, indexes and caches that name an object let go).
 */
export interface WorldEvents {
  /** A player object was created (registration, `create`, first-run setup). */
  "player:created": { id: string; name: string };
  /** An object was deleted; the fields are its last values. */
  "object:destroyed": { id: string; name: string; type: string; owner: string; location: string };
  /** An id is no longer a player: toaded (`destroyed` false) or its object deleted. */
  "player:removed": { id: string; name: string; destroyed: boolean };
  /** Someone said, posed or emitted in a room (say, pose, semipose, @emit). */
  "room:speech": SpeechPayload;
  /**
   * A connection logged in: `first` when the player had no other connection, `resumed` for the
   * silent resume after an engine restart (no MOTD, no room message). A fresh login fires after
   * the player was shown the room.
   */
  "player:connected": { id: string; name: string; first: boolean; resumed: boolean };
  /**
   * A logged-in connection closed; `stillConnected` when the player has others. Not fired for
   * the connections an engine stop or restart closes.
   */
  "player:disconnected": { id: string; name: string; stillConnected: boolean };
}

/** World event names. */
export const WORLD_EVENTS: readonly (keyof WorldEvents)[] = [
  "player:created",
  "object:destroyed",
  "player:removed",
  "room:speech",
  "player:connected",
  "player:disconnected",
];

/** A handler of one event. */
export type Handler<P> = (payload: P) => void | Promise<void>;

/** Removes the handler it was returned for. */
export type Unsubscribe = () => void;

/** Where handler failures are reported. */
export type HookLogger = (message: string, error: unknown) => void;

/**
 * A typed publish/subscribe bus over a set of event names. A bus a plugin has not declared yet
 * has no names: handlers are accepted for any name then, and checked when it is declared.
 */
export class EventBus<E extends object> {
  readonly #handlers = new Map<keyof E, Handler<never>[]>();
  #names: ReadonlySet<keyof E> | null;
  readonly #label: string;
  readonly #log: HookLogger;

  constructor(label: string, names: readonly (keyof E)[] | null, log: HookLogger) {
    this.#label = label;
    this.#names = names ? new Set(names) : null;
    this.#log = log;
  }

  /** The event names this bus carries (none while undeclared). */
  get events(): (keyof E)[] {
    return [...this.#names ?? []];
  }

  /** True once the bus's names are known. */
  get declared(): boolean {
    return this.#names !== null;
  }

  /**
   * Sets the names the bus carries; answers the names handlers were added for that are not
   * among them (they will never be called).
   */
  declare(names: readonly (keyof E)[]): (keyof E)[] {
    this.#names = new Set(names);
    return [...this.#handlers.keys()].filter((k) => !this.#names!.has(k));
  }

  /** Adds a handler; returns its remover. An unknown event name is a programming error. */
  on<K extends keyof E>(event: K, handler: Handler<E[K]>): Unsubscribe {
    this.#known(event);
    if (typeof handler !== "function") {
      throw new Error(`${this.#label}: handler must be a function`);
    }
    // Copy-on-write so an emit in progress keeps the list it started with.
    this.#handlers.set(event, [...(this.#handlers.get(event) ?? []), handler as Handler<never>]);
    return () => this.off(event, handler);
  }

  /** Removes a handler (one registration of it). */
  off<K extends keyof E>(event: K, handler: Handler<E[K]>): void {
    const list = this.#handlers.get(event);
    if (!list) return;
    const i = list.indexOf(handler as Handler<never>);
    if (i === -1) return;
    const next = list.filter((_, j) => j !== i);
    if (next.length) this.#handlers.set(event, next);
    else this.#handlers.delete(event);
  }

  /** Number of handlers of an event. */
  count<K extends keyof E>(event: K): number {
    return this.#handlers.get(event)?.length ?? 0;
  }

  /**
   * Calls every handler with the payload. Synchronous handlers run before this
   * returns; the promise settles when async handlers have finished. It never rejects,
   * so emitters may fire and forget.
   */
  emit<K extends keyof E>(event: K, payload: E[K]): Promise<void> {
    if (!this.#names?.has(event)) {
      throw new Error(`${this.#label}: cannot emit undeclared event '${String(event)}'`);
    }
    const list = this.#handlers.get(event);
    if (!list?.length) return Promise.resolve();
    const pending: Promise<void>[] = [];
    for (const h of list) {
      try {
        const r = (h as Handler<E[K]>)(payload);
        if (r && typeof (r as Promise<void>).then === "function") {
          pending.push(
            Promise.resolve(r).catch((e) =>
              this.#log(`${this.#label}: handler of '${String(event)}' failed`, e)
            ),
          );
        }
      } catch (e) {
        this.#log(`${this.#label}: handler of '${String(event)}' failed`, e);
      }
    }
    return pending.length ? Promise.all(pending).then(() => {}) : Promise.resolve();
  }

  #known(event: keyof E): void {
    if (this.#names ? !this.#names.has(event) : !EVENT_NAME.test(String(event))) {
      throw new Error(`${this.#label}: unknown event '${String(event)}'`);
    }
  }
}

/** A bus name: a letter, then letters, digits, `_ . -` (64 at most). */
const BUS_NAME = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;
/** An event name: letters, digits, `: . _ -` (64 at most). */
const EVENT_NAME = /^[A-Za-z0-9][A-Za-z0-9:._-]{0,63}$/;
/** Most events one bus declares. */
export const MAX_BUS_EVENTS = 100;
/** The engine's own bus: no plugin declares it. */
const WORLD_BUS = "worldHooks";

/** One declared (or awaited) bus, as the registry lists it. */
export interface BusInfo {
  /** The name as its owner declared it (or as first asked for). */
  name: string;
  /** The plugin that declared it; null while none has (or after it unloaded). */
  owner: string | null;
  events: string[];
}

/**
 * The buses plugins declare, by name (compared without case). A bus comes to exist when a
 * plugin declares it or another asks for it, whichever is first, so a listener loaded before
 * the owner (plugins load in alphabetical order) keeps its handlers. Its owner alone emits; a
 * bus whose owner unloaded keeps its names and handlers for the owner's next version.
 */
export class BusRegistry {
  readonly #buses = new Map<
    string,
    { name: string; owner: string | null; bus: EventBus<Payloads> }
  >();
  readonly #log: HookLogger;

  constructor(log: HookLogger) {
    this.#log = log;
  }

  /**
   * Declares `name` with its events for `owner` and answers the bus. Refused: a bad name or event
   * name, the engine's `worldHooks`, and a bus another loaded plugin declared.
   */
  declare(name: string, events: readonly string[], owner: string): EventBus<Payloads> {
    const entry = this.#entry(name);
    if (entry.owner !== null && entry.owner !== owner) {
      throw new Error(`bus '${entry.name}' is declared by plugin ${entry.owner}`);
    }
    if (!Array.isArray(events) || events.length === 0 || events.length > MAX_BUS_EVENTS) {
      throw new Error(`bus '${name}': declare 1 to ${MAX_BUS_EVENTS} event names`);
    }
    const bad = events.find((e) => typeof e !== "string" || !EVENT_NAME.test(e));
    if (bad !== undefined) throw new Error(`bus '${name}': bad event name '${String(bad)}'`);
    if (new Set(events).size !== events.length) {
      throw new Error(`bus '${name}': an event name is declared twice`);
    }
    entry.name = name;
    entry.owner = owner;
    for (const stray of entry.bus.declare(events)) {
      this.#log(
        `bus '${name}': handlers of '${String(stray)}' will never be called`,
        `plugin ${owner} does not declare that event`,
      );
    }
    return entry.bus;
  }

  /** The bus named `name`, declared or not yet. */
  bus(name: string): EventBus<Payloads> {
    return this.#entry(name).bus;
  }

  /** Forgets `owner`'s claims (its buses keep their names and handlers); how many it held. */
  release(owner: string): number {
    let n = 0;
    for (const e of this.#buses.values()) {
      if (e.owner === owner) {
        e.owner = null;
        n++;
      }
    }
    return n;
  }

  /** Every bus, by name. */
  list(): BusInfo[] {
    return [...this.#buses.values()]
      .map((e) => ({ name: e.name, owner: e.owner, events: e.bus.events.map(String) }))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  #entry(name: string) {
    if (typeof name !== "string" || !BUS_NAME.test(name)) {
      throw new Error(`bad bus name '${String(name)}'`);
    }
    if (name.toLowerCase() === WORLD_BUS.toLowerCase()) {
      throw new Error(`'${WORLD_BUS}' is the engine's own bus`);
    }
    const key = name.toLowerCase();
    let entry = this.#buses.get(key);
    if (!entry) {
      entry = { name, owner: null, bus: new EventBus<Payloads>(name, null, this.#log) };
      this.#buses.set(key, entry);
    }
    return entry;
  }
}

/** The engine's buses, created once in the composition root. */
export interface Hooks {
  /**
   * Engine facts: objects (fed by `worldEventsFrom` from the object store), speech (the talk
   * commands) and connections (the hub's sessions).
   */
  worldHooks: EventBus<WorldEvents>;
  /** The buses plugins declare. */
  buses: BusRegistry;
}

/** Builds the buses; `log` receives handler failures (default: console.error). */
export function createHooks(
  log: HookLogger = (m, e) => console.error(m + ":", e),
): Hooks {
  return {
    worldHooks: new EventBus<WorldEvents>("worldHooks", WORLD_EVENTS, log),
    buses: new BusRegistry(log),
  };
}

/**
 * An object-store change listener that emits the world events a committed change
 * means. Synchronous handlers have run when it returns (so in-memory state such as
 * channel membership is already right when the command that caused it replies).
 */
export function worldEventsFrom(bus: EventBus<WorldEvents>): (change: ObjectChange) => void {
  return ({ before, after }) => {
    if (!before) {
      if (after?.flags.includes("player")) {
        void bus.emit("player:created", { id: after.id, name: after.name });
      }
      return;
    }
    const wasPlayer = before.flags.includes("player");
    if (!after) {
      const { id, name, owner, location } = before;
      void bus.emit("object:destroyed", { id, name, type: typeOf(before), owner, location });
      if (wasPlayer) void bus.emit("player:removed", { id, name, destroyed: true });
    } else if (wasPlayer && !after.flags.includes("player")) {
      void bus.emit("player:removed", { id: after.id, name: before.name, destroyed: false });
    }
  };
}
