/**
 * Attribute flags: the ones TinyMUX 2.12's `@set <obj>/<attr>=[!]<flag>` takes, plus `locked`
 * (MUX sets it with `@lock <obj>/<attr>`; `@set` takes it here too), and the letters `examine`
 * shows them by, in MUX's order (`ALL [+$VMW]: ...`).
 */

/** Every attribute flag, by name. */
export const ATTR_FLAGS = [
  "locked",
  "no_command",
  "case",
  "html",
  "no_inherit",
  "hidden",
  "no_name",
  "no_parse",
  "regexp",
  "trace",
  "visual",
  "wizard",
] as const;

/** An attribute flag. */
export type AttrFlag = typeof ATTR_FLAGS[number];

/** The letter `examine` shows for each flag (the array above is in MUX's display order). */
export const ATTR_FLAG_LETTERS: Readonly<Record<AttrFlag, string>> = {
  locked: "+",
  no_command: "$",
  case: "C",
  html: "H",
  no_inherit: "I",
  hidden: "M",
  no_name: "N",
  no_parse: "P",
  regexp: "R",
  trace: "T",
  visual: "V",
  wizard: "W",
};

/** Flags only staff may set or clear (MUX: only wizards). */
export const STAFF_ONLY_ATTR_FLAGS: readonly AttrFlag[] = ["hidden", "wizard"];

/** The flag a word names (case-insensitive, whole names only), or null. */
export function attrFlagNamed(word: string): AttrFlag | null {
  const w = word.trim().toLowerCase();
  return (ATTR_FLAGS as readonly string[]).includes(w) ? w as AttrFlag : null;
}

/** The flags as `examine` shows them: letters in MUX's order (`+$V`). */
export function attrFlagLetters(flags: readonly AttrFlag[]): string {
  let out = "";
  for (const f of ATTR_FLAGS) if (flags.includes(f)) out += ATTR_FLAG_LETTERS[f];
  return out;
}

/** Flags in canonical order without repeats or unknown names (what is stored). */
export function canonicalFlags(flags: readonly unknown[]): AttrFlag[] {
  return ATTR_FLAGS.filter((f) => flags.includes(f));
}
