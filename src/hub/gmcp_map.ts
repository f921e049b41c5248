/**
 * Plugin-declared GMCP, in one place: which message `data.type` becomes which GMCP package, and
 * how its payload is built (the hub applies a mapping once per message and sends the result to
 * the telnet client inside the frame, `gmcp: [package, payload]`, so telnet code knows nothing
 * of any plugin's messages); which plugin answers a package a client sends (`Comm.Channel.Players`
 * as a request); and whether a player's clients want a package at all (docs/telnet.md, "GMCP").
 */
import { isGmcpPackage } from "../text/gmcp_package.ts";
import type { OutboundData } from "./types.ts";

/**
 * Builds a GMCP payload from a message's structured data and its text (with colour codes);
 * undefined sends no GMCP for that message. Strings in the payload may hold colour codes: the
 * sidecar renders them for each client as it renders message text.
 */
export type GmcpMapper = (data: OutboundData, msg: string) => unknown;

interface Mapping {
  package: string;
  map: GmcpMapper;
  owner: string;
}

/** A message's GMCP form: package name and payload. */
export type GmcpMessage = readonly [pkg: string, payload: unknown];

/**
 * Answers a GMCP message a logged-in player's client sent: `data` is the parsed payload (any
 * JSON value, null when none; at most 8 KiB of it), untrusted. Answers go out as messages.
 */
export type GmcpHandler = (from: { player: string }, data: unknown) => void | Promise<void>;

interface Handling {
  handle: GmcpHandler;
  owner: string;
}

/** Who is connected through what: the player's connections, each knowing what its client wants. */
export interface GmcpClients {
  connectionsOf(playerId: string): ReadonlySet<{ gmcpWants(pkg: string): boolean }> | undefined;
}

/** The mappings and handlers in force, by `data.type` and by package (lower-cased). */
export class GmcpMap {
  readonly #byType = new Map<string, Mapping>();
  readonly #byPackage = new Map<string, Handling>();
  readonly #clients: GmcpClients | null;

  /** `clients` answers `wants` (without it, nobody wants anything). */
  constructor(clients: GmcpClients | null = null) {
    this.#clients = clients;
  }

  /**
   * Maps messages of `type` to GMCP `pkg` for `owner`. A type belongs to one owner: mapping one
   * another owner holds is an error (the owner's own mapping is replaced).
   */
  set(type: string, pkg: string, map: GmcpMapper, owner: string): void {
    if (typeof type !== "string" || type === "") throw new Error("gmcp: a data type is required");
    if (typeof pkg !== "string" || !isGmcpPackage(pkg)) {
      throw new Error(`gmcp: '${String(pkg).slice(0, 40)}' is not a GMCP package name`);
    }
    if (typeof map !== "function") throw new Error("gmcp: the mapping must be a function");
    const held = this.#byType.get(type);
    if (held && held.owner !== owner) {
      throw new Error(`gmcp: messages of type '${type}' are already mapped by ${held.owner}`);
    }
    this.#byType.set(type, { package: pkg, map, owner });
  }

  /**
   * Makes `owner` answer GMCP package `pkg` when a client sends it (any case). A package belongs
   * to one owner; the `Core` package is the telnet client's own and cannot be taken.
   */
  handle(pkg: string, handle: GmcpHandler, owner: string): void {
    if (typeof pkg !== "string" || !isGmcpPackage(pkg)) {
      throw new Error(`gmcp: '${String(pkg).slice(0, 40)}' is not a GMCP package name`);
    }
    const key = pkg.toLowerCase();
    if (key === "core" || key.startsWith("core.")) {
      throw new Error("gmcp: the Core package is answered by the telnet client itself");
    }
    if (typeof handle !== "function") throw new Error("gmcp: the handler must be a function");
    const held = this.#byPackage.get(key);
    if (held && held.owner !== owner) {
      throw new Error(`gmcp: package '${pkg}' is already handled by ${held.owner}`);
    }
    this.#byPackage.set(key, { handle, owner });
  }

  /**
   * A GMCP message from a logged-in player's client: to the handler of its package; a package
   * nobody handles is ignored, and a handler that throws (or rejects) is logged, nothing more.
   */
  receive(from: { player: string }, pkg: string, data: unknown): void {
    const h = this.#byPackage.get(pkg.toLowerCase());
    if (!h) return;
    const failed = (e: unknown) =>
      console.error(`gmcp: ${h.owner}'s handler of '${pkg.slice(0, 64)}' failed: ${e}`);
    try {
      const p = h.handle({ player: from.player }, data);
      if (p instanceof Promise) p.catch(failed);
    } catch (e) {
      failed(e);
    }
  }

  /**
   * True when one of the player's connections speaks GMCP and wants `pkg` (its client announced
   * the package or a parent, or never announced a list): ask before building a costly one.
   */
  wants(playerId: string, pkg: string): boolean {
    for (const c of this.#clients?.connectionsOf(playerId) ?? []) if (c.gmcpWants(pkg)) return true;
    return false;
  }

  /** Drops every mapping and handler of `owner` (its plugin unloaded). */
  removeOwner(owner: string): void {
    for (const [type, m] of this.#byType) if (m.owner === owner) this.#byType.delete(type);
    for (const [pkg, h] of this.#byPackage) if (h.owner === owner) this.#byPackage.delete(pkg);
  }

  /** True when messages of `type` have a mapping. */
  has(type: string): boolean {
    return this.#byType.has(type);
  }

  /** The GMCP form of a message, or null (unmapped type, no payload, or a failing mapper). */
  apply(data: OutboundData, msg: string): GmcpMessage | null {
    const m = this.#byType.get(data.type);
    if (!m) return null;
    try {
      const payload = m.map(data, msg);
      return payload === undefined ? null : [m.package, payload];
    } catch (e) {
      console.error(`gmcp: mapping of '${data.type}' by ${m.owner} failed: ${e}`);
      return null;
    }
  }
}
