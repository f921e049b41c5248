/**
 * Help for every softcode function, from the one source: each definition's own help (its
 * family, arguments, one-line summary and example). In game, `help <function>` and
 * `help functions` read the topics made here (through the plugin SDK); docs/softcode.md holds
 * the reference made here too (scripts/softcode_docs.ts writes it; a test fails when it drifts).
 */
import {
  FUNCTION_FAMILIES,
  type FunctionDef,
  type FunctionFamily,
  type FunctionHelp,
  type FunctionTable,
} from "./types.ts";

/** A function with its help and the other names it answers to. */
export interface DocumentedFunction {
  /** Lower-case name, as players type it. */
  name: string;
  help: FunctionHelp;
  /** Lower-case aliases (MUX's alias.conf: `left` for `strtrunc`). */
  aliases: string[];
}

/** A help topic for the help plugin. */
export interface FunctionTopic {
  /** `add()`, or `functions` for the index. */
  name: string;
  /** Other names leading here (`left()`, `function-list`). */
  aliases: string[];
  /** Markdown with MUSH colour codes; literal `%` doubled. */
  content: string;
}

/** The name of the index topic (`help functions`), and the names that lead to it. */
export const FUNCTIONS_TOPIC = "functions";
const INDEX_ALIASES = ["function-list", "function-classes", "function", "functions-list"];

/** The documented functions of a table, sorted by name; functions without help are left out. */
export function documented(table: FunctionTable): DocumentedFunction[] {
  const byDef = new Map<FunctionDef, DocumentedFunction>();
  const aliases: [FunctionDef, string][] = [];
  for (const name of table.names()) {
    const def = table.get(name);
    if (!def?.help) continue;
    if (def.name !== name) {
      aliases.push([def, name.toLowerCase()]);
      continue;
    }
    byDef.set(def, { name: name.toLowerCase(), help: def.help, aliases: [] });
  }
  for (const [def, alias] of aliases) byDef.get(def)?.aliases.push(alias);
  return [...byDef.values()].sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

/** The functions of each family, in FUNCTION_FAMILIES' order (empty families left out). */
export function byFamily(fns: DocumentedFunction[]): [FunctionFamily, DocumentedFunction[]][] {
  const groups = new Map<FunctionFamily, DocumentedFunction[]>();
  for (const f of fns) {
    const list = groups.get(f.help.family);
    if (list) list.push(f);
    else groups.set(f.help.family, [f]);
  }
  return (Object.keys(FUNCTION_FAMILIES) as FunctionFamily[])
    .filter((k) => groups.has(k))
    .map((k) => [k, groups.get(k)!]);
}

/** A family's title: `Arithmetic`. */
export function familyTitle(f: FunctionFamily): string {
  return f === "regexp" ? "Regular expressions" : f === "json" ? "JSON" : f[0].toUpperCase() +
    f.slice(1);
}

/** Doubles `%`, so the colour renderer shows the text as written. */
function literal(s: string): string {
  return s.replaceAll("%", "%%");
}

/** Words joined into lines of at most `width` characters, each indented. */
function wrapWords(words: string[], width: number, indent: string): string[] {
  const lines: string[] = [];
  let line = "";
  for (const w of words) {
    if (line && line.length + 1 + w.length > width) {
      lines.push(indent + line);
      line = w;
    } else {
      line = line ? line + " " + w : w;
    }
  }
  if (line) lines.push(indent + line);
  return lines;
}

/** One function's topic text, as `help <function>` shows it. */
export function topicText(f: DocumentedFunction): string {
  const h = f.help;
  const out = [`# ${f.name.toUpperCase()}()`, "", "    " + literal(h.args), "", literal(h.summary)];
  if (h.more) out.push("", literal(h.more));
  out.push("", "Example:", "");
  for (const s of h.example.setup ?? []) out.push("    > " + literal(s));
  out.push("    > think " + literal(h.example.think));
  const shown = h.example.gives === "" ? ["(nothing)"] : h.example.gives.split("\n");
  if (h.example.varies) shown[shown.length - 1] += "   (one possible result)";
  for (const line of shown) out.push("    " + literal(line));
  out.push("");
  const also = f.aliases.length ? ` Also called ${f.aliases.map((a) => a + "()").join(", ")}.` : "";
  out.push(`Family: ${familyTitle(h.family).toLowerCase()} (help functions).${also}`);
  return out.join("\n");
}

/** The index topic: every family with its functions, as MUX's `help function classes`. */
export function indexText(fns: DocumentedFunction[]): string {
  const out = [
    "# Functions",
    "",
    "Functions compute values in softcode: `think add(1,2)` shows 3, and `[...]` calls one",
    "inside text. Type **help <function>** (help ljust, or help ljust()) to read one.",
    `There are ${fns.length} functions, by family:`,
  ];
  for (const [family, list] of byFamily(fns)) {
    out.push("", `**${familyTitle(family)}**: ${FUNCTION_FAMILIES[family]}`);
    out.push(...wrapWords(list.map((f) => f.name), 74, "  "));
  }
  out.push("", "Functions the game's staff defined with @function are listed by @function.");
  return out.join("\n");
}

/** Every function topic and the index, for the help plugin. */
export function functionTopics(table: FunctionTable): FunctionTopic[] {
  const fns = documented(table);
  const topics: FunctionTopic[] = fns.map((f) => ({
    name: f.name + "()",
    aliases: f.aliases.map((a) => a + "()"),
    content: topicText(f),
  }));
  topics.push({ name: FUNCTIONS_TOPIC, aliases: INDEX_ALIASES, content: indexText(fns) });
  return topics;
}

/** Markdown inline code around a text, whatever backticks it holds. */
function code(s: string): string {
  if (s === "") return "(nothing)";
  const runs = s.match(/`+/g) ?? [];
  const fence = "`".repeat(Math.max(0, ...runs.map((r) => r.length)) + 1);
  const pad = s.startsWith("`") || s.endsWith("`") || /^ | $/.test(s) ? " " : "";
  return fence + pad + s + pad + fence;
}

/** Markdown of one function for docs/softcode.md. */
function referenceEntry(f: DocumentedFunction): string {
  const h = f.help;
  const ex = h.example;
  const setup = ex.setup?.length ? `after ${ex.setup.map(code).join(", ")}, ` : "";
  const lines = ex.gives.split("\n");
  const shown = lines.length > 1
    ? `the lines ${lines.map((l) => l === "" ? "(an empty line)" : code(l)).join(", ")}`
    : code(ex.gives);
  const gives = ex.varies ? `${shown} (for instance)` : shown;
  const also = f.aliases.length ? ` Also ${f.aliases.map((a) => code(a + "()")).join(", ")}.` : "";
  let s = `- ${code(h.args)}: ${h.summary}${also} Example: ${setup}${
    code("think " + ex.think)
  } shows ${gives}.`;
  if (h.more) s += "\n\n  " + h.more.split("\n").join("\n  ");
  return s;
}

/** The function reference of docs/softcode.md (before formatting), by family. */
export function functionReference(table: FunctionTable): string {
  const fns = documented(table);
  const out: string[] = [
    `${fns.length} functions, by family. Each example is run by a wizard (\`#1\`) standing in Limbo`,
    "(`#0`) with Alice (`#2`, a connected player), a box (`#3`) and an exit North (`#4`); the",
    "test `src/softcode/help_test.ts` runs every example and checks what it shows.",
  ];
  for (const [family, list] of byFamily(fns)) {
    out.push("", `### ${familyTitle(family)}`, "", FUNCTION_FAMILIES[family], "");
    for (const f of list) out.push(referenceEntry(f));
  }
  return out.join("\n") + "\n";
}

/** Where the generated reference sits in docs/softcode.md. */
export const REFERENCE_BEGIN =
  "<!-- functions:begin (written by scripts/softcode_docs.ts from each function's help) -->";
export const REFERENCE_END = "<!-- functions:end -->";

/** The document with its reference replaced by `reference`; null when the markers are missing. */
export function spliceReference(doc: string, reference: string): string | null {
  const a = doc.indexOf(REFERENCE_BEGIN);
  const b = doc.indexOf(REFERENCE_END);
  if (a < 0 || b < a) return null;
  return doc.slice(0, a + REFERENCE_BEGIN.length) + "\n\n" + reference + "\n" + doc.slice(b);
}
