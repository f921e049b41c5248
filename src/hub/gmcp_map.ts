/**
 * Plugin-declared GMCP: which message `data.type` becomes which GMCP package, and how its
 * payload is built. The hub applies a mapping once per message and sends the result to the
 * telnet sidecar inside the frame (`gmcp: [package, payload]`); the sidecar forwards it, so
 * telnet code knows nothing of any plugin's messages (docs/protocol.md, "GMCP").
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

/** The mappings in force, by `data.type`. */
export class GmcpMap {
  readonly #byType = new Map<string, Mapping>();

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

  /** Drops every mapping of `owner` (its plugin unloaded). */
  removeOwner(owner: string): void {
    for (const [type, m] of this.#byType) if (m.owner === owner) this.#byType.delete(type);
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
