/**
 * One fuzz run: start the whole stack (supervisor, engine, telnet sidecar) on a temporary
 * database, make the accounts, run the workers for the given time while the monitor watches,
 * then stop, read back every stored entry, restart on the same database and check that the
 * game still loads and every fuzzed account still logs in over REST and WebSocket.
 */
import { join } from "node:path";
import { SignJWT } from "jose";
import { ROOT } from "../harness.ts";
import { ADMIN, startSupervised } from "../supervised.ts";
import { connectWs } from "../ws_client.ts";
import { Rng } from "./rng.ts";
import { loadCatalog } from "./catalog.ts";
import { type Account, type FuzzContext, loginBudget } from "./context.ts";
import { type Failure, FailureLog, walkStore } from "./oracle.ts";
import { monitor, type RunState } from "./monitor.ts";
import { anonWorker, rawWorker, restWorker, telnetWorker, wsWorker } from "./targets.ts";
import { FLOOD_CONFIG, floodWorker } from "./flood.ts";
import type { WorldPool } from "./http_gen.ts";
import { registrationFloodAttack, tokenReuseAttack } from "./attacks.ts";
import { listenerAttack } from "./listeners.ts";

/** The kinds of worker. */
export const WORKERS = ["rest", "ws", "staff", "anon", "telnet", "raw", "flood"] as const;
/** One kind of worker. */
export type WorkerKind = typeof WORKERS[number];

/** How to run. */
export interface FuzzOptions {
  /** Seconds of fuzzing (setup and the checks after come on top). */
  seconds: number;
  seed: number;
  /** Bound for one request or command (default 15 s: generous on a loaded machine). */
  hangMs?: number;
  /** Which workers run (default all); `rest` may be given twice for two REST workers. */
  workers?: WorkerKind[];
  /** Progress lines. */
  progress?: (line: string) => void;
}

/** What a run found. */
export interface FuzzReport {
  seed: number;
  seconds: number;
  counts: Record<string, number>;
  failures: Failure[];
  /** How often each distinct failure happened. */
  signatures: [string, number][];
  notes: string[];
  /** Entries read back from the store after the run. */
  entries: number;
}

const PASSWORD = "fuzz-password-1";
/** The server's `game.registrationsPerHour` (the default), which the registration flood tests. */
const REGISTRATIONS_PER_HOUR = 30;
const DEFAULT_WORKERS: WorkerKind[] = [
  "rest",
  "rest",
  "ws",
  "staff",
  "anon",
  "telnet",
  "raw",
  "flood",
];

async function post(base: string, path: string, body: unknown, token?: string) {
  const res = await fetch(base + path, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  // deno-lint-ignore no-explicit-any
  return { status: res.status, body: await res.json().catch(() => null) as any };
}

async function getJson(base: string, path: string, token?: string) {
  const res = await fetch(base + path, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  const text = await res.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch { /* not JSON */ }
  return { status: res.status, body, text };
}

async function makeAccount(base: string, name: string, role: string): Promise<Account> {
  const r = await post(base, "/api/v1/auth/register", { name, password: PASSWORD });
  if (r.status !== 200) throw new Error(`register ${name}: ${r.status} ${JSON.stringify(r.body)}`);
  const me = await getJson(base, "/api/v1/me", r.body.token);
  return {
    id: (me.body as { id: string }).id,
    name,
    password: PASSWORD,
    token: r.body.token,
    role,
  };
}

async function staffAccount(base: string): Promise<Account> {
  const r = await post(base, "/api/v1/auth/login", { name: ADMIN.name, password: ADMIN.password });
  if (r.status !== 200) throw new Error(`admin login: ${r.status} ${JSON.stringify(r.body)}`);
  const me = await getJson(base, "/api/v1/me", r.body.token);
  return {
    id: (me.body as { id: string }).id,
    name: ADMIN.name,
    password: ADMIN.password,
    token: r.body.token,
    role: "staff",
  };
}

/** REST login and WebSocket `connect` of one account, retried while the login limit answers 429. */
async function checkLogin(
  base: string,
  wsPort: number,
  a: Account,
  log: FailureLog,
): Promise<void> {
  const end = Date.now() + 75_000;
  let rest = await post(base, "/api/v1/auth/login", { name: a.name, password: a.password });
  while (rest.status === 429 && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 5000));
    rest = await post(base, "/api/v1/auth/login", { name: a.name, password: a.password });
  }
  if (rest.status !== 200) {
    log.add(`login rest ${a.role}`, {
      kind: "login",
      target: "after-restart",
      summary: `${a.role} account ${a.name} (#${a.id}) cannot log in over REST: ${rest.status} ${
        JSON.stringify(rest.body)
      }`,
      repro:
        `curl -X POST BASE/api/v1/auth/login -H 'content-type: application/json' --data '{"name":"${a.name}","password":"${a.password}"}'`,
    });
  }
  const ws = await connectWs(wsPort, { client: "web" });
  try {
    await ws.expect((m) => m.data.type === "connect", 15_000);
    ws.send(`connect ${a.name} ${a.password}`);
    const m = await ws.expect((x) => x.data.type === "session" || x.data.type === "error", 20_000);
    if (m.data.type !== "session") throw new Error(m.msg);
  } catch (e) {
    log.add(`login ws ${a.role}`, {
      kind: "login",
      target: "after-restart",
      summary: `${a.role} account ${a.name} (#${a.id}) cannot log in over WebSocket: ${
        (e as Error).message.split("\n")[0]
      }`,
      repro: `ws://HOST:WS/?client=web, then the line: connect ${a.name} ${a.password}`,
    });
  } finally {
    await ws.close();
  }
}

/** Runs the fuzzer and returns what it found. */
export async function runFuzz(opts: FuzzOptions): Promise<FuzzReport> {
  const say = opts.progress ?? (() => {});
  const rng = new Rng(opts.seed);
  const log = new FailureLog();
  const catalog = await loadCatalog(ROOT);
  const hangMs = opts.hangMs ?? 15_000;
  say(
    `fuzz: ${catalog.routes.length} routes, ${catalog.commands.length} commands; starting the server`,
  );
  // The limits a flood meets within seconds (docs/testing.md, the flood worker), and the
  // registration limit at its default (the harness turns it off for other tests).
  const srv = await startSupervised({
    config: FLOOD_CONFIG,
    env: { URSAMU_GAME_REGISTRATIONSPERHOUR: String(REGISTRATIONS_PER_HOUR) },
  });
  const dir = srv.dir;
  const dbPath = srv.env.URSAMU_SERVER_DB;
  const state: RunState = { crashed: false, finishing: false };
  let entries = 0;
  const counts: Record<string, number> = { rest: 0, ws: 0, telnet: 0, raw: 0, flood: 0 };
  let accounts: Account[] = [];
  try {
    const staff = await staffAccount(srv.base);
    accounts = [
      staff,
      await makeAccount(srv.base, "FzRest", "rest"),
      await makeAccount(srv.base, "FzWeb", "ws"),
      await makeAccount(srv.base, "FzTelnet", "telnet"),
      await makeAccount(srv.base, "FzFlood", "flood"),
      await makeAccount(srv.base, "FzWatch", "watch"),
    ];
    const victims = ["FzVictimA", "FzVictimB", "FzVictimC"];
    for (const v of victims) await makeAccount(srv.base, v, "victim");
    const dbos = await getJson(srv.base, "/api/v1/dbos?limit=200", staff.token);
    const objs = (Array.isArray(dbos.body) ? dbos.body : []) as { id: string; name: string }[];
    const pool: WorldPool = {
      ids: objs.map((o) => o.id),
      names: objs.map((o) => o.name),
      noteIds: [],
      topics: ["help", "say", "notes", "channels", "colour", "@set", "building"],
      channels: ["Public", "pub"],
      selfId: accounts[1].id,
    };
    const deadline = Date.now() + opts.seconds * 1000;
    const ctx: FuzzContext = {
      srv,
      catalog,
      pool,
      targets: {
        pool,
        protectedIds: new Set(accounts.map((a) => a.id)),
        protectedNames: new Set(accounts.map((a) => a.name.toLowerCase())),
        victims,
      },
      budget: loginBudget(6),
      log,
      accounts,
      hangMs,
      counts,
      recentRaw: [],
      stopped: () => state.crashed || Date.now() > deadline,
    };
    say("fuzz: token reuse after revocation");
    await tokenReuseAttack(ctx);
    say(`fuzz: seed ${opts.seed}; fuzzing for ${opts.seconds} s`);
    const kinds = opts.workers ?? DEFAULT_WORKERS;
    const runs = kinds.map((k) => {
      const r = rng.fork();
      switch (k) {
        case "rest":
          return restWorker(ctx, r);
        case "ws":
          return wsWorker(ctx, r, "ws");
        case "staff":
          return wsWorker(ctx, r, "staff");
        case "anon":
          return anonWorker(ctx, r);
        case "telnet":
          return telnetWorker(ctx, r);
        case "raw":
          return rawWorker(ctx, r);
        case "flood":
          return floodWorker(ctx, r);
      }
    });
    const ticker = setInterval(() => {
      say(`fuzz: ${JSON.stringify(counts)}, ${log.failures.length} failures so far`);
    }, 10_000);
    try {
      await Promise.all([monitor(ctx, state), ...runs]);
    } finally {
      clearInterval(ticker);
    }
    if (!state.crashed) {
      say("fuzz: a registration flood from one address");
      await registrationFloodAttack(ctx, REGISTRATIONS_PER_HOUR);
    }
    if (!state.crashed) {
      say("fuzz: the listeners flooded (refused connections, descriptor exhaustion)");
      await listenerAttack(ctx);
    }
  } finally {
    state.finishing = true;
    await srv.stop({ keepDir: true });
  }
  try {
    say("fuzz: reading back every stored entry");
    entries = await walkStore(dbPath, log);
    // The final check logs in with each account's name as it is now (a fuzzed @name may have
    // renamed it); an unreadable object keeps the name it was made with.
    const kv = await Deno.openKv(dbPath);
    for (const a of accounts) {
      try {
        const o = await kv.get<{ name?: string }>(["obj", a.id]);
        if (typeof o.value?.name === "string") a.name = o.value.name;
      } catch { /* reported by the walk */ }
    }
    kv.close();
    say("fuzz: restarting on the same database");
    const again = await startSupervised({ dir, config: FLOOD_CONFIG });
    try {
      for (const line of again.output().split("\n")) {
        if (/plugin/i.test(line) && /fail|error|skipp|could not/i.test(line)) {
          log.add(`plugin-load ${line.slice(0, 40)}`, {
            kind: "plugin-load",
            target: "after-restart",
            summary: line.trim().slice(0, 300),
            repro: "restart the engine on the fuzzed database",
          });
        }
      }
      const key = new TextEncoder().encode(again.env.JWT_SECRET);
      const staffToken = await new SignJWT({}).setProtectedHeader({ alg: "HS256" })
        .setSubject(accounts[0].id).setIssuedAt().setExpirationTime("1h").sign(key);
      for (
        const path of [
          "/api/v1/dbos?limit=200",
          "/api/v1/dbobj/1",
          "/api/v1/players/online",
          "/api/v1/channels",
          "/api/v1/notes",
          "/api/v1/help",
        ]
      ) {
        const r = await getJson(again.base, path, staffToken);
        if (r.status >= 500) {
          log.add(`after-restart ${path}`, {
            kind: "server-error",
            target: "after-restart",
            summary: `GET ${path} answers ${r.status} ${r.text.slice(0, 200)} after the run`,
            repro: `curl BASE${path} -H 'authorization: Bearer <staff token>'`,
          });
        }
      }
      say("fuzz: checking that every fuzzed account still logs in");
      for (const a of accounts) await checkLogin(again.base, again.ws, a, log);
    } finally {
      await again.stop({ keepDir: true });
    }
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
  return {
    seed: opts.seed,
    seconds: opts.seconds,
    counts,
    failures: log.failures,
    signatures: [...log.counts.entries()],
    notes: log.notes,
    entries,
  };
}

/** The report as text: each failure with its reproduction. */
export function formatReport(r: FuzzReport): string {
  const out: string[] = [];
  out.push(
    `fuzz report: seed ${r.seed}, ${r.seconds} s, cases ${
      JSON.stringify(r.counts)
    }, ${r.entries} stored entries read back`,
  );
  if (!r.failures.length) out.push("no failures");
  else {
    out.push(
      `${r.signatures.length} distinct failures (${
        r.signatures.reduce((s, [, n]) => s + n, 0)
      } in all):`,
    );
    for (const [sig, n] of r.signatures) out.push(`  ${n}x ${sig}`);
    const shown = 25;
    r.failures.slice(0, shown).forEach((f, i) => {
      out.push("");
      out.push(`#${i + 1} [${f.kind}] ${f.target} at ${f.at} s: ${f.summary}`);
      out.push(`  reproduce: ${f.repro.replaceAll("\n", "\n  ")}`);
      if (f.attachment) {
        out.push(`  (body of ${f.attachment.length} bytes saved as failure-${i + 1}.bin)`);
      }
    });
  }
  if (r.notes.length) {
    out.push("", "notes (not failures):");
    for (const n of r.notes.slice(0, 30)) out.push(`  ${n}`);
  }
  out.push("", `replay: deno task fuzz --seed ${r.seed} --seconds ${r.seconds}`);
  return out.join("\n");
}

/** Writes the report and the bodies too large to print into `dir`. */
export async function saveReport(r: FuzzReport, dir: string): Promise<void> {
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(join(dir, "report.txt"), formatReport(r) + "\n");
  for (const [i, f] of r.failures.entries()) {
    if (f.attachment) await Deno.writeFile(join(dir, `failure-${i + 1}.bin`), f.attachment);
  }
}
