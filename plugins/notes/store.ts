/** Notes in the plugin's KV space: create, list by author, delete. */
import type { Page, PluginKv } from "../../src/plugins/mod.ts";
import { noteKeys } from "./keys.ts";

/** A note as stored and as the API answers it. */
export interface Note {
  id: string;
  author: string;
  authorName: string;
  text: string;
  createdAt: number;
}

/** Longest note text, in characters. */
export const MAX_NOTE_LENGTH = 4000;

/** Persistent notes. */
export class NoteStore {
  constructor(private readonly kv: PluginKv) {}

  /** Creates a note; its id comes from the plugin's counter. */
  async create(author: string, authorName: string, text: string): Promise<Note> {
    let note: Note | null = null;
    await this.kv.next(noteKeys.counter, (n, op) => {
      note = { id: String(n), author, authorName, text, createdAt: Date.now() };
      op.check({ key: this.kv.key(...noteKeys.note(note.id)), versionstamp: null })
        .set(this.kv.key(...noteKeys.note(note.id)), note)
        .set(this.kv.key(...noteKeys.byAuthor(author, n)), note.id);
    });
    return note!;
  }

  /** One note, or null. */
  get(id: string): Promise<Note | null> {
    return this.kv.get<Note>(noteKeys.note(id));
  }

  /**
   * One page of an author's notes, oldest first: the page is cut from the author index
   * (ids only), and only that page's notes are read.
   */
  list(author: string, page: Page): Promise<Note[]> {
    return this.kv.slicePage<Note>(noteKeys.ofAuthor(author), page, {
      record: (id) => noteKeys.note(id as string),
    });
  }

  /** Deletes a note and its index entry. */
  async delete(note: Note): Promise<void> {
    await this.kv.atomic()
      .delete(this.kv.key(...noteKeys.note(note.id)))
      .delete(this.kv.key(...noteKeys.byAuthor(note.author, Number(note.id))))
      .commit();
  }
}
