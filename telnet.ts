/**
 * Telnet sidecar entry (`deno task telnet`; the supervisor starts it): listens on `server.telnet`
 * and bridges each connection to the hub over WebSocket. Reads the same configuration as the
 * engine. `URSAMU_HUB_URL` overrides the hub address (default: loopback, `server.ws`).
 */
import { resolve } from "node:path";
import { Config } from "./src/config/load.ts";
import { httpBaseFor, hubUrlFor, TelnetListenError, TelnetSidecar } from "./src/telnet/sidecar.ts";

if (import.meta.main) {
  const env = Deno.env.toObject();
  const config = await new Config({
    file: resolve(Deno.cwd(), env["URSAMU_CONFIG"] ?? "config/config.json"),
    env,
  }).load();
  const cfg = config.value;
  const sidecar = new TelnetSidecar({
    hostname: cfg.server.host,
    port: cfg.server.telnet,
    hubUrl: env["URSAMU_HUB_URL"] || hubUrlFor(cfg.server.host, cfg.server.ws),
    httpBase: httpBaseFor(cfg.server.host, cfg.server.http),
    gameName: cfg.game.name,
    maxConnections: cfg.server.maxConnections,
    maxConnectionsPerIp: cfg.server.maxConnectionsPerIp,
    // Nobody can connect any more: a new sidecar (the supervisor starts one) is the way back.
    listenerLost: () => Deno.exit(1),
  });
  try {
    sidecar.listen();
  } catch (e) {
    if (!(e instanceof TelnetListenError)) throw e;
    // One clear line instead of a stack trace; under the supervisor it is tried again later.
    console.error(`telnet: ${e.message}`);
    Deno.exit(1);
  }
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await sidecar.shutdown();
    Deno.exit(0);
  };
  Deno.addSignalListener("SIGINT", stop);
  Deno.addSignalListener("SIGTERM", stop);
  if (env["URSAMU_SUPERVISED"] === "1") {
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
