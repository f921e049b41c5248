/**
 * An outbound HTTP(S) GET that cannot be turned against the server (`@wiki/fetch`).
 *
 * Each hop resolves the host once, checks every address it got (address.ts), and then
 * connects to a checked address itself: a TCP connection to that IP, and for `https` a TLS
 * handshake over it (`Deno.startTls`) with the URL's host name for SNI and certificate
 * verification. Deno's `fetch` is not used because it resolves the name again when it
 * connects (a DNS-rebinding window), and its one way to pin the address, an HTTP client with
 * a `tcp` transport, speaks plain HTTP to it even for `https` URLs. The request is plain
 * HTTP/1.1 with `Connection: close`; the response is read with bounded headers, chunked or
 * sized bodies, the size cap counted while reading, one deadline over the whole fetch, and
 * redirects followed a few times, each target checked like the first.
 */
import { addressRefusal, isIpLiteral } from "./address.ts";

/** How names are resolved and which addresses may be reached (tests inject their own). */
export interface NetPolicy {
  /** The addresses of a host name: one lookup per hop, never repeated for the connection. */
  resolve(hostname: string): Promise<string[]>;
  /** Why an address may not be reached (`"a loopback address"`), or null when it may. */
  refusal(address: string): string | null;
  /** Extra trusted root certificates in PEM (a test server's own CA). */
  caCerts?: string[];
}

/** A refusal or failure, worded for the player who asked for the fetch. */
export class FetchError extends Error {
  override name = "FetchError";
}

/** Options of one fetch. */
export interface SafeFetchOptions {
  policy: NetPolicy;
  /** Largest body accepted, in bytes (counted while reading). */
  maxBytes: number;
  /** Deadline for the whole fetch, redirects included (ms). */
  timeoutMs?: number;
  /** Redirects followed at most. */
  maxRedirects?: number;
  /** Content types accepted (media type only, lower case). */
  accept: readonly string[];
}

/** What a fetch brought back. */
export interface Fetched {
  bytes: Uint8Array;
  /** The media type the server declared (lower case, no parameters). */
  contentType: string;
  /** The URL the body finally came from. */
  url: string;
}

/** Largest response head read. */
const MAX_HEAD = 32 * 1024;
const DEFAULT_TIMEOUT = 15_000;
const DEFAULT_REDIRECTS = 3;

/** The system resolver (A and AAAA records) and the public-address filter. */
export function systemPolicy(timeoutMs = 5000): NetPolicy {
  return {
    async resolve(hostname) {
      const signal = AbortSignal.timeout(timeoutMs);
      const [a, aaaa] = await Promise.allSettled([
        Deno.resolveDns(hostname, "A", { signal }),
        Deno.resolveDns(hostname, "AAAA", { signal }),
      ]);
      return [
        ...(a.status === "fulfilled" ? a.value : []),
        ...(aaaa.status === "fulfilled" ? aaaa.value : []),
      ];
    },
    refusal: addressRefusal,
  };
}

/** Fetches `url` under the policy; throws FetchError with a clear message on any refusal. */
export async function safeFetch(url: string, opts: SafeFetchOptions): Promise<Fetched> {
  const deadline = Date.now() + (opts.timeoutMs ?? DEFAULT_TIMEOUT);
  const maxRedirects = opts.maxRedirects ?? DEFAULT_REDIRECTS;
  let current = parseTarget(url);
  for (let hop = 0;; hop++) {
    const res = await fetchOnce(current, opts, deadline);
    if (res.kind === "redirect") {
      if (hop >= maxRedirects) {
        throw new FetchError(`Too many redirects (more than ${maxRedirects}).`);
      }
      let next: URL;
      try {
        next = new URL(res.location, current);
      } catch {
        throw new FetchError("The server redirected to an invalid address.");
      }
      current = parseTarget(next.href);
      continue;
    }
    return { ...res.fetched, url: current.href };
  }
}

/** A URL the fetch may try: http or https, no credentials. */
function parseTarget(text: string): URL {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    throw new FetchError("That is not a valid URL.");
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") {
    throw new FetchError("Only http and https URLs can be fetched.");
  }
  if (u.username || u.password) throw new FetchError("URLs with credentials are not fetched.");
  if (!u.hostname) throw new FetchError("The URL has no host.");
  return u;
}

/** The checked addresses of a URL's host. */
async function addressesOf(u: URL, policy: NetPolicy, deadline: number): Promise<string[]> {
  const host = u.hostname.replace(/^\[|\]$/g, "");
  let addrs: string[];
  if (isIpLiteral(host)) {
    addrs = [host];
  } else {
    try {
      addrs = await withDeadline(policy.resolve(host), deadline);
    } catch (e) {
      if (e instanceof FetchError) throw e;
      addrs = [];
    }
    if (!addrs.length) throw new FetchError(`Could not resolve ${host}.`);
  }
  // Every address must pass: a name that also points inside is refused as a whole.
  for (const a of addrs) {
    const why = policy.refusal(a);
    if (why) throw new FetchError(`Refused: ${host} is ${a}, ${why}.`);
  }
  return addrs;
}

type Once =
  | { kind: "redirect"; location: string }
  | { kind: "body"; fetched: Omit<Fetched, "url"> };

async function fetchOnce(u: URL, opts: SafeFetchOptions, deadline: number): Promise<Once> {
  const addrs = await addressesOf(u, opts.policy, deadline);
  const port = Number(u.port) || (u.protocol === "https:" ? 443 : 80);
  const conn = await connectFirst(addrs, port, u, opts.policy, deadline);
  const left = deadline - Date.now();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      conn.close();
    } catch {
      // already closed
    }
  }, Math.max(0, left));
  try {
    const head = [
      `GET ${u.pathname}${u.search} HTTP/1.1`,
      `Host: ${u.host}`,
      "User-Agent: UrsaMU-wiki-fetch/1",
      `Accept: ${opts.accept.join(", ")}`,
      "Accept-Encoding: identity",
      "Connection: close",
      "",
      "",
    ].join("\r\n");
    await writeAll(conn, new TextEncoder().encode(head));
    const reader = new ConnReader(conn);
    const res = await readHead(reader);
    if (res.status >= 300 && res.status < 400 && res.status !== 304) {
      const location = res.headers.get("location");
      if (!location) throw new FetchError(`The server answered ${res.status} with no Location.`);
      return { kind: "redirect", location };
    }
    if (res.status !== 200) throw new FetchError(`The server answered ${res.status}.`);
    const contentType = (res.headers.get("content-type") ?? "").split(";")[0].trim()
      .toLowerCase();
    if (!contentType) throw new FetchError("The server sent no Content-Type.");
    if (!opts.accept.includes(contentType)) {
      throw new FetchError(`The server sent ${contentType.slice(0, 100)}, not an accepted type.`);
    }
    const bytes = await readBody(reader, res.headers, opts.maxBytes);
    return { kind: "body", fetched: { bytes, contentType } };
  } catch (e) {
    if (timedOut) throw new FetchError("The fetch timed out.");
    if (e instanceof FetchError) throw e;
    throw new FetchError(`The fetch failed: ${(e as Error).message.split("\n")[0].slice(0, 200)}`);
  } finally {
    clearTimeout(timer);
    try {
      conn.close();
    } catch {
      // closed by the timer or the peer
    }
  }
}

/** A connection to the first checked address that answers, TLS on top for https. */
async function connectFirst(
  addrs: string[],
  port: number,
  u: URL,
  policy: NetPolicy,
  deadline: number,
): Promise<Deno.Conn> {
  let last: unknown;
  for (const hostname of addrs) {
    const left = deadline - Date.now();
    if (left <= 0) break;
    let tcp: Deno.TcpConn | undefined;
    try {
      tcp = await Deno.connect({ hostname, port, signal: AbortSignal.timeout(left) });
      if (u.protocol !== "https:") return tcp;
      const tls = await withDeadline(
        Deno.startTls(tcp, {
          hostname: u.hostname.replace(/^\[|\]$/g, ""),
          caCerts: policy.caCerts,
        }),
        deadline,
      );
      await withDeadline(tls.handshake(), deadline);
      return tls;
    } catch (e) {
      last = e;
      try {
        tcp?.close();
      } catch {
        // closed
      }
      if (e instanceof FetchError) throw e;
    }
  }
  if (Date.now() >= deadline) throw new FetchError("The fetch timed out.");
  throw new FetchError(
    `Could not connect to ${u.host}: ${String((last as Error)?.message ?? last).split("\n")[0]}`,
  );
}

function withDeadline<T>(p: Promise<T>, deadline: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, fail) => {
    timer = setTimeout(
      () => fail(new FetchError("The fetch timed out.")),
      Math.max(0, deadline - Date.now()),
    );
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

async function writeAll(conn: Deno.Conn, data: Uint8Array): Promise<void> {
  let off = 0;
  while (off < data.length) off += await conn.write(data.subarray(off));
}

/** Buffered reads from a connection: a list of chunks, so a large body is copied once. */
class ConnReader {
  readonly #conn: Deno.Conn;
  #chunks: Uint8Array[] = [];
  #size = 0;
  #eof = false;

  constructor(conn: Deno.Conn) {
    this.#conn = conn;
  }

  get buffered(): number {
    return this.#size;
  }

  /** Reads more into the buffer; false at the end of the stream. */
  async fill(): Promise<boolean> {
    if (this.#eof) return false;
    const chunk = new Uint8Array(64 * 1024);
    let n: number | null;
    try {
      n = await this.#conn.read(chunk);
    } catch (e) {
      // A TLS peer that closes without close_notify ends the body like a TCP close would.
      if (e instanceof Deno.errors.UnexpectedEof) n = null;
      else throw e;
    }
    if (n === null) {
      this.#eof = true;
      return false;
    }
    this.#chunks.push(chunk.subarray(0, n));
    this.#size += n;
    return true;
  }

  /** The buffer as one array (only called while it is small: heads and chunk lines). */
  #flat(): Uint8Array {
    if (this.#chunks.length > 1) this.#chunks = [concat(this.#chunks, this.#size)];
    return this.#chunks[0] ?? new Uint8Array(0);
  }

  /** Index of `seq` in the buffer, or -1. */
  indexOf(seq: number[]): number {
    const buf = this.#flat();
    outer: for (let i = 0; i + seq.length <= buf.length; i++) {
      for (let j = 0; j < seq.length; j++) if (buf[i + j] !== seq[j]) continue outer;
      return i;
    }
    return -1;
  }

  /** Takes `n` bytes (at most what is buffered) off the front of the buffer. */
  take(n: number): Uint8Array {
    const parts: Uint8Array[] = [];
    let want = Math.min(n, this.#size);
    const total = want;
    while (want > 0) {
      const c = this.#chunks[0];
      if (c.length <= want) {
        parts.push(c);
        this.#chunks.shift();
        want -= c.length;
      } else {
        parts.push(c.subarray(0, want));
        this.#chunks[0] = c.subarray(want);
        want = 0;
      }
    }
    this.#size -= total;
    return parts.length === 1 ? parts[0] : concat(parts, total);
  }
}

function concat(parts: Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}

const CRLF = [13, 10];
const CRLFCRLF = [13, 10, 13, 10];

async function readHead(r: ConnReader): Promise<{ status: number; headers: Headers }> {
  let end = -1;
  while ((end = r.indexOf(CRLFCRLF)) === -1) {
    if (r.buffered > MAX_HEAD) throw new FetchError("The server's response headers are too large.");
    if (!(await r.fill())) throw new FetchError("The server closed the connection early.");
  }
  if (end > MAX_HEAD) throw new FetchError("The server's response headers are too large.");
  const text = new TextDecoder("latin1").decode(r.take(end + 4));
  const [statusLine, ...lines] = text.split("\r\n");
  const m = /^HTTP\/1\.[01] ([0-9]{3})(?: .*)?$/.exec(statusLine);
  if (!m) throw new FetchError("The server did not answer with HTTP/1.1.");
  const headers = new Headers();
  for (const line of lines) {
    if (!line) continue;
    const colon = line.indexOf(":");
    if (colon <= 0) throw new FetchError("The server sent a malformed header.");
    try {
      headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
    } catch {
      throw new FetchError("The server sent a malformed header.");
    }
  }
  return { status: Number(m[1]), headers };
}

function tooLarge(max: number): FetchError {
  return new FetchError(`The file is larger than ${max} bytes.`);
}

async function readBody(r: ConnReader, headers: Headers, max: number): Promise<Uint8Array> {
  const te = (headers.get("transfer-encoding") ?? "").toLowerCase();
  if (te && te !== "chunked") throw new FetchError(`Unsupported transfer encoding ${te}.`);
  if (te === "chunked") return await readChunked(r, max);
  const lengthText = headers.get("content-length");
  if (lengthText !== null) {
    if (!/^[0-9]{1,15}$/.test(lengthText)) throw new FetchError("Bad Content-Length.");
    const length = Number(lengthText);
    if (length > max) throw tooLarge(max);
    while (r.buffered < length) {
      if (!(await r.fill())) throw new FetchError("The server closed the connection early.");
    }
    return r.take(length);
  }
  // No length: the body runs to the end of the connection.
  while (await r.fill()) if (r.buffered > max) throw tooLarge(max);
  if (r.buffered > max) throw tooLarge(max);
  return r.take(r.buffered);
}

async function readChunked(r: ConnReader, max: number): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    let eol: number;
    while ((eol = r.indexOf(CRLF)) === -1) {
      if (r.buffered > 1024) throw new FetchError("Bad chunked encoding.");
      if (!(await r.fill())) throw new FetchError("The server closed the connection early.");
    }
    const line = new TextDecoder().decode(r.take(eol + 2)).trim().split(";")[0].trim();
    if (!/^[0-9a-fA-F]{1,12}$/.test(line)) throw new FetchError("Bad chunked encoding.");
    const size = parseInt(line, 16);
    if (size === 0) break; // trailers, if any, are not needed
    total += size;
    if (total > max) throw tooLarge(max);
    while (r.buffered < size + 2) {
      if (!(await r.fill())) throw new FetchError("The server closed the connection early.");
    }
    parts.push(r.take(size));
    r.take(2);
  }
  return concat(parts, total);
}
