/**
 * System scripts: `<scripts dir>/<command>.ts` (or `.js`), each default-exporting `(u) => ...`.
 * The manager finds them (a watcher plus a periodic look at the folder), transpiles each new
 * version (sucrase, once per source hash) and evaluates it in a sandbox of its own (a QuickJS
 * WebAssembly instance in the engine's process: src/scripts/sandbox.ts) to learn its help, aliases,
 * lock and switches, registers it in the command registry's script layer, and runs it there.
 * A run after the folder watcher reported a change (or, without a watcher, every run) looks at
 * the file first: a changed file is loaded afresh, and a version that fails to load is reported
 * to staff while the previous good one keeps running. Each call is held to the sandbox's limits
 * and to the actor's and the game's budget of script time.
 */
import { basename, extname, relative, resolve } from "node:path";
import type { Delivery, Presence } from "../hub/types.ts";
import { counted } from "../text/plural.ts";

/** What the script manager needs of the engine: where the game lives, who to tell of trouble. */
export interface ScriptHost {
  /** Directory relative paths resolve against. */
  root: string;
  /** Connected staff hear of a broken script. */
  presence: Pick<Presence, "onlinePlayers" | "playerCard">;
  deliver: Pick<Delivery, "toPlayers">;
  /**
   * Names of scripts turned off (`scripts.disabled`, read at each look at the folder and at
   * `rescan`, which `@reload/config` calls): their files are left alone, and no command, alias
   * or help of theirs is registered.
   */
  disabled?: () => readonly string[];
  /**
   * How often the folder is looked at while no watcher runs, in ms (RESCAN_MS when not given; a
   * test makes it long, so that only the watcher can see an edit). While one runs, the look
   * comes WATCHED_RESCAN_MS after the last one, or this, if longer.
   */
  rescanMs?: number;
}
import type { CommandSdk, CommandSpec } from "../commands/types.ts";
import type { ParsedLine } from "../commands/parser.ts";
import { CommandRegistry, SCRIPT_OWNER } from "../commands/registry.ts";
import { CommandError } from "../commands/errors.ts";
import { badSwitch, DENIED } from "../commands/dispatch.ts";
import { subjectOf } from "../commands/sdk.ts";
import { checkLock } from "../world/locks.ts";
import { isStaff } from "../world/flags.ts";
import { ScriptCall, type ScriptTime } from "./bridge.ts";
import { importProblem } from "./imports.ts";
import { typeCheck } from "./check.ts";
import { QuickJs } from "./quickjs.ts";
import { Transpiler } from "./transpile.ts";
import { LoadError, type Outcome, ScriptVm, type VmLimits, warmUp } from "./sandbox.ts";
import { ScriptBudget } from "./budget.ts";
import { afterInput } from "../runtime/after_input.ts";
import type { EngineScripts, ScriptCheck, ScriptStatus } from "./types.ts";
import type { ScriptsConfig } from "../config/defaults.ts";

/** A run's answer when its script's file went while the command was on its way. */
const REMOVED = "That script was just removed; try again.";

/** Largest script file read, in bytes. */
export const MAX_SCRIPT_BYTES = 256 * 1024;
/** Longest the engine's start waits for the first loads (the rest go on in the background). */
const START_WAIT_MS = 5_000;
/** How often the folder is looked at for new and removed scripts while no watcher runs. */
const RESCAN_MS = 2_000;
/**
 * The same while the watcher runs: its events bring a look 50 ms after a change, so this one
 * only catches a change whose every event was lost. Each look reads the folder and stats every
 * script (work on the runtime's blocking pool that woke four threads of an idle engine), so it
 * is not done every 2 seconds for nothing.
 */
export const WATCHED_RESCAN_MS = 30_000;
/** A report of the same problem of a script reaches staff at most this often. */
const REPORT_EVERY_MS = 30_000;
/** Scripts handled at most (a folder of thousands of files is refused beyond this). */
const MAX_SCRIPTS = 500;
const NAME_RE = /^[@+&]?[a-z0-9_][a-z0-9_.?!'-]*$/;

/** Calls of one script that may wait while another of its calls runs. */
const MAX_QUEUE = 50;
/**
 * Loads that run at once. A folder of new scripts otherwise loads all together: each holds its
 * file, transpile and half-made sandbox at the same moment, and the engine's heap grows to hold
 * them all (resident memory that stays); a few at a time, each one's garbage goes before the next.
 */
const MAX_LOADS = 4;

interface Version {
  hash: string;
  /** Its JavaScript (transpiled once) and file name. */
  js: string;
  label: string;
  spec: CommandSpec;
  lock: string;
  loadedAt: number;
  /** Its sandbox; a stopped one is replaced on the next run (the version evaluated afresh). */
  vm: ScriptVm;
}

interface Script {
  name: string;
  file: string;
  /** mtime and size last seen, so an unchanged file is not read again. */
  seen: string | null;
  /** The watcher's generation when the file was last looked at (see ScriptManager#generation). */
  checked: number;
  /** A version failed to load after a good one: the next run tells its actor, once. */
  tellFailed: boolean;
  good: Version | null;
  lastError: { message: string; at: number } | null;
  /** Hash of the source that last failed, so it is not loaded again until it changes. */
  badHash: string | null;
  /** The refresh in progress (callers share it). */
  refreshing: Promise<void> | null;
  runs: number;
  failures: number;
}

/** The system scripts of one engine. */
export class ScriptManager implements EngineScripts {
  readonly dir: string;
  readonly #host: ScriptHost;
  readonly #registry: CommandRegistry;
  readonly #limits: VmLimits;
  readonly #budget: ScriptBudget;
  readonly #transpiler = new Transpiler();
  #quickjs: Promise<QuickJs> | null = null;
  readonly #scripts = new Map<string, Script>();
  readonly #reported = new Map<string, number>();
  /** The folder watcher while it reports; null before it starts, after it stops, or when off. */
  #watcher: Deno.FsWatcher | null = null;
  /** `scripts.watch`: false makes every run look at its file (folders whose events never come). */
  readonly #watchWanted: boolean;
  /** Why watching is not possible now, as last logged (so a retry that fails alike is quiet). */
  #watchProblem: string | null = null;
  /**
   * Counts the watcher's events: any event makes every script's next run look at its file once.
   * Not only the event's own file: Deno's watcher holds 16 events and drops the rest while the
   * engine is busy, so an event that arrives stands for the dropped ones too, which came before
   * it (a counter also keeps nothing per event, however many come).
   */
  #generation = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** A registration waiting for the end of the current burst of loads (see #registerSoon). */
  #registering: ReturnType<typeof setTimeout> | undefined;
  #scanning: Promise<void> | null = null;
  #closed = false;
  /** Loads running, and those waiting for one to end (see MAX_LOADS). */
  #loads = 0;
  readonly #loadQueue: (() => void)[] = [];
  /** Script files found and turned off, by name (for `@script/list`). */
  #off = new Map<string, string>();
  /** See `scripts.yieldMs`. */
  readonly #yieldMs: number;
  /** Script CPU time used since the last turn of the event loop that scripts gave up. */
  #turnMs = 0;
  /** The end of the turn in which scripts used `yieldMs`; the calls that come meanwhile wait. */
  #turnEnd: Promise<void> | null = null;
  /** The actors' script time, as every call's ScriptCall asks and charges it (made once). */
  readonly #time: ScriptTime = {
    refusal: (actor) => this.#refusal(actor),
    spend: (actor, ms) => this.#spend(actor, ms),
  };

  constructor(host: ScriptHost, registry: CommandRegistry, cfg: ScriptsConfig) {
    this.#host = host;
    this.#registry = registry;
    this.dir = resolve(host.root, cfg.dir);
    this.#watchWanted = cfg.watch !== false;
    this.#limits = {
      timeoutMs: Math.max(1, cfg.timeoutMs),
      wallMs: Math.max(cfg.timeoutMs, cfg.wallMs),
      memoryMb: cfg.memoryMb,
      maxQueue: MAX_QUEUE,
    };
    this.#budget = new ScriptBudget({
      actorMs: Math.max(1, cfg.actorBudgetMs),
      gameMs: Math.max(1, cfg.gameBudgetMs),
      windowMs: Math.max(1000, cfg.budgetWindowMs),
    });
    this.#yieldMs = cfg.yieldMs;
  }

  /** The compiled QuickJS (compiled and warmed up once, on first need). */
  #engine(): Promise<QuickJs> {
    this.#quickjs ??= QuickJs.load().then(async (qjs) => {
      await warmUp(qjs);
      return qjs;
    });
    return this.#quickjs;
  }

  /**
   * Compiles QuickJS now if the folder holds any script, so that overlaps the rest of the
   * engine's start (core commands and plugins load meanwhile).
   */
  async warm(): Promise<void> {
    try {
      for await (const entry of Deno.readDir(this.dir)) {
        if (scriptFile(entry)) return void await this.#engine();
      }
    } catch {
      // No folder: nothing to warm; start() finds out the same.
    }
  }

  /**
   * Registers the scripts found now and loads them, waiting (up to a bound) for those loads,
   * so their aliases, switches and help are in place when players can type; watches the folder.
   */
  async start(): Promise<void> {
    await this.#scan();
    const loads = [...this.#scripts.values()].map((s) => s.refreshing).filter(Boolean);
    let bound: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      Promise.allSettled(loads),
      new Promise((ok) => bound = setTimeout(ok, START_WAIT_MS)),
    ]);
    clearTimeout(bound);
    this.#registerPending();
  }

  /** Stops watching and throws the sandboxes away. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    clearTimeout(this.#registering);
    this.#unwatch();
    await this.#scanning;
    await Promise.all([...this.#scripts.values()].map((s) => s.refreshing));
    for (const s of this.#scripts.values()) s.good?.vm.kill();
  }

  get sandboxes(): { count: number; bytes: number } {
    let count = 0, bytes = 0;
    for (const s of this.#scripts.values()) {
      if (!s.good || s.good.vm.dead) continue;
      count++;
      bytes += s.good.vm.memoryBytes;
    }
    return { count, bytes };
  }

  /** Looks at the folder now: new and removed files, and `scripts.disabled` (`@reload/config`). */
  async rescan(): Promise<void> {
    // A look under way may have read `scripts.disabled` before the reload: a new one after it,
    // or the change would wait for the next timed look (30 s while the watcher runs).
    await this.#scanning;
    return this.#scan();
  }

  async list(): Promise<ScriptStatus[]> {
    await this.#scan();
    const out = [...this.#scripts.values()].map((s) => this.#status(s));
    for (const [name, file] of this.#off) {
      out.push({
        name,
        file: relative(this.#host.root, file),
        loaded: false,
        disabled: true,
        version: null,
        loadedAt: null,
        replaces: null,
        lastError: null,
        runs: 0,
        failures: 0,
      });
    }
    return out.sort((a, b) => a.name.localeCompare(b.name));
  }

  async show(name: string): Promise<{ status: ScriptStatus; source: string } | null> {
    await this.#scan();
    const s = this.#scripts.get(String(name).toLowerCase());
    if (!s) return null;
    let source: string;
    try {
      source = await readBounded(s.file);
    } catch (e) {
      source = `(cannot read the file: ${e instanceof Error ? e.message : e})`;
    }
    return { status: this.#status(s), source };
  }

  async check(name: string): Promise<ScriptCheck | null> {
    await this.#scan();
    const s = this.#scripts.get(String(name).toLowerCase());
    if (!s) return null;
    const lines: string[] = [];
    let ok = true;
    try {
      const src = await readBounded(s.file);
      const problem = importProblem(src);
      const loaded = problem
        ? { error: problem }
        : await this.#load(s, src, await hashOf(src)).then(() => {
          this.#registerPending();
          return { error: null };
        }, (e) => ({
          error: e instanceof Error ? e.message : String(e),
        }));
      if (loaded.error) {
        ok = false;
        lines.push(`Load: FAILED: ${loaded.error}`);
      } else lines.push("Load: ok (evaluated in the sandbox).");
    } catch (e) {
      ok = false;
      lines.push(`Load: FAILED: ${e instanceof Error ? e.message : e}`);
    }
    const typed = await typeCheck(s.file, this.dir);
    ok &&= typed.ok;
    lines.push(typed.ok ? "Types: ok." : "Types: FAILED:", ...typed.lines);
    return { ok, lines };
  }

  /** Runs script `name` for the actor of `u` (the exec of its registry entry). */
  async run(name: string, u: CommandSdk): Promise<void> {
    const s = this.#scripts.get(name);
    if (!s) throw new CommandError(REMOVED);
    // Once the engine has seen a change, the next run uses it. A change seen during a load
    // already under way is looked at again (a bounded number of times: an edit per load).
    for (let i = 0; i < 3 && (s.refreshing || this.#stale(s)); i++) {
      await this.#refresh(s);
      // The lines after this one see the version this run found (its aliases, its switches).
      this.#registerPending();
    }
    // The look found the file gone (removed, or renamed away): its last version runs no more.
    if (this.#scripts.get(name) !== s) throw new CommandError(REMOVED);
    if (s.tellFailed && s.good) {
      s.tellFailed = false;
      u.send(
        `${s.name}: its new version failed to load; the previous one runs (staff have been told).`,
      );
    }
    const v = s.good;
    if (!v) throw new CommandError(`${name} failed to load; staff have been told.`);
    // The default lock passes whoever runs a command (subjectOf's `connected`): no subject made.
    if (v.lock !== "connected" && !checkLock(v.lock, subjectOf(u.me))) {
      throw new CommandError(DENIED);
    }
    // A run that waited for the first load was matched before its switches were known (a line
    // without switches passes whatever they are).
    if (u.cmd.switches.length) {
      const refused = badSwitch(
        { name: s.name, switches: v.spec.switches?.map((w) => w.toLowerCase()) },
        u.cmd.switches,
      );
      if (refused) throw new CommandError(refused);
    }
    // Asked here, so a call that would be refused takes no place in the queue, and again when
    // its turn comes; each slice's time is charged as it is spent.
    const host = new ScriptCall(u, this.#time);
    const over = host.admit();
    if (over !== null) throw new CommandError(over);
    let out = await this.#runInTurn(s, v, u.cmd, host);
    // Stopped while this call waited in its queue: once more, in a fresh sandbox (as often as a
    // call ahead of it is stopped: said "the engine is stopping" after the second).
    while (!out.ok && out.reason === "closed" && !this.#closed) {
      out = await this.#runInTurn(s, v, u.cmd, host);
    }
    this.#afterRun(s, out, u);
  }

  /**
   * Runs `call` in the version's sandbox (made again when stopped) once scripts' turn has ended.
   * Calls arriving together (forty players' lines read in one turn) ran back to back before the
   * engine read anyone's input again; past `yieldMs` of script time in a turn, the next waits for
   * the turn's end, so other players' lines go between. Asked again after a new sandbox is made
   * (the calls of a stopped sandbox's queue all come back at once, and each ran to its own stop
   * in one turn), and nothing waits between the last ask and the call.
   */
  #runInTurn(s: Script, v: Version, cmd: ParsedLine, host: ScriptCall): Promise<Outcome> {
    // Nothing to wait for (most calls): the call's own promise, not one more around it.
    if (!this.#turnEnd && !v.vm.dead) return v.vm.run(cmd, host);
    return this.#waitTurn(s, v, cmd, host);
  }

  /** #runInTurn once something is to wait for: the turn's end, or the sandbox made again. */
  async #waitTurn(
    s: Script,
    v: Version,
    cmd: ParsedLine,
    host: ScriptCall,
  ): Promise<Outcome> {
    for (;;) {
      while (this.#turnEnd) await this.#turnEnd;
      if (!v.vm.dead) return v.vm.run(cmd, host);
      await this.#revive(s, v);
    }
  }

  /** Charges a slice's time to `actor` and the game, and ends the turn once it used `yieldMs`. */
  #spend(actor: string, ms: number): void {
    this.#budget.charge(actor, ms);
    this.#turnMs += ms;
    if (this.#turnMs < this.#yieldMs || this.#turnEnd) return;
    this.#turnEnd = new Promise((done) =>
      afterInput(() => {
        this.#turnMs = 0;
        this.#turnEnd = null;
        done();
      })
    );
  }

  /** Why `actor` may not start a script call now (its time or the game's is spent), or null. */
  #refusal(actor: string): string | null {
    const over = this.#budget.admit(actor);
    if (!over) return null;
    const secs = Math.max(1, Math.ceil(over.waitMs / 1000));
    return over.who === "actor"
      ? `You have used your share of script time; try again in ${counted(secs, "second")}.`
      : "The game's scripts are busy; try again in a moment.";
  }

  /** The version's sandbox made again (after a stop): a fresh instance, the same JavaScript. */
  async #revive(s: Script, v: Version): Promise<ScriptVm> {
    if (!v.vm.dead) return v.vm;
    const vm = await ScriptVm.create(await this.#engine(), this.#limits);
    try {
      vm.load(v.js, v.label);
    } catch (e) {
      vm.kill();
      throw new CommandError(`${s.name} could not be restarted: ${(e as Error).message}`);
    }
    if (v.vm.dead) v.vm = vm;
    else vm.kill(); // Another run revived it first.
    return v.vm;
  }

  #afterRun(s: Script, out: Outcome, u: CommandSdk): void {
    // Refused when its turn came (the budgets): not a run.
    if (!out.ok && out.reason === "refused") throw new CommandError(out.message);
    s.runs++;
    if (out.ok && !out.error && !out.garbage) return; // Most calls: nothing to tell anyone.
    const who = `${u.me.name}(#${u.me.id})`;
    if (!out.ok) {
      if (out.reason === "busy") {
        throw new CommandError(`${s.name} is busy (${out.message}); try again in a moment.`);
      }
      s.failures++;
      this.#fail(s, `stopped for ${who}: ${out.message}`);
      const why: Record<string, string> = {
        time: "it ran too long",
        memory: "it used too much memory",
        calls: "it made too many SDK calls",
        crash: "its sandbox failed",
        closed: "the engine is stopping",
      };
      throw new CommandError(`${s.name} was stopped (${why[out.reason]}); staff have been told.`);
    }
    if (out.error) {
      if (out.error.user) throw new CommandError(out.error.message);
      s.failures++;
      this.#fail(s, `failed for ${who}: ${out.error.message}`);
      throw new CommandError(`${s.name} failed (a script error); staff have been told.`);
    }
    if (out.garbage) {
      this.#report(
        s,
        `returned ${out.garbage} for ${who}; a script returns nothing (it sends with u.send). Ignored.`,
      );
    }
  }

  /** The owner (`core` or a plugin's name) of the command named `name` below the scripts. */
  #replaced(name: string): string | null {
    const other = this.#registry.match(
      { raw: name, name, switches: [], args: "", lhs: "", rhs: null },
      undefined,
      (e) => e.owner !== SCRIPT_OWNER,
    );
    return other && "command" in other && other.command.name === name ? other.command.owner : null;
  }

  #status(s: Script): ScriptStatus {
    const replaced = this.#replaced(s.name);
    return {
      name: s.name,
      file: relative(this.#host.root, s.file).startsWith("..")
        ? s.file
        : relative(this.#host.root, s.file),
      loaded: s.good !== null,
      version: s.good?.hash ?? null,
      loadedAt: s.good?.loadedAt ?? null,
      replaces: replaced,
      lastError: s.lastError,
      runs: s.runs,
      failures: s.failures,
    };
  }

  /** Looks at the folder: new files are registered and loaded, removed ones unregistered. */
  #scan(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#scanning ??= this.#doScan().finally(() => {
      this.#scanning = null;
      this.#nextLook();
    });
    return this.#scanning;
  }

  /** Sets the next look at the folder a whole interval after this one, by whether one watches. */
  #nextLook(): void {
    clearTimeout(this.#timer);
    if (this.#closed) return;
    const every = this.#host.rescanMs ?? RESCAN_MS;
    this.#timer = setTimeout(
      () => void this.#scan(),
      this.#watcher ? Math.max(every, WATCHED_RESCAN_MS) : every,
    );
  }

  async #doScan(): Promise<void> {
    // Before the folder is read, so nothing changed after the read goes unseen.
    this.#watch();
    const found = new Map<string, string>();
    try {
      for await (const entry of Deno.readDir(this.dir)) {
        if (found.size >= MAX_SCRIPTS) break;
        const file = scriptFile(entry);
        if (!file) continue;
        const name = file.name;
        // `name.ts` wins over `name.js`.
        if (!found.has(name) || file.ext === ".ts") found.set(name, resolve(this.dir, entry.name));
      }
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound)) {
        console.error(`scripts: cannot read ${this.dir}:`, e);
      }
    }
    const off = new Set((this.#host.disabled?.() ?? []).map((n) => String(n).toLowerCase()));
    this.#off = new Map();
    for (const [name, file] of found) {
      if (!off.has(name)) continue;
      found.delete(name);
      this.#off.set(name, file);
    }
    let changed = false;
    for (const [name, s] of this.#scripts) {
      if (found.get(name) !== s.file) {
        this.#scripts.delete(name);
        changed = true;
      }
    }
    const fresh: Script[] = [];
    for (const [name, file] of found) {
      if (this.#scripts.has(name)) continue;
      const s: Script = {
        name,
        file,
        seen: null,
        checked: -1,
        tellFailed: false,
        good: null,
        lastError: null,
        badHash: null,
        refreshing: null,
        runs: 0,
        failures: 0,
      };
      this.#scripts.set(name, s);
      fresh.push(s);
      changed = true;
    }
    if (changed) this.#register();
    for (const s of fresh) void this.#refresh(s);
    // Files edited without being run are loaded too, so @script/list shows their errors.
    for (const s of this.#scripts.values()) if (!fresh.includes(s)) void this.#refresh(s);
  }

  /**
   * Starts the folder watcher when there is none (at start, and at each look at the folder after
   * it failed or stopped). Until one runs, each run looks at its file first; the log says when
   * watching is lost and when it resumes.
   */
  #watch(): void {
    if (this.#watcher || this.#closed || !this.#watchWanted) return;
    let watcher: Deno.FsWatcher;
    try {
      watcher = Deno.watchFs(this.dir, { recursive: false });
    } catch (e) {
      // No folder yet is no problem to report: there is nothing to watch.
      if (!(e instanceof Deno.errors.NotFound)) {
        this.#watchLost(`cannot watch it: ${e instanceof Error ? e.message : e}`);
      }
      return;
    }
    this.#watcher = watcher;
    // Whatever changed before the watch began is looked at by each script's next run.
    this.#generation++;
    if (this.#watchProblem) {
      console.warn(`scripts: watching ${this.dir} again; runs no longer look at their files.`);
      this.#watchProblem = null;
    }
    void this.#follow(watcher);
  }

  async #follow(watcher: Deno.FsWatcher): Promise<void> {
    let pending: ReturnType<typeof setTimeout> | undefined;
    let why = "it ended";
    try {
      for await (const event of watcher) {
        this.#generation++;
        // The folder itself removed or renamed: its watch is gone (events inside it no longer
        // come, not even from a folder made again under the name), so watching starts afresh.
        if (event.paths.some((p) => p === this.dir) && event.kind !== "modify") {
          why = "the folder was removed or renamed";
          break;
        }
        clearTimeout(pending);
        pending = setTimeout(() => void this.#scan(), 50);
      }
    } catch (e) {
      why = e instanceof Error ? e.message : String(e);
    } finally {
      clearTimeout(pending);
    }
    if (this.#watcher !== watcher) return; // Closed by close() or replaced.
    this.#unwatch();
    this.#watchLost(`the watcher stopped: ${why}`);
    void this.#scan(); // Starts a new watcher when the folder is there.
  }

  #unwatch(): void {
    const watcher = this.#watcher;
    this.#watcher = null;
    try {
      watcher?.close();
    } catch {
      // Already closed.
    }
  }

  /** Logs (once for the same problem) that runs look at their files for want of a watcher. */
  #watchLost(problem: string): void {
    if (this.#closed || problem === this.#watchProblem) return;
    this.#watchProblem = problem;
    console.warn(
      `scripts: ${this.dir}: ${problem}; each run looks at its script's file until watching resumes.`,
    );
  }

  /**
   * True when the file may have changed since it was last looked at: with a watcher, when an
   * event came since; without one, when its mtime or size differs (a synchronous stat).
   */
  #stale(s: Script): boolean {
    return this.#watcher ? s.checked !== this.#generation : this.#changed(s);
  }

  /** True when the file's mtime or size differs from what was last loaded (or it is gone). */
  #changed(s: Script): boolean {
    try {
      const st = Deno.statSync(s.file);
      return `${st.mtime?.getTime() ?? 0}:${st.size}` !== s.seen;
    } catch {
      return true;
    }
  }

  /** Loads the file again when its mtime or size changed; shares one refresh among callers. */
  #refresh(s: Script): Promise<void> {
    s.refreshing ??= this.#doRefresh(s).finally(() => s.refreshing = null);
    return s.refreshing;
  }

  async #doRefresh(s: Script): Promise<void> {
    // Before the stat: an event that comes while this refresh runs makes the next run look again.
    s.checked = this.#generation;
    let seen: string;
    try {
      const st = await Deno.stat(s.file);
      seen = `${st.mtime?.getTime() ?? 0}:${st.size}`;
    } catch {
      this.#scripts.delete(s.name);
      this.#register();
      return;
    }
    if (seen === s.seen || this.#closed) return;
    let src: string;
    try {
      src = await readBounded(s.file);
    } catch (e) {
      s.seen = seen;
      return this.#loadFailed(s, null, e instanceof Error ? e.message : String(e));
    }
    s.seen = seen;
    const hash = await hashOf(src);
    if (hash === s.good?.hash || hash === s.badHash) return;
    const problem = importProblem(src);
    if (problem) return this.#loadFailed(s, hash, problem);
    try {
      await this.#load(s, src, hash);
    } catch (e) {
      return this.#loadFailed(s, hash, e instanceof Error ? e.message : String(e));
    }
  }

  /** Evaluates a version in a sandbox of its own and, when it is good, makes it the running one. */
  async #load(s: Script, src: string, hash: string): Promise<void> {
    if (this.#loads < MAX_LOADS) this.#loads++;
    else await new Promise<void>((ok) => this.#loadQueue.push(ok));
    try {
      await this.#loadNow(s, src, hash);
    } finally {
      // The slot goes to the next waiting load, or is given back.
      const next = this.#loadQueue.shift();
      if (next) next();
      else this.#loads--;
    }
  }

  async #loadNow(s: Script, src: string, hash: string): Promise<void> {
    const label = basename(s.file);
    const js = this.#transpiler.javascript(hash, src, label, s.file.endsWith(".js"));
    const vm = await ScriptVm.create(await this.#engine(), this.#limits);
    let meta: Record<string, unknown>;
    try {
      meta = vm.load(js, label);
    } catch (e) {
      vm.kill();
      throw e instanceof LoadError ? e : new Error(`the sandbox failed: ${(e as Error).message}`);
    }
    try {
      const spec: CommandSpec = {
        name: s.name,
        aliases: meta.aliases as string[] | undefined,
        lock: meta.lock as string | undefined,
        switches: meta.switches as string[] | undefined,
        guests: meta.guests as true | string[] | undefined,
        category: (meta.category as string | undefined) ?? "Scripts",
        help: meta.help as string | undefined,
        exec: (u) => this.run(s.name, u),
      };
      if (spec.lock !== undefined && typeof spec.lock !== "string") {
        throw new TypeError("`lock` must be a string");
      }
      if (spec.category !== undefined && typeof spec.category !== "string") {
        throw new TypeError("`category` must be a string");
      }
      // The registry's own checks (names, aliases, lock syntax, switches, help), before any change.
      new CommandRegistry().add(spec, SCRIPT_OWNER);
      if (this.#scripts.get(s.name) !== s || this.#closed) return vm.kill(); // Removed meanwhile.
      const first = s.good === null;
      s.good?.vm.kill();
      s.good = { hash, js, label, spec, lock: spec.lock || "connected", loadedAt: Date.now(), vm };
      s.badHash = null;
      s.lastError = null;
      s.tellFailed = false;
      this.#registerSoon();
      if (first) this.#tellShadow(s);
    } catch (e) {
      vm.kill();
      throw e;
    }
  }

  /** Tells staff when a script's first good version takes the name of a core or plugin command. */
  #tellShadow(s: Script): void {
    const replaced = this.#replaced(s.name);
    if (!replaced) return;
    const escape = replaced === "core" ? "@core/" : "@plugin/";
    this.#report(
      s,
      `now replaces ${replaced === "core" ? "core" : `plugin ${replaced}`}'s ${s.name} ` +
        `(staff reach that one with ${escape}${s.name}).`,
    );
  }

  /**
   * Reports a version that failed to load. The next run tells its actor once (whether that run
   * met the new version or the watcher's look at the folder did): the previous version runs.
   */
  #loadFailed(s: Script, hash: string | null, message: string): void {
    s.badHash = hash;
    const kept = s.good ? " The previous version keeps running." : "";
    this.#fail(s, `failed to load: ${message}.${kept}`);
    if (!s.good) this.#register(); // A script that never loaded leaves the name to core/plugins.
    s.tellFailed = s.good !== null;
  }

  /**
   * Registers once the loads finishing now are done: a folder of 200 new scripts loads in a
   * burst, and rebuilding the registry (every core, plugin and script command) after each load
   * was 200 rebuilds of it. Until then a new script's placeholder holds its name, and a changed
   * one's previous registration runs the new version (a run reads the version it finds).
   */
  #registerSoon(): void {
    this.#registering ??= setTimeout(() => {
      this.#registering = undefined;
      if (!this.#closed) this.#register();
    }, 0);
  }

  /** Registers now when a registration waits. */
  #registerPending(): void {
    if (this.#registering !== undefined) this.#register();
  }

  /** Puts the script layer of the registry in line with the scripts known now. */
  #register(): void {
    clearTimeout(this.#registering);
    this.#registering = undefined;
    const specs = [];
    for (const s of this.#scripts.values()) {
      if (s.good) specs.push({ spec: s.good.spec });
      else if (!s.badHash && !s.lastError) {
        // Until its first load ends, a new script holds its name (the run waits for the load).
        specs.push({
          spec: { name: s.name, lateSwitches: true, exec: (u: CommandSdk) => this.run(s.name, u) },
        });
      }
    }
    try {
      this.#registry.replaceOwner(SCRIPT_OWNER, specs);
    } catch (e) {
      console.error("scripts: could not register the script commands:", e);
    }
  }

  #fail(s: Script, message: string): void {
    s.lastError = { message: message.slice(0, 1000), at: Date.now() };
    this.#report(s, message);
  }

  /** Tells the log and the connected staff, at most once per REPORT_EVERY_MS per problem. */
  #report(s: Script, message: string): void {
    const text = message.slice(0, 600);
    console.warn(`scripts: ${s.name}: ${text}`);
    const key = `${s.name}\u0000${text.replace(/\(#\d+\)/, "").replace(/ for \S+/, "")}`;
    const now = Date.now();
    if (now - (this.#reported.get(key) ?? 0) < REPORT_EVERY_MS) return;
    if (this.#reported.size > 1000) this.#reported.clear();
    this.#reported.set(key, now);
    const online = this.#host.presence;
    const staff = online.onlinePlayers().filter((id) => {
      const card = online.playerCard(id);
      return card !== undefined && isStaff(card.flags);
    });
    this.#host.deliver.toPlayers(staff, {
      msg: `%ch[script]%cn ${s.name}: ${text}`,
      data: { type: "script-error", script: s.name, error: text },
    });
  }
}

/** The command name and extension of a directory entry that is a script, or null. */
function scriptFile(entry: Deno.DirEntry): { name: string; ext: string } | null {
  // Regular files only: a symlink could lead out of the folder (and @script/show would print it).
  if (!entry.isFile) return null;
  const ext = extname(entry.name).toLowerCase();
  if (ext !== ".ts" && ext !== ".js") return null;
  const base = basename(entry.name, extname(entry.name));
  if (base.endsWith(".d") || base.endsWith("_test") || base.startsWith("_")) return null;
  const name = base.toLowerCase();
  return name.length <= 64 && NAME_RE.test(name) ? { name, ext } : null;
}

async function readBounded(file: string): Promise<string> {
  const st = await Deno.lstat(file);
  if (!st.isFile) throw new Error("not a regular file (symlinks are refused)");
  if (st.size > MAX_SCRIPT_BYTES) {
    throw new Error(`the file is ${st.size} bytes; scripts may be at most ${MAX_SCRIPT_BYTES}`);
  }
  return await Deno.readTextFile(file);
}

async function hashOf(src: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(src));
  return [...new Uint8Array(digest).slice(0, 8)].map((b) => b.toString(16).padStart(2, "0"))
    .join("");
}
