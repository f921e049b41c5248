/**
 * Black-box test harness: starts the real engine (or supervisor) as a child
 * process on free loopback ports with a temporary database and log directory.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { freeListenPorts } from "../src/net/free_ports.ts";

/** Repository root. */
export const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** Path of the Deno binary running the tests. */
export const DENO = Deno.execPath();

/** A free TCP port on 127.0.0.1. */
export function freePort(): number {
  return freePorts(1)[0];
}

/**
 * `n` different free TCP ports on 127.0.0.1, as the supervisor picks its TLS link port: all held
 * open until the last is found (a server once got one port for HTTP and WS), and below the range
 * outgoing connections take their local ports from, so no test's connection can hold a port a
 * rebooting server let go of (src/net/free_ports.ts).
 */
export function freePorts(n: number): number[] {
  return freeListenPorts(n);
}

/**
 * The test runner's environment without the caller's game configuration (`URSAMU_*`,
 * `JWT_SECRET`) and without what a package manager adds (`npm test` sets `npm_lifecycle_event`
 * and friends): a process a test starts sees only what the test gives it, as if started by
 * `deno task` on a machine with nothing exported. Every child process of a test takes its
 * environment from here (with `clearEnv: true`).
 */
export function cleanEnv(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(Deno.env.toObject()).filter(([k]) => !CALLERS_ONLY.test(k)),
  );
}

/** Variables of the caller's that no test may pass on: its game's settings, its launcher's. */
const CALLERS_ONLY = /^(URSAMU_|JWT_SECRET$|(npm|pnpm|yarn)_)/i;

/**
 * The configuration every test server starts from, under a test's own `config`: the folders a
 * game writes to (backups, the wiki, avatars) are in the test's temporary directory, never the
 * checkout. The system scripts folder is there too, empty: loading the shipped examples (sucrase,
 * a QuickJS sandbox each) cost every engine start about 0.6 s of CPU, in a suite that starts
 * hundreds; the tests of scripts name their folder (`system/scripts/` for the shipped ones).
 */
function baseConfig(dir: string): Record<string, unknown> {
  return {
    database: { backupDir: join(dir, "backups") },
    server: { wikiDir: join(dir, "wiki") },
    web: { avatarDir: join(dir, "avatars") },
    scripts: { dir: join(dir, "scripts") },
  };
}

/** `over` merged into `base`, objects key by key (the test's values win). */
function merged(base: Record<string, unknown>, over: Record<string, unknown>) {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) {
    const b = out[k];
    out[k] = isObject(b) && isObject(v) ? merged(b, v) : v;
  }
  return out;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Options for a test server. */
export interface StartOptions {
  /** Extra environment (e.g. `URSAMU_GAME_NAME`). */
  env?: Record<string, string>;
  /**
   * Config file contents written to the temp dir and pointed at by URSAMU_CONFIG, over a base
   * that keeps the backup and wiki folders in the temp dir.
   */
  config?: Record<string, unknown>;
  /** Reuse an existing temp directory (e.g. to restart on the same database). */
  dir?: string;
  /** Entry script relative to the repo root (default `main.ts`). */
  entry?: string;
  /** Extra args for the script. */
  args?: string[];
  /** Extra flags for `deno run` (e.g. `--inspect=...` for the benchmark's memory readings). */
  denoArgs?: string[];
  /** CPUs to pin the process (and so its children) to, as for `taskset -c` (benchmarks). */
  cpus?: string;
  /** HTTP, WS and telnet ports for the first try only (the harness's own test of its retry). */
  firstPorts?: [number, number, number];
}

/** A running test server. */
export interface TestServer {
  dir: string;
  http: number;
  ws: number;
  telnet: number;
  base: string;
  env: Record<string, string>;
  child: Deno.ChildProcess;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  /** Waits until the output matches, or throws after `ms`. */
  waitFor(re: RegExp, ms?: number): Promise<void>;
  /** Stops the process (SIGTERM, then SIGKILL) and, unless kept, removes the temp dir. */
  stop(opts?: { keepDir?: boolean }): Promise<void>;
  /** Resolves with the exit code when the process ends. */
  status: Promise<Deno.CommandStatus>;
}

/** A start that lost a port it was given to another test between `freePorts` and the bind. */
class PortTaken extends Error {
  override name = "PortTaken";
}

/** The port a failed start found in use (from the engine's message), or null. */
function portInUse(output: string): number | null {
  const m = /:(\d+) \(server\.\w+\) is already in use/.exec(output);
  return m ? Number(m[1]) : null;
}

/** Whether the engine will print its info lines (the listening line among them). */
function logsInfo(opts: StartOptions): boolean {
  const logging = (opts.config as { logging?: { level?: string } } | undefined)?.logging;
  const level = opts.env?.URSAMU_LOGGING_LEVEL ?? logging?.level ?? "info";
  return level === "info" || level === "debug";
}

/**
 * Starts a server and waits until /health answers and the process says it listens on its own
 * HTTP port (for the engine entry). Ports are found free, then bound by the child: a test running
 * alongside can take one in between, so a start that finds its port taken tries again with new
 * ones (unless the test chose its ports itself).
 */
export async function startServer(opts: StartOptions = {}): Promise<TestServer> {
  for (let attempt = 1;; attempt++) {
    // A fresh directory for each try, unless the test gave one (a restart on its database).
    const dir = opts.dir ?? await Deno.makeTempDir({ prefix: "ursamu-test-" });
    try {
      return await startOnce({
        ...opts,
        dir,
        firstPorts: attempt === 1 ? opts.firstPorts : undefined,
      });
    } catch (e) {
      if (!opts.dir) await Deno.remove(dir, { recursive: true }).catch(() => {});
      if (!(e instanceof PortTaken) || attempt >= 3) throw e;
    }
  }
}

/** One try of {@linkcode startServer}; on failure the process is stopped and `dir` kept. */
async function startOnce(opts: StartOptions & { dir: string }): Promise<TestServer> {
  const dir = opts.dir;
  const [http, ws, telnet] = opts.firstPorts ?? freePorts(3);
  const env: Record<string, string> = {
    URSAMU_SERVER_HTTP: String(http),
    URSAMU_SERVER_WS: String(ws),
    URSAMU_SERVER_TELNET: String(telnet),
    URSAMU_SERVER_HOST: "127.0.0.1",
    URSAMU_SERVER_DB: join(dir, "ursamu.db"),
    URSAMU_LOGGING_DIR: join(dir, "logs"),
    URSAMU_CONFIG: join(dir, "config.json"),
    JWT_SECRET: "test-secret-" + crypto.randomUUID(),
    NO_COLOR: "1",
    // Tests create many characters from 127.0.0.1; a test of the limit sets it.
    URSAMU_GAME_REGISTRATIONSPERHOUR: "0",
    ...opts.env,
  };
  // Always written: a test's server never reads a config/config.json of the checkout's.
  await Deno.writeTextFile(
    env.URSAMU_CONFIG,
    JSON.stringify(merged(baseConfig(dir), opts.config ?? {})),
  );
  const args = [
    "run",
    "--unstable-kv",
    "-A",
    ...(opts.denoArgs ?? []),
    join(ROOT, opts.entry ?? "main.ts"),
    ...(opts.args ?? []),
  ];
  const child = new Deno.Command(opts.cpus ? "taskset" : DENO, {
    args: opts.cpus ? ["-c", opts.cpus, DENO, ...args] : args,
    cwd: ROOT,
    env: { ...cleanEnv(), ...env },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let out = "";
  const pump = async (s: ReadableStream<Uint8Array>) => {
    const dec = new TextDecoder();
    for await (const chunk of s) out += dec.decode(chunk, { stream: true });
  };
  const pumps = Promise.all([pump(child.stdout), pump(child.stderr)]);
  const status = child.status.then(async (s) => {
    await pumps;
    return s;
  });
  let exited = false;
  status.then(() => exited = true);
  const server: TestServer = {
    dir,
    http,
    ws,
    telnet,
    base: `http://127.0.0.1:${http}`,
    env,
    child,
    output: () => out,
    async waitFor(re, ms = 15_000) {
      const end = Date.now() + ms;
      while (!re.test(out)) {
        if (Date.now() > end) throw new Error(`timed out waiting for ${re}; output:\n${out}`);
        if (exited) throw new Error(`process exited while waiting for ${re}; output:\n${out}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    async stop(o = {}) {
      if (!exited) {
        try {
          child.kill("SIGTERM");
        } catch { /* already gone */ }
        const t = setTimeout(() => {
          try {
            child.kill("SIGKILL");
          } catch { /* already gone */ }
        }, 5000);
        await status;
        clearTimeout(t);
      } else {
        await status;
      }
      if (!o.keepDir) await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
    status,
  };
  if (!opts.entry || opts.entry === "main.ts") {
    try {
      await waitHealthy(server.base, () => exited, () => out);
      // Another test's server on the same port would answer /health too; this line is ours.
      if (logsInfo(opts)) {
        const port = env.URSAMU_SERVER_HTTP;
        await server.waitFor(new RegExp(`HTTP listening on \\S+:${port}\\b`), 10_000);
      }
    } catch (e) {
      await server.stop({ keepDir: true });
      // Only a port the harness found is tried again: one the test chose is the test's to keep.
      const taken = portInUse(out);
      throw taken !== null && [http, ws, telnet].includes(taken) ? new PortTaken(`${e}`) : e;
    }
  }
  return server;
}

/**
 * Polls /health until it answers 200, for up to `ms`: 60 s by default, as a whole suite run with
 * five other jobs on the machine (load 17 on 2 cores) took over 20 s to start an engine.
 */
export async function waitHealthy(
  base: string,
  exited: () => boolean = () => false,
  output: () => string = () => "",
  ms = 60_000,
): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (exited()) throw new Error(`server exited before it was healthy:\n${output()}`);
    try {
      // Bounded: a port taken by something that never answers must not hang the start.
      const r = await fetch(`${base}/health`, { signal: AbortSignal.timeout(2_000) });
      await r.body?.cancel();
      if (r.ok) return;
    } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`server not healthy after ${ms} ms:\n${output()}`);
}

/** JSON request helper: returns status, headers and parsed body. */
export async function api(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  token?: string,
  // deno-lint-ignore no-explicit-any
): Promise<{ status: number; headers: Headers; body: any }> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers["content-type"] = "application/json";
  if (token) headers["authorization"] = `Bearer ${token}`;
  const res = await fetch(base + path, {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch { /* not JSON */ }
  return { status: res.status, headers: res.headers, body: parsed };
}

/** Registers a player and returns its token. */
export async function register(base: string, name: string, password = "password123") {
  const r = await api(base, "POST", "/api/v1/auth/register", { name, password });
  if (r.status !== 200) throw new Error(`register ${name}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.token as string;
}
