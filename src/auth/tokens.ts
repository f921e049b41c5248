/** JWT access tokens (HS256, signed with JWT_SECRET). */
import { jwtVerify, SignJWT } from "jose";

/**
 * Token lifetime: a week, so telnet sessions survive engine restarts for days. Every token
 * carries `exp`; one without it is refused, so no token lives for ever.
 */
export const TOKEN_TTL_SECONDS = 7 * 24 * 3600;

/**
 * Signs and verifies access tokens with one secret. The secret is imported as a CryptoKey once:
 * given the raw bytes, jose imports a new key for every sign and verify, and each import leaves
 * ~240 bytes in the runtime for good (a login signs and verifies, so 10,000 logins kept ~4 MB).
 */
export class TokenService {
  readonly #secret: Uint8Array<ArrayBuffer>;
  #key: Promise<CryptoKey> | null = null;

  constructor(secret: string) {
    this.#secret = new TextEncoder().encode(secret);
  }

  /** The HMAC key, imported on first use. */
  #cryptoKey(): Promise<CryptoKey> {
    this.#key ??= crypto.subtle.importKey(
      "raw",
      this.#secret,
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign", "verify"],
    );
    return this.#key;
  }

  /** A signed token naming the player id as subject. */
  async sign(playerId: string): Promise<string> {
    return new SignJWT({})
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(playerId)
      .setIssuedAt()
      .setExpirationTime(`${TOKEN_TTL_SECONDS}s`)
      .sign(await this.#cryptoKey());
  }

  /** The player id of a valid token, or null for anything else. */
  async verify(token: string): Promise<string | null> {
    if (typeof token !== "string" || token.length > 4096) return null;
    try {
      const { payload } = await jwtVerify(token, await this.#cryptoKey(), {
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
