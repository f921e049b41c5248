/** The help renderer: Markdown help reflowed to the reader's width, laid-out lines kept. */
import { assert, assertEquals } from "../../tests/assert.ts";
import { stripColour, visibleLength } from "../../src/plugins/mod.ts";
import { hangColumns, joinSoftBreaks, renderTopic } from "./render.ts";
import type { HelpEntry } from "./topics.ts";

const entry = (content: string, source: HelpEntry["source"] = "file"): HelpEntry => ({
  name: "t",
  section: "general",
  content,
  source,
  priority: 50,
  aliases: [],
});

const PROSE =
  "Any telnet client plays here: TinTin++, Mudlet, MUSHclient, Potato, plain `telnet`, or the web\n" +
  "client at the game's web address.";

Deno.test("help: a paragraph's soft breaks are joined; blocks, columns and hard breaks kept", () => {
  assertEquals(
    joinSoftBreaks(PROSE),
    "Any telnet client plays here: TinTin++, Mudlet, MUSHclient, Potato, plain `telnet`, or the web client at the game's web address.",
  );
  const md = [
    "# Title",
    "Under the title.",
    "",
    "```",
    "page <player>=<message>",
    "page <player>=:<pose>",
    "```",
    "- one item that goes",
    "on here",
    "- two",
    "+chan/list     list channels",
    "+chan/who      who is on",
    "A hard break  ",
    "after it.",
    "  indented",
    "| a | b |",
    "| - | - |",
  ].join("\n");
  assertEquals(joinSoftBreaks(md).split("\n"), [
    "# Title",
    "Under the title.",
    "",
    "```",
    "page <player>=<message>",
    "page <player>=:<pose>",
    "```",
    "- one item that goes on here",
    "- two",
    "+chan/list     list channels",
    "+chan/who      who is on",
    "A hard break  ",
    "after it.",
    "  indented",
    "| a | b |",
    "| - | - |",
  ]);
});

Deno.test("help: a two-column line too wide is wrapped under its description", () => {
  const text = [
    "+event/create <title>=<date>/<description>   date: YYYY-MM-DD, today, tomorrow or a weekday",
    "                                             (friday or fri), then HH:MM if you like",
    "+event/cancel <#>                            cancel it",
  ].join("\n");
  const out = hangColumns(text, 80).split("\n");
  for (const l of out) assert(l.length <= 80, `fits: ${l}`);
  assertEquals(out, [
    "+event/create <title>=<date>/<description>   date: YYYY-MM-DD, today, tomorrow",
    "                                             or a weekday (friday or fri), then",
    "                                             HH:MM if you like",
    "+event/cancel <#>                            cancel it",
  ]);
});

Deno.test("help: a file topic fits the reader's width; command help keeps its lines", () => {
  for (const width of [40, 80]) {
    const lines = stripColour(renderTopic(entry(PROSE), width)).split("\n");
    for (const l of lines) assert(visibleLength(l) <= width, `fits ${width}: ${l}`);
    assert(lines.join(" ").includes("or the web client at"), "one paragraph");
  }
  // Command help is laid out by hand, one usage per line: never joined.
  const usage = "page <player>=<message>\npage <player>=:<pose>";
  assertEquals(stripColour(renderTopic(entry(usage, "command"), 80)).split("\n").slice(1, 3), [
    "page <player>=<message>",
    "page <player>=:<pose>",
  ]);
});
