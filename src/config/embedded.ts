/**
 * Where a compiled binary's own folders are: the configuration keys that name text/, help/ and
 * plugins/ point into the binary unless the game directory has its own.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * In a compiled binary, text/, help/ and plugins/ come from the binary unless the game directory
 * has its own (what the dist launcher does for the archive); children inherit the settings.
 */
export function useEmbeddedFiles(root: string, env: Record<string, string>): void {
  const embedded = fileURLToPath(new URL("../..", import.meta.url));
  const has = (p: string) => {
    try {
      Deno.statSync(join(root, p));
      return true;
    } catch {
      return false;
    }
  };
  const defaults: [string, string, string][] = [
    ["URSAMU_SERVER_TEXTDIR", "text", "text"],
    ["URSAMU_GAME_TEXT_CONNECT", "text/connect.txt", "text/connect.txt"],
    ["URSAMU_SERVER_HELPDIR", "help", "help"],
    ["URSAMU_SERVER_PLUGINSDIR", "plugins", "plugins"],
  ];
  for (const [name, local, inside] of defaults) {
    if (env[name] || has(local)) continue;
    env[name] = join(embedded, inside);
    Deno.env.set(name, env[name]);
  }
}
