/**
 * Reads the TLS key and certificate named by `server.ssl` (PEM files). A missing or unreadable
 * file is a StartupError naming the key, so the start fails with one line instead of a stack.
 */
import { resolve } from "node:path";
import { oneLine, StartupError } from "../startup_error.ts";
import { envName } from "../config/load.ts";

/** A key and certificate in PEM form, as Deno.serve and Deno.listenTls take them. */
export interface TlsPair {
  key: string;
  cert: string;
}

/** The `server.ssl` section. */
export interface SslConfig {
  enabled: boolean;
  key: string;
  cert: string;
}

/** Reads the pair when `enabled`, else null; paths resolve against `root`. */
export async function readTls(ssl: SslConfig, root: string): Promise<TlsPair | null> {
  if (!ssl.enabled) return null;
  const key = await readPem("server.ssl.key", ssl.key, root, /-----BEGIN [A-Z ]*PRIVATE KEY-----/);
  const cert = await readPem("server.ssl.cert", ssl.cert, root, /-----BEGIN CERTIFICATE-----/);
  return { key, cert };
}

async function readPem(key: string, path: string, root: string, marker: RegExp): Promise<string> {
  const what = key.endsWith(".key") ? "private key" : "certificate";
  const fix = `set ${key} (or ${envName(key)}) to the PEM ${what} file, ` +
    "or set server.ssl.enabled to false";
  if (!path) throw new StartupError(key, `server.ssl.enabled is true but no ${what} is given`, fix);
  const full = resolve(root, path);
  let text: string;
  try {
    text = await Deno.readTextFile(full);
  } catch (e) {
    throw new StartupError(key, `the ${what} ${full} cannot be read: ${oneLine(e)}`, fix);
  }
  if (!marker.test(text)) {
    throw new StartupError(key, `${full} is not a PEM ${what}`, fix);
  }
  return text;
}
