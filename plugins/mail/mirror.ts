/**
 * Every mailbox in memory, for softcode's `mail()` and its kin (which run synchronously inside an
 * evaluation): read once when the plugin loads, then changed by the store after each of its
 * commits. Kept only while this engine is the database's only writer; on a shared database
 * (KV Connect) another engine could change a mailbox behind it, and `mail()` says it cannot read.
 */
import type { PluginKv } from "../../src/plugins/mod.ts";
import { mailKeys } from "./keys.ts";
import type { MailBody, MailHead } from "./types.ts";

/** One copy as `mail()` reads it. */
export interface MirroredMail {
  n: number;
  read: boolean;
  body: string;
  /** The sender's player id (`mailfrom()`). */
  fromId: string;
  /** `mailsubj()`. */
  subject: string;
}

/** The mailboxes in memory: each player's copies in message order (oldest first). */
export class MailMirror {
  readonly #boxes = new Map<string, MirroredMail[]>();

  /** Reads every head and body of the plugin's store. */
  async load(kv: PluginKv): Promise<void> {
    const bodies = new Map<string, string>();
    for await (const e of kv.list<MailBody>(mailKeys.allBodies)) {
      const [player, n] = e.key.slice(-2);
      if (e.value && typeof e.value.body === "string") {
        bodies.set(`${String(player)}/${String(n)}`, e.value.body);
      }
    }
    for await (const e of kv.list<MailHead>(mailKeys.allHeads)) {
      const [player, n] = e.key.slice(-2);
      if (typeof player !== "string" || typeof n !== "number" || !e.value) continue;
      this.put(player, {
        n,
        read: e.value.read === true,
        body: bodies.get(`${player}/${n}`) ?? "",
        fromId: String(e.value.fromId ?? ""),
        subject: String(e.value.subject ?? ""),
      });
    }
  }

  /** A player's copies, oldest first (empty when none). */
  box(playerId: string): readonly MirroredMail[] {
    return this.#boxes.get(playerId) ?? [];
  }

  /** Adds (or replaces) a copy, keeping message order. */
  put(playerId: string, mail: MirroredMail): void {
    const box = this.#boxes.get(playerId) ?? [];
    // New mail has the highest number: it goes last without a search.
    const at = !box.length || box[box.length - 1].n < mail.n
      ? -1
      : box.findIndex((m) => m.n >= mail.n);
    if (at === -1) box.push(mail);
    else if (box[at].n === mail.n) box[at] = mail;
    else box.splice(at, 0, mail);
    this.#boxes.set(playerId, box);
  }

  /** Marks a copy read or unread. */
  setRead(playerId: string, n: number, read: boolean): void {
    const m = this.#boxes.get(playerId)?.find((x) => x.n === n);
    if (m) m.read = read;
  }

  /** Forgets a copy. */
  delete(playerId: string, n: number): void {
    const box = this.#boxes.get(playerId);
    if (!box) return;
    const at = box.findIndex((m) => m.n === n);
    if (at !== -1) box.splice(at, 1);
    if (!box.length) this.#boxes.delete(playerId);
  }

  /** Forgets a whole mailbox. */
  drop(playerId: string): void {
    this.#boxes.delete(playerId);
  }
}
