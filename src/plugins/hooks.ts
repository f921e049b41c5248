/**
 * The three in-process event buses for plugins (docs/plugins.md "Event buses"): `gameHooks` (scenes),
 * `wikiHooks` and `eventHooks` (calendar), plus the engine's own `worldHooks`
 * (objects destroyed, players toaded, speech in rooms, players connecting and
 * disconnecting) for plugins that keep logs, references or notices.
 * A handler that throws or rejects is logged and never breaks the emitter or the
 * other handlers.
 */
import type { ObjectChange } from "../world/types.ts";
import { typeOf } from "../world/objects.ts";

/**
 * Payloads on the plugin buses, by event name. The engine fixes only the names (SPEC's three
 * buses); the plugin that emits an event owns its payload type (scenes, wiki and events
 * declare theirs beside their code) and narrows a bus with `PluginBus.typed<E>()`.
 */
export type Payloads<N extends string> = { [K in N]: Record<string, unknown> };

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

/** The scene events on `gameHooks`. */
export const GAME_EVENTS = [
  "scene:created",
  "scene:pose",
  "scene:set",
  "scene:title",
  "scene:clear",
] as const;
/** The wiki events on `wikiHooks`. */
export const WIKI_EVENTS = ["wiki:created", "wiki:edited", "wiki:deleted"] as const;
/** The calendar events on `eventHooks`. */
export const EVENT_EVENTS = [
  "event:created",
  "event:updated",
  "event:deleted",
  "event:started",
  "event:ended",
  "event:rsvp",
  "event:cancelled",
] as const;

/** Events of `gameHooks`, payloads typed by the emitting plugin. */
export type GameEvents = Payloads<typeof GAME_EVENTS[number]>;
/** Events of `wikiHooks`. */
export type WikiEvents = Payloads<typeof WIKI_EVENTS[number]>;
/** Events of `eventHooks`. */
export type EventEvents = Payloads<typeof EVENT_EVENTS[number]>;

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

/** A typed publish/subscribe bus over a fixed set of event names. */
export class EventBus<E extends object> {
  readonly #handlers = new Map<keyof E, Handler<never>[]>();
  readonly #names: ReadonlySet<keyof E>;
  readonly #label: string;
  readonly #log: HookLogger;

  constructor(label: string, names: readonly (keyof E)[], log: HookLogger) {
    this.#label = label;
    this.#names = new Set(names);
    this.#log = log;
  }

  /** The event names this bus carries. */
  get events(): (keyof E)[] {
    return [...this.#names];
  }

  /** Adds a handler; returns its remover. An unknown event name is a programming error. */
  on<K extends keyof E>(event: K, handler: Handler<E[K]>): Unsubscribe {
    if (!this.#names.has(event)) {
      throw new Error(`${this.#label}: unknown event '${String(event)}'`);
    }
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
}

/** The buses, created once in the composition root. */
export interface Hooks {
  gameHooks: EventBus<GameEvents>;
  wikiHooks: EventBus<WikiEvents>;
  eventHooks: EventBus<EventEvents>;
  /**
   * Engine facts: objects (fed by `worldEventsFrom` from the object store), speech (the talk
   * commands) and connections (the hub's sessions).
   */
  worldHooks: EventBus<WorldEvents>;
}

/** Builds the buses; `log` receives handler failures (default: console.error). */
export function createHooks(
  log: HookLogger = (m, e) => console.error(m + ":", e),
): Hooks {
  return {
    gameHooks: new EventBus<GameEvents>("gameHooks", GAME_EVENTS, log),
    wikiHooks: new EventBus<WikiEvents>("wikiHooks", WIKI_EVENTS, log),
    eventHooks: new EventBus<EventEvents>("eventHooks", EVENT_EVENTS, log),
    worldHooks: new EventBus<WorldEvents>("worldHooks", WORLD_EVENTS, log),
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
