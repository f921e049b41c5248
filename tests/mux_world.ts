/**
 * A command script run over telnet against a MUSH server, for comparing the engine with TinyMUX
 * 2.12 from outside (scripts/mux_world_record.ts records 2.12's answers; mux_world_test.ts
 * replays them against the engine). Three players: the game's first staff member (`g`), a wizard
 * it makes (`b`, Bob) and an ordinary player (`a`, Alice). Dbrefs are read back as symbols, so
 * two games whose numbering differs answer alike.
 *
 * Script lines: `b> <command>` runs a command as Bob and keeps what Bob is told until the
 * command's end; `b>> <command>` waits a second more for what the queue does; `b! <command>` runs
 * a command of the world's making whose answer is not compared; `b<` answers what Bob was told
 * since his last line (what others' commands made him hear); `= SYM b <expr>` names the dbref
 * Bob's `think <expr>` answers (`= BOX b [num(Box)]`), which `#SYM` in a later command stands for;
 * `#` lines are comments. The world's rooms have only what the script builds (the first staff
 * member digs itself an office), so the two games' own objects stay out of the answers.
 */
import { TelnetClient } from "./telnet_client.ts";

/** Who runs a line. */
export type Who = "g" | "b" | "a";

/** One step of a script. */
export type Step =
  | { kind: "run"; who: Who; text: string; queued: boolean; kept: boolean }
  | { kind: "told"; who: Who }
  | { kind: "name"; who: Who; symbol: string; expr: string };

/** Account names and passwords on both servers (the first staff member's come from the caller). */
export const BOB = { name: "Bob", password: "bob-pass-123" };
export const ALICE = { name: "Alice", password: "alice-pass-123" };

/** The steps of a script's text; throws on a line it cannot read. */
export function parseScript(text: string): Step[] {
  const steps: Step[] = [];
  for (const raw of text.split("\n")) {
    const line = raw.trimEnd();
    if (!line || line.startsWith("#")) continue;
    const named = /^= (\w+) ([gba]) (.+)$/.exec(line);
    if (named) {
      steps.push({ kind: "name", symbol: named[1], who: named[2] as Who, expr: named[3] });
      continue;
    }
    const told = /^([gba])<$/.exec(line);
    if (told) {
      steps.push({ kind: "told", who: told[1] as Who });
      continue;
    }
    const run = /^([gba])(>>?|!) (.*)$/.exec(line);
    if (!run) throw new Error(`script line not understood: ${line}`);
    steps.push({
      kind: "run",
      who: run[1] as Who,
      text: run[3],
      queued: run[2] === ">>",
      kept: run[2] !== "!",
    });
  }
  return steps;
}

/** A recorded answer: the line as written and what its runner was told. */
export type Answer = [string, string];

/** Text without ANSI escapes and CRs, trailing space trimmed from each line. */
function plain(text: string): string {
  // deno-lint-ignore no-control-regex
  return text.replace(/\x1b\[[0-9;]*m/g, "").replace(/\r/g, "").split("\n")
    .map((l) => l.trimEnd()).join("\n").trim();
}

let marks = 0;
/** Where each connection's last answer ended in its text. */
const seen = new WeakMap<TelnetClient, number>();

/**
 * Runs `line` on `t` (none: only reads) and answers what came before the end marker, after
 * `waitMs` of queue; `since` answers from the end of the connection's last answer instead, so
 * what it was told meanwhile (another player's doing) is in it.
 */
async function reply(t: TelnetClient, line: string, waitMs = 0, since = false): Promise<string> {
  const mark = `END-${++marks}-MARK`;
  const from = since ? seen.get(t) ?? 0 : t.mark();
  if (line) await t.send(line);
  if (waitMs) await new Promise((r) => setTimeout(r, waitMs));
  await t.send(`think ${mark}`);
  const m = await t.waitFor(new RegExp(`([\\s\\S]*?)${mark}`), 15_000, from);
  seen.set(t, from + m.index! + m[0].length);
  return m[1];
}

/** Logs in (connect, or create when `create`) and waits until commands answer. */
async function login(
  port: number,
  who: { name: string; password: string },
  create: boolean,
): Promise<TelnetClient> {
  const t = await TelnetClient.connect(port);
  await new Promise((r) => setTimeout(r, 300));
  await t.send(`${create ? "create" : "connect"} ${who.name} ${who.password}`);
  await reply(t, "think logged in");
  return t;
}

/**
 * Runs the script on the server at `port` whose first staff member is `god`, and answers each
 * run line with what its runner was told, dbrefs written as the script's symbols.
 */
export async function runScript(
  port: number,
  god: { name: string; password: string },
  steps: Step[],
): Promise<Answer[]> {
  const g = await login(port, god, false);
  const b = await login(port, BOB, true);
  const a = await login(port, ALICE, true);
  const conns: Record<Who, TelnetClient> = { g, b, a };
  try {
    await reply(g, `@set *${BOB.name}=wizard`);
    const symbols = new Map<string, string>();
    const symbolic = (out: string) =>
      out.replace(/#(\d+)/g, (all, n) => symbols.has(n) ? `#${symbols.get(n)}` : all);
    const name = async (who: Who, symbol: string, expr: string) => {
      const got = plain(await reply(conns[who], `think ${expr}`));
      if (!/^#\d+$/.test(got)) throw new Error(`${symbol}: ${expr} answered ${got}`);
      symbols.set(got.slice(1), symbol);
    };
    await name("g", "GOD", "%#");
    await name("b", "BOB", "%#");
    await name("a", "ALICE", "%#");
    // The first staff member's own room, out of the way (MUX's starts it in a room of its own).
    await reply(g, "@dig/teleport Office");
    await name("g", "OFFICE", "%l");
    const answers: Answer[] = [];
    for (const step of steps) {
      if (step.kind === "name") {
        await name(step.who, step.symbol, step.expr);
        continue;
      }
      if (step.kind === "told") {
        answers.push([`${step.who}<`, symbolic(plain(await reply(conns[step.who], "", 0, true)))]);
        continue;
      }
      // `#SYM` in a line is the dbref the script named SYM.
      const text = step.text.replace(/#([A-Z][A-Z0-9_]*)\b/g, (all, s) => {
        for (const [n, sym] of symbols) if (sym === s) return `#${n}`;
        return all;
      });
      const out = plain(await reply(conns[step.who], text, step.queued ? 1200 : 0));
      if (!step.kept) continue;
      answers.push([`${step.who}${step.queued ? ">>" : ">"} ${step.text}`, symbolic(out)]);
    }
    return answers;
  } finally {
    for (const t of [a, b, g]) {
      await t.send("QUIT").catch(() => {});
      await t.close();
    }
  }
}
