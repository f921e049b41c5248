/**
 * The default channels (`plugins.channels.defaultChannels`): the channels a fresh game starts
 * with, and the ones every new player joins (those whose lock lets them, unless `join` is false).
 * An entry is a name (`"Public"`) or an object with the channel's settings; see
 * docs/configuration.md.
 */

/** One default channel, as configured. */
export interface DefaultChannel {
  name: string;
  /** Shown before each line; `[<name>]` when absent. */
  header?: string;
  /** Who may join and talk (a lock expression); everyone when absent. */
  lock?: string;
  /** Listed only for staff and members. */
  hidden?: boolean;
  /** The alias new players get; the first three letters of the name when absent. */
  alias?: string;
  /** False: the channel is made on a fresh game, but new players are not joined to it. */
  join?: boolean;
}

/**
 * A fresh game's channels: Public and OOC for everyone, Staff for staff only. OOC's alias is `o`:
 * `ooc` is the scenes plugin's out-of-character command (and `+ooc <text>` works by name).
 */
export const DEFAULT_CHANNELS: readonly DefaultChannel[] = [
  { name: "Public", header: "[Public]" },
  { name: "OOC", header: "[OOC]", alias: "o" },
  { name: "Staff", header: "[Staff]", lock: "admin+", hidden: true },
];

/**
 * The configured default channels, or the defaults when the setting is absent. Entries that are
 * neither a name nor an object with a `name` are left out (the rest still apply), each reported
 * through `warn`.
 */
export function defaultChannels(
  value: unknown,
  warn: (message: string) => void,
): DefaultChannel[] {
  if (value === undefined) return [...DEFAULT_CHANNELS];
  if (!Array.isArray(value)) {
    warn("plugins.channels.defaultChannels must be a list; using the defaults");
    return [...DEFAULT_CHANNELS];
  }
  const out: DefaultChannel[] = [];
  for (const v of value) {
    if (typeof v === "string" && v.trim()) out.push({ name: v.trim() });
    else if (isEntry(v)) {
      out.push({
        name: v.name.trim(),
        ...(typeof v.header === "string" ? { header: v.header } : {}),
        ...(typeof v.lock === "string" ? { lock: v.lock } : {}),
        ...(typeof v.hidden === "boolean" ? { hidden: v.hidden } : {}),
        ...(typeof v.alias === "string" ? { alias: v.alias } : {}),
        ...(typeof v.join === "boolean" ? { join: v.join } : {}),
      });
    } else warn(`plugins.channels.defaultChannels: skipped ${JSON.stringify(v)?.slice(0, 80)}`);
  }
  return out;
}

function isEntry(v: unknown): v is DefaultChannel & Record<string, unknown> {
  return typeof v === "object" && v !== null &&
    typeof (v as { name?: unknown }).name === "string" &&
    !!(v as { name: string }).name.trim();
}
