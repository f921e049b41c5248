/**
 * What a GMCP package name may be: shared by the hub, which takes plugins' GMCP mappings
 * (src/hub/gmcp_map.ts), and the telnet protocol, which encodes and forwards GMCP messages.
 */

/** Longest package name accepted, in characters. */
export const MAX_GMCP_PACKAGE = 128;

const PACKAGE_RE = /^[A-Za-z0-9_][A-Za-z0-9_.\-]*$/;

/** True for a usable GMCP package name: dotted words (`Comm.Channel.Text`), at most 128 characters. */
export function isGmcpPackage(pkg: string): boolean {
  return pkg.length <= MAX_GMCP_PACKAGE && PACKAGE_RE.test(pkg);
}
