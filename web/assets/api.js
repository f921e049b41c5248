// The public REST API, with the player's token in the Authorization header (never in a URL).
import { session } from "./session.js";

/** An API error with its status and the server's message. */
export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/** Calls `/api/v1<path>`; answers the parsed JSON or throws an ApiError. */
export async function api(method, path, body) {
  const headers = { accept: "application/json" };
  const token = session.token();
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  let res;
  try {
    res = await fetch(`/api/v1${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, "The game server is not answering. Try again in a moment.");
  }
  const text = await res.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = text;
  }
  if (!res.ok) {
    if (res.status === 401 && token) session.expired();
    throw new ApiError(res.status, (data && data.error) || `${res.status} ${res.statusText}`);
  }
  return data;
}

/** A path segment, encoded. */
export const seg = (s) => encodeURIComponent(String(s));
