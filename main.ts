/**
 * Engine entry point: builds the engine and serves HTTP (and, on the same
 * port and its own, the WebSocket hub). Exit 0 is a clean stop.
 */
import { createEngine } from "./src/engine.ts";
import { ListenError, serveEngine } from "./src/server.ts";
import { EXIT_RESTART, exitWhenStdinCloses } from "./src/lifecycle.ts";
import { guardProcess } from "./src/crash_guard.ts";

if (import.meta.main) {
  const engine = await createEngine();
  const server = await serveEngine(engine).catch(async (e) => {
    if (!(e instanceof ListenError)) throw e;
    console.error(`engine: ${e.message}`);
    await engine.close();
    Deno.exit(1);
  });
  // Hooks run last-registered first: listeners stop, then storage closes.
  const { lifecycle } = engine.services;
  lifecycle.onExit("storage", () => engine.close());
  lifecycle.onExit("listeners", () => server.shutdown());
  lifecycle.onExit("hub", () => {
    const restart = lifecycle.exitCode === EXIT_RESTART;
    return engine.hub.shutdown(
      restart
        ? "The server is restarting. Stay connected; you will be back in a moment."
        : "The server is shutting down.",
      undefined,
      restart,
    );
  });
  // Registered last so it runs first: no timer job runs while the rest shuts down.
  lifecycle.onExit("timers", () => engine.timers.stop());
  const stop = () => lifecycle.exit(0, "signal");
  Deno.addSignalListener("SIGINT", stop);
  Deno.addSignalListener("SIGTERM", stop);
  if (Deno.env.get("URSAMU_SUPERVISED") === "1") exitWhenStdinCloses(lifecycle);
  // From here a stray failure (say, a plugin's forgotten promise) is logged, not fatal.
  guardProcess();
}
