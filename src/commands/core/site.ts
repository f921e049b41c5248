/** `@site`: the runtime site settings an admin or wizard may change. */
import type { CommandSdk, CommandSpec } from "../types.ts";
import { defaultConfig, SITE_KEYS } from "../../config/defaults.ts";
import { getPath } from "../../config/load.ts";
import { setSiteSetting } from "../../config/site.ts";
import { CommandError } from "../errors.ts";
import { quote } from "../target.ts";
import { adminParams } from "../../softcode/config_params.ts";

/**
 * MUX's `@admin` parameters this game has, and the site keys they set (the one table of MUX's
 * names, src/softcode/config_params.ts). Softcode installers send `@admin player_queue_limit=...`;
 * anything else is explained and changes nothing.
 */
const ADMIN_PARAMS = adminParams();

/** Longest value accepted or echoed. */
const MAX_VALUE = 2000;

function show(v: unknown): string {
  const s = Array.isArray(v) ? v.join(", ") : String(v ?? "");
  return s.length > 80 ? `${s.slice(0, 80)}...` : s;
}

/** Converts typed text to the type of the key's default; throws CommandError when it cannot. */
function coerce(key: string, raw: string): unknown {
  const def = getPath(defaultConfig(), key);
  if (typeof def === "number") {
    if (!/^-?\d+(\.\d+)?$/.test(raw.trim())) throw new CommandError(`${key} needs a number.`);
    return Number(raw.trim());
  }
  if (Array.isArray(def)) return raw.split(",").map((x) => x.trim()).filter(Boolean);
  return raw;
}

function log(u: CommandSdk, event: "ADMIN_SITE_SET" | "ADMIN_SITE_BLOCKED", detail: string) {
  void u.engine.securityLog.write(event, {
    actor: u.me.id,
    target: null,
    ip: u.conn?.ip ?? null,
    detail,
  });
}

/** The site family. */
export const commands: CommandSpec[] = [
  {
    name: "@site",
    lock: "admin+",
    category: "Admin",
    help: `@site                  lists the site settings and their values
@site <key>            shows one
@site <key>=<value>    changes one, now and for later starts

Only these keys may change: ${SITE_KEYS.join(", ")}. Lists (server.corsOrigins) take
comma-separated values. Any other key is refused and logged. Settings are stored in the
database and applied over config/config.json at every start; an URSAMU_* environment
variable for the same key still wins. Admin, wizard or superuser.

Example:
  @site game.maxPlayers=50`,
    async exec(u) {
      const cfg = u.engine.config;
      const typed = u.cmd.lhs.trim();
      if (!typed) {
        const lines = [
          "%chSite settings:%cn",
          ...SITE_KEYS.map((k) => `  ${k} = ${show(cfg.get(k))}`),
        ];
        return u.send(lines.join("\n"), {
          type: "site",
          settings: Object.fromEntries(SITE_KEYS.map((k) => [k, cfg.get(k)])),
        });
      }
      const key = SITE_KEYS.find((k) => k.toLowerCase() === typed.toLowerCase());
      if (!key) {
        // The value is not logged: a refused key may be a secret (jwt.secret=...).
        log(u, "ADMIN_SITE_BLOCKED", typed.slice(0, 100));
        throw new CommandError(
          `'${quote(typed)}' cannot be changed with @site. Allowed keys: ${SITE_KEYS.join(", ")}.`,
        );
      }
      if (u.cmd.rhs === null) return u.send(`${key} = ${show(cfg.get(key))}`);
      await setSite(u, key, u.cmd.rhs);
    },
  },
  {
    name: "@admin",
    lock: "admin+",
    category: "Admin",
    help: `@admin                     lists the MUX parameters this game takes
@admin <parameter>=<value>  sets one, now and for later starts (as @site does)

TinyMUX's @admin changes its configuration parameters; softcode installers send some. This
game takes: ${
      Object.entries(ADMIN_PARAMS).map(([p, k]) => `${p} (${k})`).join(", ")
    }. Any other parameter is answered with why it does not apply, and changes nothing: the
game's own settings are changed with @site. Admin, wizard or superuser.

Example:
  @admin player_queue_limit=200`,
    async exec(u) {
      const param = u.cmd.lhs.trim().toLowerCase();
      const cfg = u.engine.config;
      if (!param) {
        return u.send(
          Object.entries(ADMIN_PARAMS).map(([p, k]) => `${p} = ${show(cfg.get(k))} (${k})`)
            .join("\n"),
        );
      }
      const key = ADMIN_PARAMS[param];
      if (!key) {
        return u.send(
          `@admin: '${quote(param.slice(0, 64))}' is a MUX parameter this game does not have; ` +
            `nothing changed. @admin takes ${Object.keys(ADMIN_PARAMS).join(", ")}; the ` +
            "game's own settings are changed with @site.",
        );
      }
      if (u.cmd.rhs === null) return u.send(`${param} = ${show(cfg.get(key))}`);
      await setSite(u, key, u.cmd.rhs);
    },
  },
];

/** Changes one site setting, stored for later starts, and says so. */
async function setSite(u: CommandSdk, key: string, raw: string): Promise<void> {
  if (raw.length > MAX_VALUE) {
    throw new CommandError(`Values must be ${MAX_VALUE} characters or fewer.`);
  }
  const cfg = u.engine.config;
  const refused = await setSiteSetting(u.engine.kv, cfg, key, coerce(key, raw));
  if (refused) throw new CommandError(`Not changed: ${refused}.`);
  log(u, "ADMIN_SITE_SET", `${key}=${show(cfg.get(key))}`);
  u.send(`Site setting ${key} is now: ${show(cfg.get(key))}`);
}
