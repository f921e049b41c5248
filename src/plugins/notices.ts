/**
 * Notices that collapse a burst: the first notice of a key (a board, the staff's job queue) goes
 * out at once; what follows within the window is gathered and told in one line when it ends, and
 * while the burst goes on, one line a window. So a hundred posts in a minute reach each reader
 * as two lines, not a hundred.
 */

/** What a burst hands the plugin's deliver function. */
export interface NoticeBatch<T> {
  /** The key the notices were added under. */
  key: string;
  /** The latest notices gathered (at most `keep`), oldest first. */
  items: T[];
  /** How many were gathered, including those no longer in `items`. */
  count: number;
  /** True for the first notice of a burst (told at once, alone). */
  first: boolean;
}

/** Options of `ctx.notices(...)`. */
export interface NoticeOptions<T> {
  /** Tells the players: called with one notice at first, then with each window's gathering. */
  deliver(batch: NoticeBatch<T>): void | Promise<void>;
  /** The window in ms (default a minute). */
  windowMs?: number;
  /** Notices a gathering keeps (default 20; the count goes on past it). */
  keep?: number;
}

/** A plugin's collapsing notices (`ctx.notices(...)`), closed when the plugin unloads. */
export interface PluginNotices<T> {
  /**
   * Tells `item` now when no burst of `key` is open (resolved once it is delivered, so the
   * writer's own answer comes after it, as before); otherwise gathers it for the window.
   * Never rejects: a failing delivery is logged.
   */
  add(key: string, item: T): Promise<void>;
  /** Drops what is gathered and stops the timers. */
  close(): void;
}

/** Keys with an open window before new keys are told at once without a window. */
const MAX_KEYS = 10_000;

interface Burst<T> {
  items: T[];
  count: number;
  timer: ReturnType<typeof setTimeout>;
}

/** Collapsing notices delivered through `opts.deliver`; failures go to `onError`. */
export function collapsingNotices<T>(
  opts: NoticeOptions<T>,
  onError: (e: unknown) => void,
): PluginNotices<T> {
  const windowMs = Math.max(10, opts.windowMs ?? 60_000);
  const keep = Math.max(1, opts.keep ?? 20);
  const open = new Map<string, Burst<T>>();
  let closed = false;
  const tell = async (batch: NoticeBatch<T>): Promise<void> => {
    try {
      await opts.deliver(batch);
    } catch (e) {
      onError(e);
    }
  };
  // A window's timer is stopped when the plugin unloads (`close`), the engine's shutdown too.
  const arm = (key: string): ReturnType<typeof setTimeout> => {
    const timer = setTimeout(() => {
      const b = open.get(key);
      if (!b || closed) return;
      if (!b.count) {
        open.delete(key);
        return;
      }
      const batch = { key, items: b.items, count: b.count, first: false };
      // The burst goes on: another window starts, so a steady flood is one line a window.
      open.set(key, { items: [], count: 0, timer: arm(key) });
      void tell(batch);
    }, windowMs);
    return timer;
  };
  return {
    add(key, item) {
      if (closed) return Promise.resolve();
      const b = open.get(key);
      if (b) {
        b.count++;
        b.items.push(item);
        if (b.items.length > keep) b.items.shift();
        return Promise.resolve();
      }
      if (open.size < MAX_KEYS) open.set(key, { items: [], count: 0, timer: arm(key) });
      return tell({ key, items: [item], count: 1, first: true });
    },
    close() {
      closed = true;
      for (const b of open.values()) clearTimeout(b.timer);
      open.clear();
    },
  };
}
