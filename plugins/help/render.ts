/** Help as players read it in game: Markdown turned into colour codes, an index in columns. */
import { padVisible, visibleLength } from "../../src/plugins/mod.ts";
import type { HelpEntry } from "./topics.ts";

/** Light Markdown to MUSH colour codes: headings and bold highlighted, code marks and fences dropped. */
export function markdownToMush(md: string): string {
  return md.split("\n").filter((line) => !/^\s*```/.test(line)).map((line) => {
    const h = /^#{1,6}\s+(.*)$/.exec(line);
    if (h) return `%ch${h[1].trim()}%cn`;
    return line
      .replace(/\*\*([^*\n]+)\*\*/g, "%ch$1%cn")
      .replace(/`([^`\n]+)`/g, "$1");
  }).join("\n");
}

/** A rule across the width with a title in it. */
function bar(title: string, width: number): string {
  const t = title ? ` ${title} ` : "";
  const left = 3;
  const right = Math.max(3, width - left - visibleLength(t));
  return `%cb${"-".repeat(left)}%cn%ch${t}%cn%cb${"-".repeat(right)}%cn`;
}

/** One topic, framed. */
export function renderTopic(entry: HelpEntry, width: number): string {
  return [
    bar(`help: ${entry.name}`, width),
    markdownToMush(entry.content),
    bar("", width),
  ].join("\n");
}

/** The index: each section's topics in columns. */
export function renderIndex(sections: Record<string, string[]>, width: number): string {
  const out = [bar("help", width)];
  const colWidth = 19;
  const cols = Math.max(1, Math.floor(width / (colWidth + 1)));
  for (const [section, names] of Object.entries(sections)) {
    out.push(`%ch${section.toUpperCase()}%cn`);
    for (let i = 0; i < names.length; i += cols) {
      out.push(names.slice(i, i + cols).map((n) => padVisible(n, colWidth)).join(" ").trimEnd());
    }
  }
  out.push("Type %chhelp <topic>%cn to read a topic.");
  out.push(bar("", width));
  return out.join("\n");
}
