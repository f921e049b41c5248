/**
 * REST routes of the mail plugin under `/api/v1/mail` (all need a token). A player reaches
 * only their own copies: any other id answers 404, as if it did not exist.
 */
import {
  caller,
  describe,
  type JsonSchema,
  type PluginApp,
  type PluginRates,
  requireUser,
  REST_WRITE_LIMITED,
  s,
} from "../../src/plugins/mod.ts";
import {
  DEFAULT_MAX_MESSAGES,
  DEFAULT_MAX_RECIPIENTS,
  DEFAULT_SENDS_PER_MINUTE,
  type MailService,
  MAX_BODY,
  MAX_SUBJECT,
  recipients,
} from "./service.ts";

/** The prefix the routes are mounted on. */
export const PREFIX = "/api/v1/mail";

const ENTRY = {
  type: "object",
  properties: {
    id: { type: "string", description: "the message number" },
    from: { type: "string", description: "the sender's name" },
    subject: { type: "string" },
    read: { type: "boolean" },
    receivedAt: { type: "number" },
  },
  required: ["id", "from", "subject", "read", "receivedAt"],
};

const MESSAGE: JsonSchema = {
  type: "object",
  properties: {
    ...ENTRY.properties,
    to: { type: "array", items: { type: "string" }, description: "recipients' names" },
    body: { type: "string" },
    sentAt: { type: "number" },
  },
  required: [...ENTRY.required, "to", "body", "sentAt"],
};

const ID = { id: "the message number" };

const INBOX = describe({
  summary: "The caller's inbox, newest first",
  auth: "user",
  query: { paging: true },
  responses: {
    "200": { description: "inbox entries", schema: { type: "array", items: ENTRY } },
    "400": "a bad limit or offset",
    "401": "no token",
  },
});

const SEND = describe({
  summary: "Send a message to one or more players",
  description:
    `Every recipient must exist and have room in their mailbox, or nothing is sent (the error names the unknown ones or the full mailboxes). At most ${DEFAULT_MAX_RECIPIENTS} recipients (plugins.mail.maxRecipients), ${DEFAULT_SENDS_PER_MINUTE} sends a minute (plugins.mail.sendsPerMinute) and ${DEFAULT_MAX_MESSAGES} messages a mailbox (plugins.mail.maxMessages) by default.`,
  auth: "user",
  body: {
    // The service checks in this order: subject, body, then who it goes to.
    schema: s.object({
      // One line: a subject is a row of the inbox list.
      subject: s.text(MAX_SUBJECT, { oneLine: true }),
      body: s.text(MAX_BODY),
      to: s.custom({
        description: "a name, names separated by commas or spaces, or an array of names",
        oneOf: [
          { type: "string", minLength: 1 },
          { type: "array", items: { type: "string" }, minItems: 1 },
        ],
      }, recipients),
    }),
    // A full body of multi-byte text, with room for the rest of the message.
    limit: MAX_BODY * 4 + 16 * 1024,
  },
  responses: {
    "201": {
      description: "sent",
      schema: {
        type: "object",
        properties: {
          id: { type: "string" },
          to: { type: "array", items: { type: "string" } },
          subject: { type: "string" },
          sentAt: { type: "number" },
        },
      },
    },
    "400": "no or unknown recipients, too many, or a missing or too long subject or body",
    "401": "no token",
    "409":
      "a recipient's mailbox is full, or holds `plugins.mail.maxUnreadFromOne` (50) unread messages from the caller (each one named; nothing sent), or busy: try again",
    "429": `sending too fast (\`plugins.mail.sendsPerMinute\`), or ${REST_WRITE_LIMITED}`,
  },
});

const UNREAD = describe({
  summary: "How many messages the caller holds, and how many of them are unread",
  description: "For a menu's unread badge: one read, no listing (the counts are kept exact).",
  auth: "user",
  responses: {
    "200": {
      description: "the caller's counts",
      schema: {
        type: "object",
        properties: { total: { type: "integer" }, unread: { type: "integer" } },
        required: ["total", "unread"],
      },
    },
    "401": "no token",
  },
});

const READ = describe({
  summary: "Read one of the caller's messages (marks it read; a HEAD does not)",
  auth: "user",
  params: ID,
  responses: {
    "200": { description: "the message", schema: MESSAGE },
    "401": "no token",
    "404": "the caller holds no such message",
  },
});

const DELETE = describe({
  summary: "Delete the caller's copy of a message",
  auth: "user",
  params: ID,
  responses: {
    "200": {
      description: "deleted",
      schema: { type: "object", properties: { deleted: { const: true } } },
    },
    "401": "no token",
    "404": "the caller holds no such message",
  },
});

/** Adds the mail routes to the plugin's app; `rates` meters the sends others receive. */
export function mailRoutes(app: PluginApp, svc: MailService, rates: PluginRates): void {
  app.use("*", requireUser());

  app.get("/", INBOX, async (c) => c.json(await svc.inbox(caller(c).id, INBOX.query(c).page)));

  app.post("/", SEND, rates.restWrite(), async (c) => {
    const { to, subject, body } = await SEND.body(c);
    return c.json(await svc.send(caller(c), to, subject, body), 201);
  });

  // Before "/:id", which would take "unread" for a message number.
  app.get("/unread", UNREAD, async (c) => {
    const { total, unread } = await svc.counts(caller(c).id);
    return c.json({ total, unread });
  });

  // HEAD answers like GET but changes nothing: the message stays unread.
  app.get(
    "/:id",
    READ,
    async (c) => c.json(await svc.read(caller(c).id, c.req.param("id"), c.req.method !== "HEAD")),
  );

  app.delete("/:id", DELETE, async (c) => {
    await svc.remove(caller(c).id, c.req.param("id"));
    return c.json({ deleted: true });
  });
}
