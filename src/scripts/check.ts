/**
 * `@script/check`: type-checks a script file with `deno check`, with the SDK's ambient types
 * (sdk.d.ts of the scripts folder, or the one shipped in system/scripts/) as a second root.
 */
import { resolve } from "node:path";

/** Time the type checker may take. */
const CHECK_MS = 60_000;
/** Lines of checker output kept. */
const MAX_LINES = 40;

/** The SDK declaration file: the folder's own, else the engine's. */
async function sdkTypes(dir: string): Promise<string> {
  const local = resolve(dir, "sdk.d.ts");
  try {
    if ((await Deno.stat(local)).isFile) return local;
  } catch {
    // Not there: the engine's copy.
  }
  return new URL("../../system/scripts/sdk.d.ts", import.meta.url).pathname;
}

/** Runs `deno check` on `file`; ok with no lines when it passes, else the checker's messages. */
export async function typeCheck(
  file: string,
  dir: string,
): Promise<{ ok: boolean; lines: string[] }> {
  const proc = new Deno.Command(Deno.execPath(), {
    args: [
      "check",
      "--no-config",
      "--no-lock",
      "--no-npm",
      "--no-remote",
      "--quiet",
      await sdkTypes(dir),
      file,
    ],
    stdout: "piped",
    stderr: "piped",
    stdin: "null",
    env: { NO_COLOR: "1", RUST_BACKTRACE: "0", DENO_NO_UPDATE_CHECK: "1" },
  }).spawn();
  const timer = setTimeout(() => {
    try {
      proc.kill("SIGKILL");
    } catch {
      // Already done.
    }
  }, CHECK_MS);
  const out = await proc.output();
  clearTimeout(timer);
  if (out.success) return { ok: true, lines: [] };
  const text = new TextDecoder().decode(out.stderr) + new TextDecoder().decode(out.stdout);
  const lines = text.split("\n").map((l) => l.trimEnd())
    .filter((l) => l && !/^Stack backtrace|^\s+\d+: <unknown>|^error: Type checking failed/.test(l))
    .map((l) => l.replaceAll(`file://${dir}/`, ""));
  if (!lines.length) {
    lines.push(out.signal ? "the type check took too long" : "the type check failed");
  }
  return { ok: false, lines: lines.slice(0, MAX_LINES) };
}
