/**
 * `@loginlimits`: what the failed-login limits hold now (characters past
 * `game.accountLoginFailures`, addresses past ten failures a minute), and releasing one.
 */
import type { CommandSdk, CommandSpec } from "../types.ts";
import { CommandError } from "../errors.ts";
import { findPlayer, quote } from "../target.ts";
import { addressGroup } from "../../net/client_address.ts";

/** Entries shown of each list; the rest are counted. */
const SHOWN = 50;

/** A time as `HH:MM:SS UTC` (holds last minutes, not days). */
function clock(ms: number): string {
  return `${new Date(ms).toISOString().slice(11, 19)} UTC`;
}

/** True when `ref` is written as an address (or an IPv6 group), not a character's name. */
function isAddress(ref: string): boolean {
  return /^[0-9.]+$/.test(ref) || ref.includes(":");
}

/** "... and N more" under the first SHOWN lines, when there were more. */
function more(total: number): string[] {
  return total > SHOWN ? [`    ... and ${total - SHOWN} more`] : [];
}

async function list(u: CommandSdk): Promise<void> {
  const game = u.engine.config.value.game;
  const held = u.engine.accountFailures.held();
  const addresses = u.engine.loginFailures.full();
  // Names are read for the rows shown only: thousands may be held during a spread attack.
  const accounts = held.slice(0, SHOWN);
  const names = await Promise.all(accounts.map((a) => u.objects.get(a.id)));
  const accountLines = accounts.map((a, i) =>
    `    ${names[i]?.name ?? "?"}(#${a.id}): ${a.sites.length} addresses ` +
    `(${a.sites.slice(0, 5).join(", ")}${a.sites.length > 5 ? ", ..." : ""}) until ${
      clock(a.until)
    }`
  );
  const addressLines = addresses.slice(0, SHOWN).map((a) => `    ${a.key} until ${clock(a.until)}`);
  const lines = [
    "%chHeld by the failed-login limits:%cn",
    `  Characters (failures from ${game.accountLoginFailures} addresses in ` +
    `${game.accountLoginWindow} s; their last addresses still get in):`,
    ...(accountLines.length ? [...accountLines, ...more(held.length)] : ["    None."]),
    "  Addresses (10 failed logins a minute; IPv6 by /64):",
    ...(addressLines.length ? [...addressLines, ...more(addresses.length)] : ["    None."]),
    "@loginlimits/release <character>|<address> lets one go.",
  ];
  u.send(lines.join("\n"), {
    type: "loginlimits",
    accounts: accounts.map((a, i) => ({ ...a, name: names[i]?.name ?? null })),
    addresses: addresses.slice(0, SHOWN).map((a) => ({ address: a.key, until: a.until })),
  });
}

async function release(u: CommandSdk, ref: string): Promise<void> {
  if (!ref) throw new CommandError("Usage: @loginlimits/release <character>|<address>");
  let target: string | null, what: string, had: boolean;
  if (isAddress(ref)) {
    // The group as the list shows it (`2001:db8::/64`) names the same group as its addresses.
    const address = ref.replace(/\/64$/, "");
    what = addressGroup(address);
    target = null;
    had = u.engine.loginFailures.forget(address);
  } else {
    const player = await findPlayer(u, u.me, ref);
    what = `${player.name}(#${player.id})`;
    target = player.id;
    had = u.engine.accountFailures.release(player.id);
  }
  if (!had) throw new CommandError(`No failed logins are counted against ${quote(what)}.`);
  void u.engine.securityLog.write("ADMIN_LOGIN_RELEASE", {
    actor: u.me.id,
    target,
    ip: u.conn?.ip ?? null,
    detail: target === null ? what : undefined,
  });
  u.send(`Released ${what}: its failed logins are forgotten.`);
}

/** The login limits family. */
export const commands: CommandSpec[] = [
  {
    name: "@loginlimits",
    lock: "wizard|superuser",
    switches: ["release"],
    category: "Admin",
    help: `@loginlimits                                 lists what the failed-login limits hold
@loginlimits/release <character>|<address>   forgets the failures counted against one

Characters held by the per-account limit (failures from game.accountLoginFailures addresses
within game.accountLoginWindow seconds: they get in only from their last addresses) and client
addresses held by the per-address limit (ten failed logins a minute), each with when it
frees itself. An IPv6 address counts by its /64. A release is logged in the security log
(ADMIN_LOGIN_RELEASE). Wizard or superuser.

Example:
  @loginlimits/release Alice`,
    async exec(u) {
      if (u.cmd.switches.includes("release")) return await release(u, u.cmd.args.trim());
      if (u.cmd.args.trim()) throw new CommandError("Usage: @loginlimits[/release <name>]");
      await list(u);
    },
  },
];
