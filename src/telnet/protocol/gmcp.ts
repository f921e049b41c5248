/** GMCP messages: `IAC SB GMCP <Package.Name> [json] IAC SE`. */

import { subnegotiationBytes } from "./bytes.ts";
import { GMCP } from "./constants.ts";
import { isGmcpPackage } from "../../text/gmcp_package.ts";

/** A decoded GMCP message. */
export interface GmcpMessage {
  /** Package and message name as sent, e.g. `Core.Hello`. */
  package: string;
  /** The parsed JSON payload; undefined when there is none or it is not valid JSON. */
  data: unknown;
  /** The payload text after the name (empty when there is none). */
  raw: string;
}

/**
 * Encodes a GMCP message; `data` undefined sends the name alone. Throws RangeError on a package
 * name that is not dotted words, and whatever `JSON.stringify` throws (both are caller bugs).
 */
export function encodeGmcp(pkg: string, data?: unknown): Uint8Array {
  if (!isGmcpPackage(pkg)) {
    throw new RangeError(`invalid GMCP package name: ${JSON.stringify(pkg.slice(0, 40))}`);
  }
  const text = data === undefined ? pkg : `${pkg} ${JSON.stringify(data)}`;
  return subnegotiationBytes(GMCP, new TextEncoder().encode(text));
}

/** Decodes a GMCP subnegotiation payload; null when it has no usable package name. Never throws. */
export function decodeGmcp(payload: Uint8Array): GmcpMessage | null {
  const text = new TextDecoder("utf-8", { fatal: false }).decode(payload);
  const match = /^\s*(\S+)\s*([\s\S]*)$/.exec(text);
  if (match === null) return null;
  const pkg = match[1];
  if (!isGmcpPackage(pkg)) return null;
  const raw = match[2].trim();
  let data: unknown = undefined;
  if (raw !== "") {
    try {
      data = JSON.parse(raw);
    } catch {
      data = undefined;
    }
  }
  return { package: pkg, data, raw };
}
