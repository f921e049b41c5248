/**
 * Superuser setup: while the game has no superuser, create one, interactively when a terminal
 * is attached, else from the URSAMU_SUPERUSER_* variables; otherwise say how to make one. Runs
 * at every start (supervisor and engine) and as the `setup` shell command. Nobody becomes
 * superuser any other way.
 */
import { PROCESS_ENV, processEnv } from "../config/process_env.ts";
import type { ObjectStore } from "../world/objects.ts";
import type { Accounts } from "../auth/accounts.ts";
import { playerNameProblem } from "../world/names.ts";
import { passwordProblem } from "../auth/passwords.ts";
import { ConflictError, EngineError } from "../errors.ts";
import { commandFor } from "./run_command.ts";

/** How setup talks to the person running the server. */
export interface SetupIO {
  /** True when a person can answer prompts. */
  interactive: boolean;
  /**
   * Asks a question; null when input ended (Ctrl-D). `secret` hides what is typed. Throws
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
export type SetupResult = "has-superuser" | "created" | "skipped";

/** What setup works on. */
export interface SetupDeps {
  objects: ObjectStore;
  accounts: Accounts;
  startRoom: string;
}

/** How setup runs. */
export interface SetupOptions {
  /**
   * Runs once just before the first prompt, so that nothing (such as Deno downloading modules)
   * prints over a prompt that is waiting for an answer.
   */
  beforePrompt?: () => Promise<void>;
  /**
   * The engine is not running (supervisor, setup command): mark the new superuser so the
   * engine announces it to plugins (`player:created`) at its next start.
   */
  announceLater?: boolean;
}

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}$/;

/** Superusers looked at by {@linkcode hasSuperuser}; there is normally exactly one. */
const SUPERUSER_PROBE = 20;

/** True when a player with the superuser flag exists (from the flag index, not a scan). */
export async function hasSuperuser(objects: ObjectStore): Promise<boolean> {
  const ids = await objects.idsWithFlag("superuser", SUPERUSER_PROBE);
  if (!ids.length) return false;
  // A toaded superuser is a thing, not a player: it no longer counts.
  return (await objects.getMany(ids)).some((o) => o.flags.includes("player"));
}

/** What to tell the operator while no superuser exists, naming the commands they use. */
export function noSuperuserNotice(env: Record<string, string>): string {
  return `setup: this game has no superuser yet. To create one, run \`${
    commandFor("setup", env)
  }\` in a terminal, or set URSAMU_SUPERUSER_NAME and URSAMU_SUPERUSER_PASSWORD (and ` +
    `optionally URSAMU_SUPERUSER_EMAIL) and start again with \`${commandFor("start", env)}\`.`;
}

/** Creates the superuser when none exists: from the environment, else by asking. */
export async function runFirstRunSetup(
  deps: SetupDeps,
  env: Record<string, string>,
  io: SetupIO,
  opts: SetupOptions = {},
): Promise<SetupResult> {
  if (await hasSuperuser(deps.objects)) return "has-superuser";
  const create = async (name: string, password: string, email?: string) => {
    const su = await deps.accounts.register(name, password, {
      location: deps.startRoom,
      flags: ["superuser"],
      email,
      announceLater: opts.announceLater,
    });
    io.print(`setup: superuser ${su.name} (#${su.id}) created.`);
  };
  const { name: envName, password: envPassword, email: envEmail } = processEnv(env).superuser;
  if (envName || envPassword) {
    const problem = !envName || !envPassword
      ? `${PROCESS_ENV.superuserName} and ${PROCESS_ENV.superuserPassword} must both be set`
      : playerNameProblem(envName) ?? passwordProblem(envPassword);
    if (!problem) {
      try {
        await create(envName, envPassword, envEmail || undefined);
        return "created";
      } catch (e) {
        if (!(e instanceof EngineError)) throw e;
        io.print(`setup: URSAMU_SUPERUSER_* refused: ${refusal(e, envName)}`);
      }
    } else {
      io.print(`setup: URSAMU_SUPERUSER_* refused: ${problem}`);
    }
    io.print(noSuperuserNotice(env));
    return "skipped";
  }
  if (!io.interactive) {
    io.print(noSuperuserNotice(env));
    return "skipped";
  }
  await opts.beforePrompt?.();
  io.print(
    "Setup: let's create the superuser (the game owner's account). Ctrl-D skips, Ctrl-C stops.",
  );
  const email = await askValid(
    io,
    "E-mail address: ",
    false,
    (v) => EMAIL.test(v) ? null : "That does not look like an e-mail address.",
  );
  const name = email === null
    ? null
    : await askValid(io, "Username: ", false, async (v) =>
      playerNameProblem(v) ??
        ((await deps.objects.playerByName(v)) ? `${v} is already taken by another player.` : null));
  const password = name === null ? null : await askPassword(io);
  if (email === null || name === null || password === null) {
    io.print("setup: skipped; no superuser was created.");
    io.print(noSuperuserNotice(env));
    return "skipped";
  }
  try {
    await create(name, password, email);
  } catch (e) {
    if (!(e instanceof EngineError)) throw e;
    io.print(`setup: ${refusal(e, name)}`);
    io.print(noSuperuserNotice(env));
    return "skipped";
  }
  return "created";
}

/** Why creating the superuser named `name` was refused, in the operator's terms. */
function refusal(e: EngineError, name: string): string {
  return e instanceof ConflictError
    ? `the name ${name} is already taken by another player; choose another name`
    : e.message;
}

/**
 * Asks for the password twice, unseen, as every setup prompt for a new password does: a typo in
 * the owner's password would lock the owner out. Five tries; null when input ends or they run out.
 */
async function askPassword(io: SetupIO): Promise<string | null> {
  for (let tries = 0; tries < 5; tries++) {
    const password = await askValid(io, "Password (8-512 characters): ", true, passwordProblem);
    if (password === null) return null;
    const again = await io.ask("Password again: ", true);
    if (again === null) return null;
    if (again.trim() === password) return password;
    io.print("The two passwords are not the same; type them again.");
  }
  return null;
}

/** Asks until the answer passes `problem` (five tries); null when input ends or tries run out. */
async function askValid(
  io: SetupIO,
  question: string,
  secret: boolean,
  problem: (v: string) => string | null | Promise<string | null>,
): Promise<string | null> {
  for (let tries = 0; tries < 5; tries++) {
    const v = await io.ask(question, secret);
    if (v === null) return null;
    const p = await problem(v.trim());
    if (!p) return v.trim();
    io.print(p);
  }
  return null;
}
