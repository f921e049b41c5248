/**
 * The `char` frame: who a logged-in player is, for clients that show it (GMCP `Char.Name` and
 * `Char.Status` for telnet, docs/telnet.md). Sent to a player's JSON connections at login and
 * when the name, moniker or privilege level changes; never per message.
 */
import type { ObjectHead } from "../world/types.ts";
import type { Outbound } from "./types.ts";
import { FLAG_LEVELS_TABLE } from "../world/flag_levels.ts";
import { GUEST_FLAG, levelOf } from "../world/flags.ts";

/** The highest privilege a player's flags give, as a word (`wizard`), or `guest`. */
export function levelName(flags: readonly string[]): string {
  if (flags.includes(GUEST_FLAG)) return GUEST_FLAG;
  const top = levelOf(flags);
  const named = flags.find((f) =>
    typeof f === "string" && f !== "player" && Object.hasOwn(FLAG_LEVELS_TABLE, f) &&
    FLAG_LEVELS_TABLE[f] === top
  );
  return named ?? "player";
}

/** The `char` frame of a player: name, fullname (the moniker, with its colour codes), level. */
export function charFrame(p: Pick<ObjectHead, "id" | "name" | "flags" | "data">): Outbound {
  const moniker = p.data?.moniker;
  return {
    msg: "",
    data: {
      type: "char",
      id: p.id,
      name: p.name,
      fullname: typeof moniker === "string" && moniker ? moniker : p.name,
      level: levelName(p.flags),
    },
  };
}

/** True when a change to a player's object changes its `char` frame. */
export function charChanged(
  before: Pick<ObjectHead, "name" | "flags" | "data"> | null,
  after: Pick<ObjectHead, "name" | "flags" | "data"> | null,
): boolean {
  if (before === null || after === null) return false;
  return before.name !== after.name || before.data?.moniker !== after.data?.moniker ||
    levelName(before.flags) !== levelName(after.flags);
}
