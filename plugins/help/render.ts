/** Help as players read it in game: Markdown turned into colour codes, an index in columns. */
import { padVisible, visibleLength, wrapText } from "../../src/plugins/mod.ts";
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

/** A line that starts a block of its own: a heading, a list item, a table row, a quote, a rule. */
const BLOCK_START = /^(?:#{1,6}\s|[-*+]\s|\d+[.)]\s|\||>|[-*_=]{3,}\s*$)/;
/** A block that is one line whatever follows: a heading, a table row or a rule. */
const ONE_LINE = /^(?:#{1,6}\s|\||[-*_=]{3,}\s*$)/;

/**
 * Joins Markdown's soft line breaks: the lines of one paragraph (or list item) become one line,
 * so the reader's width, not the file's, decides where it breaks. Fenced code, indented lines,
 * lines laid out in columns (two spaces between words) and hard breaks (two trailing spaces or a
 * backslash) stay as written.
 */
export function joinSoftBreaks(md: string): string {
  const out: string[] = [];
  let fenced = false;
  let open = false; // the last line out is paragraph text the next line may continue
  for (const line of md.split("\n")) {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      out.push(line);
      open = false;
      continue;
    }
    const text = !fenced && /^\S/.test(line) && !/\S {2,}\S/.test(line);
    if (open && text && !BLOCK_START.test(line)) {
      out[out.length - 1] = `${out[out.length - 1].trimEnd()} ${line.trimEnd()}`;
    } else out.push(line);
    open = text && !ONE_LINE.test(line) && !/(?: {2}|\\)$/.test(line);
  }
  return out.join("\n");
}

/** Narrowest description column worth a hanging indent. */
const MIN_HANG = 20;

/**
 * Lines laid out in two columns (`+chan/join <name>   join a channel`) whose description runs
 * past `width`: the description is wrapped under itself, with the lines below that continue it
 * (indented to the same column) taken in; it is not left for the client to wrap at the margin.
 */
export function hangColumns(text: string, width: number): string {
  const lines = text.split("\n");
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = /^(\S.*\S {2,})(\S.*)$/.exec(lines[i]);
    const col = m ? visibleLength(m[1]) : 0;
    if (!m || col + MIN_HANG > width) {
      out.push(lines[i]);
      continue;
    }
    const indent = " ".repeat(col);
    let desc = m[2].trimEnd();
    while (i + 1 < lines.length && lines[i + 1].startsWith(indent) && lines[i + 1][col] !== " ") {
      desc += ` ${lines[++i].trim()}`;
    }
    const wrapped = wrapText(desc, width - col).split("\n");
    out.push(m[1] + wrapped[0], ...wrapped.slice(1).map((l) => indent + l));
  }
  return out.join("\n");
}

/**
 * One topic, framed, wrapped to the reader's width. A help file (and a function's help, made as
 * Markdown) has its paragraphs reflowed; command help and topics written in game keep their line
 * breaks (their lines are laid out by hand, `%r` by `%r`).
 */
export function renderTopic(
  entry: Pick<HelpEntry, "name" | "source" | "content">,
  width: number,
  label = "help",
): string {
  const markdown = entry.source === "file" || entry.source === "function";
  const text = markdownToMush(markdown ? joinSoftBreaks(entry.content) : entry.content);
  return [
    bar(`${label}: ${entry.name}`, width),
    wrapText(markdown ? hangColumns(text, width) : text, width),
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
  // Wrapped at the reader's width, as everything else here is laid out to it.
  out.push(wrapText(
    "Type %chhelp <topic>%cn to read one. Capitalised entries are topics to read; " +
      "the others are commands you can use.",
    width,
  ));
  out.push(bar("", width));
  return out.join("\n");
}
