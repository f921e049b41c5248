import assert from "node:assert/strict";
import { describe } from "./route_doc.ts";
import * as s from "./schema.ts";
import { createPluginApp, dispatchToPlugin } from "./http.ts";
import { docsOfRoutes } from "../http/openapi/described.ts";

const SIGN = describe({
  summary: "Sign",
  auth: "user",
  params: { id: "the book" },
  body: { schema: s.object({ text: s.text(10), mood: s.optional(s.oneOf(["glad", "sad"])) }) },
  responses: { "201": { description: "signed", schema: s.object({ text: s.text(10) }) } },
});

const LIST = describe({
  summary: "List",
  query: {
    params: { mood: { schema: s.oneOf(["glad", "sad"]), description: "only this mood" } },
    paging: { limit: 5, max: 10 },
    only: true,
  },
  responses: { "200": "entries" },
});

const KNOCK = describe({
  summary: "Knock",
  body: {
    schema: s.object({ times: s.custom({ type: "integer" }, (v) => Number(v ?? 1)) }),
    emptyIsNone: true,
  },
  responses: { "200": "knocked" },
});

function app() {
  const a = createPluginApp("/api/v1/book", "book");
  a.post("/knock", KNOCK, async (c) => c.json(await KNOCK.body(c)));
  a.post("/:id", SIGN, async (c) => c.json(await SIGN.body(c), 201));
  a.get("/", LIST, (c) => c.json(LIST.query(c)));
  a.get("/plain", (c) => c.json([]));
  return a;
}

async function call(method: string, path: string, body?: string) {
  const res = await dispatchToPlugin(
    app(),
    new Request(`http://x${path}`, {
      method,
      body,
      headers: body === undefined ? {} : { "content-type": "application/json" },
    }),
    { player: null, ip: "127.0.0.1" },
  );
  return [res.status, await res.json()];
}

Deno.test("route docs: the description the routes carry, as the API document reads it", () => {
  const docs = docsOfRoutes(app().routes);
  assert.deepEqual(Object.keys(docs).sort(), [
    "GET /api/v1/book",
    "POST /api/v1/book/:id",
    "POST /api/v1/book/knock",
  ]);
  const sign = docs["POST /api/v1/book/:id"];
  assert.equal(sign.auth, "user");
  assert.deepEqual(sign.params, { id: "the book" });
  assert.deepEqual((sign.body as { required: string[] }).required, ["text"]);
  const answer = sign.responses["201"] as { schema?: Record<string, unknown> };
  assert.equal(answer.schema?.type, "object", "a response's Schema becomes its JSON Schema");
  const list = docs["GET /api/v1/book"];
  assert.deepEqual(Object.keys(list.query ?? {}), ["mood", "limit", "offset"]);
  assert.match(list.query!.limit.description, /default 5, at most 10/);
});

Deno.test("route docs: the handler checks the body and query with the same schemas", async () => {
  assert.deepEqual(await call("POST", "/api/v1/book/1", '{"text":" hi "}'), [201, { text: "hi" }]);
  assert.deepEqual(await call("POST", "/api/v1/book/1", '{"text":"hi","mood":"odd"}'), [
    400,
    { error: "mood must be one of glad, sad" },
  ]);
  assert.deepEqual(await call("POST", "/api/v1/book/1", "[1]"), [
    400,
    { error: "Request body must be a JSON object." },
  ]);
  assert.deepEqual(await call("GET", "/api/v1/book?mood=glad&limit=50"), [
    200,
    { mood: "glad", page: { limit: 10, offset: 0 } },
  ]);
  assert.deepEqual(await call("GET", "/api/v1/book?colour=red"), [
    400,
    { error: "unknown query 'colour'; allowed: mood, limit, offset" },
  ]);
  assert.deepEqual(await call("GET", "/api/v1/book?limit=0"), [
    400,
    { error: "limit must be a whole number of 1 or more." },
  ]);
  assert.deepEqual(await call("POST", "/api/v1/book/knock"), [200, { times: 1 }]);
});
