/** Shapes shared by the softcode parser, evaluator and functions. */

/** Evaluation flags, as MUX names them (eval.cpp's EV_*). */
export const EV = {
  /** Text before `(` must name a function (inside `[...]`): an unknown one is an error. */
  FMAND: 0x100,
  /** Check the text before the first `(` for a function name. */
  FCHECK: 0x200,
  /** Strip one level of `{}`. */
  STRIP_CURLY: 0x400,
  /** Evaluate: substitutions and function calls happen. */
  EVAL: 0x800,
  /** A top-level evaluation (a command's argument). */
  TOP: 0x10000,
  /** Keep runs of spaces as they are. */
  NO_COMPRESS: 0x40000,
  /** `%l` gives nothing. */
  NO_LOCATION: 0x80000,
  /** `[` is not special (a copy that must not call functions). */
  NOFCHECK: 0x100000,
} as const;

/** What a function's arguments and a lazy function's own evaluations use. */
export const EVAL_ARG = EV.EVAL | EV.STRIP_CURLY | EV.FCHECK;

/** Where an evaluation runs: who runs it, who called, who caused it, and `%0`–`%9`. */
export interface Frame {
  /** `%!`: the object whose code runs. */
  readonly executor: string;
  /** `%@`: the object that called it. */
  readonly caller: string;
  /** `%#`: the object that caused it. */
  readonly enactor: string;
  /** `%0`–`%9` (and more, for `%=<12>`). */
  readonly args: readonly string[];
}

/**
 * The families functions are grouped in, in the order `help functions` and docs/softcode.md
 * show them, each with its one-line description (MUX's `help function classes`).
 */
export const FUNCTION_FAMILIES = {
  arithmetic: "Numbers: sums, division, rounding, powers, logarithms, trigonometry, vectors, bits.",
  logic: "Comparison and truth: equal, greater, and, or, not.",
  strings: "Text: lengths, pieces, case, searching and replacing; colour and UTF-8 aware.",
  formatting: "Laying text out: padding, columns, tables, wrapping, numbers in words.",
  lists: "Lists of words (or items between delimiters): picking, sorting, sets, iteration.",
  registers: "The %q registers: setting, reading and scoping them.",
  control: "Running code: user functions, conditions, loops and evaluation.",
  attributes: "Reading the attributes of objects.",
  database: "Objects and players: names, places, contents, flags, who is connected.",
  time: "The clock and durations: times, dates and their formats.",
  regexp:
    "Regular expressions (linear time, programs of at most `softcode.regexpSize` instructions: no pattern can stall the game).",
  json: "JSON texts: building, testing and querying them.",
  random: "Random numbers and choices.",
  crypto: "Digests, checksums and light encryption.",
  effects: "Functions that change the world or send messages.",
  game: "The game itself: its name, version and state.",
} as const;

/** A family of functions (a key of FUNCTION_FAMILIES). */
export type FunctionFamily = keyof typeof FUNCTION_FAMILIES;

/** A function's example, run as `think` by the examples' wizard (src/softcode/help.ts). */
export interface FunctionExample {
  /** Commands run first, shown before it (`&DOUBLE me=mul(%0,2)`: only `&` commands). */
  readonly setup?: readonly string[];
  /** What follows `think`. */
  readonly think: string;
  /** What it shows. */
  readonly gives: string;
  /** The result differs from run to run (random, the clock): `gives` is one possible result. */
  readonly varies?: boolean;
}

/** A function's help: one source for `help <function>` in game and docs/softcode.md. */
export interface FunctionHelp {
  readonly family: FunctionFamily;
  /** How it is called, MUX's way: `ljust(<string>, <width>[, <fill>])`. */
  readonly args: string;
  /** One line: what it gives. */
  readonly summary: string;
  readonly example: FunctionExample;
  /** Further detail (a few lines), when one line is not enough. */
  readonly more?: string;
}

/**
 * A built-in (or, later, user-defined) function. `E` is the evaluation its code receives
 * (src/softcode/eval.ts's Evaluation) and `C` the parsed call it may be given (compile.ts's
 * CallNode); both are left open here so the parser needs none of the evaluator and this module
 * none of the compiler (which imports it).
 */
export interface FunctionDef<E = unknown, C = unknown> {
  /** Upper-case name, as errors show it. */
  readonly name: string;
  readonly minArgs: number;
  readonly maxArgs: number;
  /**
   * Arguments split at commas; past this many, the rest (commas and all) is the last one
   * (MUX's `# of args to parse`: 1 for `search()`, 100 for most).
   */
  readonly parseArgs: number;
  /** Arguments are passed unevaluated (control functions: `switch`, `iter`, `ifelse`...). */
  readonly lazy: boolean;
  /** Only staff may call it. */
  readonly staff?: boolean;
  /** Its help (every built-in has one; user-defined functions have none). */
  readonly help?: FunctionHelp;
  /**
   * Its result is a piece of its input copied as it is (first(), get()...): colour is not
   * closed after it, as in MUX. Other results end back at normal.
   */
  readonly raw?: boolean;
  /**
   * Set when its code runs no softcode and keeps no reference to its `args` array, so a call
   * may hand it an array its node reuses (Evaluation.call): nothing it does can run that call
   * again while it reads. What else it reads: `"args"` only its arguments (a leaf function: it
   * evaluates nothing, its `ev` is unused, so an iter() body of one such call may run it for
   * each item without the body's program: template.ts), `"world"` the world too (an inert one:
   * hasflag(), loc(), name()). A leaf is thus inert too; one field holds both, as one is the
   * other with less read.
   */
  readonly reads?: "args" | "world";
  /**
   * The function's code. `args` are the evaluated arguments (for a lazy function, the raw text
   * of each, which it evaluates itself with `ev.eval`, or `ev.evalLazy` given `call`, the parsed
   * call whose arguments `args` is). Returns the function's output.
   */
  impl(ev: E, frame: Frame, args: string[], call?: C): string;
  /**
   * An arithmetic function's code (`impl` prints its number): a number result stands for the
   * text formatNumber() prints for it, a text result is the output as it is (an error, a
   * rounded form). Its arguments may be numbers a nested arithmetic call gave (NumArg); the
   * evaluator passes them between such calls without printing and reading them again.
   */
  num?(ev: E, frame: Frame, args: NumArg[], fn: FunctionDef<E, C>): number | string;
  /**
   * The operation this arithmetic function is on the shared small-integer path
   * (functions/small_int.ts), 0 for none: its `num` is then that path, which gives arguments
   * that are all plain small integers one compact routine and anything else to `full`.
   */
  readonly small?: number;
  /** The function's own code behind the small-integer path (see `small`). */
  full?(ev: E, frame: Frame, args: NumArg[], fn: FunctionDef<E, C>): number | string;
}

/**
 * An argument of an arithmetic function (FunctionDef.num): its text, or in place of the text a
 * nested arithmetic call printed, that call's number, where every reader of numbers.ts gives
 * the same from either (src/softcode/eval.ts, `passable`).
 */
export type NumArg = string | number;

/** Function lookup by upper-case name. */
export interface FunctionTable {
  get(upperName: string): FunctionDef | undefined;
  /** Every name the table answers to, sorted (aliases included). */
  names(): string[];
  /** Changes whenever a function is added or removed, so parsed code is parsed again. */
  readonly generation: number;
}

/** Most arguments a function call takes (MUX's MAX_ARG). */
export const MAX_ARGS = 100;

/** Longest function name looked up (MUX's MAX_UFUN_NAME_LEN). */
export const MAX_FUNCTION_NAME = 63;
