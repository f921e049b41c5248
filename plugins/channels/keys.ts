/**
 * The channels plugin's keys, relative to its KV space (`["plugin", "channels", ...]`).
 * History is one key per message, ordered by time, so no value grows without bound.
 */
export const chanKeys = {
  /** A channel by lower-cased name. */
  channel: (lower: string) => ["chan", lower],
  /** Prefix of every channel. */
  channels: () => ["chan"],
  /** A membership: channel and player. */
  member: (lower: string, playerId: string) => ["member", lower, playerId],
  /** Prefix of one channel's memberships. */
  membersOf: (lower: string) => ["member", lower],
  /** Prefix of every membership. */
  members: () => ["member"],
  /** One history message; `seq` orders messages within the same millisecond. */
  message: (lower: string, ts: number, seq: number) => ["hist", lower, ts, seq],
  /** Prefix of one channel's history. */
  historyOf: (lower: string) => ["hist", lower],
  /** Set once the default channels were created, so a destroyed Public stays destroyed. */
  seeded: () => ["seeded"],
};
