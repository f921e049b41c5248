/** Name rules for players and other objects. */

const PLAYER_NAME = /^[A-Za-z][A-Za-z0-9_'-]{1,31}$/;
// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** Why a player name is unacceptable, or null when it is fine. */
export function playerNameProblem(name: unknown): string | null {
  if (typeof name !== "string" || name.length === 0) return "name is required";
  if (name.length > 32) return "name must be 32 characters or fewer";
  if (!PLAYER_NAME.test(name)) {
    return "name must be 2 to 32 characters: a letter, then letters, digits, _ ' or -";
  }
  if (/^(here|me|home)$/i.test(name)) return `'${name}' is a reserved word`;
  return null;
}

/** Why an object (room, thing, exit) name is unacceptable, or null when it is fine. */
export function objectNameProblem(name: unknown): string | null {
  if (typeof name !== "string" || name.trim().length === 0) return "name is required";
  if (name.length > 64) return "name must be 64 characters or fewer";
  if (CONTROL.test(name)) return "name must not contain control characters";
  if (/[=]/.test(name) || name.trim().startsWith("#")) {
    return "name must not contain '=' or start with '#'";
  }
  return null;
}

/** Why a password is unacceptable at registration, `create` or `@newpassword`, or null. */
export function passwordProblem(password: unknown): string | null {
  if (typeof password !== "string" || password.length === 0) return "password is required";
  if (password.length < 8) return "password must be at least 8 characters";
  if (password.length > 512) return "password must be 512 characters or fewer";
  return null;
}
