/**
 * REST routes of the boards plugin, mounted at `/api/v1/boards` and `/api/v1/bbs`. Every
 * call needs a token; board create, update and delete need staff.
 */
import {
  caller,
  ForbiddenError,
  isStaff,
  onlyFields,
  optionalText,
  page,
  pageOf,
  type PluginApp,
  type PluginRates,
  readJson,
  requiredText,
  requireUser,
} from "../../src/plugins/mod.ts";
import {
  type BoardService,
  checkName,
  lockField,
  MAX_BODY,
  MAX_DESCRIPTION,
  MAX_SUBJECT,
} from "./service.ts";
import type { Board } from "./store.ts";

/** The prefixes the routes are mounted on. */
export const PREFIXES = ["/api/v1/boards", "/api/v1/bbs"];

/** Fields a board PATCH may change. */
const BOARD_FIELDS = ["name", "description", "readLock", "postLock"];
/** Fields a post PATCH may change. */
const POST_FIELDS = ["subject", "body"];

/** Adds the boards routes to one of the plugin's apps; `rates` meters the posts others hear of. */
export function boardRoutes(app: PluginApp, svc: BoardService, rates: PluginRates): void {
  app.use("*", requireUser());

  app.get("/", async (c) => {
    const me = caller(c);
    return c.json(pageOf(await svc.views(await svc.visible(me), me), page(c)));
  });

  app.post("/", async (c) => {
    const me = caller(c);
    if (!isStaff(me.flags)) throw new ForbiddenError("Only staff may create boards.");
    const body = await readJson(c);
    const { name, slug } = checkName(body.name);
    const board = await svc.store.createBoard({
      name,
      slug,
      description: optionalText(body.description, "description", MAX_DESCRIPTION),
      readLock: body.readLock === undefined ? "" : lockField(body.readLock, "readLock"),
      postLock: body.postLock === undefined ? "" : lockField(body.postLock, "postLock"),
      createdAt: Date.now(),
      createdBy: me.id,
    });
    return c.json((await svc.views([board], me))[0], 201);
  });

  app.get("/unread", async (c) => {
    const me = caller(c);
    const views = await svc.views(await svc.visible(me), me);
    const boards = views.filter((v) => v.unread > 0)
      .map(({ id, name, slug, unread }) => ({ id, name, slug, unread }));
    return c.json({ total: boards.reduce((n, b) => n + b.unread, 0), boards });
  });

  app.get("/:id", async (c) => {
    const me = caller(c);
    const board = await svc.find(c.req.param("id"), me);
    return c.json((await svc.views([board], me))[0]);
  });

  app.patch("/:id", async (c) => {
    const me = caller(c);
    const board = await svc.find(c.req.param("id"), me);
    if (!isStaff(me.flags)) throw new ForbiddenError("Only staff may change boards.");
    const body = await readJson(c);
    onlyFields(body, BOARD_FIELDS);
    const next: Board = { ...board };
    if (body.name !== undefined) Object.assign(next, checkName(body.name));
    if (body.description !== undefined) {
      next.description = optionalText(body.description, "description", MAX_DESCRIPTION);
    }
    if (body.readLock !== undefined) next.readLock = lockField(body.readLock, "readLock");
    if (body.postLock !== undefined) next.postLock = lockField(body.postLock, "postLock");
    await svc.store.updateBoard(board, next);
    return c.json((await svc.views([next], me))[0]);
  });

  app.delete("/:id", async (c) => {
    const me = caller(c);
    const board = await svc.find(c.req.param("id"), me);
    if (!isStaff(me.flags)) throw new ForbiddenError("Only staff may delete boards.");
    await svc.store.deleteBoard(board);
    return c.json({ deleted: true });
  });

  app.post("/:id/read", async (c) => {
    const me = caller(c);
    const board = await svc.find(c.req.param("id"), me);
    await svc.store.markBoardRead(board.id, me.id);
    return c.json({ id: board.id, unread: 0 });
  });

  app.get("/:id/posts", async (c) => {
    const me = caller(c);
    const board = await svc.find(c.req.param("id"), me);
    const posts = await svc.store.posts(board.id, page(c));
    return c.json(await svc.postViews(board, posts, me));
  });

  app.post("/:id/posts", rates.restWrite(), async (c) => {
    const me = caller(c);
    const board = await svc.find(c.req.param("id"), me);
    if (!svc.canPost(board, me)) throw new ForbiddenError("You may not post on that board.");
    const body = await readJson(c, { limit: 64 * 1024 });
    const post = await svc.post(board, me, body.subject, body.body);
    return c.json({ ...post, read: true }, 201);
  });

  app.get("/:id/posts/:num", async (c) => {
    const me = caller(c);
    const board = await svc.find(c.req.param("id"), me);
    const post = await svc.findPost(board, c.req.param("num"));
    // HEAD answers like GET but changes nothing: the post stays unread.
    if (c.req.method === "HEAD") return c.json((await svc.postViews(board, [post], me))[0]);
    return c.json(await svc.read(board, post, me));
  });

  app.patch("/:id/posts/:num", async (c) => {
    const me = caller(c);
    const board = await svc.find(c.req.param("id"), me);
    const post = await svc.findPost(board, c.req.param("num"));
    if (!svc.canChange(post, me)) {
      throw new ForbiddenError("Only the author or staff may edit a post.");
    }
    const body = await readJson(c, { limit: 64 * 1024 });
    onlyFields(body, POST_FIELDS);
    const next = { ...post, editedAt: Date.now() };
    if (body.subject !== undefined) {
      next.subject = requiredText(body.subject, "subject", MAX_SUBJECT, { oneLine: true });
    }
    if (body.body !== undefined) next.body = requiredText(body.body, "body", MAX_BODY);
    await svc.store.updatePost(next);
    const [view] = await svc.postViews(board, [next], me);
    return c.json(view);
  });

  app.delete("/:id/posts/:num", async (c) => {
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
