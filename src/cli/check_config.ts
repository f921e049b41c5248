/**
 * `check-config`: every problem of the configuration, one line each with the key's path; exit 1
 * when there is any. It checks more than a start does (a start uses the default for a bad value):
 * unknown keys (typos), ports used twice, the TLS files, a database path that is a directory.
 */
import { resolve } from "node:path";
import { Config, configFile, getPath, isPlainObject } from "../config/load.ts";
import { defaultConfig } from "../config/defaults.ts";
import { readTls } from "../tls/certs.ts";
import { oneLine } from "../startup_error.ts";
import { isRemoteDb } from "../storage/kv.ts";
import { counted } from "../text/plural.ts";

/** Every problem found, as lines; empty when the configuration is fine. */
export async function configProblems(root: string, env: Record<string, string>): Promise<string[]> {
  const file = configFile(root, env);
  const problems: string[] = [];
  const config = await new Config({
    file,
    env,
    warn: (m) => problems.push(m),
    brokenFileAdvice: "a start would use the defaults; fix the file.",
  }).load();
  problems.push(...await unknownKeys(file));
  const cfg = config.value;
  const ports = new Map<number, string>();
  const keys = ["server.telnet", "server.ws", "server.http"];
  if (cfg.server.ssl.enabled) keys.push("server.telnetTls");
  for (const key of keys) {
    const port = getPath(cfg, key) as number;
    const other = ports.get(port);
    if (other) {
      problems.push(`config: '${key}' uses port ${port}, as '${other}' does; give each its own`);
    } else ports.set(port, key);
  }
  try {
    await readTls(cfg.server.ssl, root);
  } catch (e) {
    problems.push(`config: ${oneLine(e)}`);
  }
  if (cfg.server.db !== ":memory:" && !isRemoteDb(cfg.server.db)) {
    const db = resolve(root, cfg.server.db);
    const stat = await Deno.stat(db).catch(() => null);
    if (stat?.isDirectory) {
      problems.push(`config: 'server.db' is ${db}, a directory; name the database file in it`);
    }
  }
  return problems.map((p) => p.replace(/^config: /, ""));
}

/** Keys in the file that the engine does not know (they are ignored, so usually a typo). */
async function unknownKeys(file: string): Promise<string[]> {
  let tree: unknown;
  try {
    tree = JSON.parse(await Deno.readTextFile(file));
  } catch {
    return []; // a missing file is fine; a broken one is reported by the load
  }
  const out: string[] = [];
  const defaults = defaultConfig();
  const walk = (node: unknown, prefix: string) => {
    if (!isPlainObject(node)) return;
    for (const [k, v] of Object.entries(node)) {
      const path = prefix ? `${prefix}.${k}` : k;
      if (path === "plugins") continue;
      const def = getPath(defaults, path);
      if (def === undefined) {
        out.push(`config: unknown key '${path}' in ${file} is ignored; check its spelling`);
      } else if (isPlainObject(def)) walk(v, path);
    }
  };
  walk(tree, "");
  return out;
}

/** Runs the command: prints the problems; exit 0 when none, 1 otherwise. */
export async function checkConfigCommand(
  root: string,
  env: Record<string, string>,
): Promise<number> {
  const file = configFile(root, env);
  const problems = await configProblems(root, env);
  for (const p of problems) console.log(`check-config: ${p}`);
  if (problems.length) {
    console.log(
      `check-config: ${counted(problems.length, "problem")} (${file} and URSAMU_* variables)`,
    );
    return 1;
  }
  console.log(`check-config: no problems (${file} and URSAMU_* variables)`);
  return 0;
}
