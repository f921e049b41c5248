/** Constant-time comparison for secrets and tokens. */
import { timingSafeEqual } from "node:crypto";

/** True when both strings are equal, in time independent of where they differ. */
export function timingSafeEqualString(a: string, b: string): boolean {
  const ea = new TextEncoder().encode(a);
  const eb = new TextEncoder().encode(b);
  if (ea.length !== eb.length) {
    // Compare against itself so the length mismatch costs the same work.
    timingSafeEqual(ea, ea);
    return false;
  }
  return timingSafeEqual(ea, eb);
}
