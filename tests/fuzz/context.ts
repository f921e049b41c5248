/** What every fuzz worker shares: the server, the world pool, accounts, budget and the log. */
import { SignJWT } from "jose";
import type { TestServer } from "../harness.ts";
import type { Catalog } from "./catalog.ts";
import type { AuthKind, LoginBudget, WorldPool } from "./http_gen.ts";
import type { Targets } from "./ws_gen.ts";
import type { FailureLog } from "./oracle.ts";
import type { RawCase } from "./raw_gen.ts";

/** A fuzz account: the final check logs in with `name` (as it is then) and `password`. */
export interface Account {
  id: string;
  name: string;
  password: string;
  token: string;
  /** What the account is used for (rest, ws, telnet, staff). */
  role: string;
}

/** The shared state of a run. */
export interface FuzzContext {
  srv: TestServer;
  catalog: Catalog;
  pool: WorldPool;
  targets: Targets;
  budget: LoginBudget;
  log: FailureLog;
  accounts: Account[];
  /** Bound for one request or command, in ms. */
  hangMs: number;
  /** Cases run, by target. */
  counts: Record<string, number>;
  /** The last raw connections, for failures that show up later (a dead listener). */
  recentRaw: RawCase[];
  /** True once the time is up or the engine is gone. */
  stopped(): boolean;
}

/** The account with a role. */
export function account(ctx: FuzzContext, role: string): Account {
  const a = ctx.accounts.find((x) => x.role === role);
  if (!a) throw new Error(`no ${role} account`);
  return a;
}

/**
 * A budget of `perMinute` login attempts that may fail (REST login, `connect` lines), so the
 * per-IP failed-login limit never locks the accounts the final check logs in with.
 */
export function loginBudget(perMinute: number): LoginBudget {
  let times: number[] = [];
  return {
    take() {
      const now = Date.now();
      times = times.filter((t) => now - t < 61_000);
      if (times.length >= perMinute) return false;
      times.push(now);
      return true;
    },
  };
}

const b64url = (s: string) => btoa(s).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");

/** The Authorization header value for a case's auth kind (tokens signed with the run's secret). */
export async function authHeader(ctx: FuzzContext, kind: AuthKind): Promise<string | undefined> {
  const key = new TextEncoder().encode(ctx.srv.env.JWT_SECRET);
  const sign = (sub: string, exp?: number) => {
    const j = new SignJWT({}).setProtectedHeader({ alg: "HS256" }).setSubject(sub).setIssuedAt();
    if (exp !== undefined) j.setExpirationTime(exp);
    return j.sign(key);
  };
  const player = account(ctx, "rest");
  switch (kind) {
    case "none":
      return undefined;
    case "player":
      return `Bearer ${player.token}`;
    case "staff":
      return `Bearer ${account(ctx, "staff").token}`;
    case "garbage":
      return [
        "Bearer",
        "Bearer ",
        "Bearer x.y.z",
        "Basic YTpi",
        "bearer " + player.token,
        "Bearer " +
        "a".repeat(5000),
      ][Math.floor(Math.random() * 6)];
    case "forged-no-exp":
      return `Bearer ${await sign(player.id)}`;
    case "forged-other-sub": {
      const subs = [...ctx.pool.ids, "0", "999999", "-1", "__proto__", "1e3", "01"];
      return `Bearer ${await sign(subs[Math.floor(Math.random() * subs.length)])}`;
    }
    case "forged-expired":
      return `Bearer ${await sign(player.id, Math.floor(Date.now() / 1000) - 60)}`;
    case "alg-none":
      return `Bearer ${b64url('{"alg":"none","typ":"JWT"}')}.${
        b64url(JSON.stringify({ sub: account(ctx, "staff").id }))
      }.`;
  }
}
