/**
 * REST cases: a route from the catalog with its path parameters filled, a query string,
 * method, headers (Content-Type, Authorization good, forged and bogus) and a body that is a
 * valid-looking request with hostile parts, or hostile through and through.
 */
import type { Rng } from "./rng.ts";
import type { RouteTemplate } from "./catalog.ts";
import {
  bigText,
  deepJson,
  fuzzString,
  jsonObject,
  jsonString,
  jsonValue,
  mutateBytes,
  nameLike,
  wideJson,
  word,
} from "./values.ts";

/** Who a case authenticates as; tokens are filled in when it is sent. */
export type AuthKind =
  | "none"
  | "player"
  | "staff"
  | "garbage"
  | "forged-no-exp"
  | "forged-other-sub"
  | "forged-expired"
  | "alg-none";

/** One REST request. */
export interface HttpCase {
  method: string;
  /** Path and query, already encoded. */
  path: string;
  /** The route template it came from (`core GET /api/v1/dbobj/:id`). */
  route: string;
  auth: AuthKind;
  headers: Record<string, string>;
  body?: Uint8Array;
  /** How the case was made, for the report. */
  label: string;
}

/** What the generators know about the world (filled as the run learns ids). */
export interface WorldPool {
  /** Object ids seen (rooms, players, things, exits). */
  ids: string[];
  /** Player names of the fuzz accounts and others seen. */
  names: string[];
  /** Ids of notes, help topics, channels seen in answers. */
  noteIds: string[];
  topics: string[];
  channels: string[];
  /** Id of the REST fuzz account (its own object, so PATCH reaches the store). */
  selfId: string;
}

/** Shared budget for requests that may count as a failed login (so the final check is not 429). */
export interface LoginBudget {
  take(): boolean;
}

const METHODS = ["GET", "POST", "PATCH", "PUT", "DELETE", "HEAD", "OPTIONS"];
const enc = new TextEncoder();

function encodeSegment(s: string): string {
  try {
    // URLs past some tens of KB are refused by fetch itself: keep each part short.
    return encodeURIComponent(s.slice(0, 1000));
  } catch {
    // A lone surrogate cannot be percent-encoded as UTF-8: send its WTF-8 bytes instead.
    return "%ED%A0%80";
  }
}

function param(rng: Rng, slot: string, w: WorldPool): string {
  const known: string[] = slot === "id"
    ? w.ids
    : slot === "name"
    ? w.channels
    : slot === "topic"
    ? w.topics
    : [...w.noteIds, ...w.topics, ...w.channels, ...w.ids, "room", "history"];
  return rng.weighted<string>([
    [6, () => encodeSegment(known.length ? rng.pick(known) : word(rng))],
    [1, () => w.selfId],
    [1, () => "%23" + (known.length ? rng.pick(w.ids) : "1")],
    [2, () => encodeSegment(fuzzString(rng))],
    [1, () => rng.pick(["%", "%zz", "..", "%2e%2e", "%2F", "%00", "-1", "0x1", "1e3", "01"])],
  ]);
}

function fillPath(rng: Rng, tpl: string, w: WorldPool): string {
  let path = tpl.replace(/:([A-Za-z_]+)/g, (_, slot) => param(rng, slot, w));
  if (rng.chance(0.05)) path += rng.pick(["/", "//", "/x", "/..", "?", "#frag"]);
  if (rng.chance(0.05)) path = path.replace("/api/v1/", rng.pick(["/api/v1//", "/API/v1/"]));
  return path;
}

function queryString(rng: Rng): string {
  if (rng.chance(0.6)) return "";
  const keys = ["limit", "offset", "flags", "format", "q", "token", "client", word(rng)];
  const vals = () =>
    rng.weighted<string>([
      [2, () => String(rng.int(-5, 300))],
      [1, () => rng.pick(["", "abc", "1.5", "1e9", "-0", "NaN", "99999999999999999999", "md"])],
      [1, () => rng.pick(["room", "player,builder", "room,,x", "a b", "admin"])],
      [2, () => encodeSegment(fuzzString(rng))],
    ]);
  const n = rng.int(1, 4);
  const parts: string[] = [];
  for (let i = 0; i < n; i++) parts.push(`${rng.pick(keys)}=${vals()}`);
  return "?" + parts.join("&");
}

/** A valid-looking body for a route, field by field (values as JSON text). */
function templateFields(rng: Rng, method: string, path: string): Record<string, string> {
  const s = (v: string) => JSON.stringify(v);
  if (path.endsWith("/auth/register")) {
    return { name: s(nameLike(rng)), password: s("password-" + word(rng)) };
  }
  if (path.endsWith("/auth/login")) {
    return { [rng.pick(["name", "username"])]: s(nameLike(rng)), password: s(word(rng)) };
  }
  if (path.endsWith("/auth/reset-password")) {
    return {
      token: s(rng.chance(0.5) ? crypto.randomUUID() : fuzzString(rng)),
      [rng.pick(["newPassword", "password"])]: s(rng.pick(["", " ", "short", "password-long-1"])),
    };
  }
  if (path.includes("/dbobj/")) {
    const data: string[] = [];
    if (rng.chance(0.5)) {
      data.push(
        `"description":${rng.chance(0.3) ? JSON.stringify(bigText(rng)) : jsonString(rng)}`,
      );
    }
    if (rng.chance(0.3)) data.push(`"avatar":${jsonString(rng)}`);
    if (rng.chance(0.7)) {
      data.push(`"state":${
        rng.weighted<string>([
          [3, () => jsonObject(rng)],
          [2, () => deepJson(rng)],
          [1, () => wideJson(rng)],
          [1, () => jsonValue(rng)],
          [2, () => `{"s":${JSON.stringify(bigText(rng))}}`],
        ])
      }`);
    }
    const f: Record<string, string> = { data: `{${data.join(",")}}` };
    if (rng.chance(0.3)) f.name = s(nameLike(rng));
    if (rng.chance(0.3)) f.description = jsonString(rng);
    return f;
  }
  if (path.includes("/notes")) {
    return { text: rng.chance(0.2) ? JSON.stringify(bigText(rng)) : jsonString(rng) };
  }
  if (path.includes("/help")) {
    return { content: jsonString(rng), section: rng.chance(0.5) ? s(word(rng)) : jsonValue(rng) };
  }
  if (path.includes("/building")) return { name: jsonString(rng), description: jsonString(rng) };
  return method === "GET" ? {} : { [word(rng)]: jsonValue(rng) };
}

function objectText(fields: Record<string, string>): string {
  return "{" + Object.entries(fields).map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(",") + "}";
}

function body(rng: Rng, method: string, path: string): { bytes?: Uint8Array; label: string } {
  return rng.weighted<{ bytes?: Uint8Array; label: string }>([
    [
      6,
      () => ({ bytes: enc.encode(objectText(templateFields(rng, method, path))), label: "fields" }),
    ],
    [2, () => {
      const f = templateFields(rng, method, path);
      const keys = Object.keys(f);
      if (keys.length && rng.chance(0.5)) f[rng.pick(keys)] = jsonValue(rng);
      else {f[rng.pick(["__proto__", "constructor", "flags", "owner", "id", word(rng)])] =
          jsonValue(rng);}
      return { bytes: enc.encode(objectText(f)), label: "fields+odd" };
    }],
    [2, () => ({
      bytes: mutateBytes(rng, enc.encode(objectText(templateFields(rng, method, path)))),
      label: "fields+bytes",
    })],
    [1, () => ({ bytes: enc.encode(jsonValue(rng)), label: "any-json" })],
    [1, () => ({ bytes: enc.encode(deepJson(rng)), label: "deep" })],
    [1, () => ({ bytes: undefined, label: "no-body" })],
    [1, () => ({
      bytes: enc.encode('{"x":"' + "a".repeat(rng.pick([65_000, 70_000, 300_000])) + '"}'),
      label: "huge",
    })],
    [1, () => ({ bytes: rng.bytes(rng.int(1, 512)), label: "random-bytes" })],
  ]);
}

function contentType(rng: Rng): string | undefined {
  return rng.weighted<string | undefined>([
    [8, () => "application/json"],
    [1, () => undefined],
    [1, () =>
      rng.pick([
        "text/plain",
        "application/json; charset=latin1",
        "multipart/form-data; boundary=x",
        "application/x-www-form-urlencoded",
        "application/json\u0000",
        "",
      ])],
  ]);
}

/** Whether a case may count as a failed login attempt. */
export function isLoginAttempt(c: HttpCase): boolean {
  return c.method === "POST" && /\/auth\/login\b/i.test(c.path);
}

/** Generates one REST case. */
export function httpCase(
  rng: Rng,
  routes: readonly RouteTemplate[],
  w: WorldPool,
  budget: LoginBudget,
): HttpCase {
  for (;;) {
    const r = rng.pick(routes);
    const method = r.method === "*" || rng.chance(0.1) ? rng.pick(METHODS) : r.method;
    const path = fillPath(rng, r.path, w) + queryString(rng);
    const auth = rng.weighted<AuthKind>([
      [5, () => "player"],
      [3, () => "staff"],
      [2, () => "none"],
      [1, () =>
        rng.pick<AuthKind>([
          "garbage",
          "forged-no-exp",
          "forged-other-sub",
          "forged-expired",
          "alg-none",
        ])],
    ]);
    const headers: Record<string, string> = {};
    const b = method === "GET" || method === "HEAD" ? { bytes: undefined, label: "no-body" } : body(
      rng,
      method,
      r.path,
    );
    const ct = b.bytes ? contentType(rng) : undefined;
    if (ct !== undefined) headers["content-type"] = ct;
    if (rng.chance(0.1)) headers["x-forwarded-for"] = rng.pick(["1.2.3.4", "::1, 10.0.0.1", "x"]);
    if (rng.chance(0.1)) headers["origin"] = rng.pick(["http://evil.example", "null", "*"]);
    const c: HttpCase = {
      method,
      path,
      route: `${r.owner} ${r.method} ${r.path}`,
      auth,
      headers,
      body: b.bytes,
      label: `${b.label}, auth ${auth}`,
    };
    if (isLoginAttempt(c) && !budget.take()) continue;
    return c;
  }
}

/** A reproduction of a case as a curl command (body in base64 when it is not printable). */
export function httpRepro(c: HttpCase, base: string): string {
  const parts = [`curl -sS -X ${c.method} '${base}${c.path}'`];
  for (const [k, v] of Object.entries(c.headers)) parts.push(`-H ${JSON.stringify(`${k}: ${v}`)}`);
  if (c.auth !== "none") parts.push(`-H 'authorization: Bearer <${c.auth} token>'`);
  if (c.body) {
    const text = new TextDecoder("utf-8", { fatal: false }).decode(c.body);
    const printable = enc.encode(text).length === c.body.length &&
      // deno-lint-ignore no-control-regex
      !/[\u0000-\u001f\u007f'\u2028\u2029]/.test(text);
    if (printable && c.body.length <= 2000) parts.push(`--data-binary '${text}'`);
    else if (c.body.length <= 2000) {
      parts.unshift(`printf '%s' '${btoa(String.fromCharCode(...c.body))}' | base64 -d |`);
      parts.push("--data-binary @-");
    } else {
      parts.push(`--data-binary @failure-N.bin`);
    }
  }
  return parts.join(" ");
}
