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
 * A built-in (or, later, user-defined) function. `E` is the evaluation its code receives
 * (src/softcode/eval.ts's Evaluation; left open here so the parser needs none of it).
 */
export interface FunctionDef<E = unknown> {
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
  /**
   * Its result is a piece of its input copied as it is (first(), get()...): colour is not
   * closed after it, as in MUX. Other results end back at normal.
   */
  readonly raw?: boolean;
  /**
   * The function's code. `args` are the evaluated arguments (for a lazy function, the raw text
   * of each, which it evaluates itself with `ev.eval`). Returns the function's output.
   */
  impl(ev: E, frame: Frame, args: string[]): string;
}

/** Function lookup by upper-case name. */
export interface FunctionTable {
  get(upperName: string): FunctionDef | undefined;
  /** Changes whenever a function is added or removed, so parsed code is parsed again. */
  readonly generation: number;
}

/** Most arguments a function call takes (MUX's MAX_ARG). */
export const MAX_ARGS = 100;

/** Longest function name looked up (MUX's MAX_UFUN_NAME_LEN). */
export const MAX_FUNCTION_NAME = 63;
