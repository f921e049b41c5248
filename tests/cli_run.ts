/** Runs the command line as `deno task cli` does, for black-box tests. */
import { join } from "node:path";
import { cleanEnv, ROOT } from "./harness.ts";

/** What a run of the command line printed and returned. */
export interface Run {
  code: number;
  out: string;
  err: string;
}

/** Runs the command line in `dir` with `env` (and `input` on standard input). */
export async function runCli(
  args: string[],
  opts: { dir?: string; env?: Record<string, string>; input?: string } = {},
): Promise<Run> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--unstable-kv", "-A", join(ROOT, "src/cli/main.ts"), ...args],
    cwd: opts.dir ?? ROOT,
    env: { ...cleanEnv(), NO_COLOR: "1", ...opts.env },
    clearEnv: true,
    stdin: opts.input === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (opts.input !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(opts.input));
    await w.close();
  }
  const out = await child.output();
  const dec = new TextDecoder();
  return { code: out.code, out: dec.decode(out.stdout), err: dec.decode(out.stderr) };
}
