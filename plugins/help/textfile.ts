/**
 * Softcode's `textfile(<helpcmd>, <topic>)` (TinyMUX 2.12's): the text of a topic of one of the
 * game's text files as its command would show it, for the commands that read them here: `help`
 * (and `+help`) and `news`. Read from the topics in memory, found as the command finds them and
 * only among those the caller may see.
 */
import { codesToMarkup, type PluginFunctionSpec } from "../../src/plugins/mod.ts";
import type { HelpTopics } from "./topics.ts";
import type { NewsTopics } from "./news.ts";
import { joinSoftBreaks, markdownToMush } from "./render.ts";

/** A topic's text as softcode gets it: colour codes as colour, lines ended by %r. */
function asText(content: string, markdown: boolean): string {
  const text = markdownToMush(markdown ? joinSoftBreaks(content) : content);
  return codesToMarkup(text).replace(/%r/gi, "\n").replace(/\r?\n/g, "\r\n");
}

/** The textfile() function over the game's help and news topics. */
export function textfileFunction(topics: HelpTopics, news: NewsTopics): PluginFunctionSpec {
  return {
    name: "textfile",
    minArgs: 2,
    maxArgs: 2,
    help: {
      family: "game",
      args: "textfile(<command>, <topic>)",
      summary:
        "A topic of the game's help or news as help or news would show it (help, +help, news).",
      more:
        "The topic is found as the command finds it (a unique start of its name will do), among those you may read; an empty topic is the command's own. Another command gives #-1 NOT FOUND; a topic it does not have, #-1 TOPIC DOES NOT EXIST.",
      example: { think: "textfile(news,nosuch)", gives: "#-1 TOPIC DOES NOT EXIST" },
    },
    call({ caller }, [command, topic]) {
      const which = command.trim().toLowerCase();
      const typed = topic.trim() || (which === "news" ? "news" : "help");
      if (which === "news") {
        const found = news.find(typed);
        return found && "topic" in found
          ? asText(found.topic.content, true)
          : "#-1 TOPIC DOES NOT EXIST";
      }
      if (which !== "help" && which !== "+help") return "#-1 NOT FOUND";
      const found = topics.findNow(typed, {
        id: `#${caller.id}`,
        flags: caller.flags,
        connected: true,
      });
      if (!found || !("entry" in found)) return "#-1 TOPIC DOES NOT EXIST";
      const e = found.entry;
      return asText(e.content, e.source === "file" || e.source === "function");
    },
  };
}
