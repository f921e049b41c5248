/**
 * REST routes of the mail plugin under `/api/v1/mail` (all need a token). A player reaches
 * only their own copies: any other id answers 404, as if it did not exist.
 */
import {
  caller,
  page,
  type PluginApp,
  type PluginRates,
  readJson,
  requireUser,
} from "../../src/plugins/mod.ts";
import { type MailService, MAX_BODY } from "./service.ts";

/** The prefix the routes are mounted on. */
export const PREFIX = "/api/v1/mail";

/** Adds the mail routes to the plugin's app; `rates` meters the sends others receive. */
export function mailRoutes(app: PluginApp, svc: MailService, rates: PluginRates): void {
  app.use("*", requireUser());

  app.get("/", async (c) => c.json(await svc.inbox(caller(c).id, page(c))));

  app.post("/", rates.restWrite(), async (c) => {
    // A full body of multi-byte text, with room for the rest of the message.
    const b = await readJson(c, { limit: MAX_BODY * 4 + 16 * 1024 });
    return c.json(await svc.send(caller(c), b.to, b.subject, b.body), 201);
  });

  // HEAD answers like GET but changes nothing: the message stays unread.
  app.get(
    "/:id",
    async (c) => c.json(await svc.read(caller(c).id, c.req.param("id"), c.req.method !== "HEAD")),
  );

  app.delete("/:id", async (c) => {
    await svc.remove(caller(c).id, c.req.param("id"));
    return c.json({ deleted: true });
  });
}
