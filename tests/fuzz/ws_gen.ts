/**
 * WebSocket and in-game cases: command lines (every command name, its switches, random
 * arguments built from targets, `=` and hostile text) and the JSON frame types of
 * docs/protocol.md with wrong and odd fields, plus binary frames.
 */
import type { Rng } from "./rng.ts";
import type { CommandInfo } from "./catalog.ts";
import type { LoginBudget, WorldPool } from "./http_gen.ts";
import { deepJson, fuzzString, jsonObject, jsonValue, nameLike, word } from "./values.ts";

/** One thing to send on a WebSocket. */
export interface WsCase {
  kind: "text" | "binary";
  data: string | Uint8Array;
  /** How many command lines the frame holds (for pacing under the 10-a-second limit). */
  lines: number;
  label: string;
}

/** Commands whose target must never be one of the accounts the final check logs in with. */
const ACCOUNT_BREAKING = new Set([
  "@toad",
  "@newpassword",
  "@destroy",
  "@nuke",
  "@recycle",
  "@boot",
  "@chown",
]);

/** `@site` keys that would lock the fuzz accounts out (caps), so only text keys are set. */
const SITE_TEXT_KEYS = [
  "server.name",
  "server.description",
  "server.banner",
  "game.description",
  "game.loginMessage",
  "game.welcomeMessage",
];

const SWITCHES = ["confirm", "del", "join", "leave", "list", "who", "history", "hidden", "lock"];

/** Targets an argument may name; `protectedIds`/`protectedNames` are left out for risky commands. */
export interface Targets {
  pool: WorldPool;
  protectedIds: Set<string>;
  protectedNames: Set<string>;
  /** Names of accounts that may be broken (toaded, renamed, re-passworded). */
  victims: string[];
}

function target(rng: Rng, t: Targets, risky: boolean): string {
  const safeIds = t.pool.ids.filter((id) => !risky || !t.protectedIds.has(id));
  const safeNames = t.pool.names.filter((n) => !risky || !t.protectedNames.has(n.toLowerCase()));
  return rng.weighted<string>([
    [3, () => (risky ? rng.pick(t.victims) : rng.pick(["me", "here", "home"]))],
    [3, () => "#" + (safeIds.length ? rng.pick(safeIds) : "1")],
    [2, () => (safeNames.length ? rng.pick(safeNames) : word(rng))],
    [1, () => "*" + (safeNames.length ? rng.pick(safeNames) : word(rng))],
    [1, () => rng.pick(t.pool.channels.length ? t.pool.channels : ["Public"])],
    [2, () => fuzzString(rng)],
    [1, () => rng.pick(["#-1", "#0", "#99999999", "#abc", "#", "*", "me/", "here=x"])],
  ]);
}

function args(rng: Rng, name: string, t: Targets): string {
  const risky = ACCOUNT_BREAKING.has(name);
  if (name === "@site") {
    return rng.weighted<string>([
      [1, () => ""],
      [1, () => rng.pick(SITE_TEXT_KEYS)],
      [3, () => `${rng.pick(SITE_TEXT_KEYS)}=${fuzzString(rng)}`],
      [1, () => `${fuzzString(rng)}=${fuzzString(rng)}`],
    ]);
  }
  if (name === "@set" && rng.chance(0.5)) {
    const flag = rng.pick(["dark", "builder", "admin", "wizard", "superuser", "player", word(rng)]);
    // Taking `player` off an account is a way to lock it out on purpose.
    return `${target(rng, t, risky || flag === "player")}=${rng.chance(0.3) ? "!" : ""}${flag}`;
  }
  const bits = rng.int(0, 4);
  const out: string[] = [];
  for (let i = 0; i < bits; i++) {
    out.push(rng.weighted<string>([
      [3, () => target(rng, t, risky)],
      [3, () => fuzzString(rng)],
      [1, () => "="],
      [1, () => rng.pick([";", ",", ":", "/", "%r", "[", "]"])],
    ]));
  }
  if (rng.chance(0.4) && !out.includes("=")) {
    out.splice(rng.int(0, out.length), 0, "=");
  }
  const text = out.join(rng.pick([" ", "", " "]));
  return risky ? scrub(rng, text, t) : text;
}

/** Replaces words naming a protected account (`me`, its name, dbref or `*name`) with a victim. */
function scrub(rng: Rng, text: string, t: Targets): string {
  return text.replace(/[^\s=/]+/g, (w) => {
    const bare = w.replace(/^[*#]/, "").toLowerCase();
    const hit = bare === "me" || t.protectedNames.has(bare) || t.protectedIds.has(bare) ||
      w.includes("player");
    return hit ? rng.pick(t.victims) : w;
  });
}

/** One command line: a known command (sometimes mangled), switches and arguments. */
export function commandLine(
  rng: Rng,
  commands: readonly CommandInfo[],
  t: Targets,
  budget: LoginBudget,
): string {
  for (;;) {
    const c = rng.pick(commands);
    let name = rng.pick(c.names);
    const lower = name.toLowerCase();
    const logins = ["connect", "co"].includes(lower);
    if (logins && !budget.take()) continue;
    if (rng.chance(0.05)) name = name.toUpperCase();
    if (rng.chance(0.05)) name = name.slice(0, rng.int(1, name.length));
    let sw = "";
    if (rng.chance(0.3)) {
      const pool = c.switches.length ? c.switches : SWITCHES;
      sw = "/" + (rng.chance(0.85) ? rng.pick(pool) : encodeSwitch(fuzzString(rng)));
      if (rng.chance(0.1)) sw += "/" + rng.pick(pool);
    }
    if (ACCOUNT_BREAKING.has(lower) && sw.includes("/") && rng.chance(0.5)) sw = "";
    const a = lower === "connect" || lower === "co"
      ? `${nameLike(rng)} ${word(rng)}`
      : lower === "create" || lower === "cr"
      ? `${nameLike(rng)} ${rng.pick(["short", "password-1234", fuzzString(rng)])}`
      : args(rng, lower, t);
    const glue = name.startsWith("+") || name.startsWith("@") || rng.chance(0.8) ? " " : "";
    return `${name}${sw}${a ? glue + a : ""}`;
  }
}

function encodeSwitch(s: string): string {
  return s.replace(/[\s=]/g, "").slice(0, 20);
}

/** Removes line breaks so a line stays one command (multi-line frames are made on purpose). */
function oneLine(s: string): string {
  return s.replace(/[\r\n]+/g, " ");
}

/** One frame for a logged-in connection. */
export function wsCase(
  rng: Rng,
  commands: readonly CommandInfo[],
  t: Targets,
  budget: LoginBudget,
  tokens: () => string[],
): WsCase {
  const line = () => oneLine(commandLine(rng, commands, t, budget));
  return rng.weighted<WsCase>([
    [12, () => {
      const l = line();
      // A line that starts with `{` is read as JSON: send it as a msg frame like a client would.
      return l.startsWith("{")
        ? { kind: "text", data: JSON.stringify({ msg: l }), lines: 1, label: "command (msg)" }
        : { kind: "text", data: l, lines: 1, label: "command" };
    }],
    [2, () => ({ kind: "text", data: JSON.stringify({ msg: line() }), lines: 1, label: "msg" })],
    [1, () => {
      const n = rng.int(2, 3);
      const ls = Array.from({ length: n }, line);
      return {
        kind: "text",
        data: ls.join(rng.pick(["\n", "\r\n", "\r"])),
        lines: n,
        label: "lines",
      };
    }],
    [1, () => ({
      kind: "text",
      data: `{"msg":${JSON.stringify(line())},"ack":${jsonValue(rng)}}`,
      lines: 1,
      label: "msg+ack",
    })],
    [2, () => ({
      kind: "text",
      data: `{"type":"auth","token":${
        rng.weighted<string>([
          [2, () => JSON.stringify(rng.pick(tokens()))],
          [2, () => jsonValue(rng)],
          [1, () => JSON.stringify(rng.pick(tokens()).slice(0, -3) + "abc")],
        ])
      },"resume":${rng.chance(0.5) ? "true" : jsonValue(rng)}}`,
      lines: 1,
      label: "auth",
    })],
    [2, () => ({
      kind: "text",
      data: `{"type":"window","width":${jsonValue(rng)},"height":${jsonValue(rng)}}`,
      lines: 0,
      label: "window",
    })],
    [1, () => ({
      kind: "text",
      data: `{"type":"client","ip":${jsonValue(rng)},"ttype":${jsonValue(rng)},"connectedAt":${
        jsonValue(rng)
      },"lastInput":${jsonValue(rng)}}`,
      lines: 0,
      label: "client",
    })],
    [
      1,
      () => ({
        kind: "text",
        data: `{"type":"ping","id":${jsonValue(rng)}}`,
        lines: 1,
        label: "ping",
      }),
    ],
    [1, () => ({
      kind: "text",
      data: `{"type":${rng.chance(0.5) ? JSON.stringify(word(rng)) : jsonValue(rng)},"msg":${
        jsonValue(rng)
      }}`,
      lines: 1,
      label: "odd type",
    })],
    [1, () => ({ kind: "text", data: jsonObject(rng), lines: 1, label: "object" })],
    [1, () => ({ kind: "text", data: "{" + fuzzString(rng), lines: 1, label: "bad json" })],
    [1, () => ({ kind: "text", data: deepJson(rng), lines: 1, label: "deep json" })],
    [
      1,
      () => ({
        kind: "text",
        data: "x".repeat(rng.pick([8192, 8193, 20_000])),
        lines: 1,
        label: "long line",
      }),
    ],
    [1, () => ({ kind: "binary", data: rng.bytes(rng.int(0, 300)), lines: 1, label: "binary" })],
  ]);
}

/** A frame for a connection that has not logged in (login lines within the budget). */
export function preLoginCase(rng: Rng, budget: LoginBudget): WsCase {
  return rng.weighted<WsCase>([
    [3, () => {
      const cmd = rng.pick(["create", "cr", "connect", "co", "xyzzy", "WHO", "help"]);
      if ((cmd === "connect" || cmd === "co") && !budget.take()) {
        return { kind: "text", data: "look", lines: 1, label: "pre-login" };
      }
      return {
        kind: "text",
        data: oneLine(`${cmd} ${nameLike(rng)} ${rng.chance(0.5) ? word(rng) : fuzzString(rng)}`),
        lines: 1,
        label: "pre-login",
      };
    }],
    [
      2,
      () => ({
        kind: "text",
        data: oneLine(fuzzString(rng)) || "x",
        lines: 1,
        label: "pre-login text",
      }),
    ],
    [1, () => ({
      kind: "text",
      data: `{"type":"auth","token":${jsonValue(rng)}}`,
      lines: 1,
      label: "pre-login auth",
    })],
    [1, () => ({
      kind: "text",
      data: `{"type":"client","ip":${JSON.stringify(rng.pick(["1.2.3.4", "::1", word(rng)]))},` +
        `"connectedAt":${jsonValue(rng)}}`,
      lines: 0,
      label: "pre-login client",
    })],
    [1, () => ({ kind: "binary", data: rng.bytes(rng.int(0, 64)), lines: 1, label: "binary" })],
    [1, () => ({ kind: "text", data: jsonObject(rng), lines: 1, label: "object" })],
  ]);
}
