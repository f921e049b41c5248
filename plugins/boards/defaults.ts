/**
 * The default boards (`plugins.boards.defaultBoards`): the boards a fresh game starts with. An
 * entry is a name (`"General"`) or an object with the board's settings; see docs/boards.md.
 */
import { ConflictError, optionalText, ValidationError } from "../../src/plugins/mod.ts";
import { checkName, lockField, MAX_DESCRIPTION } from "./service.ts";
import type { BoardStore } from "./store.ts";

/** One default board, as configured. */
export interface DefaultBoard {
  name: string;
  description?: string;
  /** Who may read it (a lock expression); everyone when absent. */
  readLock?: string;
  /** Who may post, besides reading; everyone when absent. */
  postLock?: string;
}

/** A fresh game's boards: staff's announcements for everyone to read, and a general board. */
export const DEFAULT_BOARDS: readonly DefaultBoard[] = [
  { name: "Announcements", description: "News from the staff.", postLock: "admin+" },
  { name: "General", description: "Anything for everyone." },
];

/**
 * The configured default boards, or the defaults when the setting is absent. Entries that are
 * neither a name nor an object with a `name` are left out (the rest still apply), each reported
 * through `warn`.
 */
export function defaultBoards(value: unknown, warn: (message: string) => void): DefaultBoard[] {
  if (value === undefined) return [...DEFAULT_BOARDS];
  if (!Array.isArray(value)) {
    warn("plugins.boards.defaultBoards must be a list; using the defaults");
    return [...DEFAULT_BOARDS];
  }
  const out: DefaultBoard[] = [];
  for (const v of value) {
    if (typeof v === "string" && v.trim()) out.push({ name: v.trim() });
    else if (isEntry(v)) {
      out.push({
        name: v.name,
        ...(typeof v.description === "string" ? { description: v.description } : {}),
        ...(typeof v.readLock === "string" ? { readLock: v.readLock } : {}),
        ...(typeof v.postLock === "string" ? { postLock: v.postLock } : {}),
      });
    } else warn(`plugins.boards.defaultBoards: skipped ${JSON.stringify(v)?.slice(0, 80)}`);
  }
  return out;
}

function isEntry(v: unknown): v is DefaultBoard & Record<string, unknown> {
  return typeof v === "object" && v !== null && typeof (v as { name?: unknown }).name === "string";
}

/**
 * Gives a fresh game its default boards, once: a game that has boards already keeps what it has,
 * and a default board staff destroy later stays destroyed. Returns why each board that could not
 * be made was left out.
 */
export async function seedBoards(
  store: BoardStore,
  list: readonly DefaultBoard[],
): Promise<string[]> {
  if (await store.seeded()) return [];
  const problems: string[] = [];
  if (!(await store.boards()).length) {
    for (const b of list) {
      try {
        await store.createBoard({
          ...checkName(b.name),
          description: optionalText(b.description ?? "", "description", MAX_DESCRIPTION),
          readLock: lockField(b.readLock ?? "", "readLock"),
          postLock: lockField(b.postLock ?? "", "postLock"),
          createdAt: Date.now(),
          createdBy: "",
        });
      } catch (e) {
        if (!(e instanceof ValidationError || e instanceof ConflictError)) throw e;
        problems.push(`default board '${String(b.name).slice(0, 40)}' not made: ${e.message}`);
      }
    }
  }
  await store.markSeeded();
  return problems;
}
