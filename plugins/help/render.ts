/** Help as players read it in game: Markdown turned into colour codes, an index in columns. */
import { padVisible, visibleLength } from "../../src/plugins/mod.ts";
import type { HelpEntry, HelpIndex } from "./topics.ts";

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

/** A topic that is no command, shown capitalised as MUSH help shows its overview topics. */
function topicLabel(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/**
 * The index: first the topics that are not commands (capitalised, as MUSH help lists its
 * overviews), then each section's commands in columns; a section left without commands is not
 * shown. Only what the reader may see is in `index`.
 */
export function renderIndex(index: HelpIndex, width: number): string {
  const out = [bar("help", width)];
  const colWidth = 19;
  const cols = Math.max(1, Math.floor(width / (colWidth + 1)));
  const columns = (names: string[]) => {
    for (let i = 0; i < names.length; i += cols) {
      out.push(names.slice(i, i + cols).map((n) => padVisible(n, colWidth)).join(" ").trimEnd());
    }
  };
  const topics = new Set(index.topics);
  if (topics.size) {
    out.push("%chTOPICS%cn");
    columns(index.topics.map(topicLabel));
  }
  for (const [section, names] of Object.entries(index.sections)) {
    const commands = names.filter((n) => !topics.has(n));
    if (!commands.length) continue;
    out.push(`%ch${section.toUpperCase()}%cn`);
    columns(commands);
  }
  out.push("Type %chhelp <topic>%cn to read one. Capitalised entries are topics to read;");
  out.push("the others are commands you can use.");
  out.push(bar("", width));
  return out.join("\n");
}
