/**
 * The mail plugin's keys, relative to its KV space (`ctx.kv` adds `["plugin", "mail"]`). Each
 * recipient holds their own copy of a message, split into a small head (the inbox entry, with
 * its read state) and the body, both under the recipient's id: another player's copy is not
 * even addressable.
 */
export const mailKeys = {
  /** A recipient's inbox entry for message `n`. */
  head: (playerId: string, n: number) => ["head", playerId, n],
  /** Prefix of a recipient's inbox, in message order (oldest first). */
  inbox: (playerId: string) => ["head", playerId],
  /** A recipient's copy of the rest of message `n`. */
  body: (playerId: string, n: number) => ["body", playerId, n],
  /** Prefix of a recipient's bodies. */
  bodies: (playerId: string) => ["body", playerId],
  /** Prefix of every recipient's inbox entries (the mirror's one read at load). */
  allHeads: ["head"],
  /** Prefix of every recipient's bodies. */
  allBodies: ["body"],
  /** A recipient's counts (total and unread), kept in the same commit as each change. */
  counts: (playerId: string) => ["counts", playerId],
  /**
   * How many of a recipient's unread copies one sender sent (the per-sender share), kept in the
   * same commit as each change to such a copy.
   */
  fromSender: (playerId: string, senderId: string) => ["from", playerId, senderId],
  /** Prefix of a recipient's per-sender counts. */
  fromSenders: (playerId: string) => ["from", playerId],
  /** Counter that numbers messages (one number per send, shared by its copies). */
  counter: "mail",
};
