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

/** The flag that lets a RegExp take the flag `l` (V8's linear engine). */
const LINEAR_REGEXP = "enable-experimental-regexp-engine";
/** The flag that sends an excessively backtracking RegExp to the linear engine. */
const REGEXP_FALLBACK = "enable-experimental-regexp-engine-on-excessive-backtracks";

/**
 * The engine's regular expressions: one that V8's linear-time engine could also run and that
 * backtracks more than V8's limit (50,000 steps) in one match finishes on that engine instead,
 * in time linear in its text; one it could not run (backreferences, lookaround) is unchanged.
 * Softcode's finding functions (regraball(), regrep()...) run a pattern with V8's compiled
 * engine, 5-10 times faster than RE2JS, only when V8 says its linear engine takes it (it
 * compiles with the flag `l`, which the first flag enables), so no such pattern can hang the
 * engine (src/softcode/native_regexp.ts). The test task runs with the same two
 * (native_regexp_test.ts checks deno.json).
 */
export const REGEXP_FLAGS: readonly string[] = [`--${LINEAR_REGEXP}`, `--${REGEXP_FALLBACK}`];

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
 * alone. And the engine's regular expressions (REGEXP_FLAGS) fall back to V8's linear engine.
 */
export const OUR_V8_FLAGS: Readonly<Record<ChildKind, readonly string[]>> = {
  engine: [
    "--max-semi-space-size=4",
    "--memory-reducer-delay-ms=2000",
    "--gc-memory-reducer-start-delay-ms=2000",
    "--compaction-max-evacuated-bytes-mb-for-reduce-memory=1",
    ...REGEXP_FLAGS,
  ],
  telnet: [
    "--max-semi-space-size=4",
    "--memory-reducer-delay-ms=2000",
    "--gc-memory-reducer-start-delay-ms=2000",
    "--compaction-max-evacuated-bytes-mb-for-reduce-memory=1",
  ],
};

/**
 * The last setting of a boolean flag in a list (`--name`, `--no-name`, `--name=false`, with `_`
 * for `-` as V8 allows), or undefined when the list does not name it.
 */
export function flagSetting(flags: readonly string[], name: string): boolean | undefined {
  let on: boolean | undefined;
  for (const f of flags) {
    const m = /^--(no-?)?([a-z0-9_-]+)(?:=(true|false|1|0))?$/i.exec(f.trim());
    if (!m || m[2].replaceAll("_", "-").toLowerCase() !== name) continue;
    const value = m[3] === undefined || m[3] === "true" || m[3] === "1";
    on = m[1] ? !value : value;
  }
  return on;
}

/** Splits a comma-separated flag list, dropping blanks. */
function flagList(value: string | undefined): string[] {
  return (value ?? "").split(",").map((f) => f.trim()).filter(Boolean);
}

/**
 * The `DENO_V8_FLAGS` value for a child: ours, then the operator's `DENO_V8_FLAGS`, then their
 * flags for this child alone (V8 takes the last of a repeated flag, so theirs win).
 */
export function childV8Flags(kind: ChildKind, env: Record<string, string | undefined>): string {
  const flags = [
    ...OUR_V8_FLAGS[kind],
    ...flagList(env[V8_FLAGS_ENV]),
    ...flagList(env[CHILD_V8_FLAGS_ENV[kind]]),
  ];
  // The engine takes the flag `l` as V8's word that the fallback is on: an operator who turns
  // the fallback off turns the flag `l` off too, and softcode keeps to RE2JS.
  if (flagSetting(flags, LINEAR_REGEXP) && !flagSetting(flags, REGEXP_FALLBACK)) {
    flags.push(`--no-${LINEAR_REGEXP}`);
  }
  return flags.join(",");
}
