/** For the TLS tests: a self-signed certificate made with openssl, the supervised game with TLS. */
import { join } from "node:path";
import { startServer, type TestServer } from "./harness.ts";
import { ADMIN } from "./supervised.ts";

/** Makes a self-signed key and certificate for 127.0.0.1; null without openssl. */
export async function selfSigned(
  dir: string,
  name: string,
): Promise<{ key: string; cert: string } | null> {
  const key = join(dir, `${name}.key`), cert = join(dir, `${name}.crt`);
  const out = await new Deno.Command("openssl", {
    args: [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-days",
      "2",
      "-keyout",
      key,
      "-out",
      cert,
      "-subj",
      `/CN=${name}`,
      "-addext",
      "subjectAltName=DNS:localhost,IP:127.0.0.1",
      "-addext",
      "basicConstraints=critical,CA:FALSE",
      "-addext",
      "extendedKeyUsage=serverAuth",
    ],
    stdout: "null",
    stderr: "null",
  }).output().catch(() => null);
  if (!out?.success) return null;
  return { key: await Deno.readTextFile(key), cert: await Deno.readTextFile(cert) };
}

/** The supervised game with TLS on; resolves once the engine and both telnet ports listen. */
export async function startSupervisedTls(
  certs: string,
  telnetTls: number,
  env: Record<string, string> = {},
): Promise<TestServer> {
  const srv = await startServer({
    entry: "src/supervisor/main.ts",
    env: {
      URSAMU_SUPERUSER_NAME: ADMIN.name,
      URSAMU_SUPERUSER_PASSWORD: ADMIN.password,
      URSAMU_SERVER_SSL_ENABLED: "true",
      URSAMU_SERVER_SSL_KEY: join(certs, "game.key"),
      URSAMU_SERVER_SSL_CERT: join(certs, "game.crt"),
      URSAMU_SERVER_TELNETTLS: String(telnetTls),
      ...env,
    },
  });
  try {
    await srv.waitFor(/HTTP listening on \S+ \(TLS\)/, 20_000);
    await srv.waitFor(/WebSocket hub on \S+ \(TLS\)/);
    await srv.waitFor(/telnet: TLS listening on/);
    await srv.waitFor(/telnet: listening on/);
  } catch (e) {
    await srv.stop();
    throw e;
  }
  return srv;
}
