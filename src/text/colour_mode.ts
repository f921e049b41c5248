/**
 * Whether a connection gets colour: the player's setting (`@colour`), and for telnet what the
 * client said of its terminal (TTYPE, MTTS). Decided once per connection and when either
 * changes, never per message.
 */

/** A player's colour setting: follow the client (`auto`, the default), or force it. */
export type ColourMode = "auto" | "on" | "off";

/** The setting stored on a player (`data.colour`); anything else is `auto`. */
export function colourModeOf(value: unknown): ColourMode {
  return value === "on" || value === "off" ? value : "auto";
}

/** The MTTS bit for ANSI colour (https://tintin.mudhalla.net/protocols/mtts/). */
const MTTS_ANSI = 1;

/**
 * What a telnet client's terminal can show: with an MTTS bit field, its ANSI bit decides;
 * else a terminal type `DUMB` means no colour; anything else (or nothing said) gets colour,
 * as every MUD client and almost every terminal shows it.
 */
export function terminalHasColour(ttypes: readonly string[], mtts: number | null): boolean {
  if (mtts !== null) return (mtts & MTTS_ANSI) !== 0;
  return !ttypes.some((t) => t.toUpperCase() === "DUMB");
}

/** The decision for one connection: the setting wins over what the terminal says. */
export function wantsColour(mode: ColourMode, terminal: boolean): boolean {
  return mode === "on" ? true : mode === "off" ? false : terminal;
}
