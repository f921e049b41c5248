/**
 * The sidecar's TLS telnet port (`server.telnetTls`, what Mudlet's "secure connection" dials).
 * Each connection finishes its TLS handshake here, then is handed to the sidecar like a plain
 * one. The key and certificate files are checked every few seconds: a renewed pair is used for
 * new connections at once (the listener is reopened), connected players are not touched.
 */
import type { TlsPair } from "../../tls/certs.ts";
import { oneLine } from "../../startup_error.ts";
import { AddressCounts } from "../../net/address_counts.ts";
import { plainAddress } from "../../net/client_address.ts";
import { TlsAborter } from "../../net/tls_abort.ts";

/** Settings of the TLS listener. */
export interface TlsListenerOptions {
  hostname: string;
  port: number;
  /** Reads the key and certificate (throws with a one-line reason). */
  read: () => Promise<TlsPair>;
  /** Files whose change means a renewed certificate. */
  watch: string[];
  /** Receives each connection after its handshake. */
  admit: (conn: Deno.TlsConn) => void;
  log: (line: string) => void;
  /** How often the files are checked (default 2 s). */
  pollMs?: number;
  /** Longest a handshake may take (default 10 s). */
  handshakeMs?: number;
  /**
   * Handshakes one address (an IPv6 /64) may have under way at once; more are dropped as they
   * come (`server.maxConnectionsPerIp`, which counts players only after their handshake); 0 = no
   * bound.
   */
  maxHandshakesPerIp: number;
}

/** The running TLS listener. */
export class TlsTelnetListener {
  readonly #o: TlsListenerOptions;
  #listener: Deno.TlsListener | null = null;
  /** The accept loop of `#listener`; it ends once the listener is closed and its port free. */
  #accepting: Promise<void> = Promise.resolve();
  #stamp = "";
  #timer: ReturnType<typeof setInterval> | undefined;
  #stopped = false;
  /** Handshakes under way, by address group. */
  readonly #handshaking = new AddressCounts();
  /** Ends connections dropped before their handshake (Deno's close() does not). */
  readonly #aborter = new TlsAborter();

  constructor(opts: TlsListenerOptions) {
    this.#o = opts;
  }

  /** Opens the port with the current pair; throws (one line) when it cannot. */
  async start(): Promise<Deno.NetAddr> {
    const pair = await this.#o.read();
    this.#stamp = await this.#fileStamp();
    const addr = this.#open(pair);
    this.#timer = setInterval(() => void this.#checkRenewal(), this.#o.pollMs ?? 2_000);
    return addr;
  }

  /** Closes the port (connected players stay with the sidecar). */
  stop(): void {
    this.#stopped = true;
    clearInterval(this.#timer);
    try {
      this.#listener?.close();
    } catch { /* already closed */ }
    this.#aborter.pass();
    this.#aborter.stop();
  }

  #open(pair: TlsPair): Deno.NetAddr {
    const l = Deno.listenTls({
      hostname: this.#o.hostname,
      port: this.#o.port,
      key: pair.key,
      cert: pair.cert,
    });
    this.#listener = l;
    const addr = l.addr as Deno.NetAddr;
    this.#o.log(`telnet: TLS listening on ${addr.hostname}:${addr.port}`);
    this.#accepting = this.#accept(l);
    return addr;
  }

  async #fileStamp(): Promise<string> {
    const parts = await Promise.all(this.#o.watch.map(async (f) => {
      const st = await Deno.stat(f).catch(() => null);
      return st ? `${st.mtime?.getTime()}:${st.size}` : "-";
    }));
    return parts.join("|");
  }

  async #checkRenewal(): Promise<void> {
    if (this.#stopped) return;
    const stamp = await this.#fileStamp();
    if (stamp === this.#stamp) return;
    let pair: TlsPair;
    try {
      pair = await this.#o.read();
    } catch (e) {
      // Half-written files during a renewal: keep serving the old pair and look again.
      this.#o.log(`telnet: the renewed certificate cannot be used yet: ${oneLine(e)}`);
      return;
    }
    this.#stamp = stamp;
    const old = this.#listener;
    this.#listener = null;
    try {
      old?.close();
    } catch { /* already closed */ }
    // The port is free only once the old listener's pending accept has ended: opening it before
    // that failed with "Address already in use", and the port stayed closed until the next check.
    await this.#accepting;
    if (this.#stopped) return;
    try {
      this.#open(pair);
      this.#o.log("telnet: TLS certificate renewed; new connections use it");
    } catch (e) {
      this.#o.log(`telnet: the renewed certificate was refused (${oneLine(e)}); retrying`);
      this.#stamp = "";
    }
  }

  async #accept(l: Deno.TlsListener): Promise<void> {
    for (;;) {
      let conn: Deno.TlsConn;
      try {
        conn = await l.accept();
      } catch (e) {
        if (this.#stopped || l !== this.#listener) return;
        if (e instanceof Deno.errors.BadResource) {
          this.#o.log(`telnet: the TLS listener is gone: ${oneLine(e)}`);
          return;
        }
        await new Promise((r) => setTimeout(r, 50));
        continue;
      }
      void this.#handshake(conn);
    }
  }

  async #handshake(conn: Deno.TlsConn): Promise<void> {
    const ip = plainAddress((conn.remoteAddr as Deno.NetAddr).hostname);
    const cap = this.#o.maxHandshakesPerIp;
    if (cap > 0 && this.#handshaking.count(ip) >= cap) {
      this.#aborter.abort(conn);
      return;
    }
    this.#handshaking.add(ip);
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      await Promise.race([
        conn.handshake(),
        new Promise((_, reject) => {
          timer = setTimeout(
            () => reject(new Error("handshake timed out")),
            this.#o.handshakeMs ?? 10_000,
          );
        }),
      ]);
    } catch {
      // A client that does not speak TLS, gives up, or is silent: nothing to tell anyone. The
      // aborter, since close() alone leaves a silent client's socket open.
      this.#aborter.abort(conn);
      return;
    } finally {
      clearTimeout(timer);
      this.#handshaking.remove(ip);
    }
    this.#o.admit(conn);
  }
}
