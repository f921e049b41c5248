/** Notes in the plugin's KV space: create, list by author, delete, each author's count. */
import {
  ConflictError,
  type Page,
  type PluginKv,
  type PluginQuota,
  type QuotaSpec,
} from "../../src/plugins/mod.ts";
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

/** Default of `plugins.notes.maxNotes`. */
export const DEFAULT_MAX_NOTES = 1000;

/** The notes quota: how many notes one player keeps (`plugins.notes.maxNotes`). */
export function notesQuota(kv: PluginKv): QuotaSpec {
  return {
    name: "notes",
    setting: "maxNotes",
    default: DEFAULT_MAX_NOTES,
    message: (max) => `You have ${max} notes, the most a player may keep. Delete some first.`,
    // Notes written before the quota: the author's index says how many, once.
    seed: async (author) => {
      let n = 0;
      for await (const _ of kv.list(noteKeys.ofAuthor(author), { batchSize: 500 })) n++;
      return n;
    },
  };
}

/** Persistent notes. */
export class NoteStore {
  constructor(private readonly kv: PluginKv, private readonly quota: PluginQuota) {}

  /**
   * Creates a note; its id comes from the plugin's counter, committed with the author's note
   * count (refused, 409, at `plugins.notes.maxNotes`).
   */
  async create(author: string, authorName: string, text: string): Promise<Note> {
    let note: Note | null = null;
    await this.kv.next(noteKeys.counter, async (n, op) => {
      await this.quota.take(op, author);
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

  /** Deletes a note, its index entry and one from its author's count. */
  async delete(note: Note): Promise<void> {
    for (let attempt = 0; attempt < 10; attempt++) {
      const entry = await this.kv.getEntry<Note>(noteKeys.note(note.id));
      if (!entry.value) return;
      const op = this.kv.atomic().check(entry)
        .delete(entry.key)
        .delete(this.kv.key(...noteKeys.byAuthor(note.author, Number(note.id))));
      await this.quota.give(op, note.author);
      if ((await op.commit()).ok) return;
    }
    throw new ConflictError("Your notes are changing too fast; try again.");
  }
}
