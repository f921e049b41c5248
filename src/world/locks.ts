/**
 * Lock expressions: who may join a channel, enter a room or run a command.
 *
 * Grammar (whitespace between tokens is ignored):
 *   expr  := or
 *   or    := and ('|' and)*
 *   and   := unary ('&' unary)*
 *   unary := '!' unary | '(' expr ')' | atom
 *   atom  := flag | flag'+' | '#'digits | 'connected' | '#true' | '#false'
 *
 * Locks are written by players (channel and room locks), so input size and nesting are capped
 * and the parser never recurses more than a fixed depth.
 */
import { FLAG_LEVELS_TABLE } from "./flag_levels.ts";
import { levelOf } from "./flags.ts";
import { ValidationError } from "../errors.ts";

/** What a lock is evaluated against. */
export interface LockSubject {
  /** The actor's dbref, e.g. `"#5"`. */
  id: string;
  flags: readonly string[];
  connected: boolean;
}

/** Longest lock expression accepted, in UTF-16 units. */
export const MAX_LOCK_LENGTH = 1000;

/** Deepest parenthesis nesting accepted. */
export const MAX_LOCK_DEPTH = 32;

/** A parsed lock expression. */
export type LockNode =
  | { readonly kind: "or"; readonly children: readonly LockNode[] }
  | { readonly kind: "and"; readonly children: readonly LockNode[] }
  | { readonly kind: "not"; readonly child: LockNode }
  /** The subject has this flag (lower-cased, whole-name match). */
  | { readonly kind: "flag"; readonly name: string }
  /** The subject's level reaches this flag's level (`builder+`). */
  | { readonly kind: "level"; readonly name: string }
  /** The subject is this object; `id` is canonical (`#12`, no leading zeros). */
  | { readonly kind: "dbref"; readonly id: string }
  | { readonly kind: "connected" }
  | { readonly kind: "const"; readonly value: boolean };

/** A lock expression that cannot be parsed; `position` is the 0-based offset of the problem. */
export class LockSyntaxError extends Error {
  /** 0-based offset into the source where the problem was found. */
  readonly position: number;

  /** Builds the error; the message names the position 1-based, as a player would count. */
  constructor(message: string, position: number) {
    super(`Lock syntax error at position ${position + 1}: ${message}`);
    this.name = "LockSyntaxError";
    this.position = position;
  }
}

// `builder+` means a level of at least builder's. Object.hasOwn keeps names such as "constructor" or "__proto__" from reading Object.prototype.
function levelOfName(name: string): number | undefined {
  return Object.hasOwn(FLAG_LEVELS_TABLE, name) ? FLAG_LEVELS_TABLE[name] : undefined;
}

type TokenType = "|" | "&" | "!" | "(" | ")" | "atom" | "end";

interface Token {
  type: TokenType;
  text: string;
  pos: number;
}

interface ParseState {
  tokens: Token[];
  index: number;
}

const OPERATORS = "|&!()";
const WHITESPACE_RE = /\s/;
const FLAG_ATOM_RE = /^[a-z0-9_-]+\+?$/i;
const DBREF_ATOM_RE = /^#\d+$/;

/** Parses a lock expression; throws LockSyntaxError on bad input. */
export function parseLock(src: string): LockNode {
  if (typeof src !== "string") throw new LockSyntaxError("lock must be a string", 0);
  if (src.length > MAX_LOCK_LENGTH) {
    throw new LockSyntaxError(
      `lock is longer than ${MAX_LOCK_LENGTH} characters`,
      MAX_LOCK_LENGTH,
    );
  }
  const state: ParseState = { tokens: tokenize(src), index: 0 };
  const node = parseOr(state, 0);
  const rest = peek(state);
  if (rest.type !== "end") throw new LockSyntaxError(`unexpected ${describe(rest)}`, rest.pos);
  return node;
}

function tokenize(src: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (WHITESPACE_RE.test(c)) {
      i++;
    } else if (OPERATORS.includes(c)) {
      tokens.push({ type: c as TokenType, text: c, pos: i });
      i++;
    } else {
      const start = i;
      while (i < src.length && !OPERATORS.includes(src[i]) && !WHITESPACE_RE.test(src[i])) i++;
      tokens.push({ type: "atom", text: src.slice(start, i), pos: start });
    }
  }
  tokens.push({ type: "end", text: "", pos: src.length });
  return tokens;
}

function peek(state: ParseState): Token {
  return state.tokens[state.index];
}

function describe(token: Token): string {
  return token.type === "end" ? "end of lock" : `"${token.text}"`;
}

function parseOr(state: ParseState, depth: number): LockNode {
  const children = [parseAnd(state, depth)];
  while (peek(state).type === "|") {
    state.index++;
    children.push(parseAnd(state, depth));
  }
  return children.length === 1 ? children[0] : { kind: "or", children };
}

function parseAnd(state: ParseState, depth: number): LockNode {
  const children = [parseUnary(state, depth)];
  while (peek(state).type === "&") {
    state.index++;
    children.push(parseUnary(state, depth));
  }
  return children.length === 1 ? children[0] : { kind: "and", children };
}

function parseUnary(state: ParseState, depth: number): LockNode {
  // A run of '!' collapses to parity, so `!!!!x` costs no recursion or nesting.
  let negations = 0;
  while (peek(state).type === "!") {
    state.index++;
    negations++;
  }
  const node = parsePrimary(state, depth);
  return negations % 2 === 1 ? { kind: "not", child: node } : node;
}

function parsePrimary(state: ParseState, depth: number): LockNode {
  const token = peek(state);
  if (token.type === "(") {
    if (depth + 1 > MAX_LOCK_DEPTH) {
      throw new LockSyntaxError(`parentheses nested deeper than ${MAX_LOCK_DEPTH}`, token.pos);
    }
    state.index++;
    const node = parseOr(state, depth + 1);
    const close = peek(state);
    if (close.type !== ")") {
      throw new LockSyntaxError(
        `expected ")" to close "(" at position ${token.pos + 1}, found ${describe(close)}`,
        close.pos,
      );
    }
    state.index++;
    return node;
  }
  if (token.type === "atom") {
    state.index++;
    return atomNode(token);
  }
  throw new LockSyntaxError(
    `expected a flag, dbref, "connected", "!" or "(", found ${describe(token)}`,
    token.pos,
  );
}

function atomNode(token: Token): LockNode {
  const text = token.text.toLowerCase();
  if (text === "#true") return { kind: "const", value: true };
  if (text === "#false") return { kind: "const", value: false };
  if (DBREF_ATOM_RE.test(text)) return { kind: "dbref", id: canonicalDbref(text) };
  if (text === "connected") return { kind: "connected" };
  if (FLAG_ATOM_RE.test(text)) {
    return text.endsWith("+")
      ? { kind: "level", name: text.slice(0, -1) }
      : { kind: "flag", name: text };
  }
  throw new LockSyntaxError(`invalid lock term "${token.text}"`, token.pos);
}

// `#012` and `#12` name the same object; compare digit strings, not Numbers, so huge
// dbrefs never lose precision.
function canonicalDbref(ref: string): string {
  const digits = ref.slice(1).replace(/^0+(?=\d)/, "");
  return `#${digits}`;
}

interface EvalContext {
  id: string;
  flags: ReadonlySet<string>;
  level: number;
  connected: boolean;
  /** Set once the AST proved too deep; the whole evaluation then fails closed. */
  tooDeep: boolean;
}

/** Beyond this depth a hand-built AST is refused (false) rather than risk the stack. */
const MAX_EVAL_DEPTH = 4 * MAX_LOCK_DEPTH + 8;

/** Evaluates a parsed lock against a subject. */
export function evaluateLock(node: LockNode, subject: LockSubject): boolean {
  const flags = Array.isArray(subject.flags) ? subject.flags : [];
  const id = typeof subject.id === "string" ? subject.id : "";
  const ctx: EvalContext = {
    id: DBREF_ATOM_RE.test(id) ? canonicalDbref(id) : id,
    flags: new Set(flags.map((f) => String(f).toLowerCase())),
    level: levelOf(flags),
    connected: subject.connected === true,
    tooDeep: false,
  };
  const result = evalNode(node, ctx, 0);
  return result && !ctx.tooDeep;
}

function evalNode(node: LockNode, ctx: EvalContext, depth: number): boolean {
  // Returning false alone is not enough: an enclosing "not" would flip it to true.
  if (ctx.tooDeep || depth > MAX_EVAL_DEPTH) {
    ctx.tooDeep = true;
    return false;
  }
  switch (node.kind) {
    case "or":
      return node.children.some((c) => evalNode(c, ctx, depth + 1));
    case "and":
      return node.children.every((c) => evalNode(c, ctx, depth + 1));
    case "not":
      return !evalNode(node.child, ctx, depth + 1);
    case "flag":
      return ctx.flags.has(node.name);
    case "level": {
      const need = levelOfName(node.name);
      // A flag with no level (a plugin's own flag) can only be met by having it.
      return need === undefined ? ctx.flags.has(node.name) : ctx.level >= need;
    }
    case "dbref":
      return ctx.id === node.id;
    case "connected":
      return ctx.connected;
    case "const":
      return node.value;
    default:
      return false;
  }
}

/**
 * Parses and evaluates a lock. An empty (or missing) lock means unlocked (true); a lock that
 * does not parse fails closed (false) so that a bad stored lock never lets anyone through.
 */
export function checkLock(src: string, subject: LockSubject): boolean {
  // No lock stored at all is the same as an empty one; any other non-string is refused.
  if (src === undefined || src === null) return true;
  if (typeof src !== "string") return false;
  // Every command's default lock, checked on every line: no parse and no flag set for it.
  if (src === "connected") return subject.connected === true;
  if (src.trim() === "") return true;
  let node: LockNode;
  try {
    node = parseLock(src);
  } catch (err) {
    if (err instanceof LockSyntaxError) return false;
    throw err;
  }
  return evaluateLock(node, subject);
}

/**
 * A lock expression as it should be stored: trimmed, "" for none; a syntax error becomes
 * a ValidationError (400, or the message in-game) naming the problem.
 */
export function validLock(expr: string): string {
  const l = String(expr ?? "").trim();
  if (!l) return "";
  try {
    parseLock(l);
  } catch (e) {
    if (e instanceof LockSyntaxError) throw new ValidationError(e.message);
    throw e;
  }
  return l;
}
