/**
 * Engine entry point: builds the engine and serves HTTP (and, on the same
 * port and its own, the WebSocket hub). Exit 0 is a clean stop; a start that cannot succeed as
 * configured prints one line naming the key and exits EXIT_CONFIG (78).
 */
import { createEngine, type Engine } from "./src/engine.ts";
import { ListenError, type RunningServer, serveEngine } from "./src/server.ts";
import { EXIT_CONFIG, EXIT_RESTART, exitWhenStdinCloses } from "./src/lifecycle.ts";
import { guardProcess } from "./src/crash_guard.ts";
import { oneLine, StartupError } from "./src/startup_error.ts";
import { Config, configFile } from "./src/config/load.ts";
import { startLogging } from "./src/logging/setup.ts";
import type { Logger } from "./src/logging/logger.ts";
import { type ProcessEnv, processEnv, processEnvironment } from "./src/config/process_env.ts";
import { sidecarSecretFrom } from "./src/hub/sidecar_auth.ts";
import { EngineHost } from "./src/telnet/handoff/engine_host.ts";
import { handoffUnavailable } from "./src/telnet/handoff/support.ts";
import { startMallocTrim } from "./src/runtime/malloc_trim.ts";
import { lowerV8Helpers } from "./src/runtime/v8_helpers.ts";
import { RESTART_BIND_RETRY_MS } from "./src/net/bind_retry.ts";

/** What the process starts with: its environment, its plumbing, and the configuration read once. */
interface Start {
  env: Record<string, string>;
  plumbing: ProcessEnv;
  config: Config;
}

/**
 * Routes this process's console through the logger before anything else prints. The engine reads
 * the configuration again (and reports its problems, now through the logger).
 */
async function logging(): Promise<{ logger: Logger; start: Start }> {
  const env = processEnvironment();
  const plumbing = processEnv(env);
  const config = await new Config({
    file: configFile(Deno.cwd(), env),
    env,
    warn: () => {},
  }).load();
  // Under the supervisor it writes the file; alone, the engine does.
  const logger = startLogging(config.value, Deno.cwd(), "engine", env, !plumbing.supervised);
  return { logger, start: { env, plumbing, config } };
}

/** Builds and serves the engine; a failure is one line on stderr and an exit code, never a stack. */
async function start(
  logger: Logger,
  { env, plumbing, config }: Start,
): Promise<{ engine: Engine; server: RunningServer }> {
  let engine: Engine | null = null;
  try {
    engine = await createEngine({ secrets: logger, env });
    const lifecycle = engine.services.lifecycle;
    const server = await serveEngine(engine, {
      linkPort: plumbing.hubLinkPort ?? undefined,
      // Nobody can connect on that port any more: a fresh engine opens it again (the
      // supervisor restarts on this code; telnet players stay with the sidecar).
      listenerLost: (key) => void lifecycle.exit(EXIT_RESTART, `the ${key} listener is gone`),
      // A restart's ports were ours a moment ago: one taken now is most likely taken briefly.
      bindRetryMs: (plumbing.engineRun?.restarts ?? 0) > 0 ? RESTART_BIND_RETRY_MS : 0,
    });
    return { engine, server };
  } catch (e) {
    const known = e instanceof StartupError || e instanceof ListenError;
    if (known) console.error(`engine: ${oneLine(e)}`);
    else if (config.value.game.debug) {
      console.error("engine: could not start:", e);
    } else {
      // A bug rather than a setting: still one line; the stack is there for whoever asks.
      console.error(
        `engine: could not start: ${oneLine(e)} (game.debug true shows the stack trace)`,
      );
    }
    await engine?.close().catch(() => {});
    Deno.exit(known ? EXIT_CONFIG : 1);
  }
}

/**
 * Serves the telnet players whose sockets the sidecar hands over
 * (src/telnet/handoff/engine_host.ts), their hub sessions the hub's telnet carrier's, when there
 * is a sidecar secret and the platform allows it; null: the sidecar serves them.
 */
function serveTelnet(engine: Engine, plumbing: ProcessEnv): EngineHost | null {
  const secret = sidecarSecretFrom(plumbing.sidecarSecret, () => {/* the engine warned already */});
  if (secret === null || !plumbing.telnetHandoff) return null;
  const why = handoffUnavailable();
  if (why !== null) {
    console.log(`engine: telnet players are served by the sidecar (${why})`);
    return null;
  }
  const cfg = engine.services.config.value;
  const carrier = engine.telnet;
  const presence = engine.services.presence;
  const telnet = new EngineHost({
    secret,
    hub: (events, token) => carrier.open(events, token),
    gameName: cfg.game.name,
    port: cfg.server.telnet,
    online: () => presence.onlinePlayers().length,
    limits: {
      inputBytesPerSecond: cfg.server.telnetInputBytesPerSecond,
      inputBytesPerSecondPerIp: cfg.server.telnetInputBytesPerSecondPerIp,
    },
  });
  telnet.start();
  return telnet;
}

/** Runs the engine process until it exits (also `ursamu __engine` in a compiled binary). */
export async function runEngine(): Promise<void> {
  const { logger, start: begun } = await logging();
  const { engine, server } = await start(logger, begun);
  // Hooks run last-registered first: listeners stop, then storage closes.
  const { lifecycle } = engine.services;
  lifecycle.onExit("storage", () => engine.close());
  lifecycle.onExit("listeners", () => server.shutdown());
  const telnet = serveTelnet(engine, begun.plumbing);
  // After the hub's hook (players have their notice): their sockets and states to the sidecar.
  if (telnet) {
    lifecycle.onExit("telnet", () => telnet.stop(lifecycle.exitCode === EXIT_RESTART));
  }
  lifecycle.onExit("hub", async () => {
    const restart = lifecycle.exitCode === EXIT_RESTART;
    // Before the sessions close: the next engine holds what comes due until these are back.
    if (restart) await engine.keepForRestart().catch(() => {});
    return engine.hub.shutdown(
      restart
        ? "The server is restarting. Stay connected; you will be back in a moment."
        : "The server is shutting down.",
      undefined,
      restart,
    );
  });
  // What a burst (logins, a reboot's resumes, a fan-out) left in malloc's arenas goes back to
  // the OS; per process, so here rather than in the engine (tests build many in one process).
  const trim = startMallocTrim();
  if (!trim.available) console.debug(`engine: freed native memory is not trimmed (${trim.why})`);
  lifecycle.onExit("malloc trim", () => trim.stop());
  // Per process too: the loop first, V8's collector and compilers beside it.
  const helpers = lowerV8Helpers();
  if (helpers.why) {
    console.debug(`engine: V8's helper threads keep their priority (${helpers.why})`);
  }
  // Registered last so it runs first: no timer job runs while the rest shuts down.
  lifecycle.onExit("timers", () => engine.timers.stop());
  const stop = () => lifecycle.exit(0, "signal");
  Deno.addSignalListener("SIGINT", stop);
  Deno.addSignalListener("SIGTERM", stop);
  if (begun.plumbing.supervised) exitWhenStdinCloses(lifecycle);
  // From here a stray failure (say, a plugin's forgotten promise) is logged, not fatal.
  guardProcess();
}

if (import.meta.main) await runEngine();
