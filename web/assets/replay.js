// Lines the engine had read and not run when it restarted (its `unread` frame), sent again to
// the next engine before anything typed later, as the telnet sidecar does for its players
// (docs/protocol.md, "Restarts"). One line at a time: each waits for the hub's `ack` and then a
// pause, so at most 8 a second reach the hub's command rate (10 a second) however the network
// bunches them.

/** Most lines kept (the hub hands back at most 64; typed lines queue behind them). */
const MAX_KEPT = 200;
/** The pause after a line's `ack` before the next goes. */
const GAP_MS = 125;
/** A line whose `ack` never comes (the hub dropped it): the next goes after this long. */
const ACK_WAIT_MS = 5000;

/** The lines to send again after a restart, and their pacing. */
export class Replay {
  /** `send(line, ackId)`: sends one command frame with `ack`. */
  constructor(send) {
    this.send = send;
    this.lines = [];
    this.waiting = null;
    this.timer = 0;
    this.next = 1;
    this.live = false;
  }

  /** True while lines wait or one is unanswered: a typed line goes behind them. */
  get busy() {
    return this.lines.length > 0 || this.waiting !== null;
  }

  /** Lines handed back (oldest first): before every line still kept, as they were typed first. */
  handBack(lines) {
    const back = (Array.isArray(lines) ? lines : []).filter((l) =>
      typeof l === "string" && l.trim() !== ""
    );
    this.lines = [...back, ...this.lines].slice(0, MAX_KEPT);
  }

  /** A line typed while the replay runs; false when there is no room for it. */
  queue(line) {
    if (this.lines.length >= MAX_KEPT) return false;
    this.lines.push(line);
    this.pump();
    return true;
  }

  /** The session continues: sending begins (or goes on). */
  start() {
    this.live = true;
    this.pump();
  }

  /** The socket went away: nothing more goes until the next `start`. */
  pause() {
    this.live = false;
    this.waiting = null;
    clearTimeout(this.timer);
  }

  /** The session did not continue: answers the lines that will not be sent, and forgets them. */
  drop() {
    const lines = this.lines;
    this.lines = [];
    this.pause();
    return lines;
  }

  /** The hub read the frame with ack `id` (or its wait ran out): the next goes after the pause. */
  acked(id) {
    if (id === null || id !== this.waiting) return;
    this.waiting = null;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.pump(), GAP_MS);
  }

  pump() {
    if (!this.live || this.waiting !== null || this.lines.length === 0) return;
    const line = this.lines.shift();
    const id = `replay-${this.next++}`;
    this.waiting = id;
    this.send(line, id);
    this.timer = setTimeout(() => this.acked(id), ACK_WAIT_MS);
  }
}
