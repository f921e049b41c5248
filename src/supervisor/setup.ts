/**
 * First-run setup: when the database holds no players, create the superuser,
 * interactively when a terminal is attached, else from URSAMU_SUPERUSER_* variables.
 * Nobody becomes superuser any other way.
 */
import type { ObjectStore } from "../world/objects.ts";
import type { Accounts } from "../auth/accounts.ts";
import { playerNameProblem } from "../world/names.ts";
import { passwordProblem } from "../auth/passwords.ts";
import { EngineError } from "../errors.ts";

/** How setup talks to the person running the server. */
export interface SetupIO {
  /** True when a person can answer prompts. */
  interactive: boolean;
  /**
   * Asks a question; null when input ended. `secret` hides what is typed. Throws
   * {@linkcode SetupCancelled} when the person presses Ctrl-C.
   */
  ask(question: string, secret?: boolean): Promise<string | null>;
  print(message: string): void;
}

/** The person at the terminal pressed Ctrl-C during setup: nothing should start. */
export class SetupCancelled extends Error {
  override name = "SetupCancelled";
  constructor() {
    super("first-run setup cancelled (Ctrl-C)");
  }
}

/** What setup did. */
export type SetupResult = "has-players" | "created" | "skipped";

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}$/;

/** True when no player exists yet. */
export async function needsSetup(objects: ObjectStore): Promise<boolean> {
  return (await objects.idsWithFlag("player", 1)).length === 0;
}

/** Runs first-run setup against an open store. */
export async function runFirstRunSetup(
  deps: { objects: ObjectStore; accounts: Accounts; startRoom: string },
  env: Record<string, string>,
  io: SetupIO,
): Promise<SetupResult> {
  if (!(await needsSetup(deps.objects))) return "has-players";
  const create = async (name: string, password: string, email?: string) => {
    const su = await deps.accounts.register(name, password, {
      location: deps.startRoom,
      flags: ["superuser"],
      email,
    });
    io.print(`setup: superuser ${su.name} (#${su.id}) created.`);
  };
  const envName = env["URSAMU_SUPERUSER_NAME"];
  const envPassword = env["URSAMU_SUPERUSER_PASSWORD"];
  if (envName && envPassword) {
    const problem = playerNameProblem(envName) ?? passwordProblem(envPassword);
    if (problem) {
      io.print(`setup: URSAMU_SUPERUSER_* refused: ${problem}`);
      return "skipped";
    }
    await create(envName, envPassword, env["URSAMU_SUPERUSER_EMAIL"] || undefined);
    return "created";
  }
  if (!io.interactive) {
    io.print(
      "setup: the database has no players and no terminal is attached; no superuser was created.\n" +
        "setup: set URSAMU_SUPERUSER_NAME and URSAMU_SUPERUSER_PASSWORD (and optionally " +
        "URSAMU_SUPERUSER_EMAIL) and start again, or run `deno task start` in a terminal.",
    );
    return "skipped";
  }
  io.print("First run: let's create the superuser (the game owner's account).");
  const email = await askValid(
    io,
    "E-mail address: ",
    false,
    (v) => EMAIL.test(v) ? null : "That does not look like an e-mail address.",
  );
  const name = await askValid(io, "Username: ", false, playerNameProblem);
  const password = await askValid(io, "Password (8-512 characters): ", true, passwordProblem);
  if (email === null || name === null || password === null) {
    io.print("setup: input ended; no superuser was created.");
    return "skipped";
  }
  try {
    await create(name, password, email);
  } catch (e) {
    if (!(e instanceof EngineError)) throw e;
    io.print(`setup: ${e.message}`);
    return "skipped";
  }
  return "created";
}

async function askValid(
  io: SetupIO,
  question: string,
  secret: boolean,
  problem: (v: string) => string | null,
): Promise<string | null> {
  for (let tries = 0; tries < 5; tries++) {
    const v = await io.ask(question, secret);
    if (v === null) return null;
    const p = problem(v.trim());
    if (!p) return v.trim();
    io.print(p);
  }
  return null;
}

/** Setup IO over the process's standard streams (password typed without echo). */
export function terminalIO(): SetupIO {
  const interactive = Deno.stdin.isTerminal();
  return {
    interactive,
    print: (m) => console.log(m),
    ask: (q, secret) => readLine(q, Boolean(secret)),
  };
}

async function readLine(question: string, secret: boolean): Promise<string | null> {
  const enc = new TextEncoder();
  await Deno.stdout.write(enc.encode(question));
  if (secret) Deno.stdin.setRaw(true);
  try {
    const bytes: number[] = [];
    const buf = new Uint8Array(1);
    for (;;) {
      const n = await Deno.stdin.read(buf);
      if (n === null) return bytes.length ? new TextDecoder().decode(new Uint8Array(bytes)) : null;
      const b = buf[0];
      // Ctrl-C: raw mode turned it into a byte instead of SIGINT, so stop the start here.
      if (b === 3) throw new SetupCancelled();
      if (b === 10 || b === 13) break;
      if (b === 127 || b === 8) {
        bytes.pop();
        continue;
      }
      if (bytes.length < 1024) bytes.push(b);
    }
    return new TextDecoder().decode(new Uint8Array(bytes));
  } finally {
    if (secret) {
      Deno.stdin.setRaw(false);
      await Deno.stdout.write(enc.encode("\n"));
    }
  }
}
