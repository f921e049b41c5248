/**
 * Posts waiting for Discord, one queue per link, each bounded: when Discord is slow, down or
 * rate-limiting, a full queue drops its oldest post (the newest talk matters most) and counts
 * it. Each queue is sent in order by one loop, so a link's posts keep their order and one slow
 * link does not hold up another. Nothing a player does waits for any of it.
 */
import { DiscordRestError } from "./rest.ts";
import type { WebhookPost } from "./format.ts";

/** What a link's queue has seen (shown by `@discord/status`). */
export interface LinkCounts {
  sent: number;
  /** Dropped because the queue was full. */
  dropped: number;
  /** Given up after errors, timeouts or long rate limits. */
  failed: number;
  /** Waiting now. */
  waiting: number;
  /** Why the webhook is refused (deleted, wrong token): posting stops until it is linked anew. */
  broken: string;
  /** The last error, without any address. */
  lastError: string;
}

/** Sends one post; rejects with a DiscordRestError. */
export type PostSender = (
  webhookId: string,
  webhookToken: string,
  post: WebhookPost,
) => Promise<unknown>;

/** A post waiting, with its avatar's address still being looked up. */
export interface Pending {
  post: WebhookPost;
  avatar?: Promise<string | undefined>;
}

interface Queue {
  webhookId: string;
  webhookToken: string;
  posts: Pending[];
  running: boolean;
  counts: LinkCounts;
}

/** The bounded outgoing queues. */
export class Outbox {
  readonly #queues = new Map<string, Queue>();
  #closed = false;

  constructor(
    private readonly send: PostSender,
    private readonly size: () => number,
  ) {}

  /** Queues posts for a link (by channel, lower-cased). */
  add(channel: string, webhookId: string, webhookToken: string, posts: Pending[]): void {
    if (this.#closed) return;
    let q = this.#queues.get(channel);
    if (!q || q.webhookId !== webhookId || q.webhookToken !== webhookToken) {
      // A new or changed link starts clean (a broken webhook that was linked anew works again).
      q = {
        webhookId,
        webhookToken,
        posts: [],
        running: false,
        counts: q ? { ...q.counts, broken: "", waiting: 0 } : fresh(),
      };
      this.#queues.set(channel, q);
    }
    if (q.counts.broken) {
      q.counts.dropped += posts.length;
      return;
    }
    q.posts.push(...posts);
    const over = q.posts.length - this.size();
    if (over > 0) {
      q.posts.splice(0, over);
      q.counts.dropped += over;
    }
    q.counts.waiting = q.posts.length;
    if (!q.running) void this.#drain(channel, q);
  }

  /** A link's counts (zeros when nothing was queued yet). */
  counts(channel: string): LinkCounts {
    const q = this.#queues.get(channel);
    return q ? { ...q.counts, waiting: q.posts.length } : fresh();
  }

  /** Forgets a link's queue (unlinked). */
  drop(channel: string): void {
    const q = this.#queues.get(channel);
    if (q) q.posts.length = 0;
    this.#queues.delete(channel);
  }

  /** Stops every queue (the plugin is unloading); waiting posts are dropped. */
  close(): void {
    this.#closed = true;
    for (const q of this.#queues.values()) q.posts.length = 0;
  }

  async #drain(channel: string, q: Queue): Promise<void> {
    q.running = true;
    try {
      while (q.posts.length && !this.#closed && this.#queues.get(channel) === q) {
        const { post, avatar } = q.posts.shift()!;
        q.counts.waiting = q.posts.length;
        try {
          const url = await avatar?.catch(() => undefined);
          await this.send(q.webhookId, q.webhookToken, url ? { ...post, avatar_url: url } : post);
          q.counts.sent++;
        } catch (e) {
          q.counts.failed++;
          const err = e instanceof DiscordRestError ? e : null;
          q.counts.lastError = err ? err.message : "unexpected error";
          // 401/403/404: the webhook is gone or its token is wrong; retrying cannot help.
          if (err && [401, 403, 404].includes(err.status)) {
            q.counts.broken = `Discord refused the webhook (${err.status}${
              err.code ? `, code ${err.code}` : ""
            }): link the channel again with a working webhook`;
            q.counts.dropped += q.posts.length;
            q.posts.length = 0;
          }
        }
      }
    } finally {
      q.running = false;
      q.counts.waiting = q.posts.length;
    }
  }
}

function fresh(): LinkCounts {
  return { sent: 0, dropped: 0, failed: 0, waiting: 0, broken: "", lastError: "" };
}
