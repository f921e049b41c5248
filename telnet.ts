/**
 * Telnet sidecar entry (`deno task telnet`; the supervisor starts it): listens on `server.telnet`
 * and bridges each connection to the hub over WebSocket. Reads the same configuration as the
 * engine. `URSAMU_HUB_URL` overrides the hub address (default: loopback, `server.ws`);
 * `URSAMU_SIDECAR_SECRET` is the secret the hub knows the sidecar by (docs/operations.md).
 */
import { resolve } from "node:path";
import { Config, configFile } from "./src/config/load.ts";
import { sidecarSecretFrom } from "./src/hub/sidecar_auth.ts";
import { PROCESS_ENV, processEnv, processEnvironment } from "./src/config/process_env.ts";
import { EXIT_CONFIG } from "./src/lifecycle.ts";
import { startLogging } from "./src/logging/setup.ts";
import { readTls } from "./src/tls/certs.ts";
import { StartupError } from "./src/startup_error.ts";
import {
  httpBaseFor,
  hubUrlFor,
  TelnetListenError,
  TelnetSidecar,
} from "./src/telnet/sidecar/sidecar.ts";
import { startMallocTrim } from "./src/runtime/malloc_trim.ts";
import { lowerV8Helpers } from "./src/runtime/v8_helpers.ts";

/** Runs the telnet sidecar process (also `ursamu __telnet` in a compiled binary). */
export async function runSidecar(): Promise<void> {
  const env = processEnvironment();
  const plumbing = processEnv(env);
  const supervised = plumbing.supervised;
  const warnings: string[] = [];
  const config = await new Config({
    file: configFile(Deno.cwd(), env),
    env,
    // Under the supervisor the engine reports the configuration's problems, once.
    warn: supervised ? () => {} : (m) => warnings.push(m),
  }).load();
  const cfg = config.value;
  // Supervised, the supervisor writes its lines to the log file; alone, it keeps its own file
  // (telnet.log beside it) so that it never shares one with an engine that runs alone too.
  startLogging(cfg, Deno.cwd(), "telnet", env, !supervised, "telnet.log");
  for (const w of warnings) console.warn(w);
  const sidecarSecret = sidecarSecretFrom(
    plumbing.sidecarSecret,
    (m) => console.warn(`telnet: ${m}`),
  );
  if (sidecarSecret === null && !plumbing.sidecarSecret) {
    console.warn(
      `telnet: WARNING: ${PROCESS_ENV.sidecarSecret} is not set, so the hub treats this sidecar's ` +
        "connections as ordinary clients from its address: they share that address's caps and " +
        "login limit, and players' own addresses are not reported. `deno task start` sets it; " +
        `beside \`deno task engine\`, give both the same ${PROCESS_ENV.sidecarSecret}.`,
    );
  }
  const link = plumbing.hubLinkPort;
  const sidecar = new TelnetSidecar({
    hostname: cfg.server.host,
    port: cfg.server.telnet,
    // Under TLS the supervisor gives both processes a plain loopback link (src/tls/link.ts).
    hubUrl: plumbing.hubUrl ||
      (link
        ? `ws://127.0.0.1:${link}/ws?client=telnet`
        : hubUrlFor(cfg.server.host, cfg.server.ws)),
    sidecarSecret,
    httpBase: link ? `http://127.0.0.1:${link}` : httpBaseFor(cfg.server.host, cfg.server.http),
    gameName: cfg.game.name,
    maxConnections: cfg.server.maxConnections,
    maxConnectionsPerIp: cfg.server.maxConnectionsPerIp,
    limits: {
      inputBytesPerSecond: cfg.server.telnetInputBytesPerSecond,
      inputBytesPerSecondPerIp: cfg.server.telnetInputBytesPerSecondPerIp,
    },
    // Nobody can connect any more: a new sidecar (the supervisor starts one) is the way back.
    listenerLost: () => Deno.exit(1),
    handoff: plumbing.telnetHandoff,
  });
  try {
    await sidecar.listen();
    if (cfg.server.ssl.enabled) {
      const root = Deno.cwd();
      await sidecar.listenTls({
        hostname: cfg.server.host,
        port: cfg.server.telnetTls,
        read: async () => (await readTls(cfg.server.ssl, root))!,
        watch: [resolve(root, cfg.server.ssl.key), resolve(root, cfg.server.ssl.cert)],
      });
    }
  } catch (e) {
    if (!(e instanceof TelnetListenError) && !(e instanceof StartupError)) throw e;
    // One clear line instead of a stack trace; the code tells the supervisor not to retry.
    console.error(`telnet: ${e.message}`);
    Deno.exit(EXIT_CONFIG);
  }
  // What a burst of connections left in malloc's arenas goes back to the OS.
  const trim = startMallocTrim();
  if (!trim.available) console.debug(`telnet: freed native memory is not trimmed (${trim.why})`);
  // As in the engine: this process's event loop first, V8's collector beside it.
  const helpers = lowerV8Helpers();
  if (helpers.why) {
    console.debug(`telnet: V8's helper threads keep their priority (${helpers.why})`);
  }
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    trim.stop();
    await sidecar.shutdown();
    Deno.exit(0);
  };
  Deno.addSignalListener("SIGINT", stop);
  Deno.addSignalListener("SIGTERM", stop);
  if (supervised) {
    // Standard input is a pipe from the supervisor: end-of-file means it died.
    (async () => {
      const buf = new Uint8Array(256);
      try {
        while (await Deno.stdin.read(buf) !== null) { /* nothing is ever sent */ }
      } catch { /* same meaning */ }
      await stop();
    })();
  }
}

if (import.meta.main) await runSidecar();
