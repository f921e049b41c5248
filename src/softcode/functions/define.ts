/** The function table and the helpers every function family uses. */
import type { Frame, FunctionDef, FunctionHelp, FunctionTable, NumArg } from "../types.ts";
import type { CallNode } from "../compile.ts";
import { formatNumber } from "../numbers.ts";
import { smallFirst } from "./small_int.ts";
import { MAX_ARGS } from "../types.ts";
import type { Evaluation } from "../eval.ts";

/** A function's code, given the evaluation it runs in (see FunctionDef.impl). */
export type FunctionImpl = (
  ev: Evaluation,
  frame: Frame,
  args: string[],
  call?: CallNode,
) => string;

/** An arithmetic function's code (see FunctionDef.num), given its own definition. */
export type NumImpl = (
  ev: Evaluation,
  frame: Frame,
  args: NumArg[],
  fn: FunctionDef<Evaluation>,
) => number | string;

/** Options of one function. */
export interface DefineOptions {
  /** Arguments passed unevaluated. */
  lazy?: boolean;
  /** Arguments split at commas (the rest joins the last); default all. */
  parse?: number;
  /** Staff only. */
  staff?: boolean;
  /** The result is input copied as it is: its colour is not closed (FunctionDef.raw). */
  raw?: boolean;
  /** Its operation on the shared small-integer path (FunctionDef.small; arithmetic only). */
  small?: number;
}

/**
 * A function definition: upper-case name, argument counts, its help (the one source of
 * `help <function>` and docs/softcode.md), code.
 */
export function define(
  name: string,
  minArgs: number,
  maxArgs: number,
  help: FunctionHelp,
  impl: FunctionImpl,
  opts: DefineOptions = {},
): FunctionDef<Evaluation> {
  return made(name, minArgs, maxArgs, help, impl, undefined, undefined, opts);
}

/**
 * An arithmetic function: its code gives a number (printed by formatNumber() as its text) or a
 * text, and may be given numbers by nested arithmetic calls (FunctionDef.num).
 */
export function defineNum(
  name: string,
  minArgs: number,
  maxArgs: number,
  help: FunctionHelp,
  num: NumImpl,
  opts: DefineOptions = {},
): FunctionDef<Evaluation> {
  // On the small-integer path every such function has the one shared code (functions/
  // small_int.ts), its own behind it: one routine for all of them where a line runs several.
  const code = opts.small ? smallFirst : num;
  const impl: FunctionImpl = (ev, frame, args) => {
    const r = code(ev, frame, args, def);
    return typeof r === "string" ? r : formatNumber(r);
  };
  const def = made(name, minArgs, maxArgs, help, impl, code, opts.small ? num : undefined, opts);
  return def;
}

/** A definition, every one with the same fields (one shape for the evaluator to read). */
function made(
  name: string,
  minArgs: number,
  maxArgs: number,
  help: FunctionHelp,
  impl: FunctionImpl,
  num: NumImpl | undefined,
  full: NumImpl | undefined,
  opts: DefineOptions,
): FunctionDef<Evaluation> {
  return {
    name: name.toUpperCase(),
    minArgs,
    maxArgs,
    parseArgs: opts.parse ?? MAX_ARGS,
    lazy: opts.lazy ?? false,
    staff: opts.staff,
    raw: opts.raw,
    reads: undefined,
    help,
    impl,
    num,
    small: opts.small ?? 0,
    full,
  };
}

/** The table of functions the evaluator looks names up in. */
export class FunctionRegistry implements FunctionTable {
  readonly #fns = new Map<string, FunctionDef>();
  #generation = 0;

  /** Changes whenever the table changes. */
  get generation(): number {
    return this.#generation;
  }

  get(upperName: string): FunctionDef | undefined {
    return this.#fns.get(upperName);
  }

  /** Adds functions (replacing any of the same name). */
  add(...defs: FunctionDef[]): void {
    for (const d of defs) this.#fns.set(d.name, d);
    this.#generation++;
  }

  /** Makes `alias` call the function `target` (its errors keep the target's name, as MUX's do). */
  alias(alias: string, target: string): void {
    const fn = this.#fns.get(target.toUpperCase());
    if (!fn) throw new Error(`softcode: no function ${target} to alias as ${alias}`);
    this.#fns.set(alias.toUpperCase(), fn);
    this.#generation++;
  }

  /** Every name the table answers to, sorted. */
  names(): string[] {
    return [...this.#fns.keys()].sort();
  }

  /** Removes a name (a function or an alias). */
  remove(name: string): boolean {
    const gone = this.#fns.delete(name.toUpperCase());
    if (gone) this.#generation++;
    return gone;
  }
}

/**
 * The definitions whose names `plain` accepts, marked as giving results that never hold colour
 * (numbers, truth values, dbrefs, flag letters): there is no colour to close after them, so the
 * evaluator skips looking for it (FunctionDef.raw). Apart from `readsOnly`: this is about the
 * result, not what the code does (get() copies a text as it is and may run a lock), and is
 * chosen by a rule over a family's names, not a list.
 */
export function plainResults(
  defs: FunctionDef<Evaluation>[],
  plain: (name: string) => boolean,
): FunctionDef<Evaluation>[] {
  return defs.map((d) => d.raw || !plain(d.name) ? d : { ...d, raw: true });
}

/**
 * The definitions named, marked with what their code reads (FunctionDef.reads): each must be
 * eager, and its code must run no softcode, through any helper it calls, and keep no reference
 * to its `args` array; `"args"`: and evaluate nothing at all, its `ev` unused
 * (functions/leaf_test.ts checks each so marked).
 */
export function readsOnly(
  defs: FunctionDef<Evaluation>[],
  names: readonly string[],
  reads: "args" | "world",
): FunctionDef<Evaluation>[] {
  const marked = new Set(names.map((n) => n.toUpperCase()));
  return defs.map((d) => marked.has(d.name) && !d.lazy && !d.num ? { ...d, reads } : d);
}
