/** Test helpers for the command engine: an in-memory engine with a recording fake hub. */
import { PlayerRates } from "../plugins/rates.ts";
import { startingRoomNow } from "../world/start.ts";
import { createEngine, type Engine } from "../engine.ts";
import type { EngineParts } from "../engine.ts";
import type { CommandPorts } from "./types.ts";
import type { DbObject } from "../world/types.ts";
import type {
  Delivery,
  HubConnection,
  Outbound,
  PlayerCard,
  PlayerIds,
  Presence,
} from "../hub/types.ts";
import type { ObjectChange } from "../world/types.ts";
import { PlayerCards } from "../hub/cards.ts";
import { dispatch } from "./dispatch.ts";
import { linesOf } from "../hub/protocol.ts";
import { TOO_LONG_LINE } from "./limits.ts";
import { Players } from "../world/players.ts";
import { stripMarkup } from "../softcode/markup.ts";
import { EngineLockWorld } from "../world/lock_world.ts";
import { engineSoftcode } from "../softcode/engine_ports.ts";
import { masterRoomId, Programs } from "../softcode/programs/mod.ts";
import { builtinFunctions } from "../softcode/functions/mod.ts";
import { kvUserFunctionStore, UserFunctions } from "../softcode/user_functions.ts";
import { roomView } from "./room_view.ts";
import { didItInChain } from "./did_it.ts";
import { attributeCounts, CommandQueue, haltSetter } from "../queue/queue.ts";
import { runLine } from "./dispatch.ts";
import { systemClock } from "../timers/clock.ts";

/** Presence and delivery that record messages instead of writing to sockets. */
export class FakeHub implements Presence, Delivery {
  /** Messages by player id. */
  readonly inbox = new Map<string, Outbound[]>();
  readonly rooms = new Map<string, Set<string>>();
  readonly conns = new Map<string, FakeConn[]>();
  readonly disconnected: [string, string][] = [];
  readonly cards = new PlayerCards();

  /** Marks a player connected in a room. */
  connect(player: DbObject, opts: { ip?: string; width?: number } = {}): FakeConn {
    const conn = new FakeConn(this, player.id, opts.ip ?? "203.0.113.9", opts.width ?? 78);
    this.conns.set(player.id, [...(this.conns.get(player.id) ?? []), conn]);
    if (player.location) this.#room(player.location).add(player.id);
    this.cards.offer(player);
    return conn;
  }

  /** Follows a committed store change, as the real hub does. */
  changed(change: ObjectChange): void {
    const card = this.cards.apply(change);
    const to = change.after?.location;
    if (!card || !to || this.roomOf(card.id) === to) return;
    for (const r of this.rooms.values()) r.delete(card.id);
    this.#room(to).add(card.id);
  }

  /** Texts a player received, oldest first. */
  texts(playerId: string): string[] {
    return (this.inbox.get(playerId) ?? []).map((o) => o.msg);
  }

  /** Last message a player received. */
  last(playerId: string): Outbound | undefined {
    return this.inbox.get(playerId)?.at(-1);
  }

  /** Forgets every recorded message. */
  clear(): void {
    this.inbox.clear();
  }

  #room(id: string): Set<string> {
    let r = this.rooms.get(id);
    if (!r) this.rooms.set(id, r = new Set());
    return r;
  }

  toPlayer(playerId: string, out: Outbound): void {
    this.inbox.set(playerId, [...(this.inbox.get(playerId) ?? []), out]);
  }
  toPlayers(playerIds: PlayerIds, out: Outbound): void {
    const ids = playerIds instanceof Map ? playerIds.keys() : playerIds as Iterable<string>;
    for (const id of new Set(ids)) if (this.conns.has(id)) this.toPlayer(id, out);
  }
  toRoom(roomId: string, out: Outbound, exclude: readonly string[] = []): void {
    for (const id of this.rooms.get(roomId) ?? []) {
      if (!exclude.includes(id)) this.toPlayer(id, out);
    }
  }
  toAll(out: Outbound): void {
    for (const id of this.conns.keys()) this.toPlayer(id, out);
  }
  connections(playerId: string): readonly HubConnection[] {
    return this.conns.get(playerId) ?? [];
  }
  connection(connectionId: string): HubConnection | undefined {
    for (const list of this.conns.values()) {
      const c = list.find((c) => c.id === connectionId);
      if (c) return c;
    }
    return undefined;
  }
  isOnline(playerId: string): boolean {
    return this.conns.has(playerId);
  }
  lastInput(playerId: string): number | null {
    const cs = this.conns.get(playerId);
    if (!cs?.length) return null;
    let last = -Infinity;
    for (const c of cs) if (c.lastInput > last) last = c.lastInput;
    return last;
  }
  connectedSince(playerId: string): number | null {
    const cs = this.conns.get(playerId);
    if (!cs?.length) return null;
    let first = Infinity;
    for (const c of cs) if (c.connectedAt < first) first = c.connectedAt;
    return first;
  }
  roomOf(playerId: string): string | undefined {
    for (const [room, ids] of this.rooms) if (ids.has(playerId)) return room;
    return undefined;
  }
  playersIn(roomId: string): readonly string[] {
    return [...(this.rooms.get(roomId) ?? [])];
  }
  onlinePlayers(): readonly string[] {
    return [...this.conns.keys()];
  }
  playerCard(playerId: string): PlayerCard | undefined {
    return this.cards.get(playerId);
  }
  playerCardByName(name: string): PlayerCard | undefined {
    return this.cards.byName(name);
  }
  refreshCard(player: DbObject): void {
    if (!this.cards.refresh(player) || this.roomOf(player.id) === player.location) return;
    for (const r of this.rooms.values()) r.delete(player.id);
    this.#room(player.location).add(player.id);
  }
  disconnect(playerId: string, reason: string, keep?: HubConnection): void {
    this.disconnected.push([playerId, reason]);
    const kept = (this.conns.get(playerId) ?? []).filter((c) => c === keep);
    if (kept.length) {
      this.conns.set(playerId, kept);
      return;
    }
    this.conns.delete(playerId);
    this.cards.delete(playerId);
    for (const r of this.rooms.values()) r.delete(playerId);
  }
  renewSession(conn: HubConnection, token: string): void {
    if (!conn.playerId || !this.conns.get(conn.playerId)?.some((c) => c === conn)) return;
    conn.send({ msg: "", data: { type: "session", token, player: { id: conn.playerId } } });
  }
}

/** A connection of the fake hub. */
export class FakeConn implements HubConnection {
  readonly id = crypto.randomUUID();
  readonly kind = "web" as const;
  readonly connectedAt = Date.now();
  readonly lastInput = Date.now();
  readonly height = 24;
  readonly ttype = "";
  readonly colour = true;
  readonly colourDepth = null;
  readonly commands = 0;
  /** Messages sent to this connection only. */
  readonly direct: Outbound[] = [];
  constructor(
    private readonly hub: FakeHub,
    readonly playerId: string,
    readonly ip: string,
    readonly width: number,
  ) {}
  send(out: Outbound): void {
    this.direct.push(out);
  }
  /** Closed once the hub no longer holds it (closed, or its player disconnected). */
  get closed(): boolean {
    return !this.hub.conns.get(this.playerId)?.includes(this);
  }
  close(reason?: string): void {
    this.hub.disconnect(this.playerId, reason ?? "");
  }
}

/** An in-memory engine whose presence and delivery are a FakeHub. */
export interface TestWorld {
  engine: Engine;
  /** The engine's parts, with the fake hub's presence and delivery. */
  services: Omit<EngineParts, "presence" | "deliver"> & { presence: FakeHub; deliver: FakeHub };
  /** What commands run with (the SDK's ports). */
  ports: CommandPorts;
  /** The command queue the ports hold (started; its waits use the engine's timers). */
  queue: CommandQueue;
  /** Waits until the queue has run everything ready (timed and semaphore waits may remain). */
  settle(): Promise<void>;
  hub: FakeHub;
  logDir: string;
  /** Creates a player in room #1 (or `location`), optionally connected. */
  player(name: string, opts?: { flags?: string[]; location?: string; online?: boolean }): Promise<{
    obj: DbObject;
    conn: FakeConn;
  }>;
  /** Runs a line as a player and returns what that player received. */
  run(conn: FakeConn, line: string): Promise<string[]>;
  close(): Promise<void>;
}

/** Builds a fresh in-memory engine with a fake hub. */
export async function testWorld(): Promise<TestWorld> {
  const root = await Deno.makeTempDir({ prefix: "ursamu-cmd-" });
  const engine = await createEngine({
    root,
    env: { URSAMU_SERVER_DB: ":memory:", JWT_SECRET: "unit-test-secret" },
  });
  const hub = new FakeHub();
  engine.services.objects.onChange((change) => hub.changed(change));
  const services = {
    ...engine.services,
    presence: hub,
    deliver: hub,
    players: new Players(engine.services.objects, hub),
  };
  const s = services;
  const functions = builtinFunctions();
  const queue = new CommandQueue({
    run: (actor, line, frame) => runLine(ports, engine.commands, { actor, frame }, line),
    object: (id) => s.objects.world?.object(id) ?? null,
    notify: (id, msg) => hub.toPlayer(id, { msg }),
    setHalt: haltSetter(s.objects),
    counts: attributeCounts({
      object: (id) => s.objects.world?.object(id) ?? null,
      attributes: s.attributes,
      tell: (id, msg) => hub.toPlayer(id, { msg }),
    }),
    timers: engine.timers,
    clock: systemClock(),
    limits: () => s.config.value.queue,
  });
  await queue.start();
  const locks = new EngineLockWorld({
    world: () => s.objects.world,
    peek: (id, name) => s.attributes.peek(id, name),
    evaluate: (code, executor, enactor) =>
      stripMarkup(softcode.evaluate(code, { executor, enactor })),
    refused: () => void softcode.begun++,
  });
  // Softcode delivers through the fake hub too.
  const softcode = engineSoftcode(
    {
      world: () => s.objects.world,
      locks,
      attributes: s.attributes,
      presence: hub,
      connectionRecord: () => hub.conns.size,
      poll: () => "Doing",
      deliver: hub,
      objects: s.objects,
      objectQuota: () => s.config.value.game.objectQuota,
      look: (viewer, room) =>
        roomView(
          { presence: hub, objects: s.objects, attributes: s.attributes, locks },
          viewer,
          room,
          78,
        ),
      now: () => Date.now(),
      startedAt: Date.now(),
      gameName: () => s.config.value.game.name,
      config: () => s.config.value,
      run: null,
      dumping: () => false,
      startingRoom: () =>
        startingRoomNow(s.config, (id) => !!s.objects.world?.object(id)?.flags.includes("room")),
      queue,
      listens: (o) => programs.listens(o),
      // As rooms here, a thing told something alone hears nothing (the engine's listening is
      // tested through the engine: tests/world_hearing_mux_test.ts).
      hearTold: () => {},
      didIt: didItInChain(() => ({
        softcode,
        attributes: s.attributes,
        deliver: hub,
        objects: s.objects,
        queue,
      })),
    },
    () => s.config.value.softcode,
    functions,
  );
  const programs = new Programs({
    world: () => s.objects.world,
    attributes: s.attributes,
    masterRoom: () => masterRoomId(s.config.value.softcode.masterRoom),
    regexps: softcode.regexps,
    locks,
  });
  const ports: CommandPorts = {
    objects: s.objects,
    attributes: s.attributes,
    locks,
    players: s.players,
    presence: hub,
    deliver: hub,
    events: s.hooks.worldHooks,
    softcode,
    queue,
    programs,
    rates: new PlayerRates(),
    engine: {
      config: s.config,
      lifecycle: s.lifecycle,
      texts: s.texts,
      commands: s.commands,
      plugins: s.plugins,
      scripts: s.scripts,
      accounts: s.accounts,
      tokens: s.tokens,
      loginFailures: s.loginFailures,
      accountFailures: s.accountFailures,
      securityLog: s.securityLog,
      kv: s.kv,
      userFunctions: new UserFunctions(functions, kvUserFunctionStore(s.kv)),
      doingHeader: s.doingHeader,
    },
  };
  return {
    engine,
    services,
    ports,
    queue,
    async settle() {
      // An entry may queue another: wait until a pass finds nothing more to run.
      for (let i = 0; i < 1000; i++) {
        await queue.idle();
        await new Promise((r) => setTimeout(r, 0));
        if (queue.counts().ready === 0 && queue.counts().running === 0) return;
      }
    },
    hub,
    logDir: `${root}/logs`,
    async player(name, opts = {}) {
      const obj = await services.accounts.register(name, "password123", {
        location: opts.location ?? "1",
        flags: opts.flags,
      });
      const conn = hub.connect(obj);
      if (opts.online === false) hub.disconnect(obj.id, "");
      return { obj, conn };
    },
    async run(conn, line) {
      const before = hub.inbox.get(conn.playerId)?.length ?? 0;
      // As the hub admits a typed line: cleaned, within the limit, blank lines dropped.
      const typed = linesOf(line);
      if (typed.tooLong > 0) {
        ports.deliver.toPlayer(conn.playerId, { msg: TOO_LONG_LINE, data: { type: "error" } });
      }
      for (const l of typed.lines) await dispatch(ports, engine.commands, conn, l);
      return hub.texts(conn.playerId).slice(before);
    },
    async close() {
      await queue.close();
      await engine.close();
      await Deno.remove(root, { recursive: true }).catch(() => {});
    },
  };
}
