/**
 * The engine against TinyMUX 2.12 from outside: each command script `testdata/mux_world_*.txt`
 * (tests/mux_world.ts) was run on a fresh 2.12 game by scripts/mux_world_record.ts, which kept
 * its answers in the `.json` beside it; here the same script runs over telnet on a fresh engine,
 * as a wizard (Bob) and an ordinary player (Alice), and each line must answer alike. A line that
 * differs on purpose is listed in DIFFERENT with the reason (docs/softcode.md, "Differences from
 * MUX 2.12").
 */
import { assert } from "./assert.ts";
import { ADMIN, startSupervised } from "./supervised.ts";
import { type Answer, parseScript, runScript } from "./mux_world.ts";

/** Lines whose answers differ on purpose, each with the reason. */
const DIFFERENT: Record<string, string> = {
  "b> think [next(#BOX)]":
    "contents are listed in the database's order here; 2.12 lists the newest arrival first",
  "b> think [lattr(Box)]|[lattr(Parent)]|[lattr(Box/S*)]|[lattr(Ball)]":
    "lattr() lists names in order and without MUX's built-in Created/Modified (2.12: as set)",
  "a> think [lattr(Box)]|[lattr(Ball)]":
    "lattr() lists names in order and without MUX's built-in Created/Modified (2.12: as set)",
  "b> think [lock(Box)]|[lock(Box/use)]|[lock(Ball)]":
    "lock() writes a player as its dbref (2.12: *Name)",
  "b> think [sort(iter(entrances(#HALL),name(##)))]":
    "a new thing's home is the room it was made in (any room may be a home here)",
  "a> think [home(Ball)]":
    "a new thing's home is the room it was made in (any room may be a home here)",
  "a> think [entrances(#HALL)]": "2.12 charges for searching; the engine keeps no money",
  "a> think [stats(me)]|[lsearch(me)]|[search(me)]":
    "2.12 charges for searching; the engine keeps no money",
  "b> @set Gadget/NOPE=visual": "the engine's words (2.12: I don't see that here.)",
  "b> @cpattr Gadget/A1=Gadget/B1,Gadget/B2": "@cpattr names each copy it sets (2.12: Set.)",
  "b> @cpattr Gadget/A1=Base": "@cpattr names each copy it sets (2.12: Set.)",
  "b> @cpattr Gadget/NOPE=Base/X": "the engine's words (2.12: No match.)",
  "b> @mvattr Gadget=NOPE,D1":
    "@mvattr of a missing attribute is refused (2.12 sets the new one empty: D1: Set.)",
  "a> @wipe Gadget":
    "@wipe of what the player does not control is refused (2.12: No matching attributes.)",
  "b> @parent Base=Gadget": "the engine's words for a parent loop",
  "b> @parent Gadget=Gadget": "the engine's words for a parent loop",
  "b> @lock/bogus Gadget=me": "the engine's words for an unknown switch, with the switches",
  "b> @lock Gadget=": "@lock without a key says its usage (2.12: I don't understand that key.)",
  "b> @lock Gadget=(": "the engine's lock parser names the fault",
  "a>> greet off": "the engine's own Huh? message",
  "a>> subs foo": "%+ in a $-command counts its wildcards (2.12: always 10)",
  "a>> subs bar": "%+ in a $-command counts its wildcards (2.12: always 10)",
  "a>> subs2 x y": "%+ in a $-command counts its wildcards (2.12: always 10)",
  "a> think [hasflag(Thing1,dark)]|[words(lcon(here))]":
    "lcon() leaves out what the executor may not see listed: dark things (2.12: dark players)",
  "a> @set me=wizard": "the engine's words (2.12: Permission denied.)",
  "b> think [flags(me)]|[lflags(*Alice)]":
    "STAFF (w) is any staff member here; builder is the engine's flag for who may build",
  "b> think [lattrp(Ch)]|[nattr(Ch)]|[attrcnt(Ch)]":
    "lattrp() and the counts leave out MUX's built-in Created/Modified; lattrp() in name order",
  "b> think [flags(F1)]|[lflags(F1)]":
    "an inherit object of a staff member ranks as staff (STAFF, w) while it is inherit",
};

const testdata = new URL("./testdata/", import.meta.url);
const scripts: string[] = [];
for await (const e of Deno.readDir(testdata)) {
  if (/^mux_world_.*\.txt$/.test(e.name)) scripts.push(e.name);
}
scripts.sort();

for (const name of scripts) {
  Deno.test(`the engine answers commands as TinyMUX 2.12 does (${name})`, async () => {
    const steps = parseScript(await Deno.readTextFile(new URL(name, testdata)));
    const recorded: { answers: Answer[] } = JSON.parse(
      await Deno.readTextFile(new URL(name.replace(/\.txt$/, ".json"), testdata)),
    );
    const srv = await startSupervised();
    try {
      const ours = await runScript(srv.telnet, ADMIN, steps);
      assert(ours.length === recorded.answers.length, "the script was recorded as it is");
      const failures: string[] = [];
      let compared = 0;
      for (const [i, [line, want]] of recorded.answers.entries()) {
        assert(ours[i][0] === line, `line ${i} was recorded as ${line}`);
        if (line in DIFFERENT) continue;
        compared++;
        if (ours[i][1] !== want) {
          failures.push(
            `${line}\n    mux:  ${JSON.stringify(want)}\n    ours: ${JSON.stringify(ours[i][1])}`,
          );
        }
      }
      if (failures.length) {
        throw new Error(`${failures.length} of ${compared} differ:\n${failures.join("\n")}`);
      }
    } finally {
      await srv.stop();
    }
  });
}
