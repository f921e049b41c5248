/**
 * A count of the changes to the world held in memory: every object record and every attribute
 * shown, committed, set back or removed counts one (src/world/live_world.ts,
 * src/world/attributes/store.ts). A reader that keeps an answer worked out from objects and
 * attributes alone (a u() call's attribute and permission verdict: docs/softcode.md,
 * "Evaluation") keeps it while the count stays the same.
 */
export class WorldVersion {
  /** Changes counted so far. */
  n = 0;

  /** Counts a change. */
  bump(): void {
    this.n++;
  }
}
