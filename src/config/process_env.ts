/**
 * The process environment beyond configuration keys: what the supervisor tells its two children
 * (that they are supervised, the sidecar's secret, the hub link's port), secrets and first-run
 * values, and switches for tests and unusual installs. This is the one module that names these
 * variables, and with the configuration loader (load.ts) the one place that reads the process
 * environment: every other module gets the values, not the variables (docs/configuration.md,
 * "The process environment").
 */
import { fileURLToPath } from "node:url";

/** The variables, by what they carry. */
export const PROCESS_ENV = {
  /** `1` in the supervisor's children: they exit when their standard input (its pipe) closes. */
  supervised: "URSAMU_SUPERVISED",
  /** The secret the telnet sidecar proves itself to the hub with (new for each supervisor run). */
  sidecarSecret: "URSAMU_SIDECAR_SECRET",
  /** Under TLS, the plain loopback port the engine serves its hub on for the sidecar. */
  hubLinkPort: "URSAMU_HUB_LINK_PORT",
  /** The hub address the sidecar dials, instead of loopback `server.ws`. */
  hubUrl: "URSAMU_HUB_URL",
  /** `0` keeps telnet sockets in the sidecar (no handing them to the engine). */
  telnetHandoff: "URSAMU_TELNET_HANDOFF",
  /**
   * `<restarts> <first> <this>` in the engine the supervisor starts: how many times it restarted
   * the engine before this run (`@reboot`, `@update`), when it started the first run and this one
   * (ms since the epoch).
   */
  engineRun: "URSAMU_ENGINE_RUN",
  /** Extra `deno run` flags for the children, from the dist launcher. */
  runFlags: "URSAMU_RUN_FLAGS",
  /** The checkout `@update` pulls into, instead of the engine's own folder. */
  updateDir: "URSAMU_UPDATE_DIR",
  /** Signs access tokens; the supervisor makes one per run when it is unset. */
  jwtSecret: "JWT_SECRET",
  /** The superuser to create at a start while the game has none. */
  superuserName: "URSAMU_SUPERUSER_NAME",
  superuserPassword: "URSAMU_SUPERUSER_PASSWORD",
  superuserEmail: "URSAMU_SUPERUSER_EMAIL",
  /** V8 flags Deno reads at start (both children), and the operator's for one child alone. */
  v8Flags: "DENO_V8_FLAGS",
  engineV8Flags: "URSAMU_ENGINE_V8_FLAGS",
  telnetV8Flags: "URSAMU_TELNET_V8_FLAGS",
  /** Set by npm, pnpm, yarn and bun for a package.json script (`deno task` sets none). */
  npmScript: "npm_lifecycle_event",
  npmCommand: "npm_command",
  npmAgent: "npm_config_user_agent",
} as const;

/** Variables whose values are secrets: every log line is scrubbed of them. */
export const SECRET_VARS: readonly string[] = [
  PROCESS_ENV.jwtSecret,
  PROCESS_ENV.sidecarSecret,
  PROCESS_ENV.superuserPassword,
];

/** The process plumbing, read once from the environment. */
export interface ProcessEnv {
  supervised: boolean;
  /** As set ("" when unset); the hub decides whether it is long enough. */
  sidecarSecret: string;
  hubLinkPort: number | null;
  /** "" when unset. */
  hubUrl: string;
  /** Which run of the supervisor's this engine is: restarts before it, the first's start, its own. */
  engineRun: EngineRun | null;
  telnetHandoff: boolean;
  runFlags: string[];
  /** Where `@update` pulls: the variable, else the engine's own folder. */
  updateDir: string;
  /** "" when unset. */
  jwtSecret: string;
  superuser: { name: string; password: string; email: string };
  /** How a package manager started us ("" each under `deno task`), for the commands we suggest. */
  launcher: { script: string; command: string; agent: string };
}

/** The folder holding main.ts (what `@update` pulls into by default). */
const CODE_ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** Which run of its supervisor's an engine is (PROCESS_ENV.engineRun). */
export interface EngineRun {
  restarts: number;
  firstStartedAt: number;
  startedAt: number;
}

/** The process's environment as a plain map (what the entry points hand down). */
export function processEnvironment(): Record<string, string> {
  return Deno.env.toObject();
}

/** The plumbing in `env` (default: the process's environment). */
export function processEnv(env: Record<string, string> = processEnvironment()): ProcessEnv {
  const v = (k: string) => env[k] ?? "";
  const link = Number(v(PROCESS_ENV.hubLinkPort));
  return {
    supervised: v(PROCESS_ENV.supervised) === "1",
    sidecarSecret: v(PROCESS_ENV.sidecarSecret),
    hubLinkPort: Number.isInteger(link) && link > 0 && link < 65536 ? link : null,
    hubUrl: v(PROCESS_ENV.hubUrl),
    engineRun: engineRun(v(PROCESS_ENV.engineRun)),
    telnetHandoff: v(PROCESS_ENV.telnetHandoff) !== "0",
    runFlags: v(PROCESS_ENV.runFlags).split(/\s+/).filter(Boolean),
    updateDir: v(PROCESS_ENV.updateDir) || CODE_ROOT,
    jwtSecret: v(PROCESS_ENV.jwtSecret),
    superuser: {
      name: v(PROCESS_ENV.superuserName),
      password: v(PROCESS_ENV.superuserPassword),
      email: v(PROCESS_ENV.superuserEmail),
    },
    launcher: {
      script: v(PROCESS_ENV.npmScript),
      command: v(PROCESS_ENV.npmCommand),
      agent: v(PROCESS_ENV.npmAgent),
    },
  };
}

/** The value of PROCESS_ENV.engineRun for a run (see there). */
export function engineRunValue(run: EngineRun): string {
  return `${run.restarts} ${run.firstStartedAt} ${run.startedAt}`;
}

/** PROCESS_ENV.engineRun read back; null when unset or not of its form. */
function engineRun(text: string): EngineRun | null {
  const m = /^(\d{1,9}) (\d{1,15}) (\d{1,15})$/.exec(text);
  return m
    ? { restarts: Number(m[1]), firstStartedAt: Number(m[2]), startedAt: Number(m[3]) }
    : null;
}

/**
 * The variables a Deno child needs to find Deno's module cache (home, cache folders, `PATH`),
 * so a script process transpiles its runtime once, not per process.
 */
export function denoCacheEnv(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of ["HOME", "DENO_DIR", "XDG_CACHE_HOME", "PATH"]) {
    const v = Deno.env.get(k);
    if (v) out[k] = v;
  }
  return out;
}
