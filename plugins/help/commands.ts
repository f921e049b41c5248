/**
 * In-game help: `help`, `help <topic>`, and staff's `+help/set`, `+help/del`, `+help/reload`;
 * `news [<topic>]`.
 */
import { CommandError, type CommandSpec, stripColour } from "../../src/plugins/mod.ts";
import { toSection, toSlug } from "./slug.ts";
import { type HelpDb, MAX_CONTENT } from "./store.ts";
import type { HelpReader, HelpTopics } from "./topics.ts";
import { renderIndex, renderTopic } from "./render.ts";
import type { NewsTopics } from "./news.ts";

const STAFF = "admin+";

/** The help commands. */
export function helpCommands(db: HelpDb, topics: HelpTopics, news: NewsTopics): CommandSpec[] {
  const slugOrFail = (raw: string) => {
    const s = toSlug(raw);
    if (!s) {
      throw new CommandError(
        "Topic names use a-z, 0-9, @, +, /, _ and - (up to 64 characters), and () at the end for a function.",
      );
    }
    return s;
  };
  return [
    {
      name: "help",
      guests: true,
      aliases: ["+help"],
      category: "general",
      help: "help lists the help topics; help <topic> shows one.",
      async exec(u) {
        const width = u.width;
        const typed = u.cmd.args.trim();
        const reader: HelpReader = { id: `#${u.me.id}`, flags: u.me.flags, connected: true };
        if (!typed) {
          const index = await topics.index(reader);
          return u.send(renderIndex(index, width), { type: "help", ...index });
        }
        const found = await topics.find(typed, reader);
        if (!found) {
          throw new CommandError(`No help for '${typed.slice(0, 40)}'. Type 'help' for the index.`);
        }
        if ("ambiguous" in found) {
          throw new CommandError(`Which topic: ${found.ambiguous.join(", ")}?`);
        }
        const e = found.entry;
        u.send(renderTopic(e, width), {
          type: "help",
          topic: e.name,
          section: e.section,
          source: e.source,
          content: stripColour(e.content),
        });
      },
    },
    {
      name: "news",
      guests: true,
      category: "general",
      help: `news [<topic>]

Shows the game's news (as TinyMUX's news): news alone shows the topic news, news <topic> one
topic (or the one whose name starts so). Staff write each topic as a file in the game's news
folder (server.newsDir, default news/), as help files are written; +help/reload reads them
again.`,
      exec(u) {
        const typed = u.cmd.args.trim() || "news";
        const found = news.find(typed);
        const shown = typed.slice(0, 40);
        if (!found) throw new CommandError(`No entry for '${shown}'.`);
        if ("matches" in found) {
          return u.send(
            `Here are the entries which match '${shown}':\n${found.matches.join("  ")}`,
          );
        }
        const t = found.topic;
        u.send(renderTopic({ name: t.name, source: "file", content: t.content }, u.width, "news"), {
          type: "news",
          topic: t.name,
          content: stripColour(t.content),
        });
      },
    },
    {
      name: "+help/set",
      lock: STAFF,
      category: "help",
      help: "+help/set <topic>=<text> writes a database help topic (it wins over files).",
      async exec(u) {
        if (u.cmd.rhs === null || !u.cmd.rhs.trim()) {
          throw new CommandError("Usage: +help/set <topic>=<text>");
        }
        const slug = slugOrFail(u.cmd.lhs);
        if (u.cmd.rhs.length > MAX_CONTENT) throw new CommandError("That help text is too long.");
        const section = (await topics.get(slug))?.section ?? toSection("general")!;
        const created = await db.set({
          slug,
          section,
          content: u.cmd.rhs,
          updatedAt: Date.now(),
          updatedBy: u.me.id,
        });
        u.send(`Help topic '${slug}' ${created ? "created" : "updated"}.`);
      },
    },
    {
      name: "+help/del",
      lock: STAFF,
      category: "help",
      help:
        "+help/del <topic> deletes a database help topic; a file topic of that name shows again.",
      async exec(u) {
        const slug = slugOrFail(u.cmd.args);
        if (!(await db.delete(slug))) {
          throw new CommandError(`There is no database topic '${slug}'.`);
        }
        const now = await topics.get(slug);
        u.send(
          `Help topic '${slug}' deleted.${now ? ` The ${now.source} entry shows again.` : ""}`,
        );
      },
    },
    {
      name: "+help/reload",
      lock: STAFF,
      category: "help",
      help: "+help/reload re-reads the help files and the news files.",
      async exec(u) {
        const n = await topics.reloadFiles();
        const m = await news.reload();
        u.send(`Help files reloaded: ${n} file topics, ${m} news topics.`);
      },
    },
  ];
}
