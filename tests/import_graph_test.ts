/**
 * The import graph of src/ and plugins/: no cycles (type-only imports and re-exports count),
 * plugins reach the engine only through the SDK (src/plugins/mod.ts) and the test kit
 * (src/plugins/testing.ts), and the hub and telnet's protocol and client code import nothing of
 * each other. The graph is Deno's own (`deno info --json`), so every import
 * form and path resolves exactly as the runtime resolves it.
 */
import { assert, assertEquals } from "./assert.ts";
import { basename, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { startTestGame } from "../src/plugins/testing.ts";

const ROOT = resolve(import.meta.dirname!, "..");

/** The only engine modules a plugin may import. */
const PLUGIN_DOORS = new Set(["src/plugins/mod.ts", "src/plugins/testing.ts"]);

async function tsFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    if (e.name.startsWith(".")) continue;
    const path = join(dir, e.name);
    if (e.isDirectory) out.push(...await tsFiles(path));
    else if (e.isFile && /\.(ts|tsx|mts)$/.test(e.name)) out.push(path);
  }
  return out;
}

interface InfoModule {
  specifier: string;
  dependencies?: { code?: { specifier: string }; type?: { specifier: string } }[];
}

/** File (relative to the repo) → the repo files it imports, from one `deno info` run. */
async function importGraph(): Promise<Map<string, Set<string>>> {
  const files = [
    ...await tsFiles(join(ROOT, "src")),
    ...await tsFiles(join(ROOT, "plugins")),
  ];
  const tmp = await Deno.makeTempDir();
  try {
    const entry = join(tmp, "all.ts");
    await Deno.writeTextFile(
      entry,
      files.map((f) => `import ${JSON.stringify(pathToFileURL(f).href)};\n`).join(""),
    );
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["info", "--json", "--config", join(ROOT, "deno.json"), entry],
      env: { DENO_NO_PACKAGE_JSON: "1", NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
    const info = JSON.parse(new TextDecoder().decode(out.stdout)) as { modules: InfoModule[] };
    const graph = new Map<string, Set<string>>();
    const local = (url: string) => {
      if (!url.startsWith("file:")) return null;
      const rel = relative(ROOT, fileURLToPath(url)).replaceAll("\\", "/");
      return /^(src|plugins)\//.test(rel) ? rel : null;
    };
    for (const m of info.modules) {
      const from = local(m.specifier);
      if (!from) continue;
      const deps = new Set<string>();
      for (const d of m.dependencies ?? []) {
        for (const to of [d.code?.specifier, d.type?.specifier]) {
          const rel = to ? local(to) : null;
          if (rel) deps.add(rel);
        }
      }
      graph.set(from, deps);
    }
    return graph;
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
}

/** Strongly connected components of more than one file (or a file importing itself). */
function cycles(graph: Map<string, Set<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || graph.get(v)?.has(v)) found.push(scc.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return found;
}

/** Imports of engine modules by plugin files, other than through the doors. */
function pluginViolations(graph: Map<string, Set<string>>): string[] {
  const out: string[] = [];
  for (const [from, deps] of graph) {
    if (!from.startsWith("plugins/")) continue;
    for (const to of deps) {
      if (to.startsWith("src/") && !PLUGIN_DOORS.has(to)) out.push(`${from} -> ${to}`);
    }
  }
  return out.sort();
}

/**
 * Imports across the hub and telnet: the hub imports nothing of src/telnet/, and the telnet
 * protocol and client code nothing of src/hub/ (the sidecar process may read the link's wire
 * format and header from the hub, so both ends of the link share one definition).
 */
function layerViolations(graph: Map<string, Set<string>>): string[] {
  const out: string[] = [];
  for (const [from, deps] of graph) {
    for (const to of deps) {
      const hubToTelnet = from.startsWith("src/hub/") && to.startsWith("src/telnet/");
      const telnetToHub = /^src\/telnet\/(protocol|client)\//.test(from) &&
        to.startsWith("src/hub/");
      if (hubToTelnet || telnetToHub) out.push(`${from} -> ${to}`);
    }
  }
  return out.sort();
}

const graph = await importGraph();

Deno.test("import graph: every file of src/ and plugins/ is in it", () => {
  assert(graph.has("src/engine.ts") && graph.has("src/plugins/mod.ts"), "engine modules missing");
  assert(graph.has("plugins/notes/mod.ts"), "plugin modules missing");
  assert(graph.get("src/engine.ts")!.has("src/commands/types.ts"), "type imports missing");
});

Deno.test("import graph: no cycles in src/ and plugins/", () => {
  const found = cycles(graph);
  assert(
    found.length === 0,
    `import cycles:\n${found.map((c) => `  ${c.join(" <-> ")}`).join("\n")}`,
  );
});

Deno.test("import graph: plugins import only src/plugins/mod.ts and src/plugins/testing.ts", () => {
  const violations = pluginViolations(graph);
  assert(violations.length === 0, `plugins reaching past the SDK:\n  ${violations.join("\n  ")}`);
});

/** Files of src/ (tests aside) and the entry points that read the environment themselves. */
async function environmentReaders(): Promise<string[]> {
  const files = [
    ...(await tsFiles(join(ROOT, "src"))).filter((f) => !/_test\.ts$/.test(f)),
    join(ROOT, "main.ts"),
    join(ROOT, "telnet.ts"),
  ];
  const out: string[] = [];
  for (const f of files) {
    const rel = relative(ROOT, f).replaceAll("\\", "/");
    if (rel.startsWith("src/config/")) continue;
    const text = await Deno.readTextFile(f);
    if (/\bDeno\.env\b|\benv\[\s*["'`]/.test(text)) out.push(rel);
  }
  return out.sort();
}

Deno.test("import graph: only src/config reads the process environment", async () => {
  const readers = await environmentReaders();
  assert(
    readers.length === 0,
    `read the environment outside src/config (use src/config/process_env.ts):\n  ${
      readers.join("\n  ")
    }`,
  );
});

Deno.test("import graph: the hub imports nothing of telnet, telnet's protocol and client nothing of the hub", () => {
  const violations = layerViolations(graph);
  assert(violations.length === 0, `imports across the layers:\n  ${violations.join("\n  ")}`);
});

/** What names a plugin's feature: the words that must appear in no core file. */
interface Marks {
  plugin: string;
  /** Regular expressions, each with what it stands for. */
  marks: { what: string; re: RegExp }[];
}

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Each shipped plugin's marks, from a running engine with all of them loaded: its folder, its
 * route prefixes (also as the web client's API paths), its portal sections' paths and files, its
 * buses and their events.
 */
async function pluginMarks(): Promise<Marks[]> {
  const names: string[] = [];
  for await (const e of Deno.readDir(join(ROOT, "plugins"))) {
    if (e.isDirectory && !/^[._]/.test(e.name)) names.push(e.name);
  }
  const game = await startTestGame({ plugins: names.sort() });
  try {
    const routes = (await game.request("GET", "/api/v1/routes")).body as {
      path: string;
      owner: string;
    }[];
    const portal = (await game.request("GET", "/api/v1/portal")).body as {
      sections: { path: string; owner: string; module: string; styles: string | null }[];
      panes: { owner: string; module: string; styles: string | null }[];
    };
    const buses = game.engine.plugins.buses();
    return names.map((plugin) => {
      const marks: Marks["marks"] = [{
        what: "its folder",
        re: new RegExp(`plugins/${esc(plugin)}\\b`),
      }];
      const prefixes = new Set(
        routes.filter((r) => r.owner === plugin && r.path.startsWith("/api/v1/"))
          // `/api/v1/public/` is shared: each plugin's part of it is one level further down.
          .map((r) =>
            r.path.split("/").slice(0, r.path.startsWith("/api/v1/public/") ? 5 : 4).join("/")
          ),
      );
      for (const p of prefixes) {
        const rel = p.slice("/api/v1".length);
        marks.push({ what: `its routes ${p}`, re: new RegExp(`${esc(p)}(?![\\w-])`) });
        // The web client's API calls name the path below /api/v1, as a string's start.
        marks.push({ what: `its routes ${p}`, re: new RegExp(`["'\`]${esc(rel)}(?=[/?"'\`$])`) });
      }
      for (const s of portal.sections.filter((x) => x.owner === plugin)) {
        marks.push({
          what: `its page /${s.path}`,
          re: new RegExp(`["'\`]/${esc(s.path)}(?=[/?"'\`$])`),
        });
      }
      for (const x of [...portal.sections, ...portal.panes].filter((x) => x.owner === plugin)) {
        for (const file of [x.module, x.styles].filter((f): f is string => !!f)) {
          marks.push({
            what: `its page file ${file}`,
            re: new RegExp(`\\b${esc(basename(file))}\\b`),
          });
        }
      }
      for (const b of buses.filter((x) => x.owner === plugin)) {
        marks.push({ what: `its bus ${b.name}`, re: new RegExp(`\\b${esc(b.name)}\\b`) });
        for (const e of b.events) marks.push({ what: `its event ${e}`, re: new RegExp(esc(e)) });
      }
      return { plugin, marks };
    });
  } finally {
    await game.close();
  }
}

/** The core's files a plugin's marks may not appear in: src/ and web/, but the portal library. */
async function coreFiles(): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string) => {
    for await (const e of Deno.readDir(dir)) {
      const p = join(dir, e.name);
      if (e.isDirectory) await walk(p);
      else if (/\.(ts|js|html|css)$/.test(e.name)) out.push(p);
    }
  };
  await walk(join(ROOT, "src"));
  await walk(join(ROOT, "web"));
  return out.filter((f) => relative(ROOT, f) !== join("web", "assets", "portal.js")).sort();
}

/** Each core file that names a plugin's feature, with what it names. */
function featureLeaks(marks: Marks[], files: { name: string; text: string }[]): string[] {
  const out: string[] = [];
  for (const f of files) {
    for (const { plugin, marks: ms } of marks) {
      const hit = ms.find((m) => m.re.test(f.text));
      if (hit) out.push(`${f.name} names plugin ${plugin}'s ${hit.what.replace(/^its /, "")}`);
    }
  }
  return out;
}

Deno.test("import graph: no plugin's name, route, event or page appears in src/ or web/", async () => {
  const marks = await pluginMarks();
  assert(marks.some((m) => m.marks.some((x) => x.what.startsWith("its event "))), "events found");
  assert(marks.some((m) => m.marks.some((x) => x.what.startsWith("its page /"))), "pages found");
  const files = await Promise.all((await coreFiles()).map(async (f) => ({
    name: relative(ROOT, f),
    text: await Deno.readTextFile(f),
  })));
  const leaks = featureLeaks(marks, files);
  assert(leaks.length === 0, `the core names plugins' features:\n  ${leaks.join("\n  ")}`);
});

Deno.test("import graph: the checks catch a cycle, a plugin past the door and a layer crossed", () => {
  const g = new Map<string, Set<string>>([
    ["src/a.ts", new Set(["src/b.ts"])],
    ["src/b.ts", new Set(["src/a.ts"])],
    ["src/c.ts", new Set(["src/c.ts"])],
    ["plugins/x/mod.ts", new Set(["src/plugins/mod.ts", "src/plugins/kv.ts"])],
    ["src/hub/hub.ts", new Set(["src/telnet/protocol/lines.ts"])],
    ["src/telnet/client/outbox.ts", new Set(["src/hub/types.ts"])],
    ["src/telnet/sidecar/mux_client.ts", new Set(["src/hub/carriers/mux_wire.ts"])],
  ]);
  assertEquals(cycles(g), [["src/a.ts", "src/b.ts"], ["src/c.ts"]]);
  assertEquals(pluginViolations(g), ["plugins/x/mod.ts -> src/plugins/kv.ts"]);
  assertEquals(layerViolations(g), [
    "src/hub/hub.ts -> src/telnet/protocol/lines.ts",
    "src/telnet/client/outbox.ts -> src/hub/types.ts",
  ]);
  const kettle: Marks = {
    plugin: "kettle",
    marks: [
      { what: "its event kettle:boiled", re: /kettle:boiled/ },
      { what: "its page /kettle", re: /["'`]\/kettle(?=[/?"'`$])/ },
    ],
  };
  assertEquals(
    featureLeaks([kettle], [
      { name: "web/a.js", text: `navigate("/kettle/2")` },
      { name: "src/b.ts", text: `bus.on("kettle:boiled", f)` },
      { name: "src/c.ts", text: `"/kettles" and a kettle:off` },
    ]),
    [
      "web/a.js names plugin kettle's page /kettle",
      "src/b.ts names plugin kettle's event kettle:boiled",
    ],
  );
});
