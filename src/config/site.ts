/**
 * `@site` settings persist in KV and are applied over the config file at every start,
 * as the programmatic layer (environment variables still win).
 */
import { keys } from "../storage/keys.ts";
import { SITE_KEYS } from "./defaults.ts";
import type { Config } from "./load.ts";

/** Applies the stored site settings; unknown or no-longer-valid ones are skipped with a warning. */
export async function applySiteSettings(
  kv: Deno.Kv,
  config: Config,
  warn: (m: string) => void = (m) => console.warn(m),
): Promise<number> {
  let applied = 0;
  for await (const e of kv.list<unknown>({ prefix: keys.siteSettings() })) {
    const path = String(e.key[1]);
    const refused = SITE_KEYS.includes(path)
      ? config.set(path, e.value)
      : `'${path}' is not a site key`;
    if (refused) warn(`config: stored site setting skipped: ${refused}`);
    else applied++;
  }
  return applied;
}

/** Sets a site key now and stores it for later starts; returns the refusal reason or null. */
export async function setSiteSetting(
  kv: Deno.Kv,
  config: Config,
  path: string,
  value: unknown,
): Promise<string | null> {
  if (!SITE_KEYS.includes(path)) return `'${path}' is not a site key`;
  const refused = config.set(path, value);
  if (refused) return refused;
  await kv.set(keys.siteSetting(path), value);
  return null;
}
