/**
 * The mail plugin: `@mail` in game and `/api/v1/mail` over REST, each recipient with their own
 * copy (read state, deletion). Unread mail is announced at login, new mail at once to online
 * recipients. Other plugins send through `ctx.api<MailApi>("mail")?.send(...)` (docs/mail.md).
 */
import { counted, type PluginContext, type PluginModule } from "../../src/plugins/mod.ts";
import { MailService, MAX_BODY, MAX_SUBJECT } from "./service.ts";
import { mailRoutes, PREFIX } from "./routes.ts";
import { mailCommands } from "./commands.ts";
import type { MailApi } from "./types.ts";
import { MailMirror } from "./mirror.ts";
import { mailDetailFunctions, mailFunction } from "./function.ts";

const plugin: PluginModule = {
  name: "mail",
  async init(ctx: PluginContext) {
    // Every mailbox in memory for softcode's mail(), while no other engine writes the store.
    const mirror = ctx.engine.soleWriter ? new MailMirror() : null;
    await mirror?.load(ctx.kv);
    const svc = new MailService(ctx, mirror);
    ctx.functions.add(mailFunction(mirror));
    for (const spec of mailDetailFunctions(mirror)) ctx.functions.add(spec);
    mailRoutes(ctx.http(PREFIX), svc, ctx.rates);
    for (const spec of mailCommands(svc)) ctx.commands.add(spec);
    ctx.hooks.worldHooks.on("player:connected", async (p) => {
      // A silent resume after a restart is not a login: nothing to announce.
      if (p.resumed) return;
      const { unread } = await svc.store.counts(p.id);
      if (!unread) return;
      ctx.deliver.toPlayer(p.id, {
        msg: `%ch[Mail]%cn You have ${counted(unread, "unread message")}. Type @mail to read ${
          unread === 1 ? "it" : "them"
        }.`,
        data: { type: "mail-unread", unread },
      });
    });
    // A player who is gone has no mailbox.
    ctx.hooks.worldHooks.on("player:removed", (p) => svc.store.drop(p.id));
    const api: MailApi = { send: (input) => svc.sendAs(input) };
    ctx.provide(api);
    ctx.portal.section({
      path: "mail",
      label: "Mail",
      order: 40,
      module: "mail.js",
      settings: { maxSubject: MAX_SUBJECT, maxBody: MAX_BODY },
      unread: `${PREFIX}/unread`,
    });
    return true;
  },
  remove() {},
};

export default plugin;
