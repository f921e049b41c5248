/** The events routes as `GET /api/v1/openapi.json` describes them (given to ctx.openapi). */
import { API_PAGING, type ApiDocs, REST_WRITE_LIMITED } from "../../src/plugins/mod.ts";
import { EVENT_STATUSES, RSVP_STATUSES } from "./types.ts";
import {
  MAX_ATTENDEES,
  MAX_DESCRIPTION,
  MAX_LOCATION,
  MAX_TAG,
  MAX_TAGS,
  MAX_TITLE,
} from "./validate.ts";

const TIME = {
  type: "integer",
  minimum: 0,
  maximum: Date.UTC(9999, 11, 31, 23, 59),
  description: "ms since 1970",
};

const FIELDS = {
  title: { type: "string", minLength: 1, maxLength: MAX_TITLE },
  description: { type: "string", maxLength: MAX_DESCRIPTION },
  startTime: TIME,
  endTime: { oneOf: [TIME, { type: "null" }], description: "after startTime; null: 3 hours" },
  location: { type: "string", maxLength: MAX_LOCATION },
  tags: {
    description: "an array, or one string separated by commas",
    oneOf: [
      { type: "array", items: { type: "string", maxLength: MAX_TAG }, maxItems: MAX_TAGS },
      { type: "string" },
    ],
  },
  maxAttendees: {
    type: "integer",
    minimum: 0,
    maximum: MAX_ATTENDEES,
    description: "0: unlimited",
  },
};

const EVENT = {
  type: "object",
  properties: {
    id: { type: "string" },
    number: { type: "integer", description: "the number players use in game" },
    title: { type: "string" },
    description: { type: "string" },
    startTime: { type: "number" },
    endTime: { type: ["number", "null"] },
    location: { type: "string" },
    tags: { type: "array", items: { type: "string" } },
    maxAttendees: { type: "integer" },
    status: { enum: [...EVENT_STATUSES] },
    createdBy: { type: "string" },
    createdByName: { type: "string" },
    createdAt: { type: "number" },
    updatedAt: { type: "number" },
    rsvpCounts: {
      type: "object",
      properties: {
        attending: { type: "integer" },
        maybe: { type: "integer" },
        declined: { type: "integer" },
      },
    },
  },
};

const RSVP = {
  type: "object",
  properties: {
    playerId: { type: "string" },
    name: { type: "string" },
    status: { enum: [...RSVP_STATUSES] },
    time: { type: "number" },
  },
};

const DETAIL = {
  ...EVENT,
  properties: { ...EVENT.properties, rsvps: { type: "array", items: RSVP } },
};

const DELETED = {
  description: "deleted",
  schema: { type: "object", properties: { deleted: { const: true } } },
};

/** Route descriptions of the events plugin. */
export const EVENTS_API: ApiDocs = {
  "GET /api/v1/events": {
    summary: "Events, soonest first (players do not see cancelled ones)",
    auth: "user",
    query: API_PAGING,
    responses: {
      "200": {
        description: "events with their RSVP counts",
        schema: { type: "array", items: EVENT },
      },
      "400": "a bad limit or offset",
      "401": "no token",
    },
  },
  "GET /api/v1/events/:id": {
    summary: "One event with its RSVPs",
    auth: "user",
    params: { id: "the event's id" },
    responses: {
      "200": { description: "the event", schema: DETAIL },
      "401": "no token",
      "404": "no such event (or, for players, a cancelled one)",
    },
  },
  "POST /api/v1/events": {
    summary: "Create an event (status upcoming)",
    auth: "staff",
    body: {
      type: "object",
      properties: FIELDS,
      required: ["title", "startTime"],
      additionalProperties: false,
    },
    responses: {
      "201": { description: "the event", schema: DETAIL },
      "400": "a missing, unknown or bad field, or an end not after the start",
      "401": "no token",
      "403": "not staff",
    },
  },
  "PATCH /api/v1/events/:id": {
    summary: "Change an event",
    auth: "staff",
    params: { id: "the event's id" },
    body: {
      type: "object",
      properties: { ...FIELDS, status: { enum: [...EVENT_STATUSES] } },
      minProperties: 1,
      additionalProperties: false,
    },
    responses: {
      "200": { description: "the event", schema: DETAIL },
      "400": "nothing to change, an unknown or bad field, or an end not after the start",
      "401": "no token",
      "403": "not staff",
      "404": "no such event",
      "409": "the event kept changing; try again",
    },
  },
  "DELETE /api/v1/events/:id": {
    summary: "Delete an event and its RSVPs",
    auth: "staff",
    params: { id: "the event's id" },
    responses: { "200": DELETED, "401": "no token", "403": "not staff", "404": "no such event" },
  },
  "POST /api/v1/events/:id/rsvp": {
    summary: "RSVP as the caller (replaces an earlier RSVP)",
    description: "No body at all means `attending`.",
    auth: "user",
    params: { id: "the event's id" },
    body: {
      type: "object",
      properties: { status: { enum: [...RSVP_STATUSES], default: "attending" } },
    },
    responses: {
      "200": { description: "the RSVP", schema: RSVP },
      "400": "a bad status, or the event is completed or cancelled",
      "401": "no token",
      "404": "no such event",
      "409": "the event is full",
      "429": REST_WRITE_LIMITED,
    },
  },
  "DELETE /api/v1/events/:id/rsvp": {
    summary: "Withdraw the caller's RSVP",
    auth: "user",
    params: { id: "the event's id" },
    responses: {
      "200": DELETED,
      "401": "no token",
      "404": "no such event, or the caller has not RSVPed",
      "429": REST_WRITE_LIMITED,
    },
  },
};
