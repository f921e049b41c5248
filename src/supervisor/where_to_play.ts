/**
 * The start-up line that says where to play: once per supervisor run, when both the engine's HTTP
 * listener and the telnet sidecar have said they listen.
 */
import type { EngineConfig } from "../config/defaults.ts";

/** Listen addresses that mean "every interface": no use to a player, so `localhost` is shown. */
const WILDCARDS = new Set(["", "0.0.0.0", "::", "[::]"]);

/** `Ready: play with telnet <host> <port>, or at http://<host>:<port>/ in a browser.` */
export function playLine(cfg: EngineConfig): string {
  const { server } = cfg;
  const published = publicHost(cfg.web.publicUrl);
  const host = published ?? (WILDCARDS.has(server.host.trim()) ? "localhost" : server.host.trim());
  const inUrl = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  const web = published
    ? cfg.web.publicUrl.trim().replace(/\/?$/, "/")
    : `${server.ssl.enabled ? "https" : "http"}://${inUrl}:${server.http}/`;
  const tls = server.ssl.enabled ? ` (telnet over TLS: port ${server.telnetTls})` : "";
  return `Ready: play with telnet ${host} ${server.telnet}${tls}, or at ${web} in a browser.`;
}

/** The host of `web.publicUrl`, or null when it is not set or not a URL. */
function publicHost(url: string): string | null {
  if (!url.trim()) return null;
  try {
    return new URL(url.trim()).hostname || null;
  } catch {
    return null;
  }
}

/**
 * Watches the children's lines; calls `ready` once, when the engine (HTTP and WebSocket) and the
 * sidecar listen: after the last of those lines, so it is not followed by more start-up news.
 */
export class ReadyWatch {
  #http = false;
  #ws = false;
  #telnet = false;
  #told = false;

  constructor(private readonly ready: () => void) {}

  /** One line a child printed (its own text, as the child wrote it), after it was logged. */
  line(text: string): void {
    if (this.#told) return;
    if (/\bengine: HTTP listening on /.test(text)) this.#http = true;
    else if (/\bengine: WebSocket hub on /.test(text)) this.#ws = true;
    else if (/\btelnet: listening on /.test(text)) this.#telnet = true;
    if (this.#http && this.#ws && this.#telnet) {
      this.#told = true;
      this.ready();
    }
  }
}
