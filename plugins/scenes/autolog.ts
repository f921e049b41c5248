/**
 * Automatic logging: speech in a room with an active scene (say, pose, semipose, @emit from the
 * engine's `room:speech`, and the plugin's `ooc`) becomes a pose of that scene, by whoever said
 * it. The room already heard it, so the pose is recorded without a second broadcast. Speech is
 * handled one line at a time per room, so the log keeps the order in which the room heard it.
 *
 * Which scene (docs/scenes.md "Several scenes in one room"): every active scene of the room the
 * speaker takes part in; when there is none, the most recently active scene the speaker may join
 * (a public one, or a private one that lists them in `allowed`), which they join by posing.
 * Paused and closed scenes log nothing; a private scene records only players in its allowed list.
 */
import {
  ConflictError,
  type DbObject,
  type PluginLog,
  type PluginWorld,
  type SpeechPayload,
} from "../../src/plugins/mod.ts";
import type { SceneService } from "./service.ts";
import { MAX_POSE, type PoseType, type SceneRecord } from "./types.ts";

/** The pose text of a line of speech: what follows the speaker's name in the log. */
export function speechText(p: Pick<SpeechPayload, "kind" | "text">): string {
  return p.kind === "say" ? `says, "${p.text}"` : p.text;
}

/** The scenes a line of speech by `who` goes to, of a room's live scenes. */
export function targetsOf(live: readonly SceneRecord[], who: string): SceneRecord[] {
  const active = live.filter((s) => s.status === "active");
  const member = (s: SceneRecord) => s.owner === who || s.allowed.includes(who);
  const mine = active.filter((s) => s.participants.includes(who) && (!s.private || member(s)));
  if (mine.length) return mine;
  const joinable = active.filter((s) => !s.private || member(s))
    .sort((a, b) => b.lastActivity - a.lastActivity || Number(b.id) - Number(a.id));
  return joinable.slice(0, 1);
}

/** The speech logger of one plugin instance. */
export class AutoLog {
  readonly #queues = new Map<string, Promise<void>>();

  constructor(
    private readonly svc: Pick<SceneService, "now" | "knownQuiet" | "activeIn" | "isFull" | "pose">,
    private readonly world: Pick<PluginWorld, "get">,
    private readonly log: PluginLog,
    /** Tells the speaker why a line was not logged (their byte quota; a scene near full). */
    private readonly tell: (playerId: string, msg: string) => void,
  ) {}

  /**
   * The `room:speech` handler. Speech in a room known to have no active scene, with none of its
   * lines still being logged, logs nothing: said here, without the queue, the actor's copy and
   * the promises a line in such a room (most rooms, most of the time) made on every say and pose.
   */
  heard(p: SpeechPayload): Promise<void> | undefined {
    if (!this.#queues.has(p.roomId) && this.svc.knownQuiet(p.roomId)) return undefined;
    const at = this.svc.now();
    return this.#enqueue(p.roomId, async () => {
      const actor = await this.world.get(p.actorId);
      if (actor) await this.#record(actor, p.roomId, speechText(p), "pose", at);
    });
  }

  /** Records a line said in `room` (the `ooc` command), after any line still being logged there. */
  record(actor: DbObject, room: string, text: string, type: PoseType, at: number): Promise<void> {
    return this.#enqueue(room, () => this.#record(actor, room, text, type, at));
  }

  /** Waits until every line heard so far is logged (tests, unload). */
  async idle(): Promise<void> {
    while (this.#queues.size) await Promise.all([...this.#queues.values()]);
  }

  async #record(actor: DbObject, room: string, text: string, type: PoseType, at: number) {
    const msg = [...text].slice(0, MAX_POSE).join("");
    if (!msg.trim()) return;
    const targets = targetsOf(await this.svc.activeIn(room), actor.id);
    for (const s of targets) {
      // A full scene logs no more (`+scene` and REST say so); speech there is not an error.
      if (this.svc.isFull(s)) continue;
      await this.svc.pose(actor, s.id, { msg, type }, { broadcast: false, at }).catch((e) => {
        // The room heard the line; the speaker learns it is missing from the log, and why.
        if (e instanceof ConflictError) {
          this.tell(actor.id, `Not logged in scene ${s.id}: ${e.message}`);
        } else this.log.warn(`speech of #${actor.id} not logged in scene ${s.id}: ${e}`);
      });
    }
  }

  #enqueue(room: string, job: () => Promise<void>): Promise<void> {
    const prev = this.#queues.get(room) ?? Promise.resolve();
    const next = prev.then(job).catch((e) => this.log.error("scene logging failed:", e));
    this.#queues.set(room, next);
    void next.then(() => {
      if (this.#queues.get(room) === next) this.#queues.delete(room);
    });
    return next;
  }
}
