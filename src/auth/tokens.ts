/** JWT access tokens (HS256, signed with JWT_SECRET). */
import { jwtVerify, SignJWT } from "jose";

/**
 * Token lifetime: a week, so telnet sessions survive engine restarts for days. Every token
 * carries `exp`; one without it is refused, so no token lives for ever.
 */
export const TOKEN_TTL_SECONDS = 7 * 24 * 3600;

/** Signs and verifies access tokens with one secret. */
export class TokenService {
  /**
   * The secret imported once as an HMAC key. Given raw bytes, jose imports them again for
   * every token, one more async crypto operation each: a reboot resuming 10,000 sessions
   * verifies and signs 10,000 tokens at once, and those imports doubled the time it took.
   */
  readonly #key: Promise<CryptoKey>;

  constructor(secret: string) {
    this.#key = crypto.subtle.importKey(
      "raw",
      new TextEncoder().encode(secret),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign", "verify"],
    );
    // A key that cannot be imported fails each sign and verify instead, never unhandled.
    this.#key.catch(() => {});
  }

  /** A signed token naming the player id as subject. */
  async sign(playerId: string): Promise<string> {
    return await new SignJWT({})
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(playerId)
      .setIssuedAt()
      .setExpirationTime(`${TOKEN_TTL_SECONDS}s`)
      .sign(await this.#key);
  }

  /** The player id of a valid token, or null for anything else. */
  async verify(token: string): Promise<string | null> {
    if (typeof token !== "string" || token.length > 4096) return null;
    try {
      const { payload } = await jwtVerify(token, await this.#key, {
        algorithms: ["HS256"],
        requiredClaims: ["exp", "sub"],
      });
      return typeof payload.sub === "string" && /^\d+$/.test(payload.sub) ? payload.sub : null;
    } catch {
      return null;
    }
  }
}

/** The secret from JWT_SECRET, or a random one (with a warning) when unset. */
export function resolveSecret(
  env: Record<string, string>,
  warn: (m: string) => void,
): string {
  const s = env["JWT_SECRET"];
  if (s && s.length > 0) return s;
  warn(
    "WARNING: JWT_SECRET is not set; using a random secret. All sessions end when the process stops.",
  );
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
