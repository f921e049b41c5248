/** The softcode language: its evaluator, functions, ports and colour form (docs/softcode.md). */
export {
  DEFAULT_LIMITS,
  type EvalRequest,
  Softcode,
  type SoftcodeLimits,
  TOP_FLAGS,
} from "./eval.ts";
export { EV } from "./types.ts";
export { builtinFunctions } from "./functions/mod.ts";
export type { SoftcodePorts } from "./ports.ts";
export { codesToMarkup, stripMarkup, toWire } from "./markup.ts";
