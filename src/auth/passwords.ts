/** Password hashing with bcrypt (cost 10), off the hot path via bcryptjs's async API. */
import bcrypt from "bcryptjs";

const COST = 10;

/** Hashes a password. */
export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, COST);
}

/** Compares a password with a stored hash. */
export function verifyPassword(password: string, hash: string): Promise<boolean> {
  return bcrypt.compare(password, hash);
}
