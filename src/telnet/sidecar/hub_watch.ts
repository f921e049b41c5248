/**
 * Notices the moment the hub accepts connections again, so players waiting through a restart are
 * resumed at once instead of at their next retry (up to half a second later). One cheap probe
 * serves the whole sidecar; each link keeps its own retries as the fallback.
 */

/** Where the hub listens. */
export interface HubAddress {
  hostname: string;
  port: number;
}

/** Resolves true when something accepts a TCP connection at `addr`. */
export type HubProbe = (addr: HubAddress) => Promise<boolean>;

/** The hub's address from its WebSocket URL (brackets of an IPv6 host removed). */
export function hubAddress(hubUrl: string): HubAddress {
  const url = new URL(hubUrl);
  const port = Number(url.port) || (url.protocol === "wss:" ? 443 : 80);
  return { hostname: url.hostname.replace(/^\[(.*)\]$/, "$1"), port };
}

/** A TCP connect that is closed at once. */
export const tcpProbe: HubProbe = async (addr) => {
  try {
    const conn = await Deno.connect({ hostname: addr.hostname, port: addr.port });
    conn.close();
    return true;
  } catch {
    return false;
  }
};

/**
 * Polls the hub's port while someone waits for it; calls `onUp` once it answers after having been
 * closed. An engine on its way out still accepts connections (and refuses them at once), so a
 * port that answers from the start says nothing: waking everyone then would only make every
 * player dial the dying engine again.
 */
export class HubWatch {
  readonly #addr: HubAddress;
  readonly #onUp: () => void;
  readonly #intervalMs: number;
  readonly #probe: HubProbe;
  #active = false;
  #sawDown = false;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    addr: HubAddress,
    onUp: () => void,
    opts: { intervalMs?: number; probe?: HubProbe } = {},
  ) {
    this.#addr = addr;
    this.#onUp = onUp;
    this.#intervalMs = opts.intervalMs ?? 100;
    this.#probe = opts.probe ?? tcpProbe;
  }

  /** True while polling. */
  get active(): boolean {
    return this.#active;
  }

  /** Starts polling (nothing happens if it already is). */
  start(): void {
    if (this.#active) return;
    this.#active = true;
    this.#sawDown = false;
    this.#schedule();
  }

  /** Stops polling. */
  stop(): void {
    this.#active = false;
    clearTimeout(this.#timer);
  }

  #schedule(): void {
    this.#timer = setTimeout(() => this.#tick(), this.#intervalMs);
  }

  async #tick(): Promise<void> {
    if (!this.#active) return;
    const up = await this.#probe(this.#addr).catch(() => false);
    if (!this.#active) return;
    if (!up || !this.#sawDown) {
      this.#sawDown ||= !up;
      return this.#schedule();
    }
    this.#active = false;
    this.#onUp();
  }
}
