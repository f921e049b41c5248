/** The jobs routes as `GET /api/v1/openapi.json` describes them (given to ctx.openapi). */
import { API_PAGING, type ApiDocs, REST_WRITE_LIMITED } from "../../src/plugins/mod.ts";
import { DEFAULT_CATEGORIES, MAX_COMMENT, MAX_DESCRIPTION, MAX_TITLE } from "./service.ts";
import { MAX_COMMENTS, PRIORITIES, STATUSES } from "./store.ts";

const CATEGORY = {
  type: "string",
  description: `one of the configured categories (plugins.jobs.categories; default ${
    DEFAULT_CATEGORIES.join(", ")
  })`,
};

const JOB = {
  type: "object",
  properties: {
    id: { type: "string", examples: ["job-<uuid>"] },
    number: { type: "integer" },
    title: { type: "string" },
    description: { type: "string" },
    category: { type: "string" },
    priority: { enum: [...PRIORITIES] },
    status: { enum: [...STATUSES] },
    submitter: { type: "string" },
    submitterName: { type: "string" },
    assignee: { type: ["string", "null"] },
    assigneeName: { type: ["string", "null"] },
    resolution: { type: ["string", "null"] },
    createdAt: { type: "number" },
    updatedAt: { type: "number" },
    comments: { type: "integer", description: "comments players see" },
    staffNotes: { type: "integer", description: "staff-only comments (staff only)" },
  },
};

const COMMENT = {
  type: "object",
  properties: {
    id: { type: "string" },
    job: { type: "string" },
    author: { type: "string" },
    authorName: { type: "string" },
    text: { type: "string" },
    staffOnly: { type: "boolean" },
    createdAt: { type: "number" },
  },
};

const ID = "the job's number (`12`, `%2312`) or id (`job-<uuid>`)";
const NOT_FOUND = "no such job, or another player's";

/** Route descriptions of the jobs plugin. */
export const JOBS_API: ApiDocs = {
  "GET /api/v1/jobs": {
    summary: "Jobs, newest first (players: their own)",
    auth: "user",
    query: {
      status: { description: "only this status", schema: { enum: [...STATUSES] } },
      category: { description: "only this category", schema: CATEGORY },
      priority: { description: "only this priority", schema: { enum: [...PRIORITIES] } },
      assignee: { description: "only jobs assigned to this staff player (name or id)" },
      ...API_PAGING,
    },
    responses: {
      "200": { description: "jobs", schema: { type: "array", items: JOB } },
      "400": "an unknown query parameter, a value not allowed, or an assignee who is not staff",
      "401": "no token",
    },
  },
  "POST /api/v1/jobs": {
    summary: "Submit a job (status new)",
    auth: "user",
    body: {
      type: "object",
      properties: {
        title: { type: "string", minLength: 1, maxLength: MAX_TITLE },
        description: { type: "string", minLength: 1, maxLength: MAX_DESCRIPTION },
        category: CATEGORY,
        priority: { enum: [...PRIORITIES], default: "normal" },
      },
      required: ["title", "description"],
    },
    responses: {
      "201": { description: "the job", schema: JOB },
      "400": "a missing or too long title or description, or a value not allowed",
      "401": "no token",
      "409": "the caller has `plugins.jobs.maxOpenJobs` (20) jobs open (staff: no limit)",
      "429": REST_WRITE_LIMITED,
    },
  },
  "GET /api/v1/jobs/stats": {
    summary: "Counts of jobs by status, category and priority (every value, 0 included)",
    auth: "staff",
    responses: {
      "200": {
        description: "the counts",
        schema: {
          type: "object",
          properties: {
            total: { type: "integer" },
            status: { type: "object", additionalProperties: { type: "integer" } },
            category: { type: "object", additionalProperties: { type: "integer" } },
            priority: { type: "object", additionalProperties: { type: "integer" } },
          },
        },
      },
      "401": "no token",
      "403": "not staff",
    },
  },
  "GET /api/v1/jobs/:id": {
    summary: "One job with its comments (staff notes for staff only)",
    auth: "user",
    params: { id: ID },
    responses: {
      "200": {
        description: "the job",
        schema: {
          ...JOB,
          properties: { ...JOB.properties, commentList: { type: "array", items: COMMENT } },
        },
      },
      "401": "no token",
      "404": NOT_FOUND,
    },
  },
  "PATCH /api/v1/jobs/:id": {
    summary: "Change a job's status, priority, category, assignee or resolution",
    auth: "staff",
    params: { id: ID },
    body: {
      type: "object",
      properties: {
        status: { enum: [...STATUSES] },
        priority: { enum: [...PRIORITIES] },
        category: CATEGORY,
        assignee: {
          type: ["string", "null"],
          description: "a staff player's name or id; empty or null unassigns",
        },
        resolution: { type: "string", maxLength: MAX_COMMENT },
      },
      minProperties: 1,
      additionalProperties: false,
    },
    responses: {
      "200": { description: "the job", schema: JOB },
      "400": "nothing to change, an unknown field, a value not allowed, or a non-staff assignee",
      "401": "no token",
      "403": "not staff",
      "404": NOT_FOUND,
      "409": "the job changed meanwhile; try again",
    },
  },
  "DELETE /api/v1/jobs/:id": {
    summary: "Delete a job with its comments",
    auth: "staff",
    params: { id: ID },
    responses: {
      "200": {
        description: "deleted",
        schema: { type: "object", properties: { deleted: { const: true } } },
      },
      "401": "no token",
      "403": "not staff",
      "404": NOT_FOUND,
    },
  },
  "POST /api/v1/jobs/:id/comment": {
    summary: "Comment on a job (staff, or its submitter)",
    auth: "user",
    params: { id: ID },
    body: {
      type: "object",
      properties: {
        text: { type: "string", minLength: 1, maxLength: MAX_COMMENT },
        staffOnly: { type: "boolean", description: "a staff note (staff only)" },
      },
      required: ["text"],
    },
    responses: {
      "201": { description: "the comment", schema: COMMENT },
      "400": "no or too long text, or staffOnly not a boolean",
      "401": "no token",
      "403": "staffOnly from a player",
      "404": NOT_FOUND,
      "409": `the job already holds ${MAX_COMMENTS} comments`,
      "429": REST_WRITE_LIMITED,
    },
  },
};
