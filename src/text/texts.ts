/**
 * The game's text files (connect screen, message of the day, welcome, and the welcome guests get
 * instead), cached and reloadable.
 */
import { join, resolve } from "node:path";
import type { Config } from "../config/load.ts";

/** Names of the text files the engine reads. */
export type TextName = "connect" | "motd" | "welcome" | "guest";

const FALLBACK: Record<TextName, string> = {
  connect: "%chWelcome!%cn\nconnect <name> <password>  |  create <name> <password>  |  quit\n",
  motd: "Welcome to UrsaMU!",
  welcome: "Welcome! Type 'look' to look around and 'help' for help.\n",
  guest: "Welcome, guest! Look around, talk, page and use the channels; 'help guests' says " +
    "what guests may do. Your guest character goes when you disconnect: to keep one, type " +
    "QUIT and then create <name> <password>.\n",
};

/** Loaded text files. */
export class Texts {
  #texts: Record<TextName, string> = { ...FALLBACK };

  constructor(private readonly config: Config, private readonly root: string) {}

  /** (Re)reads every text file; returns the names that fell back to defaults. */
  async load(): Promise<string[]> {
    const cfg = this.config.value;
    const dir = resolve(this.root, cfg.server.textDir);
    const paths: Record<TextName, string> = {
      connect: cfg.game.text.connect ? resolve(this.root, cfg.game.text.connect) : "",
      motd: join(dir, "motd.txt"),
      welcome: join(dir, "welcome.txt"),
      guest: join(dir, "guest.txt"),
    };
    if (!paths.connect) paths.connect = join(dir, "connect.txt");
    const missing: string[] = [];
    const next = { ...FALLBACK, motd: cfg.game.motd || FALLBACK.motd };
    for (const name of Object.keys(paths) as TextName[]) {
      try {
        next[name] = await Deno.readTextFile(paths[name]);
      } catch {
        missing.push(name);
      }
    }
    this.#texts = next;
    return missing;
  }

  /** One text, with colour codes. */
  get(name: TextName): string {
    return this.#texts[name];
  }
}
