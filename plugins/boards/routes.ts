/**
 * REST routes of the boards plugin, mounted at `/api/v1/boards` and `/api/v1/bbs`. Every
 * call needs a token; board create, update and delete need staff.
 */
import {
  caller,
  describe,
  ForbiddenError,
  isStaff,
  MAX_LOCK_LENGTH,
  pageOf,
  type PluginApp,
  type PluginRates,
  requireUser,
  REST_WRITE_LIMITED,
  s,
} from "../../src/plugins/mod.ts";
import {
  type BoardService,
  checkName,
  MAX_BODY,
  MAX_DESCRIPTION,
  MAX_NAME,
  MAX_SUBJECT,
} from "./service.ts";
import { type Board, MAX_BOARDS } from "./store.ts";

/** The prefixes the routes are mounted on (the same routes on each). */
export const PREFIXES = ["/api/v1/boards", "/api/v1/bbs"];

const BOARD = {
  type: "object",
  properties: {
    id: { type: "string", description: "the board's number" },
    name: { type: "string" },
    slug: { type: "string" },
    description: { type: "string" },
    posts: { type: "integer" },
    unread: { type: "integer", description: "for the caller" },
    readLock: { type: "string", description: "staff only" },
    postLock: { type: "string", description: "staff only" },
    createdAt: { type: "number" },
  },
};

const POST = {
  type: "object",
  properties: {
    board: { type: "string" },
    num: { type: "integer", description: "per board, never reused" },
    subject: { type: "string" },
    body: { type: "string" },
    author: { type: "string" },
    authorName: { type: "string" },
    createdAt: { type: "number" },
    editedAt: { type: ["number", "null"] },
    read: { type: "boolean", description: "for the caller" },
  },
};

const NAME = s.custom({
  type: "string",
  minLength: 1,
  maxLength: MAX_NAME,
  pattern: "^[A-Za-z0-9][A-Za-z0-9 _'.-]*$",
  description: "its slug may be neither all digits nor `unread`",
}, checkName);
const DESCRIPTION = s.text(MAX_DESCRIPTION, { empty: true });
// Checked by `svc.lockAs` once the caller is known to be staff: names resolve as the caller sees them.
const LOCK = s.later(
  s.custom({
    type: "string",
    maxLength: MAX_LOCK_LENGTH,
    description:
      "a lock as @lock takes it (me, here, *player, a name where the caller stands, #dbref, flags, " +
      "builder+, attr:value, =, +, $, @...); names are stored as dbrefs; empty: everyone",
  }, String),
);
// One line: a subject is a row of the board's list.
const SUBJECT = s.text(MAX_SUBJECT, { oneLine: true });
const BODY = s.text(MAX_BODY);

/** Posts carry a whole body of multi-byte text. */
const POST_LIMIT = 64 * 1024;

const DELETED = {
  description: "deleted",
  schema: { type: "object", properties: { deleted: { const: true } } },
};
const PARAMS = { id: "the board's number (`2`) or slug (`staff-news`)", num: "the post's number" };
const NO_BOARD = "no such board, or one the caller may not read";
const NO_POST = "no such board or post";

const LIST = describe({
  summary: "Boards the caller can read",
  auth: "user",
  query: { paging: true },
  responses: {
    "200": { description: "boards", schema: { type: "array", items: BOARD } },
    "400": "a bad limit or offset",
    "401": "no token",
  },
});

const CREATE = describe({
  summary: "Create a board",
  auth: "staff",
  body: {
    schema: s.object({
      name: NAME,
      description: DESCRIPTION,
      readLock: s.optional(LOCK),
      postLock: s.optional(LOCK),
    }),
  },
  responses: {
    "201": { description: "the board", schema: BOARD },
    "400": "a missing or bad name, a too long description, a lock that does not parse",
    "401": "no token",
    "403": "not staff",
    "409": `a board with that slug exists, or the game holds ${MAX_BOARDS} boards`,
  },
});

const UNREAD = describe({
  summary: "Boards with posts the caller has not read",
  auth: "user",
  responses: {
    "200": {
      description: "unread counts",
      schema: {
        type: "object",
        properties: {
          unread: {
            type: "integer",
            description: "unread posts on every board (the menu's badge)",
          },
          total: { type: "integer", description: "the same number (its older name)" },
          boards: {
            type: "array",
            items: {
              type: "object",
              properties: {
                id: { type: "string" },
                name: { type: "string" },
                slug: { type: "string" },
                unread: { type: "integer" },
              },
            },
          },
        },
      },
    },
    "401": "no token",
  },
});

const ONE = describe({
  summary: "One board",
  auth: "user",
  params: PARAMS,
  responses: {
    "200": { description: "the board", schema: BOARD },
    "401": "no token",
    "404": NO_BOARD,
  },
});

const CHANGE = describe({
  summary: "Change a board's name, description or locks",
  auth: "staff",
  params: PARAMS,
  body: {
    schema: s.object({
      name: s.optional(NAME),
      description: s.optional(DESCRIPTION),
      readLock: s.optional(LOCK),
      postLock: s.optional(LOCK),
    }, { only: true }),
  },
  responses: {
    "200": { description: "the board", schema: BOARD },
    "400": "nothing to change, an unknown field, or a bad value",
    "401": "no token",
    "403": "not staff",
    "404": NO_BOARD,
    "409": "the new slug is taken, or the board changed meanwhile",
  },
});

const DELETE = describe({
  summary: "Delete a board with every post and read state",
  auth: "staff",
  params: PARAMS,
  responses: { "200": DELETED, "401": "no token", "403": "not staff", "404": NO_BOARD },
});

const READ_ALL = describe({
  summary: "Mark every post of a board read for the caller",
  auth: "user",
  params: PARAMS,
  responses: {
    "200": {
      description: "marked",
      schema: { type: "object", properties: { id: { type: "string" }, unread: { const: 0 } } },
    },
    "401": "no token",
    "404": NO_BOARD,
  },
});

const POSTS = describe({
  summary: "A board's posts, oldest first",
  auth: "user",
  params: PARAMS,
  query: { paging: true },
  responses: {
    "200": { description: "posts", schema: { type: "array", items: POST } },
    "400": "a bad limit or offset",
    "401": "no token",
    "404": NO_BOARD,
  },
});

const WRITE = describe({
  summary: "Post on a board (needs its post lock)",
  auth: "user",
  params: PARAMS,
  body: { schema: s.object({ subject: SUBJECT, body: BODY }), limit: POST_LIMIT },
  responses: {
    "201": { description: "the post (read for its author)", schema: POST },
    "400": "no or too long subject or body",
    "401": "no token",
    "403": "the caller does not pass the post lock",
    "404": NO_BOARD,
    "409": "the board is gone",
    "429":
      `the caller posted \`plugins.boards.postsPerDay\` (25) times on this board today (staff: no limit); or ${REST_WRITE_LIMITED}`,
  },
});

const READ = describe({
  summary: "Read a post (marks it read for the caller; a HEAD does not)",
  auth: "user",
  params: PARAMS,
  responses: {
    "200": { description: "the post", schema: POST },
    "401": "no token",
    "404": NO_POST,
  },
});

const EDIT = describe({
  summary: "Edit a post (its author or staff)",
  auth: "user",
  params: PARAMS,
  body: {
    schema: s.object({ subject: s.optional(SUBJECT), body: s.optional(BODY) }, { only: true }),
    limit: POST_LIMIT,
  },
  responses: {
    "200": { description: "the post (`editedAt` set)", schema: POST },
    "400": "nothing to change, an unknown field, or an empty or too long subject or body",
    "401": "no token",
    "403": "not the author or staff",
    "404": NO_POST,
    "409": "the post changed or is gone; try again",
  },
});

const REMOVE = describe({
  summary: "Delete a post (its author or staff); its number is never reused",
  auth: "user",
  params: PARAMS,
  responses: {
    "200": DELETED,
    "401": "no token",
    "403": "not the author or staff",
    "404": NO_POST,
  },
});

/** Adds the boards routes to one of the plugin's apps; `rates` meters the posts others hear of. */
export function boardRoutes(app: PluginApp, svc: BoardService, rates: PluginRates): void {
  app.use("*", requireUser());

  app.get("/", LIST, async (c) => {
    const me = caller(c);
    return c.json(pageOf(await svc.views(await svc.visible(me), me), LIST.query(c).page));
  });

  app.post("/", CREATE, async (c) => {
    const me = caller(c);
    if (!isStaff(me.flags)) throw new ForbiddenError("Only staff may create boards.");
    const body = await CREATE.body(c);
    const { name, slug } = body.name;
    const board = await svc.store.createBoard({
      name,
      slug,
      description: body.description,
      readLock: await svc.lockAs(me, body.readLock ?? "", "readLock"),
      postLock: await svc.lockAs(me, body.postLock ?? "", "postLock"),
      createdAt: Date.now(),
      createdBy: me.id,
    });
    return c.json((await svc.views([board], me))[0], 201);
  });

  app.get("/unread", UNREAD, async (c) => {
    const me = caller(c);
    const views = await svc.views(await svc.visible(me), me);
    const boards = views.filter((v) => v.unread > 0)
      .map(({ id, name, slug, unread }) => ({ id, name, slug, unread }));
    const unread = boards.reduce((n, b) => n + b.unread, 0);
    return c.json({ unread, total: unread, boards });
  });

  app.get("/:id", ONE, async (c) => {
    const me = caller(c);
    const board = await svc.find(c.req.param("id"), me);
    return c.json((await svc.views([board], me))[0]);
  });

  app.patch("/:id", CHANGE, async (c) => {
    const me = caller(c);
    const board = await svc.find(c.req.param("id"), me);
    if (!isStaff(me.flags)) throw new ForbiddenError("Only staff may change boards.");
    const body = await CHANGE.body(c);
    const next: Board = { ...board };
    if (body.name !== undefined) Object.assign(next, body.name);
    if (body.description !== undefined) next.description = body.description;
    if (body.readLock !== undefined) {
      next.readLock = await svc.lockAs(me, body.readLock, "readLock");
    }
    if (body.postLock !== undefined) {
      next.postLock = await svc.lockAs(me, body.postLock, "postLock");
    }
    await svc.store.updateBoard(board, next);
    return c.json((await svc.views([next], me))[0]);
  });

  app.delete("/:id", DELETE, async (c) => {
    const me = caller(c);
    const board = await svc.find(c.req.param("id"), me);
    if (!isStaff(me.flags)) throw new ForbiddenError("Only staff may delete boards.");
    await svc.store.deleteBoard(board);
    return c.json({ deleted: true });
  });

  app.post("/:id/read", READ_ALL, async (c) => {
    const me = caller(c);
    const board = await svc.find(c.req.param("id"), me);
    await svc.store.markBoardRead(board.id, me.id);
    return c.json({ id: board.id, unread: 0 });
  });

  app.get("/:id/posts", POSTS, async (c) => {
    const me = caller(c);
    const board = await svc.find(c.req.param("id"), me);
    const posts = await svc.store.posts(board.id, POSTS.query(c).page);
    return c.json(await svc.postViews(board, posts, me));
  });

  app.post("/:id/posts", WRITE, rates.restWrite(), async (c) => {
    const me = caller(c);
    const board = await svc.find(c.req.param("id"), me);
    if (!svc.canPost(board, me)) throw new ForbiddenError("You may not post on that board.");
    const body = await WRITE.body(c);
    const post = await svc.post(board, me, body.subject, body.body);
    return c.json({ ...post, read: true }, 201);
  });

  app.get("/:id/posts/:num", READ, async (c) => {
    const me = caller(c);
    const board = await svc.find(c.req.param("id"), me);
    const post = await svc.findPost(board, c.req.param("num"));
    // HEAD answers like GET but changes nothing: the post stays unread.
    if (c.req.method === "HEAD") return c.json((await svc.postViews(board, [post], me))[0]);
    return c.json(await svc.read(board, post, me));
  });

  app.patch("/:id/posts/:num", EDIT, async (c) => {
    const me = caller(c);
    const board = await svc.find(c.req.param("id"), me);
    const post = await svc.findPost(board, c.req.param("num"));
    if (!svc.canChange(post, me)) {
      throw new ForbiddenError("Only the author or staff may edit a post.");
    }
    const body = await EDIT.body(c);
    const next = { ...post, editedAt: Date.now() };
    if (body.subject !== undefined) next.subject = body.subject;
    if (body.body !== undefined) next.body = body.body;
    await svc.store.updatePost(next);
    const [view] = await svc.postViews(board, [next], me);
    return c.json(view);
  });

  app.delete("/:id/posts/:num", REMOVE, async (c) => {
    const me = caller(c);
    const board = await svc.find(c.req.param("id"), me);
    const post = await svc.findPost(board, c.req.param("num"));
    if (!svc.canChange(post, me)) {
      throw new ForbiddenError("Only the author or staff may delete a post.");
    }
    await svc.store.deletePost(post);
    return c.json({ deleted: true });
  });
}
