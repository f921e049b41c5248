/**
 * Keeps a running engine up when code nobody awaits fails (a plugin's stray promise,
 * a throwing timer): the error is logged and the process carries on, so one plugin bug
 * cannot end the game for everyone (the supervisor does not restart a crash).
 */
import { isConnectionError } from "./http/connection_errors.ts";

/** Where failures are reported. */
export type GuardLog = (message: string, error: unknown) => void;

/**
 * Installs the handlers; returns their remover. Install it once the engine is serving:
 * a failure while starting should still stop the process.
 */
export function guardProcess(
  log: GuardLog = (m, e) => console.error(m, e),
): () => void {
  const onRejection = (e: PromiseRejectionEvent) => {
    e.preventDefault();
    // A client's dropped connection surfacing late is no engine fault: one line, no stack.
    if (isConnectionError(e.reason)) {
      log("engine: a client connection failed:", String((e.reason as Error).message));
      return;
    }
    log("engine: unhandled promise rejection (kept running):", e.reason);
  };
  const onError = (e: ErrorEvent) => {
    e.preventDefault();
    log("engine: uncaught exception (kept running):", e.error ?? e.message);
  };
  globalThis.addEventListener("unhandledrejection", onRejection);
  globalThis.addEventListener("error", onError);
  return () => {
    globalThis.removeEventListener("unhandledrejection", onRejection);
    globalThis.removeEventListener("error", onError);
  };
}
