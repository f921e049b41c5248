/**
 * How the telnet sidecar proves itself to the hub: a secret the supervisor generates for each
 * run and hands to the engine and the sidecar (and nobody else) in their environment, sent by the
 * sidecar in the handshake of its link and compared here in constant time. Never an address: a
 * reverse proxy on the same host makes every browser look like loopback. This module is the one
 * place that decides; whatever carries the link calls it once per link.
 */
import { timingSafeEqualString } from "../auth/constant_time.ts";
import { PROCESS_ENV } from "../config/process_env.ts";

/** Handshake header the sidecar sends the secret in. */
export const SIDECAR_HEADER = "x-ursamu-sidecar";

/** Shortest secret taken; a shorter one is ignored (no connection gets sidecar privileges). */
export const MIN_SIDECAR_SECRET = 32;

/** A new random secret (43 characters, base64url of 32 bytes). */
export function newSidecarSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_")
    .replace(/=+$/, "");
}

/**
 * The secret as the environment gave it (`processEnv().sidecarSecret`), or null when unset or too
 * short (then nobody is trusted as the sidecar; `warn` is told why when it was set but too short).
 */
export function sidecarSecretFrom(secret: string, warn: (message: string) => void): string | null {
  if (secret === "") return null;
  if (secret.length < MIN_SIDECAR_SECRET) {
    warn(
      `WARNING: ${PROCESS_ENV.sidecarSecret} is shorter than ${MIN_SIDECAR_SECRET} characters and is ` +
        "ignored; telnet connections get no sidecar privileges.",
    );
    return null;
  }
  return secret;
}

/** What a link's handshake proves: the sidecar, a wrong secret, or nothing claimed. */
export type SidecarProof = "sidecar" | "wrong" | "none";

/** Checks the secret a link presented (`presented`: the header's value, or null) against ours. */
export function checkSidecarProof(presented: string | null, secret: string | null): SidecarProof {
  if (presented === null || presented === "") return "none";
  if (secret === null) return "wrong";
  return timingSafeEqualString(presented, secret) ? "sidecar" : "wrong";
}
