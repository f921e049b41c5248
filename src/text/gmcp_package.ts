/**
 * What a GMCP package name may be: shared by the hub, which takes plugins' GMCP mappings
 * (src/hub/gmcp_map.ts), and the telnet protocol, which encodes and forwards GMCP messages; and
 * which packages a client that announced its list (`Core.Supports`) gets.
 */

/** Longest package name accepted, in characters. */
export const MAX_GMCP_PACKAGE = 128;

const PACKAGE_RE = /^[A-Za-z0-9_][A-Za-z0-9_.\-]*$/;

/** True for a usable GMCP package name: dotted words (`Comm.Channel.Text`), at most 128 characters. */
export function isGmcpPackage(pkg: string): boolean {
  return pkg.length <= MAX_GMCP_PACKAGE && PACKAGE_RE.test(pkg);
}

/**
 * True when a client that announced `supported` (lower-cased modules; null: never announced)
 * gets `pkg`: `Core.*` always; otherwise when the package or one of its parents was announced
 * (`Comm.Channel` covers `Comm.Channel.Text`).
 */
export function gmcpWanted(supported: ReadonlySet<string> | null, pkg: string): boolean {
  if (supported === null) return true;
  const lower = pkg.toLowerCase();
  if (lower.startsWith("core.")) return true;
  let end = lower.length;
  while (end > 0) {
    if (supported.has(lower.slice(0, end))) return true;
    end = lower.lastIndexOf(".", end - 1);
  }
  return false;
}
