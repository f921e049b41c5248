/**
 * Guests (`connect guest`): temporary characters for visitors, named `<game.guestPrefix><n>`
 * (Guest1, Guest2, ...), with the `guest` flag and no password. A guest is removed when its last
 * connection closes; one whose client never came (or never came back after a restart) is removed
 * by a sweep, so no guest record outlives its visit. Caps: `game.maxGuests` at once and
 * `game.maxGuestsPerIp` per address. What guests may do is decided per command (docs/guests.md).
 */
import type { Config } from "../config/load.ts";
import type { ObjectStore } from "../world/objects.ts";
import type { DbObject } from "../world/types.ts";
import type { Presence } from "../hub/types.ts";
import { GUEST_FLAG, isGuest } from "../world/flags.ts";
import { playerNameProblem } from "../world/names.ts";
import { normalizeId } from "../world/ids.ts";
import { SerialQueue } from "../serial_queue.ts";
import { RateLimitError, ValidationError } from "../errors.ts";

/** Longest time between two sweeps; a shorter `game.guestGrace` sweeps at half of it. */
const SWEEP_EVERY_MS = 30_000;
/** Shortest time between two sweeps. */
const MIN_SWEEP_EVERY_MS = 1_000;
/** Most guest numbers tried for a free name, and most guests one sweep looks at. */
const MAX_GUESTS_SEEN = 1000;
/** Most objects a removed guest carried that are sent home (guests cannot pick things up). */
const MAX_CONTENTS = 1000;

/** What the guests service needs. */
export interface GuestDeps {
  config: Config;
  objects: ObjectStore;
  /** Who is online, and from where (the guest caps count connected guests). */
  presence: Pick<Presence, "isOnline" | "onlinePlayers" | "playerCard" | "connections">;
  /** The room new characters start in. */
  startingRoom(): Promise<string>;
  /** Milliseconds since the epoch (tests move it). */
  now?(): number;
  log?(line: string): void;
}

/** Creating, counting and removing guests. */
export class Guests {
  readonly #d: GuestDeps;
  readonly #now: () => number;
  readonly #log: (line: string) => void;
  /** One creation at a time, so two visitors can never both take the last place. */
  readonly #queue = new SerialQueue();
  /** Guests made but not yet seen online: id → address and time. */
  readonly #pending = new Map<string, { ip: string; at: number }>();
  readonly #startedAt: number;
  #timer: ReturnType<typeof setInterval> | null = null;

  constructor(deps: GuestDeps) {
    this.#d = deps;
    this.#now = deps.now ?? Date.now;
    this.#log = deps.log ?? ((l) => console.log(l));
    this.#startedAt = this.#now();
  }

  /** True when `connect guest` (and the REST guest login) is open. */
  get enabled(): boolean {
    return this.#d.config.value.game.guestEnabled;
  }

  /** True when `word` (a name typed after `connect`) asks for a guest: `guest` or the prefix. */
  isGuestWord(word: string): boolean {
    const w = word.toLowerCase();
    return w === "guest" || w === this.#d.config.value.game.guestPrefix.toLowerCase();
  }

  /**
   * Makes a guest for a visitor from `ip`: the first free `<prefix><n>`, in the starting room.
   * Refused (ValidationError) when guests are off or misconfigured, and (RateLimitError) when the
   * game or the address has as many guests as it may. The guest counts against the caps from
   * here on; it must connect within the grace time or the sweep removes it.
   */
  create(ip: string): Promise<DbObject> {
    return this.#queue.run(async () => {
      const game = this.#d.config.value.game;
      if (!game.guestEnabled) throw new ValidationError("Guest logins are not open on this game.");
      const prefix = game.guestPrefix.trim();
      if (playerNameProblem(`${prefix}1`)) {
        this.#log(`guests: game.guestPrefix '${prefix}' does not make valid names; no guests`);
        throw new ValidationError("Guest logins are not available right now.");
      }
      const { total, fromIp } = this.#count(ip);
      if (game.maxGuests > 0 && total >= game.maxGuests) {
        throw new RateLimitError("All the guest characters are in use. Please try again later.");
      }
      if (game.maxGuestsPerIp > 0 && fromIp >= game.maxGuestsPerIp) {
        throw new RateLimitError("Too many guests from your address.");
      }
      const name = await this.#freeName(prefix);
      const home = await this.#d.startingRoom();
      const guest = await this.#d.objects.create({
        name,
        type: "player",
        location: home,
        flags: [GUEST_FLAG],
        data: { home },
      });
      this.#pending.set(guest.id, { ip, at: this.#now() });
      return guest;
    });
  }

  /**
   * Removes a guest nobody plays (its last connection closed, or it never connected): what it
   * carried goes home, what it owned is nobody's, and the character is deleted (plugins hear
   * `player:removed` and drop its channel memberships, mail and RSVPs). Anything that is not an
   * offline guest is left alone. True when a guest was removed.
   */
  async remove(id: string): Promise<boolean> {
    const o = this.#d.objects;
    const guest = await o.get(id);
    // A toaded guest is a thing now, staff's to keep.
    const player = guest?.flags.includes("player");
    if (!guest || !player || !isGuest(guest.flags) || this.#d.presence.isOnline(id)) return false;
    const fallback = guest.location || await this.#d.startingRoom();
    for (const thing of await o.contents(id, MAX_CONTENTS)) await this.#sendHome(thing, fallback);
    for (const owned of await o.idsOwnedBy(id, MAX_CONTENTS)) {
      if (owned === id) continue;
      await o.update(owned, (x) => {
        x.owner = "";
      });
    }
    // Online again meanwhile (a client that resumed): the guest stays.
    if (this.#d.presence.isOnline(id)) return false;
    await o.delete(id);
    // A thing given to the guest after its contents were read and before the delete is inside
    // it still (none lands after: a move checks its destination in its commit): home too.
    for (const thing of await o.storedContents(id, MAX_CONTENTS)) {
      await this.#sendHome(thing, fallback);
    }
    this.#pending.delete(id);
    this.#log(`guests: removed ${guest.name}(#${id})`);
    return true;
  }

  /** Moves what a removed guest carried to its home, or to `fallback` when that is no room. */
  async #sendHome(thing: DbObject, fallback: string): Promise<void> {
    const o = this.#d.objects;
    const home = normalizeId(String(thing.data.home ?? ""));
    const target = home && home !== thing.location && (await o.get(home))?.flags.includes("room")
      ? home
      : fallback;
    await o.update(thing.id, (x) => {
      x.location = target;
    });
  }

  /**
   * Removes every guest that is offline past the grace time (counted from its creation, and
   * from the engine's start, so a restarted engine's guests may resume first). Returns how many.
   */
  async sweep(): Promise<number> {
    const now = this.#now();
    let removed = 0;
    for (const id of await this.#d.objects.idsWithFlag(GUEST_FLAG, MAX_GUESTS_SEEN)) {
      if (this.#d.presence.isOnline(id)) {
        this.#pending.delete(id);
        continue;
      }
      const since = Math.max(this.#startedAt, this.#pending.get(id)?.at ?? 0);
      if (now - since < this.#graceMs) continue;
      if (await this.remove(id)) removed++;
    }
    return removed;
  }

  /**
   * How long a guest may be away before the sweep removes it (`game.guestGrace`): a client given
   * a guest's token (`POST /api/v1/auth/guest`) has this long to connect, and after an engine
   * restart a guest's client this long to resume its session.
   */
  get #graceMs(): number {
    return this.#d.config.value.game.guestGrace * 1000;
  }

  /**
   * Starts the periodic sweep (the engine calls it once; `stop` ends it): every 30 s, or at half
   * the grace time when that is shorter, so a guest goes within one and a half grace times.
   */
  start(): void {
    const every = Math.max(MIN_SWEEP_EVERY_MS, Math.min(SWEEP_EVERY_MS, this.#graceMs / 2));
    this.#timer ??= setInterval(() => {
      this.sweep().catch((e) => console.error("guests: sweep failed:", e));
    }, every);
  }

  /** Stops the sweep. */
  stop(): void {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
  }

  /** Guests online or about to be, in all and from `ip`. */
  #count(ip: string): { total: number; fromIp: number } {
    const online = this.#d.presence;
    let total = 0, fromIp = 0;
    const seen = new Set<string>();
    for (const id of online.onlinePlayers()) {
      const card = online.playerCard(id);
      if (!card || !isGuest(card.flags)) continue;
      seen.add(id);
      total++;
      if (online.connections(id).some((c) => c.ip === ip)) fromIp++;
    }
    const now = this.#now();
    for (const [id, p] of this.#pending) {
      if (seen.has(id)) {
        this.#pending.delete(id);
        continue;
      }
      if (now - p.at >= this.#graceMs) continue; // the sweep's now
      total++;
      if (p.ip === ip) fromIp++;
    }
    return { total, fromIp };
  }

  /**
   * The first `<prefix><n>` no player holds. A guest left behind under a name (offline past
   * the grace time) is removed and its name reused.
   */
  async #freeName(prefix: string): Promise<string> {
    for (let n = 1; n <= MAX_GUESTS_SEEN; n++) {
      const name = `${prefix}${n}`;
      const holder = await this.#d.objects.playerByName(name);
      if (!holder) return name;
      if (!isGuest(holder.flags) || this.#d.presence.isOnline(holder.id)) continue;
      const since = Math.max(this.#startedAt, this.#pending.get(holder.id)?.at ?? 0);
      if (this.#now() - since >= this.#graceMs && await this.remove(holder.id)) return name;
    }
    throw new RateLimitError("All the guest characters are in use. Please try again later.");
  }
}
