/**
 * Help contributed by plugins: folders of help files and single topics, each
 * recorded with its owner so an unload or reload drops exactly what it added.
 * The help plugin reads this; the registry itself knows nothing about rendering.
 */

/** A help topic given in code (`ctx.help.add`). */
export interface HelpTopicInput {
  /** Topic name (slug), e.g. `+chan` or `channels`. */
  name: string;
  /** Markdown or plain text; colour codes allowed. */
  content: string;
  /** Section it is listed under (default: the owner's name). */
  section?: string;
}

/** A registered topic, with its owner. */
export interface HelpTopicEntry extends HelpTopicInput {
  owner: string;
}

/** A registered folder of help files. */
export interface HelpDirEntry {
  dir: string;
  owner: string;
  /** Section for files at the top of the folder (sub-folders name their own). */
  section?: string;
}

/** Help sources that plugins added at runtime. */
export class HelpRegistry {
  #dirs: HelpDirEntry[] = [];
  #topics: HelpTopicEntry[] = [];
  #version = 0;

  /** Grows on every change, so readers can cache their index until it moves. */
  get version(): number {
    return this.#version;
  }

  /** Adds a folder of help files. */
  addDir(entry: HelpDirEntry): void {
    this.#dirs = [...this.#dirs.filter((d) => d.dir !== entry.dir), { ...entry }];
    this.#version++;
  }

  /** Adds one topic. */
  addTopic(entry: HelpTopicEntry): void {
    if (typeof entry.name !== "string" || typeof entry.content !== "string") {
      throw new Error("help topic needs a string name and content");
    }
    this.#topics = [...this.#topics, { ...entry }];
    this.#version++;
  }

  /** Drops everything an owner added; returns how many entries went. */
  removeOwner(owner: string): number {
    const before = this.#dirs.length + this.#topics.length;
    this.#dirs = this.#dirs.filter((d) => d.owner !== owner);
    this.#topics = this.#topics.filter((t) => t.owner !== owner);
    const removed = before - this.#dirs.length - this.#topics.length;
    if (removed) this.#version++;
    return removed;
  }

  /** Registered folders, oldest first. */
  dirs(): readonly HelpDirEntry[] {
    return this.#dirs;
  }

  /** Registered topics, oldest first. */
  topics(): readonly HelpTopicEntry[] {
    return this.#topics;
  }
}
