/**
 * Typed errors shared by every layer. The HTTP error handler and the command
 * runner map them to a status or an in-game message in one place each.
 */

/** Base class: carries the HTTP status the error maps to. */
export class EngineError extends Error {
  /** HTTP status code for this error. */
  readonly status: number = 500;
}

/** Missing or invalid input (400). */
export class ValidationError extends EngineError {
  override readonly status = 400;
  override name = "ValidationError";
}

/** Missing or invalid credentials (401). */
export class UnauthorizedError extends EngineError {
  override readonly status = 401;
  override name = "UnauthorizedError";
  constructor(message = "Unauthorized") {
    super(message);
  }
}

/** Authenticated but not allowed (403). */
export class ForbiddenError extends EngineError {
  override readonly status = 403;
  override name = "ForbiddenError";
  constructor(message = "Forbidden") {
    super(message);
  }
}

/** Unknown resource (404). */
export class NotFoundError extends EngineError {
  override readonly status = 404;
  override name = "NotFoundError";
  constructor(message = "Not found") {
    super(message);
  }
}

/** The resource already exists or changed underneath us (409). */
export class ConflictError extends EngineError {
  override readonly status = 409;
  override name = "ConflictError";
}

/** Too many requests (429). */
export class RateLimitError extends EngineError {
  override readonly status = 429;
  override name = "RateLimitError";
  constructor(message = "Too many requests. Try again later.") {
    super(message);
  }
}

/** Status for any thrown value: typed errors keep theirs, anything else is 500. */
export function statusOf(err: unknown): number {
  return err instanceof EngineError ? err.status : 500;
}

/** Message safe to show a client: never a stack trace or an internal detail. */
export function publicMessage(err: unknown): string {
  return err instanceof EngineError ? err.message : "Internal server error";
}
