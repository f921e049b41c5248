/**
 * Lock expressions: the one lock language of the engine (exits, rooms, things, channels, boards,
 * commands, `$-commands`), TinyMUX's keys plus the engine's flag and level terms. docs/commands.md
 * ("Locks") is the reference.
 *
 * Grammar (MUX's: a key runs to the next `&`, `|` or `)`, and is trimmed):
 *   expr   := and ('|' and)*
 *   and    := factor ('&' factor)*
 *   factor := '!' factor | '(' expr ')' | '=' key | '+' key | '$' key | '@' key | key
 *   key    := '#'digits                  is or carries the object (MUX's normal key)
 *           | ATTR ':' pattern           the attribute matches (wildcards; `=`: only the actor,
 *                                        `+`: only what it carries; plain: either)
 *           | ATTR '/' value             evaluation: the lock object's ATTR, evaluated with the
 *                                        actor as enactor, equals value (any case)
 *           | flag | flag'+' | 'connected' | '#true' | '#false'   (the engine's terms)
 *   '=#12' is #12, '+#12' carries #12, '$#12' has #12's owner, '@#12[/type]' passes #12's lock.
 *
 * Stored locks name objects by dbref. Names (`me`, `here`, `*player`, an object's name) are
 * turned into dbrefs when a lock is set (`parseLock` with a resolver), as MUX does; a bare word
 * that is a flag the engine knows stays a flag test, so every lock stored before keeps its
 * meaning. Locks are written by players, so length and nesting are capped, evaluation of `@`
 * indirection is bounded (MAX_LOCK_NESTING), and the parser never recurses past a fixed depth.
 */
import { FLAG_LEVELS_TABLE } from "./flag_levels.ts";
import { levelOf } from "./flags.ts";
import { ValidationError } from "../errors.ts";
import type { DbObject } from "./types.ts";
import type { Attribute } from "./attributes/types.ts";
import { canonicalAttrName } from "./attributes/names.ts";
import { wildMatch } from "../softcode/wild.ts";

/** What a lock is evaluated against: the actor. */
export interface LockSubject {
  /** The actor's dbref, e.g. `"#5"`. */
  id: string;
  flags: readonly string[];
  connected: boolean;
}

/**
 * What keys beyond flags and dbrefs read of the world: carrying, owners, attributes (through
 * the parent chain), who may read them, and the softcode evaluator for evaluation locks. The
 * engine builds one (src/world/lock_world.ts); a check without one fails those keys closed.
 */
export interface LockWorld {
  /** An object by id (no `#`), or null. */
  object(id: string): DbObject | null;
  /** Ids of what `id` carries. */
  contents(id: string): readonly string[];
  /** The attribute `name` of `id` or its nearest parent that passes it down, or null. */
  attr(id: string, name: string): Attribute | null;
  /** `viewer` may read `attr` found on `obj` (no viewer: only what everyone may read). */
  canSeeAttr(viewer: DbObject | null, obj: DbObject, attr: Attribute): boolean;
  /**
   * The plain text `code` gives run as `executor` with `enactor` as `%#`; null when refused
   * because lock checks inside evaluations inside lock checks went deeper than allowed.
   */
  evaluate(code: string, executor: string, enactor: string): string | null;
}

/** Where a lock is checked: the world, and the object the lock is on (for evaluation keys). */
export interface LockContext {
  world?: LockWorld | null;
  /** Id of the object the lock is on (MUX's `thing`): evaluation keys read its attributes. */
  on?: string;
}

/** Longest lock expression accepted, in UTF-16 units. */
export const MAX_LOCK_LENGTH = 1000;

/** Deepest parenthesis nesting accepted. */
export const MAX_LOCK_DEPTH = 32;

/** Deepest chain of `@` indirect keys followed (MUX's lock_nest_lim). */
export const MAX_LOCK_NESTING = 20;

/** The message a check gives when indirection went deeper than MAX_LOCK_NESTING. */
export const LOCK_TOO_DEEP =
  `Sorry, broken lock: it refers to other locks (@) more than ${MAX_LOCK_NESTING} deep.`;

/**
 * Wildcard matching one whole check may do, in wildMatch's rounds of WILD_STEPS backtracking
 * steps (16 rounds: about a million steps, a few milliseconds). A 1,000-character attribute key
 * against an 8,000-character value could take 40 ms, and a player could walk into such an exit
 * ten times a second, or carry a thousand objects the key is tried on.
 */
export const LOCK_WILD_ROUNDS = 16;

/** The message a check gives when its attribute keys' matching ran past LOCK_WILD_ROUNDS. */
export const LOCK_TOO_COSTLY = "Sorry, broken lock: its attribute patterns take too long to match.";

/** Where an attribute key looks: the actor or what it carries, only the actor, only its load. */
export type AttrScope = "any" | "is" | "carry";

/** A parsed lock expression. */
export type LockNode =
  | { readonly kind: "or"; readonly children: readonly LockNode[] }
  | { readonly kind: "and"; readonly children: readonly LockNode[] }
  | { readonly kind: "not"; readonly child: LockNode }
  /** The subject has this flag (lower-cased, whole-name match). */
  | { readonly kind: "flag"; readonly name: string }
  /** The subject's level reaches this flag's level (`builder+`). */
  | { readonly kind: "level"; readonly name: string }
  /** The subject is or carries this object; `id` is canonical (`#12`, no leading zeros). */
  | { readonly kind: "dbref"; readonly id: string }
  /** `=#12`: the subject is the object. */
  | { readonly kind: "is"; readonly id: string }
  /** `+#12`: the subject carries the object. */
  | { readonly kind: "carries"; readonly id: string }
  /** `$#12`: the subject has the object's owner. */
  | { readonly kind: "owner"; readonly id: string }
  /** `@#12[/type]`: the subject passes that object's lock of that type. */
  | { readonly kind: "indirect"; readonly id: string; readonly type: string }
  /** `ATTR:pattern`: the attribute matches the wildcard pattern. */
  | {
    readonly kind: "attr";
    readonly name: string;
    readonly pattern: string;
    readonly scope: AttrScope;
  }
  /** `ATTR/value`: the lock object's attribute, evaluated, equals the value. */
  | { readonly kind: "eval"; readonly name: string; readonly value: string }
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

/**
 * Turns a name in a lock being set into an object id (no `#`): `me`, `here`, `*player`, a name
 * the setter can see. Answers null for a word it does not know (the parser then refuses it).
 */
export type LockResolver = (word: string) => string | null;

/** The lock of type `type` stored on an object ("" when it has none). */
export function lockOf(obj: Pick<DbObject, "data">, type: string): string {
  const l = obj.data?.locks?.[type];
  return typeof l === "string" ? l : "";
}

/** Stores `key` as `o`'s lock of `type`, or with null removes it (`@lock`, `@unlock`, `lock()`). */
export function putLock(o: Pick<DbObject, "data">, type: string, key: string | null): void {
  const locks = { ...(o.data.locks ?? {}) };
  if (key === null) delete locks[type];
  else locks[type] = key;
  if (Object.keys(locks).length) o.data.locks = locks;
  else delete o.data.locks;
}

/**
 * True when `subject` passes `obj`'s lock of `type` (`use` for `$-commands`, `basic` for exits
 * and `get`, `enter` for rooms...): the one check for a lock stored on an object. No lock passes.
 */
export function passesObjectLock(
  world: LockWorld | null,
  obj: Pick<DbObject, "id" | "data">,
  type: string,
  subject: LockSubject,
): boolean {
  return objectLockVerdict(world, obj, type, subject).pass;
}

/** `passesObjectLock`, with the reason when the lock is broken (to show the actor). */
export function objectLockVerdict(
  world: LockWorld | null,
  obj: Pick<DbObject, "id" | "data">,
  type: string,
  subject: LockSubject,
): LockVerdict {
  return lockVerdict(lockOf(obj, type), subject, { world, on: obj.id });
}

/** The lock types the engine knows, with the names MUX's `@lock/<switch>` takes for each. */
export const LOCK_TYPE_NAMES: Readonly<Record<string, readonly string[]>> = Object.freeze({
  basic: ["basic", "default", "defaultlock"],
  enter: ["enter", "enterlock"],
  leave: ["leave", "leavelock"],
  use: ["use", "uselock"],
  page: ["page", "pagelock"],
  give: ["give", "givelock"],
  receive: ["receive", "receivelock"],
  teleport: ["teleport", "tport", "tportlock"],
  telout: ["telout", "teloutlock"],
  drop: ["drop", "droplock"],
  link: ["link", "linklock"],
  speech: ["speech", "speechlock"],
  parent: ["parent", "parentlock"],
  open: ["open", "openlock"],
  mail: ["mail", "maillock"],
  getfrom: ["getfrom", "getfromlock"],
  visible: ["visible", "visiblelock"],
  user: ["user", "userlock"],
});

/** The canonical lock type a word names (`use`, `UseLock`, `tport`...), or null. */
export function lockTypeNamed(word: string): string | null {
  const w = word.trim().toLowerCase();
  for (const [type, names] of Object.entries(LOCK_TYPE_NAMES)) {
    if (names.includes(w)) return type;
  }
  return null;
}

// `builder+` means a level of at least builder's. Object.hasOwn keeps names such as "constructor" or "__proto__" from reading Object.prototype.
function levelOfName(name: string): number | undefined {
  return Object.hasOwn(FLAG_LEVELS_TABLE, name) ? FLAG_LEVELS_TABLE[name] : undefined;
}

const WHITESPACE_RE = /\s/;
const FLAG_ATOM_RE = /^[a-z0-9_-]+\+?$/i;
const DBREF_ATOM_RE = /^#\d+$/;
/** Characters that end a key (MUX's AND, OR and closing parenthesis). */
const KEY_END = "&|)";

interface ParseState {
  src: string;
  pos: number;
  /** Flags the engine knows: with a resolver, other bare words are names of objects. */
  isFlag: ((word: string) => boolean) | null;
  resolve: LockResolver | null;
}

/**
 * Parses a lock expression; throws LockSyntaxError on bad input. With `resolve` (a lock being
 * set), names become dbrefs and a bare word is a flag only when `isFlag` says so.
 */
export function parseLock(
  src: string,
  resolve?: LockResolver,
  isFlag?: (word: string) => boolean,
): LockNode {
  if (typeof src !== "string") throw new LockSyntaxError("lock must be a string", 0);
  if (src.length > MAX_LOCK_LENGTH) {
    throw new LockSyntaxError(
      `lock is longer than ${MAX_LOCK_LENGTH} characters`,
      MAX_LOCK_LENGTH,
    );
  }
  const state: ParseState = {
    src,
    pos: 0,
    resolve: resolve ?? null,
    isFlag: resolve ? (isFlag ?? (() => true)) : null,
  };
  const node = parseOr(state, 0);
  skipSpace(state);
  if (state.pos < src.length) {
    throw new LockSyntaxError(`unexpected "${src[state.pos]}"`, state.pos);
  }
  return node;
}

function skipSpace(state: ParseState): void {
  while (state.pos < state.src.length && WHITESPACE_RE.test(state.src[state.pos])) state.pos++;
}

/** The next character after whitespace ("" at the end). */
function peekChar(state: ParseState): string {
  skipSpace(state);
  return state.src[state.pos] ?? "";
}

function found(state: ParseState): string {
  const c = peekChar(state);
  return c ? `"${c}"` : "end of lock";
}

function parseOr(state: ParseState, depth: number): LockNode {
  const children = [parseAnd(state, depth)];
  while (peekChar(state) === "|") {
    state.pos++;
    children.push(parseAnd(state, depth));
  }
  return children.length === 1 ? children[0] : { kind: "or", children };
}

function parseAnd(state: ParseState, depth: number): LockNode {
  const children = [parseUnary(state, depth)];
  while (peekChar(state) === "&") {
    state.pos++;
    children.push(parseUnary(state, depth));
  }
  return children.length === 1 ? children[0] : { kind: "and", children };
}

function parseUnary(state: ParseState, depth: number): LockNode {
  // A run of '!' collapses to parity, so `!!!!x` costs no recursion or nesting.
  let negations = 0;
  while (peekChar(state) === "!") {
    state.pos++;
    negations++;
  }
  const node = parsePrimary(state, depth);
  return negations % 2 === 1 ? { kind: "not", child: node } : node;
}

function parsePrimary(state: ParseState, depth: number): LockNode {
  const c = peekChar(state);
  const at = state.pos;
  if (c === "(") {
    if (depth + 1 > MAX_LOCK_DEPTH) {
      throw new LockSyntaxError(`parentheses nested deeper than ${MAX_LOCK_DEPTH}`, at);
    }
    state.pos++;
    const node = parseOr(state, depth + 1);
    if (peekChar(state) !== ")") {
      throw new LockSyntaxError(
        `expected ")" to close "(" at position ${at + 1}, found ${found(state)}`,
        state.pos,
      );
    }
    state.pos++;
    return node;
  }
  if (c === "" || KEY_END.includes(c)) {
    throw new LockSyntaxError(
      `expected a key (a flag, #dbref, name, attribute), "!" or "(", found ${found(state)}`,
      at,
    );
  }
  if (c === "=" || c === "+" || c === "$" || c === "@") {
    state.pos++;
    return prefixed(state, c, readKey(state));
  }
  return keyNode(state, readKey(state), "any");
}

interface Key {
  text: string;
  pos: number;
}

/** The key from here to the next `&`, `|` or `)`, trimmed. */
function readKey(state: ParseState): Key {
  skipSpace(state);
  const start = state.pos;
  while (state.pos < state.src.length && !KEY_END.includes(state.src[state.pos])) state.pos++;
  const text = state.src.slice(start, state.pos).trimEnd();
  if (!text) {
    throw new LockSyntaxError(`expected a key, found ${found(state)}`, start);
  }
  return { text, pos: start };
}

function prefixed(state: ParseState, op: string, key: Key): LockNode {
  if (op === "@") {
    const slash = key.text.lastIndexOf("/");
    const type = slash > 0 ? lockTypeNamed(key.text.slice(slash + 1)) : null;
    if (slash > 0 && !type) {
      throw new LockSyntaxError(`no lock type "${key.text.slice(slash + 1)}"`, key.pos + slash);
    }
    const obj = slash > 0 ? { text: key.text.slice(0, slash).trim(), pos: key.pos } : key;
    return { kind: "indirect", id: objectId(state, obj), type: type ?? "basic" };
  }
  if (op === "$") return { kind: "owner", id: objectId(state, key) };
  const scope: AttrScope = op === "=" ? "is" : "carry";
  const attr = attrKey(key, scope);
  if (attr) return attr;
  const id = objectId(state, key);
  return op === "=" ? { kind: "is", id } : { kind: "carries", id };
}

/** An attribute key (`SEX:m*`, `CHECK/1`), or null when the key has neither `:` nor `/`. */
function attrKey(key: Key, scope: AttrScope): LockNode | null {
  const m = /[:/]/.exec(key.text);
  if (!m) return null;
  const name = canonicalAttrName(key.text.slice(0, m.index).trim());
  if (!name) {
    throw new LockSyntaxError(
      `"${key.text.slice(0, m.index)}" is not an attribute name`,
      key.pos,
    );
  }
  const value = key.text.slice(m.index + 1).trim();
  if (m[0] === ":") return { kind: "attr", name, pattern: value, scope };
  if (scope !== "any") {
    throw new LockSyntaxError("an evaluation key takes no = or + before it", key.pos);
  }
  return { kind: "eval", name, value };
}

/** A key naming an object: a dbref, or (while a lock is set) a name the resolver knows. */
function objectId(state: ParseState, key: Key): string {
  const text = key.text.toLowerCase();
  if (DBREF_ATOM_RE.test(text)) return canonicalDbref(text);
  const id = state.resolve?.(key.text);
  if (id) return canonicalDbref(`#${id}`);
  throw new LockSyntaxError(
    state.resolve ? `I don't see "${key.text}" here` : `"${key.text}" is not a #dbref`,
    key.pos,
  );
}

function keyNode(state: ParseState, key: Key, scope: AttrScope): LockNode {
  const attr = attrKey(key, scope);
  if (attr) return attr;
  const text = key.text.toLowerCase();
  if (text === "#true") return { kind: "const", value: true };
  if (text === "#false") return { kind: "const", value: false };
  if (DBREF_ATOM_RE.test(text)) return { kind: "dbref", id: canonicalDbref(text) };
  if (text === "connected") return { kind: "connected" };
  if (FLAG_ATOM_RE.test(text) && (!state.isFlag || state.isFlag(text.replace(/\+$/, "")))) {
    return text.endsWith("+")
      ? { kind: "level", name: text.slice(0, -1) }
      : { kind: "flag", name: text };
  }
  if (state.resolve) return { kind: "dbref", id: objectId(state, key) };
  throw new LockSyntaxError(`invalid lock term "${key.text}"`, key.pos);
}

// `#012` and `#12` name the same object; compare digit strings, not Numbers, so huge
// dbrefs never lose precision.
function canonicalDbref(ref: string): string {
  const digits = ref.slice(1).replace(/^0+(?=\d)/, "");
  return `#${digits}`;
}

/** The text of a parsed lock, as it is stored (names already dbrefs). */
export function lockText(node: LockNode): string {
  switch (node.kind) {
    case "or":
      return node.children.map(lockText).join("|");
    case "and":
      return node.children.map((c) => c.kind === "or" ? `(${lockText(c)})` : lockText(c))
        .join("&");
    case "not": {
      const c = node.child;
      return c.kind === "or" || c.kind === "and" ? `!(${lockText(c)})` : `!${lockText(c)}`;
    }
    case "flag":
      return node.name;
    case "level":
      return `${node.name}+`;
    case "dbref":
      return node.id;
    case "is":
      return `=${node.id}`;
    case "carries":
      return `+${node.id}`;
    case "owner":
      return `$${node.id}`;
    case "indirect":
      return node.type === "basic" ? `@${node.id}` : `@${node.id}/${node.type}`;
    case "attr":
      return `${
        node.scope === "is" ? "=" : node.scope === "carry" ? "+" : ""
      }${node.name}:${node.pattern}`;
    case "eval":
      return `${node.name}/${node.value}`;
    case "connected":
      return "connected";
    case "const":
      return node.value ? "#true" : "#false";
  }
}

interface EvalContext {
  id: string;
  flags: ReadonlySet<string>;
  level: number;
  connected: boolean;
  world: LockWorld | null;
  /** The object whose lock is being evaluated (changes through `@` keys). */
  on: string;
  /** The object the check began on (MUX's `from`: evaluation keys look there first). */
  origin: string;
  /** `@` keys being followed. */
  nesting: number;
  /** Set once the AST proved too deep; the whole evaluation then fails closed. */
  tooDeep: boolean;
  /** Why the lock could not be evaluated (a message for the actor), or null. */
  problem: string | null;
  /** Rounds of wildcard backtracking left to this check (LOCK_WILD_ROUNDS at its start). */
  wildRounds: number;
}

/** Beyond this depth a hand-built AST is refused (false) rather than risk the stack. */
const MAX_EVAL_DEPTH = 4 * MAX_LOCK_DEPTH + 8;

/** The outcome of a check: whether it passed, and why it could not be evaluated. */
export interface LockVerdict {
  pass: boolean;
  /** A clear message when the lock is broken (bad syntax, endless indirection), else null. */
  problem: string | null;
}

function contextOf(subject: LockSubject, ctx: LockContext | undefined): EvalContext {
  const flags = Array.isArray(subject.flags) ? subject.flags : [];
  const id = typeof subject.id === "string" ? subject.id : "";
  return {
    id: DBREF_ATOM_RE.test(id) ? canonicalDbref(id) : id,
    flags: new Set(flags.map((f) => String(f).toLowerCase())),
    level: levelOf(flags),
    connected: subject.connected === true,
    world: ctx?.world ?? null,
    on: ctx?.on ?? "",
    origin: ctx?.on ?? "",
    nesting: 0,
    tooDeep: false,
    problem: null,
    wildRounds: LOCK_WILD_ROUNDS,
  };
}

/** Evaluates a parsed lock against a subject (in `ctx`'s world, when given). */
export function evaluateLock(node: LockNode, subject: LockSubject, ctx?: LockContext): boolean {
  const c = contextOf(subject, ctx);
  const result = evalNode(node, c, 0);
  return result && !c.tooDeep;
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
    case "not": {
      const v = evalNode(node.child, ctx, depth + 1);
      return ctx.tooDeep ? false : !v;
    }
    case "flag":
      return ctx.flags.has(node.name);
    case "level": {
      const need = levelOfName(node.name);
      // A flag with no level (a plugin's own flag) can only be met by having it.
      return need === undefined ? ctx.flags.has(node.name) : ctx.level >= need;
    }
    case "dbref":
      return ctx.id === node.id || carries(ctx, node.id);
    case "is":
      return ctx.id === node.id;
    case "carries":
      return carries(ctx, node.id);
    case "owner":
      return sameOwner(ctx, node.id);
    case "indirect":
      return indirect(ctx, node, depth);
    case "attr":
      return attrMatches(ctx, node.name, node.pattern, node.scope);
    case "eval":
      return evalKey(ctx, node.name, node.value);
    case "connected":
      return ctx.connected;
    case "const":
      return node.value;
    default:
      return false;
  }
}

function bare(dbref: string): string {
  return dbref.startsWith("#") ? dbref.slice(1) : dbref;
}

function carries(ctx: EvalContext, dbref: string): boolean {
  if (!ctx.world) return false;
  const held = ctx.world.object(bare(dbref));
  return !!held && held.location === bare(ctx.id);
}

function ownerOf(o: DbObject): string {
  return o.flags.includes("player") || !o.owner ? o.id : o.owner;
}

function sameOwner(ctx: EvalContext, dbref: string): boolean {
  const w = ctx.world;
  const me = w?.object(bare(ctx.id));
  const other = w?.object(bare(dbref));
  return !!me && !!other && ownerOf(me) === ownerOf(other);
}

/** MUX's check_attr: `holder`'s attribute, readable by the lock's object, matches `pattern`. */
function attrOf(ctx: EvalContext, holderId: string, name: string, pattern: string): boolean {
  const w = ctx.world!;
  const holder = w.object(holderId);
  const a = holder ? w.attr(holderId, name) : null;
  if (!holder || !a) return false;
  // The lock's object must be able to read it (MUX: See_attr); without one, only what all may.
  if (!w.canSeeAttr(w.object(ctx.on), holder, a)) return false;
  return matchesPattern(ctx, pattern, a.value);
}

/**
 * MUX's attribute-key match: `<x` and `>x` compare, anything else is a wildcard pattern, matched
 * within what is left of the check's LOCK_WILD_ROUNDS; past it the whole check fails closed.
 */
function matchesPattern(ctx: EvalContext, pattern: string, value: string): boolean {
  if (pattern.startsWith("<") && pattern.length > 1) {
    return value.toLowerCase() < pattern.slice(1).toLowerCase();
  }
  if (pattern.startsWith(">") && pattern.length > 1) {
    return value.toLowerCase() > pattern.slice(1).toLowerCase();
  }
  if (ctx.tooDeep) return false;
  const more = () => {
    if (--ctx.wildRounds > 0) return true;
    ctx.tooDeep = true;
    ctx.problem ??= LOCK_TOO_COSTLY;
    return false;
  };
  return wildMatch(pattern, value, more) && !ctx.tooDeep;
}

function attrMatches(ctx: EvalContext, name: string, pattern: string, scope: AttrScope): boolean {
  const w = ctx.world;
  if (!w) return false;
  const me = bare(ctx.id);
  // NAME is every object's name, which MUX lets every lock read.
  const valueOf = (id: string) =>
    name === "NAME"
      ? matchesPattern(ctx, pattern, w.object(id)?.name ?? "")
      : attrOf(ctx, id, name, pattern);
  if (scope !== "carry" && valueOf(me)) return true;
  if (scope === "is") return false;
  return w.contents(me).some((id) => valueOf(id));
}

function evalKey(ctx: EvalContext, name: string, value: string): boolean {
  const w = ctx.world;
  if (!w) return false;
  // MUX: the object the check began on first, then the one whose lock holds the key.
  let source = ctx.origin;
  let a = source ? w.attr(source, name) : null;
  if (!a && ctx.on !== ctx.origin) {
    source = ctx.on;
    a = source ? w.attr(source, name) : null;
  }
  if (!a) return false;
  const got = w.evaluate(a.value, source, bare(ctx.id));
  if (got === null) {
    ctx.tooDeep = true;
    ctx.problem = LOCK_TOO_DEEP;
    return false;
  }
  return got.toLowerCase() === value.toLowerCase();
}

function indirect(
  ctx: EvalContext,
  node: { id: string; type: string },
  depth: number,
): boolean {
  const w = ctx.world;
  if (!w) return false;
  if (ctx.nesting >= MAX_LOCK_NESTING) {
    ctx.tooDeep = true;
    ctx.problem = LOCK_TOO_DEEP;
    return false;
  }
  const target = w.object(bare(node.id));
  const src = target?.data?.locks?.[node.type];
  // MUX: a referenced object without that lock passes everyone, as an unlocked lock does.
  if (!target || typeof src !== "string" || !src.trim()) return !!target;
  let parsed: LockNode;
  try {
    parsed = parseLock(src);
  } catch {
    return false;
  }
  const saved = ctx.on;
  ctx.nesting++;
  ctx.on = target.id;
  const v = evalNode(parsed, ctx, depth + 1);
  ctx.nesting--;
  ctx.on = saved;
  return v;
}

/**
 * Parses and evaluates a lock, and says why when it is broken. An empty (or missing) lock
 * passes; one that does not parse, or refers through `@` keys without end, fails closed with a
 * problem the caller can show.
 */
export function lockVerdict(src: string, subject: LockSubject, ctx?: LockContext): LockVerdict {
  if (src === undefined || src === null) return { pass: true, problem: null };
  if (typeof src !== "string") return { pass: false, problem: "Sorry, broken lock." };
  if (src.trim() === "") return { pass: true, problem: null };
  let node: LockNode;
  try {
    node = parseLock(src);
  } catch (err) {
    if (err instanceof LockSyntaxError) return { pass: false, problem: "Sorry, broken lock." };
    throw err;
  }
  const c = contextOf(subject, ctx);
  const pass = evalNode(node, c, 0) && !c.tooDeep;
  return { pass, problem: c.problem };
}

/**
 * Parses and evaluates a lock. An empty (or missing) lock means unlocked (true); a lock that
 * does not parse fails closed (false) so that a bad stored lock never lets anyone through.
 */
export function checkLock(src: string, subject: LockSubject, ctx?: LockContext): boolean {
  // Every command's default lock, checked on every line: no parse and no flag set for it.
  if (src === "connected") return subject.connected === true;
  return lockVerdict(src, subject, ctx).pass;
}

/**
 * A lock expression as it should be stored: trimmed, "" for none; a syntax error becomes
 * a ValidationError (400, or the message in-game) naming the problem. With `resolve`, names
 * become dbrefs (`me` → `#5`) and the stored text is rebuilt from the parse.
 */
export function validLock(
  expr: string,
  resolve?: LockResolver,
  isFlag?: (word: string) => boolean,
): string {
  const l = String(expr ?? "").trim();
  if (!l) return "";
  try {
    const node = parseLock(l, resolve, isFlag);
    return resolve ? lockText(node) : l;
  } catch (e) {
    if (e instanceof LockSyntaxError) throw new ValidationError(e.message);
    throw e;
  }
}
