/**
 * Engine entry point: builds the engine and serves HTTP (and, on the same
 * port and its own, the WebSocket hub). Exit 0 is a clean stop.
 */
import { createEngine } from "./src/engine.ts";
import { serveEngine } from "./src/server.ts";

if (import.meta.main) {
  const engine = await createEngine();
  const server = await serveEngine(engine);
  const stop = async () => {
    await server.shutdown();
    await engine.close();
    Deno.exit(0);
  };
  Deno.addSignalListener("SIGINT", stop);
  Deno.addSignalListener("SIGTERM", stop);
}
