/**
 * V8 flags the supervisor gives the engine and the telnet sidecar, through `DENO_V8_FLAGS` in
 * their environment (Deno reads it at start, so it needs no change to the command line of either
 * way a child is started). Each child has its own: the two collect different garbage (the
 * sidecar a fan-out's thousand writes at once, the engine its caches and one record per fan-out).
 * See docs/operations.md.
 */

import { PROCESS_ENV } from "../config/process_env.ts";

/** The environment variable Deno reads V8 flags from (comma-separated). */
export const V8_FLAGS_ENV = PROCESS_ENV.v8Flags;

/** The two children. */
export type ChildKind = "engine" | "telnet";

/**
 * The operator's flags for one child only, applied after `DENO_V8_FLAGS` (which both get), so
 * they win over it and over ours.
 */
export const CHILD_V8_FLAGS_ENV: Readonly<Record<ChildKind, string>> = {
  engine: PROCESS_ENV.engineV8Flags,
  telnet: PROCESS_ENV.telnetV8Flags,
};

/**
 * Ours, per child: a young generation capped at 4 MB per semi-space. Without a cap a burst of
 * traffic (a login storm, a pose to every player) grows each process's young generation to
 * 30–60 MB and keeps it. Memory saver mode, the earlier choice for both, left no less memory 10 s
 * after 1,000 logins and made the sidecar compact its old generation about once a second under a
 * fan-out (the writes in flight at each scavenge are promoted): those pauses were the tail of a
 * pose to 1,000 players (docs/bench.md, "Issue 14: per-child V8 flags"). And V8's memory reducer
 * (the collections that hand memory back once the process goes quiet) looks 2 s after activity
 * drops instead of 8: 10 s after 1,000 logins the engine, which now serves the telnet players,
 * held 37–40 KiB a player without it and 21–26 with it, with no change to round trips or
 * fan-out (docs/bench.md, "Issue 14: the engine holds the telnet sockets"). And the reducer
 * may start 2 s after the process does, not 30: players who all log in, or all resume after a
 * reboot, within 30 s of the engine's start otherwise kept their logins' garbage until then
 * (50–56 KiB a player 10 s after 1,000 quick logins, 30 with it; docs/bench.md, "Issue 14: the
 * memory reducer from the start"). And a collection of the reducer's moves at most 1 MB of
 * objects, not 12: its final pause, which stops the event loop, took 14–20 ms after 1,000 logins
 * (the pose it met reached every player that much later) and takes 4–9 with the cap, for about
 * 2 KiB a player more 10 s after the logins; the ordinary collections still compact as before
 * (docs/bench.md, "V8's helpers behind the event loop"). Per child so that either can be tuned
 * alone.
 */
export const OUR_V8_FLAGS: Readonly<Record<ChildKind, readonly string[]>> = {
  engine: [
    "--max-semi-space-size=4",
    "--memory-reducer-delay-ms=2000",
    "--gc-memory-reducer-start-delay-ms=2000",
    "--compaction-max-evacuated-bytes-mb-for-reduce-memory=1",
  ],
  telnet: [
    "--max-semi-space-size=4",
    "--memory-reducer-delay-ms=2000",
    "--gc-memory-reducer-start-delay-ms=2000",
    "--compaction-max-evacuated-bytes-mb-for-reduce-memory=1",
  ],
};

/** Splits a comma-separated flag list, dropping blanks. */
function flagList(value: string | undefined): string[] {
  return (value ?? "").split(",").map((f) => f.trim()).filter(Boolean);
}

/**
 * The `DENO_V8_FLAGS` value for a child: ours, then the operator's `DENO_V8_FLAGS`, then their
 * flags for this child alone (V8 takes the last of a repeated flag, so theirs win).
 */
export function childV8Flags(kind: ChildKind, env: Record<string, string | undefined>): string {
  return [
    ...OUR_V8_FLAGS[kind],
    ...flagList(env[V8_FLAGS_ENV]),
    ...flagList(env[CHILD_V8_FLAGS_ENV[kind]]),
  ].join(",");
}
