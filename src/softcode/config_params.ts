/**
 * TinyMUX's configuration parameters this game has, as softcode's `config()` reads them: each
 * MUX name with the setting it shows and who may read it, MUX's read permission kept (`public`
 * for its CA_PUBLIC parameters, `staff` for its CA_WIZARD ones). Only what maps to a setting of
 * the engine is here, and nothing MUX keeps for God alone (files, databases, addresses): no
 * path, address, secret or plugin setting can be read through it, whatever the reader. The
 * same table names what MUX's `@admin` may set here (`site`): one list of MUX's names.
 */
import type { EngineConfig } from "../config/defaults.ts";
import { getPath } from "../config/load.ts";
import { masterRoomId } from "./programs/mod.ts";

/** Who may read a parameter. */
export type ParamReaders = "public" | "staff";

/** One MUX parameter: who may read it and its value, in MUX's form (booleans are 1 and 0). */
export interface MuxParam {
  /** Who `config()` shows it to; null: `config()` does not have it (only `@admin` sets it). */
  readers: ParamReaders | null;
  value(c: EngineConfig): string;
  /** The site setting `@admin <name>=<value>` changes (src/commands/core/site.ts); none: read-only. */
  site?: string;
}

const flag = (b: boolean) => (b ? "1" : "0");
const dbref = (id: string) => (id ? `#${id}` : "#-1");
/** A plugin is on unless its section turns it off (docs/configuration.md). */
const pluginOn = (c: EngineConfig, name: string) => c.plugins[name]?.enabled !== false;
/** A parameter that is one site setting, shown as it is and changed by `@admin`. */
const site = (readers: ParamReaders | null, key: string): MuxParam => ({
  readers,
  value: (c) => String(getPath(c, key)),
  site: key,
});

/** The parameters, by MUX's lower-case name, in alphabetical order (`config()` lists them so). */
export const MUX_PARAMS: Readonly<Record<string, MuxParam>> = {
  conn_timeout: { readers: "staff", value: (c) => String(c.server.loginTimeout) },
  function_invocation_limit: {
    readers: "public",
    value: (c) => String(c.softcode.functionInvocations),
  },
  function_recursion_limit: { readers: "public", value: (c) => String(c.softcode.recursionDepth) },
  guest_prefix: { readers: "public", value: (c) => c.game.guestPrefix },
  have_comsys: { readers: "public", value: (c) => flag(pluginOn(c, "channels")) },
  have_mailer: { readers: "public", value: (c) => flag(pluginOn(c, "mail")) },
  have_zones: { readers: "public", value: () => "1" },
  idle_timeout: { readers: "public", value: (c) => String(c.game.idleTimeout) },
  lbuf_size: { readers: "public", value: (c) => String(c.softcode.outputLength) },
  master_room: { readers: "staff", value: (c) => dbref(masterRoomId(c.softcode.masterRoom)) },
  // MUX's -1 is no limit, as the engine's 0.
  max_players: { readers: "staff", value: (c) => String(c.game.maxPlayers || -1) },
  motd_message: { readers: "staff", value: (c) => c.game.loginMessage },
  mud_name: { readers: "public", value: (c) => c.game.name },
  number_guests: { readers: "staff", value: (c) => String(c.game.maxGuests) },
  pcreate_per_hour: { readers: "public", value: (c) => String(c.game.registrationsPerHour) },
  player_queue_limit: site("public", "queue.playerLimit"),
  player_starting_room: {
    readers: "public",
    value: (c) => dbref(masterRoomId(c.game.startingRoom)),
  },
  port: { readers: "public", value: (c) => String(c.server.telnet) },
  quotas: { readers: "public", value: (c) => flag(c.game.objectQuota > 0) },
  starting_quota: { readers: "public", value: (c) => String(c.game.objectQuota) },
  // Set by installers through `@admin`; `config()` has never shown it.
  wizard_queue_limit: site(null, "queue.staffLimit"),
};

/** The names `staff` (or not) may read, in alphabetical order. */
export function paramNames(staff: boolean): string[] {
  return Object.keys(MUX_PARAMS).filter((n) => {
    const readers = MUX_PARAMS[n].readers;
    return readers === "public" || (staff && readers === "staff");
  });
}

/** The parameters `@admin` sets, by MUX's name, with the site setting each one changes. */
export function adminParams(): Readonly<Record<string, string>> {
  return Object.fromEntries(
    Object.entries(MUX_PARAMS).flatMap(([name, p]) => p.site ? [[name, p.site]] : []),
  );
}

/**
 * One parameter's value for a reader: undefined when the game has no parameter of that name
 * (any case), null when the reader may not read it.
 */
export function paramValue(
  c: EngineConfig,
  name: string,
  staff: boolean,
): string | null | undefined {
  const key = name.toLowerCase();
  if (!Object.hasOwn(MUX_PARAMS, key) || MUX_PARAMS[key].readers === null) return undefined;
  const p = MUX_PARAMS[key];
  return staff || p.readers === "public" ? p.value(c) : null;
}
