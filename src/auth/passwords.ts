/**
 * Passwords: the one rule every way of setting a password follows, and hashing with bcrypt
 * (cost 10) via bcryptjs's async API.
 *
 * bcrypt reads only the first 72 bytes of its input, and passwords may be 512 characters, so
 * the password is first reduced to SHA-256 (base64, 44 ASCII bytes) and that goes into bcrypt.
 * The pre-hash takes no key: a key that changed (JWT_SECRET is random per run when unset) would
 * lock everyone out. Such hashes carry the `v2$` marker; hashes without it are plain bcrypt from
 * before, still verified as they are and replaced at the next successful login.
 */
import bcrypt from "bcryptjs";

const COST = 10;

/** Marker of a hash over the SHA-256 pre-hash. */
const V2 = "v2$";

/** Longest password accepted anywhere. */
export const MAX_PASSWORD = 512;
/** Shortest password accepted anywhere. */
export const MIN_PASSWORD = 8;

/**
 * Why a password is unacceptable, or null. The one rule for registration, `create`,
 * `@newpassword`, first-run setup and reset. Lower case without a full stop, so callers can
 * embed it; {@linkcode sentence} makes it a message of its own.
 */
export function passwordProblem(password: unknown): string | null {
  if (typeof password !== "string" || password.length === 0) return "password is required";
  if (password.trim().length === 0) return "password must not be blank";
  if (password.length < MIN_PASSWORD) {
    return `password must be at least ${MIN_PASSWORD} characters`;
  }
  if (password.length > MAX_PASSWORD) {
    return `password must be ${MAX_PASSWORD} characters or fewer`;
  }
  return null;
}

/** A rule's wording as a sentence: capitalised, with a full stop. */
export function sentence(problem: string): string {
  return problem.charAt(0).toUpperCase() + problem.slice(1) + ".";
}

async function preHash(password: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(password));
  return btoa(String.fromCharCode(...new Uint8Array(digest)));
}

/** Hashes a password (current scheme: `v2$` + bcrypt of the SHA-256 pre-hash). */
export async function hashPassword(password: string): Promise<string> {
  return V2 + await bcrypt.hash(await preHash(password), COST);
}

/** Compares a password with a stored hash of either scheme. */
export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  if (hash.startsWith(V2)) return bcrypt.compare(await preHash(password), hash.slice(V2.length));
  return bcrypt.compare(password, hash);
}

/** True when a stored hash predates the current scheme and should be replaced after a login. */
export function needsRehash(hash: string): boolean {
  return !hash.startsWith(V2);
}
