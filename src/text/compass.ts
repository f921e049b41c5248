/**
 * Compass directions as mappers name them (IRE's GMCP `Room.Info` exits, Mudlet's mapper): the
 * short form of a direction word, shared by the room's GMCP and the "wrong way" notices.
 */

const SHORT: ReadonlyMap<string, string> = new Map([
  ["n", "n"],
  ["north", "n"],
  ["ne", "ne"],
  ["northeast", "ne"],
  ["e", "e"],
  ["east", "e"],
  ["se", "se"],
  ["southeast", "se"],
  ["s", "s"],
  ["south", "s"],
  ["sw", "sw"],
  ["southwest", "sw"],
  ["w", "w"],
  ["west", "w"],
  ["nw", "nw"],
  ["northwest", "nw"],
  ["u", "u"],
  ["up", "u"],
  ["d", "d"],
  ["down", "d"],
  ["in", "in"],
  ["out", "out"],
]);

/** The short compass form (`n`, `ne`, ..., `u`, `d`, `in`, `out`) of a word, any case; else null. */
export function compassShort(word: string): string | null {
  const w = word.trim();
  return w.length > 9 ? null : SHORT.get(w.toLowerCase()) ?? null;
}
