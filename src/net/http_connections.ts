/**
 * The engine's open HTTP connections, on every listener together (the HTTP port, the WebSocket
 * port, the sidecar link): how many each address holds (`server.maxConnectionsPerIp`, checked at
 * accept; an address at its cap gives up an idle keep-alive connection of its own for a new one,
 * since a client reopens those by itself, and is refused only when all of its connections are
 * busy or still waiting for their first request head), and one sweep that closes a connection
 * which has sent no complete request head within `server.headerTimeout` of opening (silent, half
 * a header, a TLS handshake never finished) or waited idle for its next request longer than
 * `server.keepAliveTimeout`. A connection upgraded to a WebSocket leaves here: the hub counts it
 * and closes it when idle.
 */
import { RefusalLog } from "./refusal_log.ts";
import { addressGroup, type TrustedProxies } from "./client_address.ts";

/** The limits, read at each use so `@reload/config` applies to the next check. */
export interface HttpLimits {
  /** Seconds for a new connection's first request head (0: no bound). */
  headerTimeout: number;
  /** Seconds an idle connection waits for its next request (0: no bound). */
  keepAliveTimeout: number;
  /** Connections per client address (0: no cap). */
  maxConnectionsPerIp: number;
  /** Proxies exempt from the cap (their clients are counted by what they forward). */
  trusted: TrustedProxies;
}

/** One open HTTP connection. */
export interface TrackedConnection {
  /** The socket's peer address. */
  readonly peer: string;
  /** Requests seen (0: still waiting for the first head). */
  requests: number;
  /** Requests being answered. */
  inFlight: number;
  /** Since when the connection waits (opened, or its last response went out). */
  since: number;
  /** Counted toward its address's cap. */
  counted: boolean;
  /** Closes it (set by whoever serves it). */
  close: () => void;
  /** It left this set (closed, or handed to the hub). */
  gone: boolean;
}

/** The engine's open HTTP connections (see the module's comment). */
export class HttpConnections {
  readonly #open = new Set<TrackedConnection>();
  /** The counted connections of each address group (an IPv6 /64 is one). */
  readonly #perAddress = new Map<string, Set<TrackedConnection>>();
  /** Requests under way, by address group (counted connections only). */
  readonly #requests = new Map<string, number>();
  readonly #limits: () => HttpLimits;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #stopped = false;
  /** Refused connections, logged without a line per connection. */
  readonly refusals: RefusalLog;

  /** `limits` is read at each check; `log` takes the refusal lines. */
  constructor(limits: () => HttpLimits, log: (line: string) => void) {
    this.#limits = limits;
    this.refusals = new RefusalLog("engine", log);
  }

  /** Open HTTP connections (upgraded ones not included). */
  get size(): number {
    return this.#open.size;
  }

  /** Connections `peer` holds toward the cap. */
  countOf(peer: string): number {
    return this.#perAddress.get(addressGroup(peer))?.size ?? 0;
  }

  /**
   * Starts tracking a connection just accepted from `peer`; null when its address already holds
   * its share (the refusal is logged; nothing was counted).
   */
  open(peer: string): TrackedConnection | null {
    const limits = this.#limits();
    const counted = !limits.trusted.has(peer);
    // Counted by group (an IPv6 /64 as one, as every per-address limit), trusted by address.
    const group = addressGroup(peer);
    let mine = this.#perAddress.get(group);
    if (
      counted && limits.maxConnectionsPerIp > 0 && (mine?.size ?? 0) >= limits.maxConnectionsPerIp
    ) {
      const idle = mine && idleOf(mine);
      if (!idle) {
        this.refusals.note("per-address cap", peer);
        return null;
      }
      idle.close();
      this.#forget(idle);
      mine = this.#perAddress.get(group);
    }
    const t: TrackedConnection = {
      peer,
      requests: 0,
      inFlight: 0,
      since: Date.now(),
      counted,
      close: () => {},
      gone: false,
    };
    if (counted) {
      if (!mine) this.#perAddress.set(group, mine = new Set());
      mine.add(t);
    }
    this.#open.add(t);
    this.#arm();
    return t;
  }

  /**
   * A request head arrived on `t`; false when its address already has as many requests under
   * way as it may have connections (`server.maxConnectionsPerIp`), and the request is to be
   * refused unanswered by the handler. Over HTTP/1.1 a connection carries one request at a time,
   * so this changes nothing there; over HTTP/2 one connection carried hundreds at once (1,100
   * scene creations by one player took the engine from 140 to 730 MB and kept every other
   * player waiting 11 s).
   */
  busy(t: TrackedConnection): boolean {
    t.requests++;
    if (t.counted) {
      const cap = this.#limits().maxConnectionsPerIp;
      const group = addressGroup(t.peer);
      const under = this.#requests.get(group) ?? 0;
      if (cap > 0 && under >= cap) {
        this.refusals.note("per-address requests under way", t.peer);
        return false;
      }
      this.#requests.set(group, under + 1);
    }
    t.inFlight++;
    return true;
  }

  /** A response on `t` went out (or failed): it waits for its next request from now. */
  idle(t: TrackedConnection): void {
    if (t.inFlight > 0) {
      t.inFlight--;
      if (t.counted) this.#release(addressGroup(t.peer), 1);
    }
    t.since = Date.now();
  }

  #release(group: string, n: number): void {
    const left = (this.#requests.get(group) ?? 0) - n;
    if (left > 0) this.#requests.set(group, left);
    else this.#requests.delete(group);
  }

  /** `t` became a WebSocket: the hub has it now (its count, its idle rules). */
  handOver(t: TrackedConnection): void {
    this.#forget(t);
  }

  /** `t` ended. */
  closed(t: TrackedConnection): void {
    this.#forget(t);
  }

  /** Closes every connection not answering a request (the listeners are stopping). */
  closeIdle(): void {
    for (const t of this.#open) if (t.inFlight === 0) t.close();
  }

  /** Closes every connection left. */
  closeAll(): void {
    for (const t of this.#open) t.close();
  }

  /** Stops the sweep for good (the engine is stopping) and logs pending refusals. */
  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.refusals.stop();
  }

  #forget(t: TrackedConnection): void {
    if (t.gone) return;
    t.gone = true;
    this.#open.delete(t);
    const group = t.counted ? addressGroup(t.peer) : "";
    const mine = t.counted ? this.#perAddress.get(group) : undefined;
    if (mine?.delete(t) && mine.size === 0) this.#perAddress.delete(group);
  }

  /** Runs the sweep while there are connections (a no-op when armed or stopped). */
  #arm(): void {
    if (this.#timer !== undefined || this.#stopped || this.#open.size === 0) return;
    const { headerTimeout, keepAliveTimeout } = this.#limits();
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#sweep();
      this.#arm();
    }, sweepMs(headerTimeout, keepAliveTimeout));
  }

  #sweep(): void {
    const { headerTimeout, keepAliveTimeout } = this.#limits();
    const now = Date.now();
    for (const t of this.#open) {
      if (t.inFlight > 0) continue;
      const limit = t.requests === 0 ? headerTimeout : keepAliveTimeout;
      if (limit > 0 && now - t.since >= limit * 1000) t.close();
    }
  }
}

/** A connection of `set` that answered a request and waits idle for the next, if any. */
function idleOf(set: Set<TrackedConnection>): TrackedConnection | undefined {
  for (const t of set) if (t.inFlight === 0 && t.requests > 0) return t;
  return undefined;
}

/** Interval of the sweep: a quarter of the shorter bound, from 250 ms to 1 s. */
export function sweepMs(headerTimeout: number, keepAliveTimeout: number): number {
  const bounds = [headerTimeout, keepAliveTimeout].filter((s) => s > 0);
  if (bounds.length === 0) return 1_000;
  return Math.min(1_000, Math.max(250, Math.floor(Math.min(...bounds) * 1000 / 4)));
}
