/**
 * Which GMCP packages a telnet client asked for (`Core.Supports.Set/Add/Remove`, IRE's
 * convention, which Mudlet follows): a client that announced its packages gets those and their
 * children only; one that never did (TinTin++, scripts) gets every package, as before.
 * `Core.*` always goes. docs/telnet.md, "GMCP".
 */
import { isGmcpPackage } from "../../text/gmcp_package.ts";

/** Most modules a client may announce; the rest of a longer list is ignored. */
export const MAX_SUPPORTED = 64;

/** What a `Core.Supports.*` message asks. */
export type SupportsOp = "set" | "add" | "remove";

/** The operation of a `Core.Supports.*` package (any case), or null for another package. */
export function supportsOp(pkg: string): SupportsOp | null {
  switch (pkg.toLowerCase()) {
    case "core.supports.set":
      return "set";
    case "core.supports.add":
      return "add";
    case "core.supports.remove":
      return "remove";
    default:
      return null;
  }
}

/**
 * The module names of a `Core.Supports.*` payload (`["Room 1", "Comm.Channel 1"]`), lower-cased,
 * at most {@linkcode MAX_SUPPORTED}; entries that are not a string naming a package are skipped.
 * Null for a payload that is not an array (the message is ignored: it changes nothing).
 */
export function supportedModules(data: unknown): string[] | null {
  if (!Array.isArray(data)) return null;
  const out: string[] = [];
  // Bounded: a hostile list of a million entries costs a slice, not a loop over it.
  for (const entry of data.slice(0, MAX_SUPPORTED)) {
    if (typeof entry !== "string") continue;
    const name = entry.trim().split(/\s+/, 1)[0];
    if (name !== "" && isGmcpPackage(name)) out.push(name.toLowerCase());
  }
  return out;
}

/**
 * The packages a client gets after a `Core.Supports.*` message: `current` null means it never
 * announced any (everything goes). Never more than {@linkcode MAX_SUPPORTED} modules.
 */
export function applySupports(
  current: readonly string[] | null,
  op: SupportsOp,
  modules: readonly string[],
): string[] {
  if (op === "set") return [...new Set(modules)];
  const held = new Set(current ?? []);
  if (op === "add") {
    for (const m of modules) if (held.size < MAX_SUPPORTED) held.add(m);
  } else {
    for (const m of modules) held.delete(m);
  }
  return [...held];
}
