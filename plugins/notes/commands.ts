/** In-game commands of the notes plugin: `+note <text>`, `+note/del <id>`, `+notes`. */
import type { CommandSpec } from "../../src/plugins/mod.ts";
import { CommandError } from "../../src/plugins/mod.ts";
import { MAX_NOTE_LENGTH, type NoteStore } from "./store.ts";

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
      help: "+notes lists your private notes.",
      async exec(u) {
        const notes = await store.list(u.me.id);
        if (!notes.length) return u.send("You have no notes.");
        u.send(["%chYour notes:%cn", ...notes.map((n) => `  %ch${n.id}%cn: ${n.text}`)].join("\n"));
      },
    },
  ];
}
