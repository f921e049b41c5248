/** Plugin errors as one readable status line, with paths relative to the plugins folder. */
import { isAbsolute, relative } from "node:path";
import { fileURLToPath } from "node:url";

/** Longest status line made from an error. */
const MAX_ERROR_TEXT = 500;

/**
 * One line for a status: the error's first line, plus the `file:line:col` a module error
 * points at (a syntax error's message names it only on a later line). File URLs become
 * paths relative to the plugins folder, with a reload's staging folder named as the real one.
 */
export function errText(e: unknown, pluginsDir = ""): string {
  // deno-lint-ignore no-control-regex
  const msg = (e instanceof Error ? e.message : String(e)).replace(/\x1b\[[0-9;]*m/g, "");
  const lines = msg.split("\n");
  let out = lines[0];
  const at = lines.slice(1).map((l) => /^\s*at (file:\/\/\S+)\s*$/.exec(l)?.[1]).find(Boolean);
  if (at && !out.includes(at)) out += ` (at ${at})`;
  return out.replace(/file:\/\/[^\s"'`()]+/g, (url) => shortPath(url, pluginsDir))
    .slice(0, MAX_ERROR_TEXT);
}

function shortPath(url: string, pluginsDir: string): string {
  let path: string;
  try {
    path = fileURLToPath(url.replace(/(:\d+)+$/, ""));
  } catch {
    return url;
  }
  const pos = /(:\d+)+$/.exec(url)?.[0] ?? "";
  path = path.replace(/([/\\])\.([^/\\]+)\.reload-\d+-\d+-[0-9a-f]+(?=[/\\])/, "$1$2");
  const rel = pluginsDir ? relative(pluginsDir, path) : "";
  return (rel && !rel.startsWith("..") && !isAbsolute(rel) ? rel : path) + pos;
}
