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

/** MTTS bits for 256 colours and for 24-bit colour. */
const MTTS_256 = 8;
const MTTS_TRUECOLOR = 256;

/**
 * How many colours a telnet client's terminal shows, for RGB codes: 24-bit or 256 when its MTTS
 * bits or its terminal type (`xterm-256color`, `ANSI-TRUECOLOR`) say so, else the 16 ANSI colours.
 */
export function terminalColourDepth(
  ttypes: readonly string[],
  mtts: number | null,
): 16 | 256 | 16777216 {
  if (mtts !== null) {
    if (mtts & MTTS_TRUECOLOR) return 16777216;
    return mtts & MTTS_256 ? 256 : 16;
  }
  const names = ttypes.map((t) => t.toUpperCase());
  if (names.some((t) => /TRUECOLOR|24BIT|-DIRECT/.test(t))) return 16777216;
  if (names.some((t) => /256/.test(t))) return 256;
  return 16;
}

/** The decision for one connection: the setting wins over what the terminal says. */
export function wantsColour(mode: ColourMode, terminal: boolean): boolean {
  return mode === "on" ? true : mode === "off" ? false : terminal;
}
