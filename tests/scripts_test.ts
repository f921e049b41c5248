/**
 * Black-box tests of system scripts: a real engine (the plugin kit) with a scripts folder in a
 * temporary directory, players on real WebSocket connections.
 */
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { startTestGame, type TestGame } from "../src/plugins/testing.ts";

const HUH = "Huh? Type 'help' for help.";

async function game(files: Record<string, string>, scripts: Record<string, unknown> = {}) {
  const dir = await Deno.makeTempDir({ prefix: "ursamu-scripts-" });
  for (const [name, src] of Object.entries(files)) await Deno.writeTextFile(`${dir}/${name}`, src);
  const g = await startTestGame({
    plugins: [],
    // Budgets wide enough for a test's run of limit-breaking calls (they have a test of their own).
    config: {
      scripts: { dir, timeoutMs: 250, actorBudgetMs: 60_000, gameBudgetMs: 60_000, ...scripts },
    },
  });
  return {
    g,
    dir,
    async close() {
      await g.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/** Writes a file with a new mtime (and so a new stat) even within one clock tick. */
async function rewrite(path: string, src: string): Promise<void> {
  await Deno.writeTextFile(path, src);
  const later = new Date(Date.now() + 5_000 + Math.floor(Math.random() * 1000));
  await Deno.utime(path, later, later);
}

/**
 * Runs `line` until `want` matches what `who` received (an edit reaches the engine through its
 * folder watcher, in no order with a command sent right after it), in a run's answer or between
 * two runs (a delivery the run's window did not catch). Returns the run last made, the text that
 * matched, every line `who` received from the first try on (`mine`), and all that `also` heard
 * from the first try on (a report that came between two runs included).
 */
async function until(
  g: TestGame,
  who: Awaited<ReturnType<TestGame["player"]>>,
  line: string,
  want: RegExp,
  also = who.name,
) {
  let last = "";
  const heard: string[] = [];
  const mine: string[] = [];
  // Generous: a loaded machine takes seconds to see an edit and load it in the sandbox.
  const deadline = Date.now() + 60_000;
  for (let i = 0; Date.now() < deadline; i++) {
    const got = await g.run(who, line);
    const result = (text: string) => ({ run: got, last: text, heard: heard.join("\n"), mine });
    heard.push(got.text(also));
    last = got.text(who.name);
    mine.push(...got.of(who.name).map((h) => h.text));
    if (want.test(last)) return result(last);
    await new Promise((r) => setTimeout(r, i < 10 ? 5 : 50));
    const between = await g.received();
    heard.push(between.text(also));
    mine.push(...between.of(who.name).map((h) => h.text));
    const late = between.text(who.name);
    if (late && want.test(late)) return result(late);
  }
  throw new Error(`'${line}' never gave ${want}; last: ${last}; all: ${mine.join(" | ")}`);
}

Deno.test("scripts: precedence over core, @core/ for staff only, live edits, new files, tools", async () => {
  const t = await game({
    "who.ts": `export default async (u) => { await u.send("scripted who for " + u.me.name); };`,
    "+hi.ts": `/// <reference path="./sdk.d.ts" />
export const help = "+hi <text>: says hello";
export const aliases = ["+hello"];
export default async function (u: ScriptSdk) { await u.send("v1 " + u.cmd.args); }`,
    "notes.txt": "not a script",
    "+lib_test.ts": "export default () => {}",
  });
  try {
    const admin = await t.g.player("Ada", { flags: ["admin"] });
    const bob = await t.g.player("Bob");

    // A script named like a core command replaces it; staff still reach the core one.
    assertEquals((await t.g.run(bob, "who")).text("Bob"), "scripted who for Bob");
    assertMatch((await t.g.run(admin, "@core/who")).text("Ada"), /Player Name/);
    assertMatch((await t.g.run(admin, "@CORE/WHO")).text("Ada"), /Player Name/);
    assertEquals((await t.g.run(bob, "@core/who")).text("Bob"), "Permission denied.");
    assertEquals((await t.g.run(admin, "@core/nosuch")).text("Ada"), HUH);
    assertEquals((await t.g.run(admin, "@plugin/who")).text("Ada"), HUH);

    // Aliases and help come from the script's exports.
    assertEquals((await t.g.run(bob, "+hello there")).text("Bob"), "v1 there");
    assertEquals(t.g.engine.services.commands.get("+hi")?.help, "+hi <text>: says hello");
    assertEquals(t.g.engine.services.commands.get("+hi")?.owner, "system/scripts");
    // Files that are not scripts are not commands.
    assertEquals(t.g.engine.services.commands.get("notes"), undefined);
    assertEquals(t.g.engine.services.commands.get("+lib_test"), undefined);

    // An edit is used once the engine has seen it (its folder watcher), without @reload.
    await rewrite(`${t.dir}/+hi.ts`, `export default async (u) => { await u.send("v2"); };`);
    await until(t.g, bob, "+hi", /^v2$/);
    // The edited version has no alias any more.
    assertEquals((await t.g.run(bob, "+hello")).text("Bob"), HUH);

    // A syntax error keeps the previous version, tells the actor in one line and staff in full.
    await t.g.connect(admin);
    // (The first run after the engine saw the broken version tells its actor, whether that run
    // or the watcher's look at the folder loaded it.)
    await rewrite(`${t.dir}/+hi.ts`, `export default async (u) => { u.send("v3") ;;; oops(`);
    const broken = await until(t.g, bob, "+hi", /failed to load/, "Ada");
    // Told once, and the previous version answered every run.
    assertEquals(broken.mine.filter((l) => /failed to load/.test(l)), [
      "+hi: its new version failed to load; the previous one runs (staff have been told).",
    ]);
    assertEquals([...new Set(broken.mine.filter((l) => !/failed to load/.test(l)))], ["v2"]);
    assertEquals((await t.g.run(bob, "+hi")).text("Bob"), "v2");
    assertMatch(broken.heard, /\[script\] \+hi: failed to load: .*SyntaxError/);
    assert(!broken.heard.includes("data:application"), "the data: URL is not shown");
    const list = await t.g.run(admin, "@script/list");
    assertMatch(list.text("Ada"), /\+hi\s+loaded .*! failed to load/);
    assertMatch(list.text("Ada"), /who\s+loaded \(replaces core's who\)/);
    const data = list.of("Ada")[0].data as unknown as { scripts: { name: string }[] };
    assertEquals(data.scripts.map((s) => s.name), ["+hi", "who"]);
    assertEquals((await t.g.run(bob, "@script/list")).text("Bob"), "Permission denied.");

    // @script/check reports the syntax error and the type checker's view.
    const checked = await t.g.run(admin, "@script/check +hi");
    assertMatch(checked.text("Ada"), /\+hi: problems found\.\n\s+Load: FAILED: .*SyntaxError/);
    assertMatch(checked.text("Ada"), /Types: FAILED/);

    // Fixed: the error clears; a type error is caught by @script/check only.
    await rewrite(
      `${t.dir}/+hi.ts`,
      `/// <reference path="./sdk.d.ts" />\nexport default async (u: ScriptSdk) => { await u.send(42); };`,
    );
    const typed = await t.g.run(admin, "@script/check +hi");
    assertMatch(typed.text("Ada"), /Load: ok/);
    assertMatch(typed.text("Ada"), /Types: FAILED:[\s\S]*TS2345/);
    const shown = await t.g.run(admin, "@script/show +hi");
    assertMatch(shown.text("Ada"), /Script \+hi: .*\+hi\.ts\nLoaded: yes, version [0-9a-f]{16}/);
    assertMatch(shown.text("Ada"), /Last error: none/);
    assertMatch(shown.text("Ada"), /u\.send\(42\)/);
    assertMatch((await t.g.run(admin, "@script/show nope")).text("Ada"), /no script named 'nope'/);

    // A new file becomes a command without @reload; a removed one leaves the name to core.
    await Deno.writeTextFile(`${t.dir}/+new.ts`, `export default (u) => { u.send("brand new"); };`);
    await until(t.g, bob, "+new", /^brand new$/);
    await Deno.remove(`${t.dir}/who.ts`);
    await until(t.g, bob, "who", /Player Name/);

    // A script that never loaded does not shadow the core command.
    await Deno.writeTextFile(`${t.dir}/look.ts`, `export default = nonsense`);
    await until(t.g, admin, "@script/list", /look\s+not loaded/);
    assertMatch((await t.g.run(bob, "look")).text("Bob"), /Room Zero|#1|^\S/);
    assert(!(await t.g.run(bob, "look")).text("Bob").includes("failed"));
  } finally {
    await t.close();
  }
});

Deno.test("scripts: the SDK acts under the built-in rules", async () => {
  const t = await game({
    "+poke.ts": `export const switches = ["desc", "attr", "get", "room", "find"];
export default async (u) => {
  const [what, value] = [u.cmd.lhs, u.cmd.rhs];
  if (u.cmd.switches[0] === "desc") { await u.describe(what, value); return u.send("described"); }
  if (u.cmd.switches[0] === "attr") { await u.attr.set(what, "mood", value); return u.send("set"); }
  if (u.cmd.switches[0] === "get") { return u.send(JSON.stringify(await u.attr.get(what, "mood"))); }
  if (u.cmd.switches[0] === "room") { return u.here.broadcast(u.me.name + " pokes the room", { exclude: [u.me.dbref] }); }
  const o = await u.target(what);
  await u.send(o.name + " " + o.dbref + " " + o.description);
};`,
    "+staffy.ts": `export const lock = "admin+";
export default async (u) => { await u.send("staff only: " + await u.passes("admin+")); };`,
  });
  try {
    const admin = await t.g.player("Ada", { flags: ["admin"] });
    const bob = await t.g.player("Bob");
    const cat = await t.g.player("Cat");
    await t.g.connect(cat);

    assertEquals((await t.g.run(bob, "+poke/desc me=A tall fellow.")).text("Bob"), "described");
    assertEquals(
      (await t.g.run(bob, "+poke me")).text("Bob"),
      "Bob #" + bob.id + " A tall fellow.",
    );
    // Bob may read Ada's attributes but not change her description or attributes.
    assertEquals((await t.g.run(bob, "+poke/desc *Ada=hacked")).text("Bob"), "Permission denied.");
    assertEquals((await t.g.run(bob, "+poke/attr *Ada=angry")).text("Bob"), "Permission denied.");
    assertEquals((await t.g.run(admin, "+poke/attr *Bob=sleepy")).text("Ada"), "set");
    assertEquals((await t.g.run(bob, "+poke/get me")).text("Bob"), '"sleepy"');
    // u.attr is the attribute store softcode and & use; data.state is the REST client's.
    const mood = await t.g.engine.services.attributes.get(bob.id, "MOOD");
    assertEquals([mood?.value, mood?.owner], ["sleepy", admin.id]);
    assertEquals((await t.g.engine.services.objects.get(bob.id))?.data.state, undefined);
    const ada = await t.g.engine.services.objects.get(admin.id);
    assertEquals([ada?.data.description, ada?.data.state], [undefined, undefined]);
    // Bounded like @describe: too long is refused and changes nothing.
    const long = await t.g.run(bob, `+poke/desc me=${"x".repeat(8001)}`);
    assertMatch(long.text("Bob"), /the limit is 8000/);
    // Target lookup answers like the built-ins.
    assertEquals((await t.g.run(bob, "+poke nothing-here")).text("Bob"), "I don't see that here.");
    // Room broadcast reaches the others in the room.
    const room = await t.g.run(bob, "+poke/room");
    assertEquals(room.text("Cat"), "Bob pokes the room");
    assertEquals(room.text("Bob"), "");
    // A script's lock is checked like a built-in's.
    assertEquals((await t.g.run(bob, "+staffy")).text("Bob"), "Permission denied.");
    assertEquals((await t.g.run(admin, "+staffy")).text("Ada"), "staff only: true");
  } finally {
    await t.close();
  }
});

Deno.test("scripts: hostile scripts are refused or stopped, reported, and change nothing", async () => {
  const bad: Record<string, string> = {
    "+throws.ts": `export default () => { throw new Error("kaboom"); };`,
    "+garbage.ts": `export default () => ({ not: "allowed" });`,
    "+huge.ts": `export default async (u) => { await u.send("x".repeat(1024 * 1024)); };`,
    "+rawhuge.ts":
      `export default async (u) => { await u.send("a", { type: "x", blob: "y".repeat(1e6) }); };`,
    "+readfile.ts":
      `export default async (u) => { const t = await Deno.readFile("/etc/passwd"); await u.send("read " + t.length); };`,
    "+fetch.ts":
      `export default async (u) => { await fetch("http://example.com/"); await u.send("fetched"); };`,
    "+env.ts": `export default async (u) => { await u.send("env " + Deno.env.get("HOME")); };`,
    "+import.ts":
      `import { createEngine } from "../../src/engine.ts";\nexport default (u) => u.send(typeof createEngine);`,
    "+dynimport.ts":
      `export default async (u) => { const m = await import("file:///etc/passwd"); await u.send("got " + m); };`,
    "+evalimport.ts":
      `export default async (u) => { const m = await (0, eval)("imp" + "ort('file:///etc/hostname')"); await u.send("got " + m); };`,
    "+loop.ts": `export default () => { for (;;) {} };`,
    // Memory bombs that pass the 32 MB cap at their second step, touching a few pages at most.
    // On the test machine touching fresh memory costs 15-20 ms a megabyte (page faults), so the
    // old bomb, which grew the heap to the cap in 1.6 MB arrays, took 300-800 ms of CPU in a bare
    // sandbox at load 8, and at load 14 met the 250 ms time limit first five times in five
    // (scripts.timeoutMs may not be set above 250). Growing to the cap by small steps is tested
    // in src/scripts/sandbox_test.ts ("vm: limits stop a call...", with a 2 s limit).
    "+alloc.ts":
      `export default () => { const a = []; for (let n = 1e4; ; n *= 1e4) a.push("x".repeat(n)); };`,
    "+buffers.ts":
      `export default () => { const a = []; for (let n = 1e5; ; n *= 1e3) { const b = new Uint8Array(n); b.fill(1); a.push(b); } };`,
    "+trap.ts": `export default async (u) => {
  try { Array.prototype.push = () => 0; } catch (e) { await u.send("frozen: " + e.name); }
  try { globalThis.stash = 1; } catch (e) { await u.send("sealed: " + e.name); }
};`,
    "+flood.ts": `export default () => { for (let i = 0; i < 1e6; i++) u.send("x"); };`.replace(
      "() =>",
      "(u) =>",
    ),
    "+spam.ts":
      `export default async (u) => { for (let i = 0; i < 40; i++) await u.send("z".repeat(30000)); };`,
    "+ok.ts": `export default async (u) => { await u.send("still fine"); };`,
  };
  const t = await game(bad, { timeoutMs: 250, memoryMb: 32 });
  try {
    const admin = await t.g.player("Ada", { flags: ["admin"] });
    const bob = await t.g.player("Bob");
    await t.g.connect(admin);
    const runBob = async (line: string) => {
      const r = await t.g.run(bob, line);
      return { bob: r.text("Bob"), staff: r.text("Ada") };
    };

    let r = await runBob("+throws");
    assertEquals(r.bob, "+throws failed (a script error); staff have been told.");
    assertMatch(r.staff, /\[script\] \+throws: failed for Bob\(#\d+\): Error: kaboom/);

    r = await runBob("+garbage");
    assertEquals(r.bob, "");
    assertMatch(r.staff, /returned object .*a script returns nothing/);

    r = await runBob("+huge");
    assertEquals(r.bob, "+huge failed (a script error); staff have been told.");
    assertMatch(r.staff, /the message is 1048576 characters; the limit is 32000/);
    r = await runBob("+rawhuge");
    assertMatch(r.staff, /data must be JSON of at most 16384 bytes/);

    r = await runBob("+readfile");
    assertMatch(r.staff, /\+readfile: failed .*Deno is not defined/);
    r = await runBob("+fetch");
    assertMatch(r.staff, /\+fetch: failed .*fetch is not defined/);
    r = await runBob("+env");
    assertMatch(r.staff, /\+env: failed .*Deno is not defined/);
    assert(!r.bob.includes("/root") && !r.bob.includes("/home"));

    // Imports: refused before loading; the script never registers, so the name is unknown.
    const list = (await t.g.run(admin, "@script/list")).text("Ada");
    assertMatch(list, /\+import\s+not loaded .*scripts cannot import modules/);
    assertMatch(list, /\+dynimport\s+not loaded .*import\(\)/);
    assertEquals(r.bob.includes("createEngine"), false);
    r = await runBob("+import");
    assertEquals(r.bob, HUH);
    // An import hidden from the check is refused by the sandbox's permissions.
    r = await runBob("+evalimport");
    assertEquals(r.bob, "+evalimport failed (a script error); staff have been told.");
    assertMatch(r.staff, /Requires read access|NotCapable|not defined/);

    // Time and memory limits stop the process; the engine and other players carry on.
    const t0 = Date.now();
    r = await runBob("+loop");
    assertEquals(r.bob, "+loop was stopped (it ran too long); staff have been told.");
    assertMatch(
      r.staff,
      /\+loop: stopped for Bob\(#\d+\): stopped after 250 ms \(the time limit\)/,
    );
    assert(Date.now() - t0 < 5000);
    for (const name of ["+alloc", "+buffers"]) {
      r = await runBob(name);
      assertEquals(r.bob, `${name} was stopped (it used too much memory); staff have been told.`);
      assertMatch(
        r.staff,
        new RegExp(`\\${name}: stopped for Bob\\(#\\d+\\): used more than 32 MB of memory`),
      );
    }

    // A flood of SDK calls is stopped; a run's messages are bounded in all.
    r = await runBob("+flood");
    const flood = r.bob.split("\n");
    assert(flood.length <= 2001, `${flood.length} lines`);
    assertEquals(
      flood.at(-1),
      "+flood was stopped (it made too many SDK calls); staff have been told.",
    );
    assertMatch(r.staff, /made more than 2000 SDK calls/);
    r = await runBob("+spam");
    assertEquals(r.bob.split("\n").length, 34); // 33 messages of 30,000, then the refusal
    assertMatch(r.bob, /A script may send at most 1000000 characters per run\.$/);

    // One script cannot leave a trap in the shared globals for the next.
    r = await runBob("+trap");
    assertEquals(r.bob, "frozen: TypeError\nsealed: TypeError");

    assertEquals((await runBob("+ok")).bob, "still fine");
    assertMatch((await t.g.run(admin, "@core/who")).text("Ada"), /Bob/);
    const res = await t.g.request("GET", "/health");
    assertEquals(res.status, 200);
    // Nothing of Bob's or Ada's was changed by any of it.
    const [ada, bobObj] = await t.g.engine.services.objects.getEach([admin.id, bob.id]);
    assertEquals([ada?.data.state, bobObj?.data.state], [undefined, undefined]);
    const shown = (await t.g.run(admin, "@script/show +loop")).text("Ada");
    assertMatch(shown, /Runs: 1, failures: 1\nLast error: .*time limit/);
  } finally {
    await t.close();
  }
});

Deno.test("scripts: once an edit is seen, runs use the new version only; the old one changes nothing", async () => {
  // "A script's new contents are used from its next run" once the engine has seen the edit (its
  // folder watcher): each edit is followed by runs until one answers with the new version; from
  // then on nothing of the old version may act or send.
  const version = (n: number, lock = "") =>
    `${lock}export default async (u) => {
  await u.attr.set("me", "v${n}", true);
  u.send("version ${n}");
};`;
  const t = await game({ "+ver.ts": version(0) });
  try {
    const bob = await t.g.player("Bob");
    assertEquals((await t.g.run(bob, "+ver")).text("Bob"), "version 0");
    for (let n = 1; n <= 4; n++) {
      await rewrite(`${t.dir}/+ver.ts`, version(n));
      await until(t.g, bob, "+ver", new RegExp(`^version ${n}$`));
      assertEquals((await t.g.run(bob, "+ver")).text("Bob"), `version ${n}`);
    }
    const names = async () =>
      (await t.g.engine.services.attributes.list(bob.id)).map((a) => `${a.name}=${a.value}`);
    assertEquals(await names(), ["V0=true", "V1=true", "V2=true", "V3=true", "V4=true"]);
    // A lock added by the edit holds from that run: the old version's run changes nothing.
    await rewrite(`${t.dir}/+ver.ts`, version(5, `export const lock = "admin+";\n`));
    await until(t.g, bob, "+ver", /^Permission denied\.$/);
    assertEquals((await t.g.run(bob, "+ver")).text("Bob"), "Permission denied.");
    assertEquals(await names(), ["V0=true", "V1=true", "V2=true", "V3=true", "V4=true"]);
  } finally {
    await t.close();
  }
});

Deno.test("scripts: an editor's save, a rename, a burst of edits and a folder made again are all seen", async () => {
  const say = (text: string) => `export default (u) => { u.send(${JSON.stringify(text)}); };`;
  const t = await game({ "+hi.ts": say("v1") });
  try {
    const bob = await t.g.player("Bob");
    assertEquals((await t.g.run(bob, "+hi")).text("Bob"), "v1");
    // An editor's save: a new file written beside the script, then renamed over it.
    await Deno.writeTextFile(`${t.dir}/.+hi.ts.swp`, say("v2"));
    await Deno.rename(`${t.dir}/.+hi.ts.swp`, `${t.dir}/+hi.ts`);
    await until(t.g, bob, "+hi", /^v2$/);
    // Renamed: the new name runs it, the old one is gone.
    await Deno.rename(`${t.dir}/+hi.ts`, `${t.dir}/+ho.ts`);
    await until(t.g, bob, "+ho", /^v2$/);
    assertEquals((await t.g.run(bob, "+hi")).text("Bob"), HUH);

    // A burst of edits while the engine is busy (these writes block its event loop): Deno's
    // watcher keeps 16 events and drops the rest, so the last files' own events are lost. Once
    // the engine has seen any of the burst, every script's next run looks at its file.
    const names = Array.from({ length: 12 }, (_, i) => `+b${i}`);
    for (const n of names) await Deno.writeTextFile(`${t.dir}/${n}.ts`, say(`${n} old`));
    for (const n of names) await until(t.g, bob, n, new RegExp(`^\\${n} old$`));
    for (let round = 0; round < 3; round++) {
      for (const n of names) {
        Deno.writeTextFileSync(`${t.dir}/${n}.ts`, say(`${n} new ${round}`));
        const later = new Date(Date.now() + 5_000 + round * 1000);
        Deno.utimeSync(`${t.dir}/${n}.ts`, later, later);
      }
    }
    await until(t.g, bob, names[0], /^\+b0 new 2$/);
    for (const n of names.slice(1)) {
      assertEquals((await t.g.run(bob, n)).text("Bob"), `${n} new 2`);
    }

    // The folder removed and made again: its watch is gone with it, and a new one starts.
    await Deno.remove(t.dir, { recursive: true });
    await until(t.g, bob, "+ho", /^Huh\?/);
    await Deno.mkdir(t.dir);
    await Deno.writeTextFile(`${t.dir}/+again.ts`, say("again 1"));
    await until(t.g, bob, "+again", /^again 1$/);
    await rewrite(`${t.dir}/+again.ts`, say("again 2"));
    await until(t.g, bob, "+again", /^again 2$/);
  } finally {
    await t.close();
  }
});

Deno.test("scripts: with scripts.watch off, each run looks at its file first", async () => {
  const t = await game({ "+hi.ts": `export default (u) => { u.send("v1"); };` }, { watch: false });
  try {
    const bob = await t.g.player("Bob");
    assertEquals((await t.g.run(bob, "+hi")).text("Bob"), "v1");
    for (let n = 2; n <= 4; n++) {
      await rewrite(`${t.dir}/+hi.ts`, `export default (u) => { u.send("v${n}"); };`);
      // No watcher to wait for: the run right after the edit finds it.
      assertEquals((await t.g.run(bob, "+hi")).text("Bob"), `v${n}`);
    }
    // The run right after the file is removed (or renamed away) finds it gone: the version it
    // had loaded does not run once more.
    await Deno.remove(`${t.dir}/+hi.ts`);
    assertEquals(
      (await t.g.run(bob, "+hi")).text("Bob"),
      "That script was just removed; try again.",
    );
    assertEquals((await t.g.run(bob, "+hi")).text("Bob"), HUH);
  } finally {
    await t.close();
  }
});

Deno.test("scripts: a run that waits for a new script's first load is held to its switches", async () => {
  const t = await game({});
  try {
    const bob = await t.g.player("Bob");
    await Deno.writeTextFile(
      `${t.dir}/+sw.ts`,
      `export const switches = ["loud"];
export default async (u) => { await new Promise((r) => setTimeout(r, 0)); u.send("sw " + u.cmd.switches.join(",")); };`,
    );
    // From the moment the name is known (before its first load ends) the switch it lists works,
    // and one it does not list is refused with the list, never "takes no switches".
    let first = HUH;
    for (let i = 0; i < 100 && first === HUH; i++) {
      first = (await t.g.run(bob, "+sw/loud")).text("Bob");
      if (first === HUH) await new Promise((r) => setTimeout(r, 20));
    }
    assertEquals(first, "sw loud");
    await Deno.writeTextFile(
      `${t.dir}/+sw2.ts`,
      `export const switches = ["loud"];\nexport default (u) => u.send("sw2");`,
    );
    let refused = HUH;
    for (let i = 0; i < 100 && refused === HUH; i++) {
      refused = (await t.g.run(bob, "+sw2/quiet")).text("Bob");
      if (refused === HUH) await new Promise((r) => setTimeout(r, 20));
    }
    assertEquals(refused, "Unknown switch /quiet for +sw2. Switches: /loud.");
  } finally {
    await t.close();
  }
});

Deno.test("scripts: one script cannot change another's results, build an import, or leave timers behind", async () => {
  const t = await game({
    // The outside probe's holes in the process pool: a patched shared built-in changed another
    // script's results, `eval` built an import the text check missed, and a timer of one call
    // fired inside another script's later call.
    "+patch.ts": `export default async (u) => {
  const tried = [];
  const protos = [
    Object.getPrototypeOf([][Symbol.iterator]()),
    Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]())),
    Object.getPrototypeOf(function* () {}).prototype,
    Object.getPrototypeOf(new Map().entries()),
    Array.prototype, Object.prototype, String.prototype, Promise.prototype, JSON,
  ];
  const same = (a, b) => a && b && a.value === b.value && a.get === b.get && a.set === b.set;
  for (const p of protos) {
    for (const k of Reflect.ownKeys(p)) {
      const before = Object.getOwnPropertyDescriptor(p, k);
      try { p[k] = () => "patched"; } catch { /* frozen */ }
      try { Object.defineProperty(p, k, { value: 1 }); } catch { /* frozen */ }
      if (!same(before, Object.getOwnPropertyDescriptor(p, k))) tried.push(String(k));
    }
  }
  await u.send("patched " + tried.length);
};`,
    "+iterate.ts": `export default async (u) => {
  const out = [...[1, 2, 3]].map((x) => x * 2);
  const m = [...new Map([["a", 1]]).entries()];
  await u.send(out.join(",") + " " + JSON.stringify(m) + " " + [1, 2].toString());
};`,
    "+evalimp.ts": `export default async (u) => {
  const tries = [
    () => (0, eval)("imp" + "ort('node:timers')"),
    () => Function("return imp" + "ort('node:timers')")(),
    () => (async () => {}).constructor("return await imp" + "ort('node:timers')")(),
    () => Reflect.construct(Object.getPrototypeOf(function* () {}).constructor, ["yield 1"]),
  ];
  const out = [];
  for (const f of tries) {
    try { const r = await f(); out.push("ran " + typeof r); } catch (e) { out.push(e.name + ": " + e.message); }
  }
  await u.send(out.join("\\n"));
};`,
    "+later.ts": `export default async (u) => {
  setTimeout(() => u.send("late from +later"), 100);
  setInterval(() => u.send("tick from +later"), 20);
  await u.send("later set its timers");
};`,
    "+waits.ts": `export default async (u) => {
  await new Promise((r) => setTimeout(r, 300));
  await u.send("waited");
};`,
  });
  try {
    const bob = await t.g.player("Bob");
    assertEquals((await t.g.run(bob, "+patch")).text("Bob"), "patched 0");
    assertEquals((await t.g.run(bob, "+iterate")).text("Bob"), '2,4,6 [["a",1]] 1,2');
    const imp = (await t.g.run(bob, "+evalimp")).text("Bob").split("\n");
    assertMatch(imp[0], /^ReferenceError: .*eval.* is not defined/);
    for (const line of imp.slice(1)) {
      assertMatch(line, /^TypeError: scripts cannot make functions from text$/);
    }
    assertEquals((await t.g.run(bob, "+later")).text("Bob"), "later set its timers");
    // The other script's wait spans +later's timers: none of them fires, there or anywhere.
    assertEquals((await t.g.run(bob, "+waits")).text("Bob"), "waited");
    await new Promise((r) => setTimeout(r, 150));
    // Since +waits began: its own line alone.
    assertEquals((await t.g.received()).text("Bob"), "waited");
  } finally {
    await t.close();
  }
});

Deno.test("scripts: a memory kill is blamed on the script that ran out, never on a neighbour", async () => {
  const t = await game({
    // Past the cap at its second step, as the hostile test's bombs: doubling from 1 KB touched
    // the whole cap first, and under load met the time limit before it.
    "+bomb.ts":
      `export default () => { const a = []; for (let n = 1e4; ; n *= 1e4) a.push("x".repeat(n)); };`,
    "+slow.ts": `export default async (u) => {
  const big = new Array(50000).fill("held");
  await new Promise((r) => setTimeout(r, 200));
  await u.send("slow done " + big.length);
};`,
  }, { memoryMb: 24 });
  try {
    const admin = await t.g.player("Ada", { flags: ["admin"] });
    const bob = await t.g.player("Bob");
    const cat = await t.g.player("Cat");
    await t.g.connect(admin);
    await t.g.connect(cat);
    const slow = t.g.run(cat, "+slow");
    const bomb = await t.g.run(bob, "+bomb");
    assertEquals(
      bomb.text("Bob"),
      "+bomb was stopped (it used too much memory); staff have been told.",
    );
    assertMatch(
      bomb.text("Ada"),
      /\[script\] \+bomb: stopped for Bob\(#\d+\): used more than 24 MB/,
    );
    assert(!bomb.text("Ada").includes("+slow"), bomb.text("Ada"));
    assertEquals((await slow).text("Cat"), "slow done 50000");
    // The stopped script runs again in a fresh sandbox.
    const list = (await t.g.run(admin, "@script/list")).text("Ada");
    assertMatch(list, /\+slow\s+loaded/);
    assertMatch(list, /\+bomb\s+loaded .*! stopped for Bob/);
  } finally {
    await t.close();
  }
});

Deno.test("scripts: attacks on the WebAssembly sandbox reach nothing of the engine", async () => {
  const t = await game({
    "+reach.ts": `export default async (u) => {
  const out = [];
  const probe = (what, f) => { try { out.push(what + ": " + String(f())); } catch (e) { out.push(what + ": " + e.name); } };
  probe("send ctor", () => u.send.constructor("return globalThis.Deno")());
  probe("proto ctor", () => Object.getPrototypeOf(u).constructor.constructor("return 1")());
  probe("attr ctor", () => u.attr.get.constructor.prototype.constructor("return 1")());
  probe("u keys", () => Reflect.ownKeys(u).map(String).sort().join("|"));
  probe("u frozen", () => Object.isFrozen(u) && Object.isFrozen(u.cmd) && Object.isFrozen(u.me));
  probe("host", () => typeof globalThis.host + " " + typeof globalThis.__host);
  probe("wasm", () => typeof WebAssembly);
  await u.send(out.join("\\n"));
};`,
    "+getters.ts": `export default async (u) => {
  const which = u.cmd.args;
  if (which === "throw") await u.send("x", { get type() { throw new Error("from a getter"); } });
  if (which === "loop") await u.send("x", { get type() { for (;;) {} } });
  if (which === "proxy") await u.send(new Proxy({}, { get() { for (;;) {} } }));
  if (which === "huge") await u.target("y".repeat(5e6));
  if (which === "hugedata") await u.attr.set("me", "big", "z".repeat(5e6));
  if (which === "deep") { let o = {}; for (let i = 0; i < 1e5; i++) o = { o }; await u.send("x", { type: "t", o }); }
};`,
    "+ok.ts": `export default async (u) => { await u.send("still fine"); };`,
  });
  try {
    const admin = await t.g.player("Ada", { flags: ["admin"] });
    const bob = await t.g.player("Bob");
    await t.g.connect(admin);
    const reach = (await t.g.run(bob, "+reach")).text("Bob").split("\n");
    assertEquals(reach.slice(0, 3), [
      "send ctor: TypeError",
      "proto ctor: TypeError",
      "attr ctor: TypeError",
    ]);
    assertEquals(
      reach[3],
      "u keys: args|attr|cmd|contents|describe|here|me|online|passes|player|send|target|who",
    );
    assertEquals(reach.slice(4), [
      "u frozen: true",
      "host: undefined undefined",
      "wasm: undefined",
    ]);

    const run = async (arg: string) => {
      const r = await t.g.run(bob, `+getters ${arg}`);
      return { bob: r.text("Bob"), staff: r.text("Ada") };
    };
    let r = await run("throw");
    assertEquals(r.bob, "+getters failed (a script error); staff have been told.");
    assertMatch(r.staff, /Error: from a getter/);
    r = await run("loop");
    assertEquals(r.bob, "+getters was stopped (it ran too long); staff have been told.");
    r = await run("proxy");
    assertEquals(r.bob, "+getters was stopped (it ran too long); staff have been told.");
    r = await run("huge");
    assertMatch(r.staff, /arguments of u\.target are too long/);
    r = await run("hugedata");
    assertMatch(r.staff, /arguments of u\.attr\.set are too long/);
    r = await run("deep");
    assertMatch(r.bob, /^\+getters (failed|was stopped)/);
    assertEquals((await t.g.run(bob, "+ok")).text("Bob"), "still fine");
    assertEquals((await t.g.request("GET", "/health")).status, 200);
  } finally {
    await t.close();
  }
});

Deno.test("scripts: a player's script time is budgeted, and so is the game's", async () => {
  // A long window: the buckets refill so slowly that the game's, spent down to just below zero by
  // Cat's last run, is still empty a moment later for Dan (over 10 s it refilled in the
  // milliseconds between, and Dan's run was let in under load).
  const t = await game({
    "+busy.ts":
      `export default async (u) => { const end = Date.now() + 30; while (Date.now() < end) {} await u.send("worked"); };`,
  }, { actorBudgetMs: 100, gameBudgetMs: 150, budgetWindowMs: 600_000 });
  try {
    const bob = await t.g.player("Bob");
    const cat = await t.g.player("Cat");
    const dan = await t.g.player("Dan");
    // Each run is charged the time it ran (CPU time where the machine was busy elsewhere, so
    // how many fit depends on the machine): Bob spends his 100 ms in a few calls, then the next
    // is refused and says when to try again.
    const runs: string[] = [];
    do runs.push((await t.g.run(bob, "+busy")).text("Bob")); while (
      runs.at(-1) === "worked" && runs.length < 40
    );
    assert(runs.filter((r) => r === "worked").length >= 3, runs.join(" / "));
    assertMatch(
      runs.at(-1)!,
      /^You have used your share of script time; try again in \d+ seconds?\.$/,
    );
    // Cat has time of her own, until the game's total is spent too.
    assertEquals((await t.g.run(cat, "+busy")).text("Cat"), "worked");
    let last = "";
    for (let i = 0; i < 40 && last !== "The game's scripts are busy; try again in a moment."; i++) {
      last = (await t.g.run(cat, "+busy")).text("Cat");
    }
    assertEquals(
      (await t.g.run(dan, "+busy")).text("Dan"),
      "The game's scripts are busy; try again in a moment.",
    );
    // Built-in commands are never held back by it.
    assertMatch((await t.g.run(dan, "think still here")).text("Dan"), /still here/);
  } finally {
    await t.close();
  }
});
