/**
 * Mail's rules for REST, commands and other plugins alike: checking a message against the
 * limits, resolving recipients (all or nothing), the per-player send rate, storing one copy per
 * recipient, and telling online recipients at once.
 */
import {
  ConflictError,
  type DbObject,
  ForbiddenError,
  isStaff,
  lockOf,
  MAX_NAMES,
  NotFoundError,
  type PluginContext,
  requiredText,
  splitNames,
  ValidationError,
} from "../../src/plugins/mod.ts";
import { MailStore } from "./store.ts";
import type { MailMirror } from "./mirror.ts";
import type { InboxEntry, MailBody, MailCounts, MailHead, MailMessage } from "./types.ts";

export const MAX_SUBJECT = 200;
export const MAX_BODY = 10_000;
/** Default for `plugins.mail.maxRecipients`. */
export const DEFAULT_MAX_RECIPIENTS = 50;
/** Default for `plugins.mail.maxMessages`. */
export const DEFAULT_MAX_MESSAGES = 500;
/** Default for `plugins.mail.sendsPerMinute`. */
export const DEFAULT_SENDS_PER_MINUTE = 10;
/** Default for `plugins.mail.maxUnreadFromOne`: a tenth of a default mailbox. */
export const DEFAULT_MAX_UNREAD_FROM_ONE = 50;

/** What a send produced. */
export interface Sent {
  id: string;
  to: string[];
  subject: string;
  sentAt: number;
}

/** The mail service. */
export class MailService {
  readonly store: MailStore;
  readonly #ctx: PluginContext;

  /** `mirror`: the mailboxes in memory for `mail()`, kept by the store (null: none kept). */
  constructor(ctx: PluginContext, mirror: MailMirror | null = null) {
    this.#ctx = ctx;
    this.store = new MailStore(ctx.kv, mirror);
  }

  /** Most recipients of one message (`plugins.mail.maxRecipients`, default 50). */
  get maxRecipients(): number {
    return positive(this.#ctx.config.maxRecipients, DEFAULT_MAX_RECIPIENTS, MAX_NAMES);
  }

  /** Most messages a mailbox holds (`plugins.mail.maxMessages`, default 500). */
  get maxMessages(): number {
    return positive(this.#ctx.config.maxMessages, DEFAULT_MAX_MESSAGES, 100_000);
  }

  /** Sends a player may make a minute (`plugins.mail.sendsPerMinute`, default 10). */
  get sendsPerMinute(): number {
    return positive(this.#ctx.config.sendsPerMinute, DEFAULT_SENDS_PER_MINUTE, 10_000);
  }

  /**
   * Unread messages one player may have waiting in another's mailbox
   * (`plugins.mail.maxUnreadFromOne`, default 50; 0: no limit), so no sender fills a mailbox.
   */
  get maxUnreadFromOne(): number {
    const v = this.#ctx.config.maxUnreadFromOne;
    const n = Number(v);
    return v !== undefined && v !== null && Number.isInteger(n) && n >= 0
      ? Math.min(n, 100_000)
      : DEFAULT_MAX_UNREAD_FROM_ONE;
  }

  /**
   * Sends `subject`/`body` from `sender` to the players `to` names (a list, or one string of
   * names separated by commas or spaces). Every check comes before the first write: an unknown
   * name refuses the whole message, naming each unknown one, and so does a full mailbox (409).
   * `limited` applies the send rate and the per-sender share of a mailbox (players' own sends;
   * a plugin's sends on a player's behalf are not counted). Staff and mail to oneself have no
   * share.
   */
  async send(
    sender: DbObject,
    to: unknown,
    subject: unknown,
    body: unknown,
    limited = true,
  ): Promise<Sent> {
    // What a thing sends is its owning player's, as in MUX's mail (Owner()): from that player,
    // on that player's send rate and share of a mailbox. Sent as itself, each of a player's
    // thousand things had a rate of its own: 10,000 messages a minute, any mailbox full at once.
    sender = await this.#sendingPlayer(sender);
    // One line: a subject is a row of the inbox list.
    const subj = requiredText(subject, "subject", MAX_SUBJECT, { oneLine: true });
    const text = requiredText(body, "body", MAX_BODY);
    const refs = recipients(to);
    if (refs.length > this.maxRecipients) {
      throw new ValidationError(`At most ${this.maxRecipients} recipients per message.`);
    }
    const found = await this.#ctx.players.findMany(refs, sender);
    if (found.unknown.length) {
      const names = found.unknown.map((n) => n.slice(0, 40));
      throw new ValidationError(
        `No such player${names.length > 1 ? "s" : ""}: ${names.join(", ")}. Nothing was sent.`,
      );
    }
    // MUX's mail lock: a player may refuse mail from some senders (`@lock/mail me=!*Name`).
    const from = { id: `#${sender.id}`, flags: sender.flags, connected: true };
    const refusing = found.found.filter((p) =>
      !this.#ctx.world.passes(lockOf(p, "mail"), from, p.id)
    );
    if (refusing.length) {
      throw new ForbiddenError(
        `${refusing.map((p) => p.name).join(", ")} ${
          refusing.length > 1 ? "are" : "is"
        } not accepting mail from you. Nothing was sent.`,
      );
    }
    await this.#refuseFull(found.found);
    const share = limited && !isStaff(sender.flags) ? this.maxUnreadFromOne : 0;
    if (share) await this.#refuseShare(sender, found.found, share);
    if (limited) this.#takeSend(sender.id);
    const n = await this.store.number();
    const sentAt = Date.now();
    const toNames = found.found.map((p) => p.name);
    const copy: MailBody = { to: toNames, toIds: found.found.map((p) => p.id), body: text, sentAt };
    const max = this.maxMessages;
    const delivered: string[] = [];
    for (const p of found.found) {
      const head: MailHead = {
        n,
        from: sender.name,
        fromId: sender.id,
        subject: subj,
        read: false,
        receivedAt: sentAt,
      };
      const counts = await this.store.deliver(
        p.id,
        head,
        copy,
        max,
        p.id === sender.id ? 0 : share,
      );
      // Filled by another send since the checks above: this copy is not stored.
      if (!counts) continue;
      delivered.push(p.name);
      if (this.#ctx.players.isConnected(p.id)) {
        this.#ctx.deliver.toPlayer(p.id, {
          msg: `%ch[Mail]%cn You have new mail (${counts.total}) from ${sender.name}: ${subj}`,
          data: { type: "mail", id: String(n), from: sender.name, subject: subj },
        });
      }
    }
    return { id: String(n), to: delivered, subject: subj, sentAt };
  }

  /** The API other plugins call: player ids in, nothing out. */
  async sendAs(input: { from: string; to: string[]; subject: string; body: string }) {
    if (!input || typeof input !== "object") throw new ValidationError("send needs a message");
    const sender = typeof input.from === "string" ? await this.#ctx.players.find(input.from) : null;
    if (!sender) throw new ValidationError(`No such sender: ${String(input.from).slice(0, 40)}.`);
    if (!Array.isArray(input.to) || input.to.some((t) => typeof t !== "string")) {
      throw new ValidationError("to must be an array of player ids");
    }
    const ids = input.to.map((t) => t.startsWith("#") ? t : `#${t}`);
    await this.send(sender, ids, input.subject, input.body, false);
  }

  /** A page of the inbox, newest first. */
  async inbox(playerId: string, page: { limit: number; offset: number }): Promise<InboxEntry[]> {
    return (await this.store.inbox(playerId, page, true)).map(entry);
  }

  /** The caller's mailbox counts (kept in the same commit as every change, so exact). */
  counts(playerId: string): Promise<MailCounts> {
    return this.store.counts(playerId);
  }

  /**
   * One of the caller's messages, marked read unless `mark` is false (a HEAD request changes
   * nothing); 404 when the caller holds no such copy.
   */
  async read(playerId: string, id: string, mark = true): Promise<MailMessage> {
    const n = idNumber(id);
    const got = n === null ? null : await this.store.get(playerId, n);
    if (!got) throw new NotFoundError("No such message.");
    const head = mark
      ? (await this.store.setRead(playerId, got.head.n, true)) ?? got.head
      : got.head;
    return message(head, got.body);
  }

  /** Deletes one of the caller's copies (404 when there is none). */
  async remove(playerId: string, id: string): Promise<void> {
    const n = idNumber(id);
    if (n === null || !(await this.store.delete(playerId, n))) {
      throw new NotFoundError("No such message.");
    }
  }

  /** Refuses (409) a message to any recipient whose mailbox is full, naming each one. */
  async #refuseFull(to: DbObject[]): Promise<void> {
    const max = this.maxMessages;
    const counts = await this.store.countsOf(to.map((p) => p.id));
    const full = to.filter((_, i) => counts[i].total >= max).map((p) => p.name);
    if (!full.length) return;
    throw new ConflictError(
      full.length === 1
        ? `${full[0]}'s mailbox is full (${max} messages). Nothing was sent.`
        : `The mailboxes of ${full.join(", ")} are full (${max} messages each). Nothing was sent.`,
    );
  }

  /**
   * Refuses (409) a message to anyone else who already has `share` unread messages from the
   * sender waiting, naming each one: one player may take only that much of another's mailbox.
   */
  async #refuseShare(sender: DbObject, to: DbObject[], share: number): Promise<void> {
    const others = to.filter((p) => p.id !== sender.id);
    const waiting = await this.store.unreadFrom(others.map((p) => p.id), sender.id);
    const over = others.filter((_, i) => waiting[i] >= share).map((p) => p.name);
    if (!over.length) return;
    throw new ConflictError(
      `${over.join(", ")} ${over.length > 1 ? "each have" : "has"} ${share} unread messages ` +
        `from you already, the most one sender may leave waiting. Nothing was sent.`,
    );
  }

  /** The player a message from `sender` is from: itself, or the player owning it. */
  async #sendingPlayer(sender: DbObject): Promise<DbObject> {
    const owner = await this.#ctx.world.owningPlayer(sender);
    if (!owner) throw new ForbiddenError("Only an object with an owner may send mail.");
    return owner;
  }

  /** Counts a send against the player's budget (the SDK's rates), or refuses it (429). */
  #takeSend(playerId: string): void {
    const max = this.sendsPerMinute;
    this.#ctx.rates.take(
      "sends",
      playerId,
      max,
      `You are sending mail too fast: at most ${max} messages a minute.`,
    );
  }
}

/** An inbox entry from a stored head. */
export function entry(h: MailHead): InboxEntry {
  return {
    id: String(h.n),
    from: h.from,
    subject: h.subject,
    read: h.read,
    receivedAt: h.receivedAt,
  };
}

/** A whole message from a stored copy. */
export function message(h: MailHead, b: MailBody): MailMessage {
  return { ...entry(h), to: b.to, body: b.body, sentAt: b.sentAt };
}

/** Recipient references from a string of names or an array of them. */
export function recipients(v: unknown): string[] {
  let list: string[];
  if (typeof v === "string") list = splitNames(v);
  else if (Array.isArray(v) && v.every((x) => typeof x === "string")) {
    list = v.flatMap((x) => splitNames(x));
  } else throw new ValidationError("to must be a player name, a list of names, or an array");
  if (!list.length) throw new ValidationError("to is required");
  // Over the hard bound of a lookup is refused before any lookup.
  if (list.length > MAX_NAMES) {
    throw new ValidationError(`At most ${MAX_NAMES} recipients per message.`);
  }
  return list;
}

/** A message id (`12`) as its number, or null. */
function idNumber(id: string): number | null {
  return /^[1-9]\d{0,14}$/.test(id) ? Number(id) : null;
}

function positive(v: unknown, fallback: number, max: number): number {
  const n = Number(v);
  return v !== undefined && Number.isInteger(n) && n > 0 ? Math.min(n, max) : fallback;
}
