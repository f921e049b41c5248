/**
 * Scripts are self-contained: the only imports allowed are `import type` (erased before the
 * script runs, e.g. of sdk.d.ts). The sandbox refuses file, network and npm imports by itself
 * (no permissions, --no-remote, --no-npm); this check says so clearly before a script loads.
 */

const STATIC_IMPORT = /^\s*import\s+(?!type\s)[^;]*?\bfrom\s*["']|^\s*import\s*["']/m;
const RE_EXPORT = /^\s*export\s+(?!type\s)(?:\*|\{[^}]*\})\s*(?:as\s+\w+\s*)?from\s*["']/m;
const DYNAMIC_IMPORT = /\bimport\s*\(/;

/** Why a script's source may not load because of its imports, or null. */
export function importProblem(src: string): string | null {
  const code = src.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  if (STATIC_IMPORT.test(code) || RE_EXPORT.test(code)) {
    return "scripts cannot import modules (only `import type` is allowed); the SDK comes in as `u`";
  }
  if (DYNAMIC_IMPORT.test(code)) return "scripts cannot import modules (`import()` is refused)";
  return null;
}
