/** The mail routes as `GET /api/v1/openapi.json` describes them (given to ctx.openapi). */
import { API_PAGING, type ApiDocs, REST_WRITE_LIMITED } from "../../src/plugins/mod.ts";
import {
  DEFAULT_MAX_MESSAGES,
  DEFAULT_MAX_RECIPIENTS,
  DEFAULT_SENDS_PER_MINUTE,
  MAX_BODY,
  MAX_SUBJECT,
} from "./service.ts";

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

const MESSAGE = {
  type: "object",
  properties: {
    ...ENTRY.properties,
    to: { type: "array", items: { type: "string" }, description: "recipients' names" },
    body: { type: "string" },
    sentAt: { type: "number" },
  },
  required: [...ENTRY.required, "to", "body", "sentAt"],
};

/** Route descriptions of the mail plugin. */
export const MAIL_API: ApiDocs = {
  "GET /api/v1/mail": {
    summary: "The caller's inbox, newest first",
    auth: "user",
    query: API_PAGING,
    responses: {
      "200": { description: "inbox entries", schema: { type: "array", items: ENTRY } },
      "400": "a bad limit or offset",
      "401": "no token",
    },
  },
  "POST /api/v1/mail": {
    summary: "Send a message to one or more players",
    description:
      `Every recipient must exist and have room in their mailbox, or nothing is sent (the error names the unknown ones or the full mailboxes). At most ${DEFAULT_MAX_RECIPIENTS} recipients (plugins.mail.maxRecipients), ${DEFAULT_SENDS_PER_MINUTE} sends a minute (plugins.mail.sendsPerMinute) and ${DEFAULT_MAX_MESSAGES} messages a mailbox (plugins.mail.maxMessages) by default.`,
    auth: "user",
    body: {
      type: "object",
      properties: {
        to: {
          description: "a name, names separated by commas or spaces, or an array of names",
          oneOf: [
            { type: "string", minLength: 1 },
            { type: "array", items: { type: "string" }, minItems: 1 },
          ],
        },
        subject: { type: "string", minLength: 1, maxLength: MAX_SUBJECT },
        body: { type: "string", minLength: 1, maxLength: MAX_BODY },
      },
      required: ["to", "subject", "body"],
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
      "409": "a recipient's mailbox is full (each one named; nothing sent), or busy: try again",
      "429": `sending too fast (\`plugins.mail.sendsPerMinute\`), or ${REST_WRITE_LIMITED}`,
    },
  },
  "GET /api/v1/mail/:id": {
    summary: "Read one of the caller's messages (marks it read; a HEAD does not)",
    auth: "user",
    params: { id: "the message number" },
    responses: {
      "200": { description: "the message", schema: MESSAGE },
      "401": "no token",
      "404": "the caller holds no such message",
    },
  },
  "DELETE /api/v1/mail/:id": {
    summary: "Delete the caller's copy of a message",
    auth: "user",
    params: { id: "the message number" },
    responses: {
      "200": {
        description: "deleted",
        schema: { type: "object", properties: { deleted: { const: true } } },
      },
      "401": "no token",
      "404": "the caller holds no such message",
    },
  },
};
