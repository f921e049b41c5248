/**
 * Mailboxes in the plugin's KV space. Every change to a copy commits together with its
 * recipient's counts (checked), so the unread count told at login is always exact.
 */
import { ConflictError, type Page, type PluginKv } from "../../src/plugins/mod.ts";
import { mailKeys } from "./keys.ts";
import type { MailBody, MailCounts, MailHead } from "./types.ts";
import type { MailMirror } from "./mirror.ts";

const TRIES = 10;
const EMPTY: MailCounts = { total: 0, unread: 0 };

/** Persistent mailboxes. */
export class MailStore {
  /** `mirror`: the mailboxes in memory (`mail()`), told of every commit. */
  constructor(private readonly kv: PluginKv, private readonly mirror: MailMirror | null = null) {}

  /** A new message number. */
  number(): Promise<number> {
    return this.kv.next(mailKeys.counter);
  }

  /**
   * Stores one recipient's copy; returns the recipient's counts after it, or null when the
   * mailbox already holds `max` messages, or `share` unread ones from this sender (checked in
   * the same commit, so it never holds more; `share` 0: none checked).
   */
  async deliver(
    playerId: string,
    head: MailHead,
    body: MailBody,
    max: number,
    share = 0,
  ): Promise<MailCounts | null> {
    for (let i = 0; i < TRIES; i++) {
      const [counts, from] = await Promise.all([
        this.#counts(playerId),
        this.#fromCount(playerId, head.fromId),
      ]);
      if (counts.value.total >= max) return null;
      if (share > 0 && from.value >= share) return null;
      const next = { total: counts.value.total + 1, unread: counts.value.unread + 1 };
      const ok = await this.kv.atomic().check(counts, from)
        .set(from.key, from.value + 1)
        .check({ key: this.kv.key(...mailKeys.head(playerId, head.n)), versionstamp: null })
        .set(this.kv.key(...mailKeys.head(playerId, head.n)), head)
        .set(this.kv.key(...mailKeys.body(playerId, head.n)), body)
        .set(this.kv.key(...mailKeys.counts(playerId)), next)
        .commit();
      if (ok.ok) {
        this.mirror?.put(playerId, {
          n: head.n,
          read: head.read,
          body: body.body,
          fromId: head.fromId,
          subject: head.subject,
        });
        return next;
      }
    }
    throw new ConflictError("The mailbox is busy; try again.");
  }

  /** A recipient's counts. */
  async counts(playerId: string): Promise<MailCounts> {
    return (await this.#counts(playerId)).value;
  }

  /** How many unread copies from `senderId` each recipient holds, in order, in batched reads. */
  async unreadFrom(playerIds: string[], senderId: string): Promise<number[]> {
    const got = await this.kv.getMany<number>(
      playerIds.map((id) => mailKeys.fromSender(id, senderId)),
    );
    return got.map((n) => typeof n === "number" ? n : 0);
  }

  /** Each recipient's counts, in order, in batched reads. */
  async countsOf(playerIds: string[]): Promise<MailCounts[]> {
    const got = await this.kv.getMany<MailCounts>(playerIds.map((id) => mailKeys.counts(id)));
    return got.map((c) => c ?? { ...EMPTY });
  }

  /** A page of a recipient's inbox (oldest first, or newest first with `reverse`). */
  inbox(playerId: string, page: Page, reverse: boolean): Promise<MailHead[]> {
    return this.kv.slice<MailHead>(mailKeys.inbox(playerId), page, reverse);
  }

  /** A recipient's copy of message `n`, or null. */
  async get(playerId: string, n: number): Promise<{ head: MailHead; body: MailBody } | null> {
    const [head, body] = await this.kv.getMany<MailHead | MailBody>([
      mailKeys.head(playerId, n),
      mailKeys.body(playerId, n),
    ]);
    return head && body ? { head: head as MailHead, body: body as MailBody } : null;
  }

  /** Sets a copy's read state; returns the head after (null: no such copy). */
  async setRead(playerId: string, n: number, read: boolean): Promise<MailHead | null> {
    for (let i = 0; i < TRIES; i++) {
      const [head, counts] = await Promise.all([
        this.kv.getEntry<MailHead>(mailKeys.head(playerId, n)),
        this.#counts(playerId),
      ]);
      if (!head.value) return null;
      if (head.value.read === read) return head.value;
      const after = { ...head.value, read };
      const unread = Math.max(0, counts.value.unread + (read ? -1 : 1));
      const from = await this.#fromCount(playerId, head.value.fromId);
      const ok = await this.kv.atomic().check(head, counts, from)
        .set(this.kv.key(...mailKeys.head(playerId, n)), after)
        .set(this.kv.key(...mailKeys.counts(playerId)), { ...counts.value, unread })
        .set(from.key, Math.max(0, from.value + (read ? -1 : 1)))
        .commit();
      if (ok.ok) {
        this.mirror?.setRead(playerId, n, read);
        return after;
      }
    }
    throw new ConflictError("The mailbox is busy; try again.");
  }

  /** Deletes a copy; returns its head (null: no such copy). */
  async delete(playerId: string, n: number): Promise<MailHead | null> {
    for (let i = 0; i < TRIES; i++) {
      const [head, counts] = await Promise.all([
        this.kv.getEntry<MailHead>(mailKeys.head(playerId, n)),
        this.#counts(playerId),
      ]);
      if (!head.value) return null;
      const next = {
        total: Math.max(0, counts.value.total - 1),
        unread: Math.max(0, counts.value.unread - (head.value.read ? 0 : 1)),
      };
      const from = await this.#fromCount(playerId, head.value.fromId);
      const op = this.kv.atomic().check(head, counts, from);
      if (!head.value.read) op.set(from.key, Math.max(0, from.value - 1));
      const ok = await op
        .delete(this.kv.key(...mailKeys.head(playerId, n)))
        .delete(this.kv.key(...mailKeys.body(playerId, n)))
        .set(this.kv.key(...mailKeys.counts(playerId)), next)
        .commit();
      if (ok.ok) {
        this.mirror?.delete(playerId, n);
        return head.value;
      }
    }
    throw new ConflictError("The mailbox is busy; try again.");
  }

  /** Removes a whole mailbox (its player is gone). */
  async drop(playerId: string): Promise<void> {
    this.mirror?.drop(playerId);
    await this.kv.deletePrefix(mailKeys.inbox(playerId));
    await this.kv.deletePrefix(mailKeys.bodies(playerId));
    await this.kv.delete(mailKeys.counts(playerId));
    await this.kv.deletePrefix(mailKeys.fromSenders(playerId));
  }

  /** The count of `playerId`'s unread copies from `senderId`, with its entry for a check. */
  async #fromCount(playerId: string, senderId: string) {
    const e = await this.kv.getEntry<number>(mailKeys.fromSender(playerId, senderId));
    return {
      key: e.key,
      versionstamp: e.versionstamp,
      value: typeof e.value === "number" ? e.value : 0,
    };
  }

  async #counts(playerId: string): Promise<Deno.KvEntry<MailCounts>> {
    const e = await this.kv.getEntry<MailCounts>(mailKeys.counts(playerId));
    return (e.value ? e : { ...e, value: { ...EMPTY } }) as Deno.KvEntry<MailCounts>;
  }
}
