/**
 * Accounts: registration, login, password changes and reset tokens. Shared by
 * the REST routes and the hub's `connect`/`create`, so the rules live once.
 */
import { keys } from "../storage/keys.ts";
import type { ObjectStore } from "../world/objects.ts";
import type { DbObject } from "../world/types.ts";
import { playerNameProblem } from "../world/names.ts";
import { hashPassword, needsRehash, passwordProblem, verifyPassword } from "./passwords.ts";
import type { PasswordHasher } from "./hash_pool.ts";
import { ConflictError, NotFoundError, RateLimitError, ValidationError } from "../errors.ts";
import { timingSafeEqualString } from "./constant_time.ts";
import { addressGroup } from "../net/client_address.ts";
import { TokenGenerations } from "./generations.ts";

/** Stored credentials of a player. Never leaves the server. */
export interface Credentials {
  hash: string;
  email?: string;
  resetToken?: string;
  resetExpires?: number;
  resetBy?: string;
  /**
   * The addresses the player last logged in from, newest first (at most SITES_KEPT): the
   * per-account failed-login limit does not hold them, so failures from elsewhere cannot lock
   * the player out of its own addresses.
   */
  sites?: string[];
}

/** Addresses a player's credentials remember. */
export const SITES_KEPT = 4;

/** A successful login: the player, and the token generation its session belongs to. */
export interface LoggedIn {
  player: DbObject;
  generation: number;
}

/** Reset tokens live one hour. */
export const RESET_TTL_MS = 60 * 60 * 1000;

/** Options for a new player. */
export interface RegisterOptions {
  email?: string;
  flags?: string[];
  location: string;
  /**
   * No engine is running (first-run setup, the setup command): the engine announces the
   * player to plugins at its next start (see `announcePending`).
   */
  announceLater?: boolean;
}

/** Account operations over the object store and the credentials keys. */
export class Accounts {
  #dummyHash: Promise<string> | null = null;

  /**
   * `hasher` runs bcrypt: the engine passes its worker pool; tools without an engine (first-run
   * setup) hash on their own thread. `generations` are the token generations a password change
   * advances: the engine passes the ones its token checks read.
   */
  constructor(
    private readonly kv: Deno.Kv,
    private readonly objects: ObjectStore,
    private readonly hasher: PasswordHasher = { hash: hashPassword, verify: verifyPassword },
    private readonly generations: TokenGenerations = new TokenGenerations(kv),
  ) {}

  /** Creates a player with a hashed password; name and password rules apply. */
  async register(name: unknown, password: unknown, opts: RegisterOptions): Promise<DbObject> {
    const nameErr = playerNameProblem(name);
    if (nameErr) throw new ValidationError(nameErr);
    const pwErr = passwordProblem(password);
    if (pwErr) throw new ValidationError(pwErr);
    if (await this.objects.playerByName(name as string)) {
      throw new ConflictError("That name is already taken.");
    }
    const hash = await this.hasher.hash(password as string);
    const creds: Credentials = { hash, ...(opts.email ? { email: opts.email } : {}) };
    return await this.objects.create(
      {
        name: name as string,
        type: "player",
        location: opts.location,
        flags: opts.flags ?? [],
        data: { home: opts.location },
      },
      (id, op) => {
        op.set(keys.credentials(id), creds);
        if (opts.announceLater) op.set(keys.announcePending(id), true);
      },
    );
  }

  /**
   * The player whose name and password match, or null. Costs one bcrypt compare either way.
   * A hash of the older scheme is replaced by a current one after a match.
   */
  async authenticate(name: unknown, password: unknown): Promise<DbObject | null> {
    return (await this.login(name, password))?.player ?? null;
  }

  /**
   * As `authenticate`, with the player's token generation as it was before the compare: a
   * session signed with it ends if the password changed while bcrypt ran.
   */
  async login(name: unknown, password: unknown): Promise<LoggedIn | null> {
    if (typeof name !== "string" || typeof password !== "string") return null;
    if (name.length > 64 || password.length > 512) return null;
    const player = await this.objects.playerByName(name);
    const creds = player ? await this.credentials(player.id) : null;
    if (!player || !creds || !player.flags.includes("player")) {
      await this.hasher.verify(password, await this.#dummy());
      return null;
    }
    const generation = await this.generations.current(player.id);
    if (!(await this.hasher.verify(password, creds.hash))) return null;
    if (needsRehash(creds.hash)) await this.#upgradeHash(player.id, creds.hash, password);
    return { player, generation };
  }

  /** The id of the player called `name`, or null (no bcrypt: the name alone). */
  async playerId(name: unknown): Promise<string | null> {
    if (typeof name !== "string" || name.length > 64) return null;
    const player = await this.objects.playerByName(name);
    return player && player.flags.includes("player") ? player.id : null;
  }

  /** True when the player logged in lately from `ip`'s group (one of its last SITES_KEPT addresses). */
  async knownSite(id: string, ip: string): Promise<boolean> {
    const group = addressGroup(ip);
    return (await this.credentials(id))?.sites?.some((s) => addressGroup(s) === group) ?? false;
  }

  /** Remembers `ip` as the player's newest login address (a write only when it is not first). */
  async rememberSite(id: string, ip: string): Promise<void> {
    if ((await this.credentials(id))?.sites?.[0] === ip) return;
    await this.#updateCredentials(id, (c) => {
      c.sites = [ip, ...(c.sites ?? []).filter((s) => s !== ip)].slice(0, SITES_KEPT);
    });
  }

  /** Replaces an old-scheme hash, unless the password changed meanwhile. */
  async #upgradeHash(id: string, oldHash: string, password: string): Promise<void> {
    let hash: string;
    try {
      hash = await this.hasher.hash(password);
    } catch (e) {
      // The password matched: a busy pool only postpones the upgrade to a later login.
      if (e instanceof RateLimitError) return;
      throw e;
    }
    await this.#updateCredentials(id, (c) => {
      if (c.hash === oldHash) c.hash = hash;
    });
  }

  /**
   * Replaces a player's password (rules apply) and, in the same commit, advances the player's
   * token generation: every session token issued before stops working. Returns the new
   * generation (a session kept open signs its next token with it).
   */
  async setPassword(id: string, password: unknown): Promise<number> {
    const pwErr = passwordProblem(password);
    if (pwErr) throw new ValidationError(pwErr);
    const hash = await this.hasher.hash(password as string);
    const staged = await this.#updateCredentials(id, (c) => {
      c.hash = hash;
    }, (op) => this.generations.stage(id, op));
    staged.settle();
    return staged.generation;
  }

  /** True when `password` is the player's own (one bcrypt compare). */
  async checkPassword(id: string, password: unknown): Promise<boolean> {
    if (typeof password !== "string" || password.length > 512) return false;
    const creds = await this.credentials(id);
    if (!creds) {
      await this.hasher.verify(password, await this.#dummy());
      return false;
    }
    return await this.hasher.verify(password, creds.hash);
  }

  /**
   * Removes a player's login (`@toad`): the credentials and any reset token go, and the token
   * generation advances in the same commit, so no session of the player survives.
   */
  async removeLogin(id: string): Promise<void> {
    for (let i = 0; i < 20; i++) {
      const entry = await this.kv.get<Credentials>(keys.credentials(id));
      const op = this.kv.atomic().check(entry).delete(keys.credentials(id));
      if (entry.value?.resetToken) op.delete(keys.resetToken(entry.value.resetToken));
      const staged = await this.generations.stage(id, op);
      if ((await op.commit()).ok) return staged.settle();
    }
    throw new Error("storage: too much contention on credentials");
  }

  /** Issues a one-hour reset token for a player, replacing any earlier one. */
  async issueResetToken(id: string, actorId: string): Promise<string> {
    const token = crypto.randomUUID();
    const expires = Date.now() + RESET_TTL_MS;
    let previous: string | undefined;
    await this.#updateCredentials(id, (c) => {
      previous = c.resetToken;
      c.resetToken = token;
      c.resetExpires = expires;
      c.resetBy = actorId;
    }, (op) => op.set(keys.resetToken(token), id, { expireIn: RESET_TTL_MS }));
    if (previous) await this.kv.delete(keys.resetToken(previous));
    return token;
  }

  /**
   * Consumes a reset token and sets the new password. Returns the player id, or null when
   * the token is unknown, expired or used. A password that breaks the rule throws before the
   * token is looked at, so a refused password never uses up a token.
   */
  async consumeResetToken(token: string, newPassword: string): Promise<string | null> {
    const pwErr = passwordProblem(newPassword);
    if (pwErr) throw new ValidationError(pwErr);
    if (!/^[0-9a-f-]{36}$/i.test(token)) return null;
    const idx = await this.kv.get<string>(keys.resetToken(token.toLowerCase()));
    if (!idx.value) return null;
    const credKey = keys.credentials(idx.value);
    const entry = await this.kv.get<Credentials>(credKey);
    const c = entry.value;
    if (
      !c || !c.resetToken || !c.resetExpires || c.resetExpires < Date.now() ||
      !timingSafeEqualString(c.resetToken, token.toLowerCase())
    ) return null;
    const hash = await this.hasher.hash(newPassword);
    const next: Credentials = {
      hash,
      ...(c.email ? { email: c.email } : {}),
      ...(c.sites ? { sites: c.sites } : {}),
    };
    const op = this.kv.atomic().check(entry).check(idx).set(credKey, next)
      .delete(keys.resetToken(token.toLowerCase()));
    // The reset ends every session of the player, in the same commit as the new password.
    const staged = await this.generations.stage(idx.value, op);
    if (!(await op.commit()).ok) return null;
    staged.settle();
    return idx.value;
  }

  /** Stored credentials of a player, or null. */
  async credentials(id: string): Promise<Credentials | null> {
    return (await this.kv.get<Credentials>(keys.credentials(id))).value;
  }

  /** Changes a player's credentials; `extra` adds to the same commit, and its result is returned. */
  async #updateCredentials<T = void>(
    id: string,
    change: (c: Credentials) => void,
    extra?: (op: Deno.AtomicOperation) => T | Promise<T>,
  ): Promise<T> {
    for (let i = 0; i < 20; i++) {
      const entry = await this.kv.get<Credentials>(keys.credentials(id));
      if (!entry.value) throw new NotFoundError("No such player.");
      const c = { ...entry.value };
      change(c);
      const op = this.kv.atomic().check(entry).set(keys.credentials(id), c);
      const result = await extra?.(op);
      if ((await op.commit()).ok) return result as T;
    }
    throw new Error("storage: too much contention on credentials");
  }

  #dummy(): Promise<string> {
    // A refused first attempt (pool busy) must not stay cached as the answer for good.
    this.#dummyHash ??= this.hasher.hash(crypto.randomUUID()).catch((e) => {
      this.#dummyHash = null;
      throw e;
    });
    return this.#dummyHash;
  }
}
