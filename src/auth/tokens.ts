/** JWT access tokens (HS256, signed with JWT_SECRET), each of one token generation. */
import { jwtVerify, SignJWT } from "jose";
import type { TokenGenerations } from "./generations.ts";

/**
 * Token lifetime: a week, so telnet sessions survive engine restarts for days. Every token
 * carries `exp`; one without it is refused, so no token lives for ever.
 */
export const TOKEN_TTL_SECONDS = 7 * 24 * 3600;

/** A verified token: its player and the generation it was issued in. */
export interface TokenSession {
  id: string;
  generation: number;
}

/**
 * Signs and verifies access tokens with one secret. A token carries its player's generation
 * (`gen`; none means 0, as tokens from before generations did) and is valid only while that is
 * the player's current one (generations.ts). The secret is imported as a CryptoKey once:
 * given the raw bytes, jose imports a new key for every sign and verify, and each import leaves
 * ~240 bytes in the runtime for good (a login signs and verifies, so 10,000 logins kept ~4 MB).
 */
export class TokenService {
  readonly #secret: Uint8Array<ArrayBuffer>;
  #key: Promise<CryptoKey> | null = null;

  constructor(secret: string, private readonly generations: TokenGenerations) {
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

  /**
   * A signed token naming the player id as subject, of `generation`: a token renewed from
   * another passes the generation it came from, so it dies with it. Without one, the player's
   * current generation.
   */
  async sign(playerId: string, generation?: number): Promise<string> {
    const gen = generation ?? await this.generations.current(playerId);
    return new SignJWT({ gen })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(playerId)
      .setIssuedAt()
      .setExpirationTime(`${TOKEN_TTL_SECONDS}s`)
      .sign(await this.#cryptoKey());
  }

  /** The player id of a valid token of the player's current generation, or null. */
  async verify(token: string): Promise<string | null> {
    return (await this.session(token))?.id ?? null;
  }

  /** The player and generation of a valid token of the player's current generation, or null. */
  async session(token: string): Promise<TokenSession | null> {
    if (typeof token !== "string" || token.length > 4096) return null;
    let payload;
    try {
      ({ payload } = await jwtVerify(token, await this.#cryptoKey(), {
        algorithms: ["HS256"],
        requiredClaims: ["exp", "sub"],
      }));
    } catch {
      return null;
    }
    const id = payload.sub;
    if (typeof id !== "string" || !/^\d+$/.test(id)) return null;
    const generation = payload.gen === undefined ? 0 : payload.gen;
    if (typeof generation !== "number" || !Number.isSafeInteger(generation) || generation < 0) {
      return null;
    }
    if (generation !== await this.generations.current(id)) return null;
    return { id, generation };
  }

  /** The player's current generation (from memory once known). */
  generation(playerId: string): Promise<number> {
    return this.generations.current(playerId);
  }

  /** Ends every token of a player issued so far; returns the new generation. */
  revoke(playerId: string): Promise<number> {
    return this.generations.advance(playerId);
  }
}

/** The secret from JWT_SECRET (`processEnv().jwtSecret`), or a random one (with a warning). */
export function resolveSecret(s: string, warn: (m: string) => void): string {
  if (s.length > 0) return s;
  warn(
    "WARNING: JWT_SECRET is not set; using a random secret. All sessions end when the process stops.",
  );
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
