/** In-game commands of the notes plugin: `+note <text>`, `+note/del <id>`, `+notes [<page>]`. */
import type { CommandSpec } from "../../src/plugins/mod.ts";
import { CommandError } from "../../src/plugins/mod.ts";
import { MAX_NOTE_LENGTH, type NoteStore } from "./store.ts";

/** Notes shown per `+notes` page. */
const PER_PAGE = 50;

/** The notes commands over a store. */
export function notesCommands(store: NoteStore): CommandSpec[] {
  return [
    {
      name: "+note",
      switches: ["del"],
      category: "notes",
      help: "+note <text> adds a private note; +note/del <id> deletes one; +notes lists them.",
      async exec(u) {
        if (u.cmd.switches.includes("del")) {
          const note = await store.get(u.cmd.args.trim().replace(/^#/, ""));
          if (!note || note.author !== u.me.id) throw new CommandError("You have no such note.");
          await store.delete(note);
          return u.send(`Note ${note.id} deleted.`);
        }
        // A notepad is a player's: kept for things, each of a player's thousand things had
        // maxNotes notes of 4,000 characters of its own, gigabytes a player could store.
        if (!u.me.flags.includes("player")) throw new CommandError("Only players keep notes.");
        const text = u.cmd.args.trim();
        if (!text) throw new CommandError("Usage: +note <text>");
        if (text.length > MAX_NOTE_LENGTH) {
          throw new CommandError(`A note can be at most ${MAX_NOTE_LENGTH} characters.`);
        }
        const note = await store.create(u.me.id, u.me.name, text);
        u.send(`Note ${note.id} saved.`);
      },
    },
    {
      name: "+notes",
      category: "notes",
      help: "+notes [<page>] lists your private notes, 50 a page.",
      async exec(u) {
        const arg = u.cmd.args.trim();
        if (arg && !/^[1-9][0-9]{0,5}$/.test(arg)) throw new CommandError("Usage: +notes [<page>]");
        const n = arg ? Number(arg) : 1;
        // One more than a page tells whether another page follows.
        const notes = await store.list(u.me.id, {
          limit: PER_PAGE + 1,
          offset: (n - 1) * PER_PAGE,
        });
        if (!notes.length) return u.send(n === 1 ? "You have no notes." : `No notes on page ${n}.`);
        const shown = notes.slice(0, PER_PAGE).map((x) => `  %ch${x.id}%cn: ${x.text}`);
        const head = n === 1 ? "%chYour notes:%cn" : `%chYour notes, page ${n}:%cn`;
        const more = notes.length > PER_PAGE ? [`More: +notes ${n + 1}`] : [];
        u.send([head, ...shown, ...more].join("\n"));
      },
    },
  ];
}
