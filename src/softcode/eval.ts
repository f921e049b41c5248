/**
 * The evaluator: runs parsed softcode against the world in memory, synchronously, within the
 * limits of one evaluation (function invocations, nesting, output length, time) and of its
 * actor over a window of time. A limit reached gives MUX's error text and ends that
 * evaluation only; nothing escapes as an exception.
 */
import {
  type AttrSite,
  type CallNode,
  compileCall,
  type CompileOptions,
  compileRegion,
  type DynNode,
  type DynRest,
  K_CALL,
  K_DEEP,
  K_DYN,
  K_EVAL,
  K_ITEM,
  K_LIT,
  K_NOTFOUND,
  K_SUB,
  type LazyArg,
  type Program,
  type SubNode,
  unwrapped,
  upperAscii,
} from "./compile.ts";
import { isPlain, keptLine, parseText } from "./parse.ts";
import { type KeptPart, RegionCache } from "./region_cache.ts";
import { SeenOnce } from "./seen_once.ts";
import { WorkBuffers } from "./buffers.ts";
import { AttrRefs } from "./attr_refs.ts";
import { SplitLists } from "./split_lists.ts";
import {
  EV,
  type Frame,
  type FunctionDef,
  type FunctionTable,
  MAX_FUNCTION_NAME,
  type NumArg,
} from "./types.ts";
import { formatNumber } from "./numbers.ts";
import type { SoftAttr, SoftcodePorts } from "./ports.ts";
import type { DbObject } from "../world/types.ts";
import { closeColour, codesToMarkup } from "./markup.ts";
import { wildMatch } from "./wild.ts";
import { plainDbref } from "./match.ts";
import {
  ARG_ITEM,
  ARG_POS,
  bindStandIns,
  compileTemplate,
  fillStandIns,
  hasStandIn,
  type Template,
  type TemplatePart,
} from "./template.ts";
import { defaultConfig, type SoftcodeConfig } from "../config/defaults.ts";
import { RegexpCache } from "./regexp_cache.ts";
import { inheritedAttr, type InheritSource } from "../world/attributes/inherit.ts";
import type { QueueChain } from "../queue/types.ts";
import { AsyncLocalStorage } from "node:async_hooks";

/** The limits of evaluation: the `softcode.*` keys of the configuration that bound it. */
export type SoftcodeLimits = Omit<
  SoftcodeConfig,
  "evaluatePlayerText" | "attributeQuotaBytes" | "masterRoom"
>;

/** The limits in a `softcode` configuration section. */
function limitsOf(c: SoftcodeConfig): SoftcodeLimits {
  const { evaluatePlayerText: _e, attributeQuotaBytes: _q, masterRoom: _m, ...limits } = c;
  return limits;
}

/** Defaults: the configuration's (MUX's where it has one). */
export const DEFAULT_LIMITS: SoftcodeLimits = limitsOf(defaultConfig().softcode);

/** MUX's error texts for the limits. */
export const ERR_RECURSION = "#-1 FUNCTION RECURSION LIMIT EXCEEDED";
export const ERR_INVOCATION = "#-1 FUNCTION INVOCATION LIMIT EXCEEDED";
export const ERR_CPU = "#-1 CPU LIMITED";
export const ERR_PERMISSION = "#-1 PERMISSION DENIED";

/**
 * Most texts in each generation of the parsed-text cache and of the texts seen once: when the
 * young one is full it becomes the old one (the previous old one goes), so nothing walks the
 * entries to drop the oldest. A Map's or Set's first key after many deletes is found past every
 * deleted slot, which cost each new text about 12 µs once 20,000 were held (docs/bench.md).
 */
const MAX_CACHED = 10_000;
/** A parsed text in the cache: its program under one flag set, then the next flag set's. */
interface Cached {
  readonly flags: number;
  readonly p: Program;
  readonly next: Cached | undefined;
}

/** An iter() body's template (null: its items are parsed one by one) under one flag set. */
interface CachedTemplate {
  readonly flags: number;
  readonly t: Template | null;
  readonly next: CachedTemplate | undefined;
}

/** Most `[...]` parts of typed lines kept parsed (in each of two generations). */
const MAX_REGIONS = 1_000;

/** Most iter() bodies kept parsed as templates. */
const MAX_TEMPLATES = 2_000;

/** Most attribute references kept resolved (src/softcode/attr_refs.ts). */
const MAX_REFS = 4_096;
/** Long lists kept split for iter() and list() (src/softcode/split_lists.ts). */
const MAX_SPLITS = 4;

/** Most actors whose recent evaluation time is remembered. */
const MAX_ACTORS = 10_000;

/** What a payer's evaluations use before the end of the turn is awaited (see `#counted`). */
const TURN_SLACK_MS = 1;

/** What one evaluation asks for. */
export interface EvalRequest {
  /** `%!`: whose code runs (its permissions apply). */
  executor: string;
  /** `%#`: who caused it (default: the executor). */
  enactor?: string;
  /** `%@` (default: the enactor). */
  caller?: string;
  /** `%0`–`%9`. */
  args?: readonly string[];
  /** The text of the command being run (`%m`). */
  command?: string;
  /** Evaluation flags (default: a command argument's, MUX's `think`). */
  flags?: number;
  /**
   * `%q` registers to start from and to leave the evaluation's in (written in place): the
   * commands of one queue entry share them, as in MUX. Absent: fresh registers, dropped after.
   */
  regs?: Map<string, string>;
  /** The queue chain of the line evaluating (`trigger()` joins it: src/queue/types.ts). */
  chain?: QueueChain | null;
  /**
   * The text is (part of) a line a player typed: seen once, so parsed without looking it up in
   * the parsed-text cache or remembering it there (what it calls on is cached as usual).
   */
  typed?: boolean;
}

/** Flags `think` evaluates its argument with. */
export const TOP_FLAGS = EV.EVAL | EV.FCHECK | EV.TOP;

/** Options of a Softcode engine. */
export interface SoftcodeOptions {
  ports: SoftcodePorts;
  functions: FunctionTable;
  /** The limits, or where to read them at each evaluation (the configuration may change). */
  limits?: Partial<SoftcodeLimits> | (() => Partial<SoftcodeLimits>);
  /** Allow `%q<name>` and named registers (default true). */
  namedRegisters?: boolean;
  /** Monotonic milliseconds for budgets (default performance.now). */
  monotonic?: () => number;
}

/** The softcode engine: parsed-text cache, limits, actors' budgets. One per game engine. */
export class Softcode {
  readonly ports: SoftcodePorts;
  readonly functions: FunctionTable;
  limits: SoftcodeLimits;
  readonly monotonic: () => number;
  /** `%q<name>` and named registers are allowed. */
  readonly namedRegisters: boolean;
  /** Compiled regular expressions by flags and pattern (src/softcode/functions/regexp.ts). */
  readonly regexps = new RegexpCache(() => this.limits.regexpSize);
  /** Buffers functions reuse from call to call (src/softcode/buffers.ts). */
  readonly buffers = new WorkBuffers();
  /** Attribute references (`#12/FOO`) by their text, resolved (src/softcode/attr_refs.ts). */
  readonly attrRefs = new AttrRefs(MAX_REFS);
  /** Long lists iter() and list() split at spaces, by their text (src/softcode/split_lists.ts). */
  readonly splits = new SplitLists(MAX_SPLITS);
  /** Objects and their own attributes, for lookups through the `@parent` chain. */
  readonly inherit: InheritSource;
  #cache = new Map<string, Cached>();
  /** The cache's previous generation: a text found here is copied back to `#cache`. */
  #older = new Map<string, Cached>();
  /** Texts (with their flags) parsed once and not kept yet. */
  readonly #seen = new SeenOnce(MAX_CACHED);
  /** The `[...]` parts of typed lines, parsed (src/softcode/region_cache.ts). */
  readonly #regions = new RegionCache(MAX_REGIONS);
  readonly #templates = new Map<string, CachedTemplate>();
  /** Parts of templates that lazy functions evaluate, parsed with their stand-ins. */
  readonly #bound = new Map<string, CachedTemplate>();
  #cacheGeneration: number;
  /**
   * Changes whenever what was parsed is forgotten (the parse depth changed): parses kept
   * elsewhere (a lazy call's arguments: Evaluation.evalLazy) are then made again.
   */
  epoch = 0;
  readonly #opts: CompileOptions;
  readonly #spent = new Map<string, { since: number; used: number; told?: boolean }>();
  /** The game's evaluation time in its window, and who spent it (see `#allowance`). */
  #game = { since: -Infinity, used: 0, payers: new Set<string>() };
  readonly #readLimits: (() => Partial<SoftcodeLimits>) | null;
  /** What `#readLimits` gave last (see `begin`). */
  #limitsRead: Partial<SoftcodeLimits> | null = null;
  /** Evaluation time each payer used since the turn's end was last awaited (`#turnLeft`). */
  readonly #turn = new Map<string, number>();
  /** The timer that ends the turn, once awaited (see `#counted`), and what waits for its end. */
  #turnTimer: ReturnType<typeof setTimeout> | null = null;
  #turnEnded: PromiseWithResolvers<void> | null = null;
  readonly #endTurn = () => {
    this.#turnTimer = null;
    this.#turn.clear();
    const ended = this.#turnEnded;
    this.#turnEnded = null;
    ended?.resolve();
  };
  /**
   * The player whose command the engine is running, through that command's awaits, and whether
   * the command is still running (work it left behind, unawaited, outlives it).
   */
  readonly #behalf = new AsyncLocalStorage<{ readonly payer: string | null; running: boolean }>();
  /** The innermost evaluation running now (evaluations are synchronous: they nest). */
  #active: Evaluation | null = null;
  /**
   * Evaluations begun so far, and evaluation keys refused for lock nesting depth (the lock
   * world's `refused`): a verdict worked out while either happened (a zone's enter lock with an
   * evaluation key) may hang on more than the world, and is not kept (functions/control.ts).
   */
  begun = 0;

  constructor(opts: SoftcodeOptions) {
    this.ports = opts.ports;
    const ports = opts.ports;
    this.inherit = {
      object: (id) => ports.world.object(id),
      ownAttr: (id, name) => ports.attributes.get(id, name),
    };
    this.functions = opts.functions;
    const given = opts.limits ?? {};
    this.#readLimits = typeof given === "function" ? given : null;
    this.limits = { ...DEFAULT_LIMITS, ...(typeof given === "function" ? given() : given) };
    this.monotonic = opts.monotonic ?? (() => performance.now());
    this.#cacheGeneration = opts.functions.generation;
    this.namedRegisters = opts.namedRegisters ?? true;
    this.#opts = {
      functions: opts.functions,
      maxDepth: this.limits.parseDepth,
      namedRegisters: this.namedRegisters,
    };
  }

  /** Changes the limits (configuration reload). */
  setLimits(limits: Partial<SoftcodeLimits>): void {
    this.limits = { ...this.limits, ...limits };
    this.#opts.maxDepth = this.limits.parseDepth;
    this.epoch++;
    this.#cache.clear();
    this.#older.clear();
    this.#regions.clear();
    // iter() bodies and their switch() branches were parsed under the old depth too.
    this.#templates.clear();
    this.#bound.clear();
  }

  /** The parsed form of `text` under `flags`, from the cache when it was parsed before. */
  compile(text: string, flags: number): Program {
    if (this.#cacheGeneration !== this.functions.generation) this.#fresh();
    // Keyed by the text itself (an attribute's value is the same string each time, whose hash
    // V8 keeps), with a short chain for the rare text parsed under several flag sets.
    let e = this.#cache.get(text);
    while (e !== undefined && e.flags !== flags) e = e.next;
    if (e !== undefined) return e.p;
    const chain = this.#older.get(text);
    if (chain !== undefined) {
      // Found in the previous generation: the text's programs move back to the current one.
      this.#older.delete(text);
      let found: Program | null = null;
      for (let c: Cached | undefined = chain; c !== undefined; c = c.next) {
        this.#keep(text, c.flags, c.p);
        if (c.flags === flags) found = c.p;
      }
      if (found) return found;
    }
    const p = unwrapped(parseText(text, flags, this.#opts));
    // A text that is one literal is parsed again faster than it is remembered.
    if (p.text !== null) return p;
    // A text is kept parsed from its second time on: a typed line or an iter() item's text is
    // parsed once and dropped, rather than held (and pushing an attribute's program out). Texts
    // seen once are remembered by a hash, not held.
    if (!this.#seen.again(text, flags)) return p;
    this.#keep(text, flags, p);
    return p;
  }

  /** Keeps a text's program in the current generation (a full one becomes the previous one). */
  #keep(text: string, flags: number, p: Program): void {
    if (this.#cache.size >= MAX_CACHED) {
      this.#older = this.#cache;
      this.#cache = new Map();
    }
    this.#cache.set(text, { flags, p, next: this.#cache.get(text) });
  }

  /**
   * iter()'s body parsed once for all items (src/softcode/template.ts), from the cache; null
   * when its items must be parsed one by one.
   */
  template(body: string, flags: number): Template | null {
    if (this.#cacheGeneration !== this.functions.generation) this.#fresh();
    // Keyed by the body itself: iter() asks once per item with the same string.
    let e = this.#templates.get(body);
    while (e !== undefined && e.flags !== flags) e = e.next;
    if (e !== undefined) return e.t;
    const t = compileTemplate(body, flags, this.#opts);
    // Full: they are all made again as they are used (cheaper than finding the oldest).
    if (this.#templates.size >= MAX_TEMPLATES) this.#templates.clear();
    this.#templates.set(body, { flags, t, next: this.#templates.get(body) });
    return t;
  }

  /**
   * A part of a template that holds its stand-ins (a `switch()` branch in an iter() body),
   * parsed once with them as item nodes (src/softcode/template.ts); null when its items must be
   * put in its text.
   */
  bound(text: string, flags: number): Template | null {
    if (this.#cacheGeneration !== this.functions.generation) this.#fresh();
    let e = this.#bound.get(text);
    while (e !== undefined && e.flags !== flags) e = e.next;
    if (e !== undefined) return e.t;
    const t = bindStandIns(text, flags, this.#opts);
    if (this.#bound.size >= MAX_TEMPLATES) this.#bound.clear();
    this.#bound.set(text, { flags, t, next: this.#bound.get(text) });
    return t;
  }

  /**
   * The parsed form of a text seen once (a typed line): parsed, neither looked up nor kept,
   * but for its `[...]` parts, which often repeat from line to line (src/softcode/region_cache.ts).
   */
  parseOnce(text: string, flags: number): Program {
    if (this.#cacheGeneration !== this.functions.generation) this.#fresh();
    return parseText(text, flags, this.#opts, this.#regions);
  }

  /**
   * The part a typed line ends with, when the line is plain text and then the part kept last
   * (src/softcode/parse.ts, keptLine); null when the line is to be parsed.
   */
  keptLine(text: string, flags: number): KeptPart | null {
    if (this.#cacheGeneration !== this.functions.generation) this.#fresh();
    return keptLine(text, flags, this.#regions);
  }

  /** Forgets what was parsed when a function was added or removed since. */
  #fresh(): void {
    if (this.#cacheGeneration === this.functions.generation) return;
    this.#cache.clear();
    this.#older.clear();
    this.#seen.clear();
    this.#regions.clear();
    this.#templates.clear();
    this.#bound.clear();
    this.#cacheGeneration = this.functions.generation;
  }

  /** Parse settings (for the run-time parse of a dynamic call). */
  get compileOptions(): CompileOptions {
    return this.#opts;
  }

  /** Number of parsed texts held (for tests and the benchmark). */
  get cacheSize(): number {
    let n = 0;
    for (const m of [this.#cache, this.#older]) {
      for (const head of m.values()) for (let c: Cached | undefined = head; c; c = c.next) n++;
    }
    return n;
  }

  /**
   * Evaluates `text` for a request and returns the output (internal form: see markup.ts).
   * Never throws: a limit or an internal fault gives an error text.
   */
  evaluate(text: string, req: EvalRequest): string {
    const ev = this.begin(req);
    const shared = req.regs;
    // The evaluation writes the request's map itself (a frame's, which nothing else reads while
    // it runs): a copy in and out cost a paced `think` a Map and a walk.
    if (shared !== undefined) ev.regs = shared;
    try {
      return ev.evalTop(text, req.flags ?? TOP_FLAGS);
    } finally {
      this.end(ev);
      // Functions that restore registers (localize(), ulocal()) put a copy in place of the
      // map: then what it holds is copied back.
      if (shared && !ev.regsAre(shared) && (shared.size || ev.hasRegs)) {
        shared.clear();
        for (const [k, v] of ev.regs) shared.set(k, v);
      }
    }
  }

  /**
   * Runs `work` that is not an evaluation but may cost as much (a line matched against every
   * `$-command` around its player, a message against every listen in a room: thousands of them,
   * or regular expressions against a long text) as one: charged like an evaluation of
   * `req.executor` (the line's payer), within the same time, which `more()` reports is left.
   * The evaluation begins at the first `more()`: a line or message with nothing to match
   * costs nothing.
   */
  metered<T>(req: EvalRequest, work: (more: () => boolean) => T): T {
    let ev: Evaluation | null = null;
    try {
      return work(() => (ev ??= this.begin(req)).tickNow());
    } finally {
      if (ev !== null) this.end(ev);
    }
  }

  /**
   * Runs `work` (one object's test in a search's evaluation class) inside the evaluation running
   * now with its function calls counted apart: from the count when it began, and forgotten
   * after, as MUX's search_perform puts its invocation counter back for each object. So a search
   * over many objects is held by its time (shared), not by all their calls together.
   */
  apart<T>(work: () => T): T {
    const ev = this.#active;
    if (ev === null) return work();
    const calls = ev.invocations;
    try {
      return work();
    } finally {
      ev.invocations = calls;
    }
  }

  /**
   * Runs `work` (a command, with everything it awaits) on behalf of `payer`: the evaluations it
   * begins however they are reached (a lock's evaluation key, a description, a format, a
   * control check through a zone) are charged to `payer` (docs/softcode.md, "Whose time");
   * null: to each executor's owner. `work` is a line or request that waited for its turn
   * (`turnWait`): while it runs, its heavy evaluations put the turn's end off (`#counted`);
   * what it leaves running unawaited does not once it has ended.
   */
  onBehalfOf<T>(payer: string | null, work: () => T): T {
    const line = { payer, running: true };
    const done = () => void (line.running = false);
    let result: T;
    try {
      result = this.#behalf.run(line, work);
    } catch (err) {
      done();
      throw err;
    }
    if (result instanceof Promise) result.then(done, done);
    else done();
    return result;
  }

  /** The player on whose behalf the engine works now (see `onBehalfOf`), or null. */
  get payer(): string | null {
    return this.#behalf.getStore()?.payer ?? null;
  }

  /**
   * Starts an evaluation (pair with `end`), charging its time to its chain's payer, else to the
   * player whose command runs, else to the executor's owner. An evaluation begun inside another
   * (a lock an `elock()` checks) is part of it: same payer, deadline and counts.
   */
  begin(req: EvalRequest): Evaluation {
    this.begun++;
    if (this.#readLimits) {
      // The configuration's section is replaced, never changed, when the configuration is:
      // the same section as last time gives the same limits, without copying them again.
      const read = this.#readLimits();
      if (read !== this.#limitsRead) {
        this.#limitsRead = read;
        const next = { ...DEFAULT_LIMITS, ...read };
        if (next.parseDepth !== this.limits.parseDepth) this.setLimits(next);
        else this.limits = next;
      }
    }
    const now = this.monotonic();
    const outer = this.#active;
    if (outer !== null) {
      // Its time is counted in the outer one's, which it cannot outlast.
      const over = outer.halted || now > outer.deadline;
      const ev = new Evaluation(this, req, outer.actor, now, outer.deadline, over, outer);
      this.#active = ev;
      return ev;
    }
    // The player whose line or event began the chain pays (docs/softcode.md, "Limits"), so one
    // player's use of a global cannot spend its owner's time for everyone; else the owner.
    const actor = req.chain?.payer ?? this.#behalf.getStore()?.payer ??
      this.#actorOf(req.executor);
    const spent = this.#spentBy(actor, now);
    const allowed = this.#allowance(now);
    const left = allowed - spent.used;
    if (left <= 0 && !spent.told) {
      // Said once a window, to the one whose evaluations are refused from now on.
      spent.told = true;
      const again = Math.max(1, Math.ceil((spent.since + this.limits.actorWindowMs - now) / 1000));
      const secs = Math.round(this.limits.actorWindowMs / 1000);
      this.ports.delivery.toObject(
        actor,
        allowed < this.limits.actorMs
          ? `The game's softcode is busy, and yours has used its share for now (${
            Math.floor(allowed)
          } ms of evaluation every ${secs} s); it runs again in ${again} s.`
          : `Your softcode has used its time for now (${this.limits.actorMs} ms of evaluation every ${secs} s); it runs again in ${again} s.`,
      );
    }
    const turnLeft = this.#turnLeft(actor);
    const budget = Math.max(0, Math.min(this.limits.evaluationMs, left, turnLeft));
    const ev = new Evaluation(
      this,
      req,
      actor,
      now,
      now + budget,
      left <= 0 || turnLeft <= 0,
      null,
    );
    this.#active = ev;
    return ev;
  }

  /**
   * What is left of the evaluation time the payer's evaluations share until the turn ends, as
   * MUX's limits hold for one command. Nothing else runs between them (the use locks of
   * everything that hears one say, the commands one line runs inline, awaited but never waiting
   * on I/O), so each with a time of its own held every other player for their sum, up to the
   * payer's whole actorMs. Counted as time used, not as a deadline: other players' work between
   * them in the same turn is not theirs. The count is cleared when the turn ends (`#counted`).
   */
  #turnLeft(actor: string): number {
    const used = this.#turn.get(actor);
    return used === undefined ? this.limits.evaluationMs : this.limits.evaluationMs - used;
  }

  /**
   * Counts an evaluation's time in its payer's turn. The turn's end is awaited only once some
   * payer's count reaches TURN_SLACK_MS: a typed `think` takes a few microseconds, and a timer
   * for each cost more than its evaluation. Until then a payer's small uses carry over into its
   * next turns, so a turn may give it up to TURN_SLACK_MS less than its time, never more: every
   * use within a turn is counted in it. The turn ends at a timer, not an immediate: Deno runs
   * every immediate, those queued meanwhile too, before it reads sockets again.
   */
  #counted(actor: string, took: number): void {
    const used = (this.#turn.get(actor) ?? 0) + took;
    this.#turn.set(actor, used);
    if (used >= this.limits.yieldMs && took >= 1 && this.#behalf.getStore()?.running) {
      // A heavy payer's turn ends only after the engine has read the input that came meanwhile
      // (a timer set now is not due when the loop next looks, so the sockets are read first):
      // the payer's lines read in that same pass still find its turn spent, and wait. Not for
      // an evaluation refused at once, or a payer hammering would keep its turn spent forever;
      // nor for one no turn check held (a request without a caller, a hook's handler, a look a
      // line left running): those come however long the turn is, and each putting its end off
      // `yieldMs` more kept every waiting payer waiting while the owner's time lasted.
      if (this.#turnTimer !== null) clearTimeout(this.#turnTimer);
      this.#turnTimer = setTimeout(this.#endTurn, this.limits.yieldMs);
    } else if (
      this.#turnTimer === null && (used >= TURN_SLACK_MS || this.#turn.size >= MAX_ACTORS)
    ) {
      this.#turnTimer = setTimeout(this.#endTurn, 0);
    }
  }

  /**
   * Null, or when `payer`'s evaluations have used `yieldMs` this turn, a promise of the turn's
   * end: its next typed line or queue entry waits for it, so another player's line goes before
   * a player's next heavy one (docs/softcode.md, "Taking turns").
   */
  turnWait(payer: string): Promise<void> | null {
    const used = this.#turn.get(payer);
    if (used === undefined || used < this.limits.yieldMs) return null;
    // A use under TURN_SLACK_MS set no timer (`#counted`); past a yieldMs below it (0 included)
    // the turn must still end, or the payer's line would wait for someone else's heavy one.
    this.#turnTimer ??= setTimeout(this.#endTurn, 0);
    return (this.#turnEnded ??= Promise.withResolvers<void>()).promise;
  }

  /** Ends an evaluation: its time counts against its actor's budget (once, at the outermost). */
  end(ev: Evaluation): void {
    this.#active = ev.outer;
    if (ev.outer !== null) {
      ev.outer.invocations = ev.invocations;
      if (ev.halted) ev.outer.halted = true;
      return;
    }
    const now = this.monotonic();
    const took = now - ev.started;
    const spent = this.#spentBy(ev.actor, now);
    spent.used += took;
    this.#counted(ev.actor, took);
    const game = this.#gameWindow(now);
    game.used += took;
    // Only a payer who spent a part worth counting divides the game's share: a crowd of light
    // players typing `think` must not shrink everyone's share to nothing.
    if (spent.used >= this.limits.gameMs / 100 && game.payers.size < MAX_ACTORS) {
      game.payers.add(ev.actor);
    }
  }

  /**
   * What one payer may use in its window: `actorMs`, or once the game as a whole has used
   * `gameMs` in its window, a fair share of that among everyone who spent a part of it. Several
   * accounts each within its own time could otherwise hold the engine between them; a fair
   * share refuses the heavy ones and leaves the light ones (a `+who`) running.
   */
  #allowance(now: number): number {
    const game = this.#gameWindow(now);
    if (game.used < this.limits.gameMs) return this.limits.actorMs;
    return Math.min(this.limits.actorMs, this.limits.gameMs / Math.max(1, game.payers.size));
  }

  #gameWindow(now: number): { since: number; used: number; payers: Set<string> } {
    if (now - this.#game.since >= this.limits.actorWindowMs) {
      this.#game = { since: now, used: 0, payers: new Set() };
    }
    return this.#game;
  }

  /** Evaluation time the actor has used in the current window (ms). */
  spentBy(actor: string): number {
    return this.#spentBy(actor, this.monotonic()).used;
  }

  #spentBy(actor: string, now: number): { since: number; used: number; told?: boolean } {
    let s = this.#spent.get(actor);
    if (!s || now - s.since >= this.limits.actorWindowMs) {
      if (s) this.#spent.delete(actor);
      s = { since: now, used: 0 };
      if (this.#spent.size >= MAX_ACTORS) this.#spent.delete(this.#spent.keys().next().value!);
      this.#spent.set(actor, s);
    }
    return s;
  }

  /** Whose budget an evaluation uses: the executor's owner (a player), else itself. */
  #actorOf(executor: string): string {
    const o = this.ports.world.object(executor);
    return o?.owner || executor;
  }
}

/** Longest text `eval` checks for being plain before looking it up. */
const PLAIN_CHECK = 64;

/** The flags an attribute's text is evaluated under as a u-function. */
const ATTR_FLAGS = EV.FCHECK | EV.EVAL;

/**
 * How often (in calls) the clock is read: every CLOCK_EVERY calls, and while the calls between
 * two reads take under CLOCK_QUICK_MS, twice as many calls between reads each time, up to
 * CLOCK_MOST. A read (performance.now) costs more than most calls (about 150 ns): a listing of
 * 2,000 quick calls spent 3 % of its time reading the clock. A slow stretch goes back to
 * CLOCK_EVERY at the next read, so a deadline is overrun by at most CLOCK_MOST calls once.
 */
const CLOCK_EVERY = 16;
const CLOCK_MOST = 128;
const CLOCK_QUICK_MS = 0.25;

/** One evaluation: its registers, loops, counters and the frame of each call. */
export class Evaluation {
  readonly sc: Softcode;
  readonly ports: SoftcodePorts;
  /** Whose budget this is. */
  readonly actor: string;
  readonly started: number;
  readonly deadline: number;
  /**
   * `%q0`–`%qz` by index 0–35, and named registers (lower-case) beyond: made when first asked
   * for (most evaluations set none; `reg` reads one without making it).
   */
  get regs(): Map<string, string> {
    return this.#regs ??= new Map();
  }
  set regs(m: Map<string, string>) {
    this.#regs = m;
  }
  #regs: Map<string, string> | null = null;
  /** A register's value ("" when unset), without making the registers. */
  reg(name: string): string {
    return this.#regs?.get(name) ?? "";
  }
  /** Whether the registers are this map (no copy was put in its place). */
  regsAre(m: Map<string, string>): boolean {
    return this.#regs === m;
  }
  /** Whether any register is set. */
  get hasRegs(): boolean {
    return this.#regs !== null && this.#regs.size > 0;
  }
  /** `itext()` / `inum()` of the loops in progress, innermost last. */
  readonly itext: string[] = [];
  readonly inum: number[] = [];
  /** The command line being run (`%m`). */
  readonly command: string;
  invocations = 0;
  nest = 0;
  /**
   * The item and position an iter() body parsed once reads (src/softcode/template.ts): the
   * position as a number (0: none), made text only where a body reads it (most do not).
   */
  loopItem = "";
  loopPos = 0;
  /** Templates running (runItem): only then may a text hold stand-ins. */
  #inTemplate = 0;
  /**
   * The last plain `#123` objectAt read, and its id: a listing's row names its item a dozen
   * times (`name(##)`, `hasflag(##,dark)`, `loc(##)`...), and each cut a new id string from it
   * that the world's map hashed anew. Only the text's meaning is kept, never the object.
   */
  #atText = "";
  #atId = "";
  /** Set when time ran out: every further step gives nothing. */
  halted = false;
  readonly request: EvalRequest;
  /** The evaluation this one runs inside, or null. */
  readonly outer: Evaluation | null;
  /** Longest text a step may give. */
  readonly lbuf: number;
  #sinceClock = 0;
  #more: (() => boolean) | null = null;
  /** Calls until the next read of the clock, and when it was read last (see CLOCK_EVERY). */
  #clockEvery = CLOCK_EVERY;
  #clockAt: number;
  /** The limits this evaluation runs under (read once). */
  readonly #maxNest: number;
  readonly #maxInvocations: number;

  constructor(
    sc: Softcode,
    req: EvalRequest,
    actor: string,
    started: number,
    deadline: number,
    overBudget: boolean,
    outer: Evaluation | null,
  ) {
    this.sc = sc;
    this.ports = sc.ports;
    this.actor = actor;
    this.started = started;
    this.deadline = deadline;
    this.request = req;
    this.outer = outer;
    if (outer !== null) {
      // One budget of calls and of nesting for the whole, however its parts are reached.
      this.invocations = outer.invocations;
      this.nest = outer.nest;
    }
    this.command = req.command ?? "";
    this.lbuf = Math.max(1, sc.limits.outputLength - 1);
    this.#maxNest = sc.limits.recursionDepth;
    this.#maxInvocations = sc.limits.functionInvocations;
    this.halted = overBudget;
    this.#clockAt = started;
  }

  /** The top-level frame of the request. */
  topFrame(): Frame {
    const r = this.request;
    const enactor = r.enactor ?? r.executor;
    // Its fields in the order of every other frame's (callAttr's), so frames share one shape.
    return { executor: r.executor, caller: r.caller ?? enactor, enactor, args: r.args ?? [] };
  }

  /** Evaluates a text at the top level, catching anything unexpected. */
  evalTop(text: string, flags: number): string {
    if (this.halted) return ERR_CPU;
    try {
      if (!this.request.typed) return this.eval(this.topFrame(), text, flags);
      const t = text.length > this.lbuf ? text.slice(0, this.lbuf) : text;
      if (!t || (t.length <= PLAIN_CHECK && isPlain(t, flags))) return t;
      // Text and then a part kept parsed: that text, then the part's run, as the parse's program
      // of two nodes (a literal, the part) gives them.
      const kept = this.sc.keptLine(t, flags);
      if (kept === null) return this.run(this.topFrame(), this.sc.parseOnce(t, flags));
      const head = t.slice(0, t.length - kept.text.length - 2);
      const p = kept.p;
      const out = head + (p.text !== null ? p.text : this.run(this.topFrame(), p));
      return out.length > this.lbuf ? out.slice(0, this.lbuf) : out;
    } catch (e) {
      if (e instanceof RangeError) return ERR_RECURSION;
      console.error(`softcode: evaluation failed: ${(e as Error)?.stack ?? e}`);
      return "#-1 INTERNAL ERROR";
    }
  }

  /** Evaluates `text` under `flags` in `frame`. */
  eval(frame: Frame, text: string, flags: number): string {
    if (!text) return "";
    // A lazy function's argument in a template's body (switch()'s in iter()'s) holds the
    // template's stand-ins for its item: its own parse with them, or MUX's text with the item.
    if (this.#inTemplate > 0 && hasStandIn(text)) return this.#evalBound(frame, text, flags);
    // Every text MUX evaluates sits in an LBUF: a longer one is cut first, which also bounds
    // the parse (at most LBUF × nesting depth steps).
    if (text.length > this.lbuf) text = text.slice(0, this.lbuf);
    // A text with nothing to evaluate (a lazy argument's `1`, a switch case) is itself.
    if (text.length <= PLAIN_CHECK && isPlain(text, flags)) return text;
    return this.run(frame, this.sc.compile(text, flags));
  }

  /**
   * Evaluates raw argument `i` of lazy call `n` under `flags`, as eval() evaluates its text, with
   * what eval() finds out about the text at every call (its stand-ins, whether it is plain, its
   * parse looked up in the cache) kept on the call's node: a listing's switch() evaluates its
   * value, its cases and a branch for every row. Made again when the function table or the parse
   * depth changed since, or the flags differ; a text over the output limit, or one holding a
   * template's stand-ins, goes through eval() as before.
   */
  evalLazy(frame: Frame, n: CallNode, i: number, flags: number): string {
    const text = n.args[i] as string;
    // eval() cuts such a text first (the limit may change between evaluations): not kept.
    if (text.length > this.lbuf) return this.eval(frame, text, flags);
    const sc = this.sc;
    let a = n.lazy === null ? undefined : n.lazy[i];
    if (
      a === undefined || a.flags !== flags || a.generation !== sc.functions.generation ||
      a.epoch !== sc.epoch
    ) a = this.#lazyArg(n, i, text, flags);
    if (a.standIn) {
      // In an iter() body (a listing's switch() on `##`, every row): its parse with the
      // stand-ins, kept here, as #evalBound finds it in the cache by the text.
      if (a.bound !== null && this.#inTemplate > 0 && this.#bindFits(text, a.tokens)) {
        return this.run(frame, a.bound);
      }
      return this.eval(frame, text, flags);
    }
    return a.p === null ? text : this.run(frame, a.p);
  }

  /** What evalLazy keeps of a raw argument (see there). */
  #lazyArg(n: CallNode, i: number, text: string, flags: number): LazyArg {
    const sc = this.sc;
    const standIn = hasStandIn(text);
    const plain = !text || (text.length <= PLAIN_CHECK && isPlain(text, flags));
    const t = standIn ? sc.bound(text, flags) : null;
    const a: LazyArg = {
      generation: sc.functions.generation,
      epoch: sc.epoch,
      flags,
      standIn,
      bound: t === null ? null : t.program,
      tokens: t === null ? 0 : t.tokens,
      dollar: text.includes("#$"),
      p: plain || standIn ? null : sc.compile(text, flags),
    };
    (n.lazy ??= [])[i] = a;
    return a;
  }

  /** Whether lazy call `n`'s raw argument `i` holds switch()'s `#$` (see evalLazy). */
  lazyDollar(n: CallNode, i: number): boolean {
    const a = n.lazy === null ? undefined : n.lazy[i];
    return a !== undefined ? a.dollar : (n.args[i] as string).includes("#$");
  }

  /**
   * Evaluates an attribute's text as a u-function (u(), a @function; get_eval() and eval() with
   * their flags): outside the running template, if any. MUX replaces an iter()'s `##` in its
   * body's text only, never in an attribute the body calls, so no stand-in is looked for there
   * (nor read as the loop's item).
   */
  evalAttr(frame: Frame, text: string, flags: number = ATTR_FLAGS): string {
    const inTemplate = this.#inTemplate;
    if (inTemplate === 0) return this.eval(frame, text, flags);
    this.#inTemplate = 0;
    try {
      return this.eval(frame, text, flags);
    } finally {
      this.#inTemplate = inTemplate;
    }
  }

  /**
   * evalAttr() of an attribute's `text` for a call that keeps, on its node, the program it ran
   * last (`site`: u(), ulocal()): the same text under the same function table and parse depth
   * runs from there, without the parse cache's lookup (its map's entry and record, cold in a
   * paced line, at every level of a u() chain); another text is found as evalAttr() finds it, and
   * kept instead.
   */
  evalAttrAt(frame: Frame, text: string, site: AttrSite): string {
    const sc = this.sc;
    // The same string kept under the same limits is run without reading it (its length, cold in
    // a paced line, at every level of a u() chain).
    if (
      site.text !== text || site.lbuf !== this.lbuf ||
      site.generation !== sc.functions.generation || site.epoch !== sc.epoch
    ) {
      // eval() cuts such a text first, and the limit may change between evaluations: not kept.
      if (text.length > this.lbuf) return this.evalAttr(frame, text);
      const plain = !text || (text.length <= PLAIN_CHECK && isPlain(text, ATTR_FLAGS));
      const p = site.p = plain ? null : sc.compile(text, ATTR_FLAGS);
      const one = p !== null && p.text === null && p.nodes.length === 1 ? p.nodes[0] : null;
      site.call = one !== null && one.k === K_CALL ? one : null;
      site.text = text;
      site.generation = sc.functions.generation;
      site.epoch = sc.epoch;
      site.lbuf = this.lbuf;
    }
    if (site.p === null) return text;
    const inTemplate = this.#inTemplate;
    if (inTemplate === 0) return this.#runSite(frame, site);
    this.#inTemplate = 0;
    try {
      return this.#runSite(frame, site);
    } finally {
      this.#inTemplate = inTemplate;
    }
  }

  /** A site's kept program as run() gives it: a lone call as the call, without the node array. */
  #runSite(frame: Frame, site: AttrSite): string {
    const n = site.call;
    if (n === null) return this.run(frame, site.p!);
    return this.halted ? "" : this.cap(this.call(frame, n));
  }

  /** Evaluates a text that holds the running template's stand-ins (see `eval`). */
  #evalBound(frame: Frame, text: string, flags: number): string {
    const t = this.sc.bound(text, flags);
    if (t && this.#bindFits(text, t.tokens)) return this.run(frame, t.program);
    return this.eval(frame, fillStandIns(text, this.loopItem, this.#posText()), flags);
  }

  /**
   * True when `text` with its `tokens` stand-ins replaced by the running item (or its position)
   * fits the output limit: MUX would cut a longer one before parsing it.
   */
  #bindFits(text: string, tokens: number): boolean {
    const pos = this.loopPos;
    // The position's digits counted, not written out (String(pos) made a string a call).
    let digits = 0;
    for (let n = pos; n >= 1; n = Math.floor(n / 10)) digits++;
    return text.length + tokens * Math.max(this.loopItem.length, digits) <= this.lbuf;
  }

  /** Runs an iter() body parsed once for one item (src/softcode/template.ts). */
  runItem(frame: Frame, t: Template, item: string, pos: number): string {
    if (t.call !== null) return this.#itemCall(frame, t.call, t.kinds, item, pos);
    if (t.parts !== null) return this.#itemParts(frame, t.parts, item, pos);
    const outerItem = this.loopItem, outerPos = this.loopPos;
    this.loopItem = item;
    this.loopPos = pos;
    this.#inTemplate++;
    try {
      return this.run(frame, t.program);
    } finally {
      this.loopItem = outerItem;
      this.loopPos = outerPos;
      this.#inTemplate--;
    }
  }

  /**
   * A template that is one leaf call of literals and the item (Template.call): its arguments
   * put in the array its node keeps, as #callLeaf would after evaluating them, and the call
   * made, without running the body's program and the arguments' (two runs, the call's
   * dispatch and the item's bookkeeping, half an item's work). The leaf reads only these.
   */
  #itemCall(
    frame: Frame,
    n: CallNode,
    kinds: readonly number[],
    item: string,
    pos: number,
  ): string {
    // What run() gives once the evaluation has halted.
    if (this.halted) return "";
    const count = kinds.length;
    const progs = n.args as Program[];
    // A leaf's node keeps texts only.
    let args = n.buf as string[] | null;
    if (args === null || args.length !== count) {
      // An array literal of its size, packed, as #callLeaf makes the node's.
      args = n.buf = count === 1 ? [""] : count === 2 ? ["", ""] : count === 3 ? ["", "", ""] : [];
    }
    for (let i = 0; i < count; i++) {
      const k = kinds[i];
      args[i] = k === ARG_ITEM ? item : k === ARG_POS ? String(pos) : progs[i].text!;
    }
    try {
      return this.invoke(frame, n.fn.name, args, n);
    } finally {
      for (let i = 0; i < count; i++) args[i] = "";
    }
  }

  /**
   * A template of leaf calls and text (Template.parts), as run() runs its program: nothing
   * once halted, text copied, each call made as #itemCall makes it (nothing once halted, as
   * run() of its bracket gives), the output limit kept after each piece.
   */
  #itemParts(frame: Frame, parts: readonly TemplatePart[], item: string, pos: number): string {
    if (this.halted) return "";
    let out = "";
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i];
      out += p.call === null ? p.text : this.#itemCall(frame, p.call, p.kinds, item, pos);
      if (out.length > this.lbuf) out = out.slice(0, this.lbuf);
    }
    return out;
  }

  /** `#@` of the template running: its item's position. */
  #posText(): string {
    return this.loopPos > 0 ? String(this.loopPos) : "";
  }

  /** Runs a parsed program. */
  run(frame: Frame, p: Program): string {
    if (p.text !== null) return p.text;
    if (this.halted) return "";
    let out = "";
    const nodes = p.nodes;
    for (let i = 0; i < nodes.length; i++) {
      const n = nodes[i];
      switch (n.k) {
        case K_LIT:
          out += n.s;
          break;
        case K_SUB:
          out += this.sub(frame, n);
          break;
        case K_EVAL:
          out += this.run(frame, n.p);
          break;
        case K_CALL:
          out += this.call(frame, n);
          break;
        case K_NOTFOUND:
          return this.cap(`#-1 FUNCTION (${n.name}) NOT FOUND`);
        case K_DYN:
          return this.dyn(frame, n);
        case K_DEEP:
          break;
        case K_ITEM:
          out += n.pos ? this.#posText() : this.loopItem;
          break;
      }
      if (out.length > this.lbuf) out = out.slice(0, this.lbuf);
    }
    return out;
  }

  /**
   * A wildcard match (src/softcode/wild.ts): a long one reads the clock as it goes and stops at
   * the deadline (one match of an 8,000-character text can take 200 ms).
   */
  wild(pattern: string, text: string): boolean {
    return wildMatch(pattern, text, this.more);
  }

  /** tickNow() as a function, for work that asks as it goes (wildcard matching). */
  get more(): () => boolean {
    return this.#more ??= () => this.tickNow();
  }

  /** Cuts a text to the output limit. */
  cap(s: string): string {
    return s.length > this.lbuf ? s.slice(0, this.lbuf) : s;
  }

  /**
   * Counts one step of work (a loop's turn, a call) and reports whether the evaluation may go
   * on: false once the invocation limit or the time budget is reached.
   */
  tick(): boolean {
    if (this.halted || this.invocations >= this.sc.limits.functionInvocations) return false;
    if (++this.#sinceClock >= this.#clockEvery) this.#readClock();
    return !this.halted;
  }

  /**
   * tick() for a step that may take milliseconds (a regular expression matched against a long
   * text, an attribute's value searched): the clock is read at once, not every CLOCK_EVERY
   * steps or more, so a loop of them cannot run that many past the deadline.
   */
  tickNow(): boolean {
    if (!this.tick()) return false;
    if (this.sc.monotonic() > this.deadline) this.halted = true;
    return !this.halted;
  }

  /** Reads the clock: past the deadline, the evaluation halts (see CLOCK_EVERY). */
  #readClock(): void {
    this.#sinceClock = 0;
    const now = this.sc.monotonic();
    if (now > this.deadline) this.halted = true;
    this.#clockEvery = now - this.#clockAt < CLOCK_QUICK_MS
      ? Math.min(this.#clockEvery * 2, CLOCK_MOST)
      : CLOCK_EVERY;
    this.#clockAt = now;
  }

  /** Runs a function call: arguments first (unless lazy), then the limits, then the function. */
  call(frame: Frame, n: CallNode): string {
    const fn = n.fn;
    if (fn.num !== undefined && this.lbuf >= NUM_TEXT) {
      const r = this.callNum(frame, n);
      if (typeof r === "string") return r;
      const text = formatNumber(r);
      // A kept result printed here is kept as its text (which every reader of numbers.ts reads
      // as the number), so a kept fraction is not printed again each run: that is a walk of
      // V8's shortest-digits code (fast_dtoa), cold on a paced line.
      if (n.folds > 0 && n.fold === r) n.fold = text;
      return text;
    }
    if (fn.lazy) return this.invoke(frame, fn.name, n.args as string[], n);
    if (fn.reads !== undefined && n.args.length <= 3) {
      return this.#callLeaf(frame, n);
    }
    // A u()-like call whose arguments are literals and lone substitutions (AttrSite.argv, kept
    // at its first call): made from their texts, without a program run for each.
    const site = n.site;
    if (site !== null && site.argv !== null) {
      return this.invoke(frame, fn.name, this.#siteArgs(frame, site.ref!, site.argv), n);
    }
    // Arguments left to right. Most calls have one to three, gathered as an array literal: made
    // at its size and packed, where an array made empty of a length is holey (each read of it
    // then checks for a hole).
    const progs = n.args as Program[];
    let args: string[];
    switch (progs.length) {
      case 1:
        args = [this.arg(frame, progs[0])];
        break;
      case 2: {
        const a = this.arg(frame, progs[0]);
        args = [a, this.arg(frame, progs[1])];
        break;
      }
      case 3: {
        const a = this.arg(frame, progs[0]);
        const b = this.arg(frame, progs[1]);
        args = [a, b, this.arg(frame, progs[2])];
        break;
      }
      default:
        args = [];
        for (let i = 0; i < progs.length; i++) args.push(this.arg(frame, progs[i]));
    }
    return this.invoke(frame, fn.name, args, n);
  }

  /**
   * A leaf function's call (FunctionDef.reads) with up to three arguments: they are evaluated
   * first, then handed over in the array its node keeps, emptied after, instead of a new array
   * each call (iter()'s body made one for each of its 1,000 items). Every argument is evaluated
   * before the array is written, so a call of the same node inside an argument (through u())
   * has ended before; and a leaf function evaluates nothing, so none can start while it reads.
   * An inert one (reads "world": hasflag(), loc(), name(), a +who row's most) reads the world
   * too, and likewise runs no softcode.
   */
  #callLeaf(frame: Frame, n: CallNode): string {
    const progs = n.args as Program[];
    const count = progs.length;
    const a = count > 0 ? this.arg(frame, progs[0]) : "";
    const b = count > 1 ? this.arg(frame, progs[1]) : "";
    const c = count > 2 ? this.arg(frame, progs[2]) : "";
    // A leaf's node keeps texts only.
    const args = n.buf = keptArgs(n.buf as string[] | null, count, a, b, c);
    try {
      return this.invoke(frame, n.fn.name, args, n);
    } finally {
      // Nothing kept alive by a program held in the parse cache.
      for (let i = 0; i < count; i++) args[i] = "";
    }
  }

  /**
   * A site's arguments (AttrSite.argv) after its literal reference, as call() gathers them from
   * their programs: a literal as it is, a substitution as run() gives it (nothing once halted).
   */
  #siteArgs(frame: Frame, ref: string, argv: readonly (string | number | SubNode)[]): string[] {
    switch (argv.length) {
      case 0:
        return [ref];
      case 1:
        return [ref, this.#siteArg(frame, argv[0])];
      case 2: {
        const a = this.#siteArg(frame, argv[0]);
        return [ref, a, this.#siteArg(frame, argv[1])];
      }
    }
    const args = [ref];
    for (let i = 0; i < argv.length; i++) args.push(this.#siteArg(frame, argv[i]));
    return args;
  }

  /** One of a site's arguments (see #siteArgs): a text, `%0`-`%9` by its digit, a substitution. */
  #siteArg(frame: Frame, a: string | number | SubNode): string {
    if (typeof a === "string") return a;
    if (this.halted) return "";
    return this.cap(typeof a === "number" ? frame.args[a] ?? "" : this.sub(frame, a));
  }

  /**
   * An eager argument's text: a literal one (`15`, `.`, `dark`) as it is, a lone substitution
   * (`%0`) as #loneSub gives it, without run().
   */
  arg(frame: Frame, p: Program): string {
    if (p.text !== null) return p.text;
    const nodes = p.nodes;
    if (nodes.length === 1) {
      const one = nodes[0];
      if (one.k === K_SUB) return this.#loneSub(frame, one);
    }
    return this.run(frame, p);
  }

  /**
   * A program of one substitution as run() gives it (nothing once halted, cut to the output
   * limit); `%0`-`%9` read from the frame without sub(), whose code is cold on a paced line
   * whose only substitution this is (a u() function's `[add(%0,1)]`).
   */
  #loneSub(frame: Frame, n: SubNode): string {
    if (this.halted) return "";
    return this.cap(
      n.c === "0" && !n.up ? frame.args[n.arg.charCodeAt(0) - 48] ?? "" : this.sub(frame, n),
    );
  }

  /**
   * An arithmetic call (FunctionDef.num): an argument that is one arithmetic call is given as
   * that call's number where every reader of numbers.ts gets the same from it as from its text
   * (`passable`), so `add(mul(2,3),4)` neither prints 6 nor reads it back; anything else as
   * `run` gives it. A number result stands for formatNumber()'s text of it.
   */
  callNum(frame: Frame, n: CallNode): number | string {
    if (n.folds > 0 && this.#takeFold(n.folds)) return n.fold!;
    const progs = n.args as Program[];
    const count = progs.length;
    // Up to three arguments are evaluated first, then written to the array the node keeps (as
    // a leaf call's are, see #callLeaf: an argument that runs this node again through u() has
    // ended before, and an arithmetic function evaluates nothing); more are pushed onto a new one.
    let a: NumArg = "", b: NumArg = "", c: NumArg = "";
    const more: NumArg[] | null = count > 3 ? [] : null;
    // Calls this one stands for when every argument is constant (else 0): see `fold`.
    let folds = 1;
    for (let i = 0; i < count; i++) {
      const p = progs[i];
      let v: NumArg;
      if (p.text !== null) v = p.text;
      else {
        const one = p.nodes.length === 1 ? p.nodes[0] : null;
        if (one !== null && one.k === K_CALL && one.fn.num !== undefined && !this.halted) {
          const r = this.callNum(frame, one);
          v = typeof r === "string" ? r : passable(r) ? r + 0 : formatNumber(r);
          folds = one.folds > 0 && folds > 0 ? folds + one.folds : 0;
        } else {
          // A lone substitution (`%q0`, `%0`) as run() gives it, without run()'s loop.
          v = one !== null && one.k === K_SUB ? this.#loneSub(frame, one) : this.run(frame, p);
          folds = 0;
        }
      }
      if (more !== null) more.push(v);
      else if (i === 0) a = v;
      else if (i === 1) b = v;
      else c = v;
    }
    const args = more ?? (n.buf = keptArgs(n.buf, count, a, b, c));
    const fn = n.fn;
    this.nest++;
    this.invocations++;
    try {
      const refused = this.#refused(frame, fn, args.length);
      if (refused !== null) return refused;
      let r = fn.num!(this, frame, args, fn);
      if (typeof r === "string") r = this.cap(fn.raw ? r : closeColour(r));
      // An arithmetic function's result depends on its arguments alone: with constant ones it
      // is kept (a short text or a number: the same under any output limit callNum runs with).
      if (folds > 0 && !fn.staff && (typeof r === "number" || r.length < NUM_TEXT)) {
        n.fold = r;
        n.folds = folds;
      }
      return r;
    } finally {
      this.nest--;
      // Nothing kept alive by a program held in the parse cache.
      if (more === null) { for (let i = 0; i < count; i++) args[i] = ""; }
    }
  }

  /**
   * Counts a kept arithmetic result's `calls` as the calls it stands for would have been
   * counted, when none of them would have been refused (else false: they run, and the limit's
   * error comes where it would). Each of them runs one level in and counts one invocation;
   * the arguments run before the call is counted, so all at the same level.
   */
  #takeFold(calls: number): boolean {
    if (this.halted || this.nest + 1 >= this.#maxNest) return false;
    if (this.invocations + calls >= this.#maxInvocations) return false;
    this.invocations += calls;
    this.#sinceClock += calls;
    if (this.#sinceClock >= this.#clockEvery) this.#readClock();
    return true;
  }

  /** Applies the limits and calls a function with its arguments. */
  invoke(frame: Frame, _name: string, args: string[], n: CallNode): string {
    const fn = n.fn;
    this.nest++;
    this.invocations++;
    try {
      const refused = this.#refused(frame, fn, args.length);
      if (refused !== null) return refused;
      // A function's coloured result ends back at normal (MUX's mux_string export).
      const out = fn.impl(this, frame, args, n);
      return this.cap(fn.raw ? out : closeColour(out));
    } finally {
      this.nest--;
    }
  }

  /** The limits' error for a call about to run (counted already), or null when it may run. */
  #refused(frame: Frame, fn: FunctionDef, count: number): string | null {
    if (this.nest >= this.#maxNest) return ERR_RECURSION;
    if (this.invocations >= this.#maxInvocations) return ERR_INVOCATION;
    if (++this.#sinceClock >= this.#clockEvery) this.#readClock();
    if (this.halted) return ERR_CPU;
    if (fn.staff && !this.isStaff(frame.executor)) return ERR_PERMISSION;
    if (count < fn.minArgs || count > fn.maxArgs) return arityError(fn);
    return null;
  }

  /** A call whose name is only known now. */
  dyn(frame: Frame, n: DynNode): string {
    const prefix = this.run(frame, n.prefix);
    let name = prefix;
    if ((n.flags & EV.FMAND) && (n.flags & EV.NO_COMPRESS) === 0) name = name.replace(/\s+$/, "");
    name = upperAscii(name);
    const fn = name.length > 0 && name.length <= MAX_FUNCTION_NAME
      ? this.sc.functions.get(name)
      : undefined;
    if (!fn && (n.flags & EV.FMAND)) return this.cap(`#-1 FUNCTION (${name}) NOT FOUND`);
    const key = fn ? fn.name : "";
    let rest: DynRest | undefined = n.cache.get(key);
    if (!rest) {
      rest = this.#dynRest(n, fn ? key : null);
      if (n.cache.size < 64) n.cache.set(key, rest);
    }
    if (!rest.call) return this.cap(prefix + "(" + this.run(frame, rest.rest));
    const result = this.call(frame, rest.call);
    return this.cap(result + this.run(frame, rest.rest));
  }

  #dynRest(n: DynNode, fnName: string | null): DynRest {
    const opts = this.sc.compileOptions;
    const flags = n.flags & ~EV.FCHECK;
    const fn = fnName ? this.sc.functions.get(fnName) : undefined;
    if (fn) {
      const c = compileCall(n.src, n.open + 1, fn, n.flags, opts, n.depth + 1);
      if (c) {
        return {
          call: c.node,
          open: false,
          rest: compileRegion(n.src, c.next, n.end, flags, opts, n.depth, false),
        };
      }
    }
    return {
      call: null,
      open: true,
      rest: compileRegion(n.src, n.open + 1, n.end, flags, opts, n.depth, false),
    };
  }

  /**
   * `#<id>` for `%#`, `%!` and `%@`, the last one made kept: a listing reads `%#` in every row,
   * and a string made once is also read as a dbref faster than a new one.
   */
  #dbref(id: string): string {
    if (id !== this.#refId) {
      this.#refId = id;
      this.#ref = "#" + id;
    }
    return this.#ref;
  }
  #refId = "";
  #ref = "#";

  /** A `%` substitution's value. */
  sub(frame: Frame, n: SubNode): string {
    const v = this.subValue(frame, n);
    return n.up && v ? v[0].toUpperCase() + v.slice(1) : v;
  }

  subValue(frame: Frame, n: SubNode): string {
    switch (n.c) {
      case "0":
        return frame.args[n.arg.charCodeAt(0) - 48] ?? "";
      case "q":
        return this.reg(n.arg);
      case "#":
        return this.#dbref(frame.enactor);
      case "!":
        return this.#dbref(frame.executor);
      case "@":
        return this.#dbref(frame.caller);
      case "+":
        return String(frame.args.length);
      case "n":
        return this.nameOf(frame.enactor);
      case "k":
        return this.monikerOf(frame.enactor);
      case "s":
      case "o":
      case "p":
      case "a":
        return pronoun(n.c, genderOf(this.attrValue(frame.enactor, "SEX")));
      case "l":
        return "#" + (this.locationOf(frame.enactor) ?? "-1");
      case "m":
        return this.command;
      case "v":
        return this.attrValue(frame.executor, "V" + n.arg);
      case "i": {
        const at = this.itext.length - (n.arg.charCodeAt(0) - 48) - 1;
        return at >= 0 ? this.itext[at] : "";
      }
      case "=": {
        if (/^\d/.test(n.arg)) {
          const d = /^\d{1,3}$/.test(n.arg) ? Number(n.arg) : 100;
          return frame.args[d] ?? "";
        }
        const attr = this.readableAttr(frame.executor, frame.executor, n.arg);
        return attr?.value ?? "";
      }
      default:
        return "";
    }
  }

  // --- World helpers used by substitutions and functions. ---

  /** An object by id, or null. */
  object(id: string): DbObject | null {
    return this.ports.world.object(id);
  }

  /**
   * The id the plain `#123` that is the first `end` characters of `text` names (as plainDbref
   * reads it), or null when they are not one: the last text objectAt read compared in place (a
   * row's `u(##/sex)` after its `name(##)`), else cut from the text.
   */
  idAt(text: string, end: number): string | null {
    const at = this.#atText;
    if (at.length === end && this.#atId !== "" && text.startsWith(at)) return this.#atId;
    if (end < 2 || end > 16 || text.charCodeAt(0) !== 35) return null;
    if (text.charCodeAt(1) === 48 && end > 2) return null;
    for (let i = 1; i < end; i++) {
      const c = text.charCodeAt(i);
      if (c < 48 || c > 57) return null;
    }
    return text.slice(1, end);
  }

  /** The object a plain `#123` names (null for none), or undefined when `text` is not one. */
  objectAt(text: string): DbObject | null | undefined {
    let id: string | null = this.#atId;
    if (id === "" || text !== this.#atText) {
      id = plainDbref(text);
      if (id === null) return undefined;
      this.#atText = text;
      this.#atId = id;
    }
    return this.ports.world.object(id);
  }

  /** True when the object is staff. */
  isStaff(id: string): boolean {
    const o = this.object(id);
    return !!o && this.ports.access.isStaff(o);
  }

  /** An object's name ("" when there is none). */
  nameOf(id: string): string {
    return this.object(id)?.name ?? "";
  }

  /** An object's moniker (its colour-coded name) in internal form, or its name. */
  monikerOf(id: string): string {
    const o = this.object(id);
    if (!o) return "";
    const m = o.data?.moniker;
    return typeof m === "string" && m ? codesToMarkup(m) : o.name;
  }

  /** Where an object is (its location's id), or null. */
  locationOf(id: string): string | null {
    const o = this.object(id);
    return o?.location || null;
  }

  /**
   * An attribute on the object or the nearest parent that passes it down (MUX's atr_pget: the
   * world's one rule, src/world/attributes/inherit.ts).
   */
  attrWithParents(id: string, name: string): SoftAttr | null {
    // The object's own first, without the walk's record of where it was found (most reads).
    return this.ports.attributes.get(id, name) ?? inheritedAttr(this.sc.inherit, id, name)?.attr ??
      null;
  }

  /** The value of an attribute (with parents), "" when unset. */
  attrValue(id: string, name: string): string {
    return this.attrWithParents(id, name)?.value ?? "";
  }

  /**
   * An attribute `viewerId` may read on `id` (with parents): visual ones to anyone, wizard and
   * hidden ones to staff, the rest to whoever controls the object. Null otherwise.
   */
  readableAttr(viewerId: string, id: string, name: string): SoftAttr | null {
    const attr = this.attrWithParents(id, upperAscii(name));
    if (!attr) return null;
    return this.mayRead(viewerId, id, attr) ? attr : null;
  }

  /** MUX's See_attr: the engine's one rule for reading attributes (src/world/attributes). */
  mayRead(viewerId: string, id: string, attr: SoftAttr): boolean {
    const viewer = this.object(viewerId);
    const obj = this.object(id);
    return !!viewer && !!obj && this.ports.access.canSeeAttr(viewer, obj, attr);
  }
}

/**
 * Shortest output limit under which arithmetic calls pass numbers: formatNumber() prints at
 * most 24 characters, so below it a printed argument would have been cut.
 */
const NUM_TEXT = 32;

/**
 * True when an arithmetic result may go to its parent as a number: every reader of numbers.ts
 * (toReal, toInt, toSafeInt, toI64, integerDigits) gives from it what it gives from
 * formatNumber()'s text of it. That holds for whole numbers within 2^53 (their digits) and for
 * fractions from 1e-6 to 1e17, printed as JavaScript prints them (no exponent), whose text reads
 * back as the same number; not for -0 (its text reads as 0: passed as 0), an exponent form
 * (`1.5E-7` reads as 1 by toInt), Inf or Ind.
 */
function passable(x: number): boolean {
  const a = x < 0 ? -x : x;
  return Number.isInteger(a) ? a <= Number.MAX_SAFE_INTEGER : a >= 1e-6 && a < 1e17;
}

/**
 * The array a call node keeps for its arguments (at most three), written anew at each call: made
 * once as an array literal of its size, packed (one made of a length is holey).
 */
function keptArgs<T>(held: T[] | null, count: number, a: T, b: T, c: T): T[] {
  if (held === null) {
    return count === 1 ? [a] : count === 2 ? [a, b] : count === 3 ? [a, b, c] : [];
  }
  if (count > 0) held[0] = a;
  if (count > 1) held[1] = b;
  if (count > 2) held[2] = c;
  return held;
}

/** MUX's arity error for a function. */
export function arityError(fn: { name: string; minArgs: number; maxArgs: number }): string {
  if (fn.minArgs === fn.maxArgs) {
    return `#-1 FUNCTION (${fn.name}) EXPECTS ${fn.minArgs} ARGUMENTS`;
  }
  if (fn.minArgs + 1 === fn.maxArgs) {
    return `#-1 FUNCTION (${fn.name}) EXPECTS ${fn.minArgs} OR ${fn.maxArgs} ARGUMENTS`;
  }
  return `#-1 FUNCTION (${fn.name}) EXPECTS BETWEEN ${fn.minArgs} AND ${fn.maxArgs} ARGUMENTS`;
}

/** MUX's genders from a SEX value: 1 it, 2 she, 3 he, 4 they. */
export function genderOf(sex: string): number {
  switch ((sex[0] ?? "").toLowerCase()) {
    case "p":
      return 4;
    case "m":
      return 3;
    case "f":
    case "w":
      return 2;
  }
  return 1;
}

const PRONOUNS: Record<string, readonly string[]> = {
  s: ["", "it", "she", "he", "they"],
  o: ["", "it", "her", "him", "them"],
  p: ["", "its", "her", "his", "their"],
  a: ["", "its", "hers", "his", "theirs"],
};

/** A pronoun (`s` subjective, `o` objective, `p` possessive, `a` absolute) for a gender. */
export function pronoun(kind: string, gender: number): string {
  return PRONOUNS[kind]?.[gender] ?? "";
}
