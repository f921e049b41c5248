/**
 * `@mail` as MUSH players know it: the inbox with numbers (oldest first, so a number stays put
 * when new mail arrives), reading, sending, replying, forwarding, deleting and marking unread.
 */
import {
  CommandError,
  type CommandSdk,
  type CommandSpec,
  counted,
  padVisible,
} from "../../src/plugins/mod.ts";
import { type MailService, MAX_BODY, MAX_SUBJECT, message } from "./service.ts";
import type { MailHead } from "./types.ts";

/** Messages shown by `@mail` (the newest ones). */
const SHOWN = 50;

/** The `@mail` command. */
export function mailCommands(svc: MailService): CommandSpec[] {
  return [{
    name: "@mail",
    aliases: ["+mail"],
    switches: ["list", "read", "send", "reply", "forward", "delete", "unread"],
    category: "mail",
    help: "@mail, @mail <#>, @mail <players>=<subject>/<body>, @mail/reply <#>=<text>, " +
      "@mail/forward <#>=<players>, @mail/delete <#>, @mail/unread <#>. See 'help mail'.",
    async exec(u) {
      const sw = u.cmd.switches[0] ??
        (u.cmd.rhs !== null ? "send" : u.cmd.args.trim() ? "read" : "list");
      switch (sw) {
        case "list":
          return await list(svc, u);
        case "read":
          return await read(svc, u);
        case "send":
          return await send(svc, u);
        case "reply":
          return await reply(svc, u);
        case "forward":
          return await forward(svc, u);
        case "delete": {
          const head = await nth(svc, u, u.cmd.args, "@mail/delete <#>");
          await svc.store.delete(u.me.id, head.n);
          return u.send(`Message ${u.cmd.args.trim()} deleted.`);
        }
        case "unread": {
          const head = await nth(svc, u, u.cmd.args, "@mail/unread <#>");
          await svc.store.setRead(u.me.id, head.n, false);
          return u.send(`Message ${u.cmd.args.trim()} marked unread.`);
        }
      }
    },
  }];
}

async function list(svc: MailService, u: CommandSdk): Promise<void> {
  const { total, unread } = await svc.store.counts(u.me.id);
  if (!total) return u.send("You have no mail.");
  const offset = Math.max(0, total - SHOWN);
  const heads = await svc.store.inbox(u.me.id, { limit: SHOWN, offset }, false);
  // One layout for the header and the rows, so the columns cannot drift apart.
  const line = (flag: string, n: string, from: string, received: string, subject: string) =>
    `${flag} ${padVisible(n, 4, "right")}  ${padVisible(from, 16)} ${
      padVisible(received, 16)
    }  ${subject}`;
  const rows = heads.map((h, i) =>
    line(h.read ? " " : "%chU%cn", String(offset + i + 1), h.from, date(h.receivedAt), h.subject)
  );
  u.send(
    [
      `%ch${line(" ", "#", "From", "Received", "Subject")}%cn`,
      ...rows,
      `${counted(total, "message")}, ${unread} unread${
        offset ? `; showing the newest ${SHOWN}` : ""
      }. Read one with @mail <#>.`,
    ].join("\n"),
    { type: "mail-list", total, unread },
  );
}

async function read(svc: MailService, u: CommandSdk): Promise<void> {
  const head = await nth(
    svc,
    u,
    u.cmd.args,
    "@mail <#> to read, @mail <players>=<subject>/<body> to send",
  );
  const m = await svc.read(u.me.id, String(head.n));
  u.send(
    [
      `%chMessage ${u.cmd.args.trim().replace(/^#/, "")}%cn`,
      `From:    ${m.from}`,
      `To:      ${m.to.join(", ")}`,
      `Date:    ${date(m.sentAt)} UTC`,
      `Subject: ${m.subject}`,
      "",
      m.body,
    ].join("\n"),
    { type: "mail", message: m },
  );
}

async function send(svc: MailService, u: CommandSdk): Promise<void> {
  const rhs = u.cmd.rhs ?? "";
  const slash = rhs.indexOf("/");
  if (!u.cmd.lhs || slash === -1) {
    throw new CommandError("Usage: @mail <players>=<subject>/<body>");
  }
  const sent = await svc.send(u.me, u.cmd.lhs, rhs.slice(0, slash), rhs.slice(slash + 1));
  u.send(`Mail sent to ${sent.to.join(", ")}: ${sent.subject}`);
}

async function reply(svc: MailService, u: CommandSdk): Promise<void> {
  const usage = "@mail/reply <#>=<text>";
  if (u.cmd.rhs === null) throw new CommandError(`Usage: ${usage}`);
  const head = await nth(svc, u, u.cmd.lhs, usage);
  const subject = /^re:/i.test(head.subject) ? head.subject : `Re: ${head.subject}`;
  const sent = await svc.send(u.me, [`#${head.fromId}`], cut(subject, MAX_SUBJECT), u.cmd.rhs);
  u.send(`Reply sent to ${sent.to.join(", ")}: ${sent.subject}`);
}

async function forward(svc: MailService, u: CommandSdk): Promise<void> {
  const usage = "@mail/forward <#>=<players>";
  if (!u.cmd.rhs) throw new CommandError(`Usage: ${usage}`);
  const head = await nth(svc, u, u.cmd.lhs, usage);
  const got = await svc.store.get(u.me.id, head.n);
  if (!got) throw new CommandError("You have no such message.");
  const m = message(got.head, got.body);
  const body = [
    `---------- Forwarded by ${u.me.name} ----------`,
    `From: ${m.from}`,
    `Date: ${date(m.sentAt)} UTC`,
    `Subject: ${m.subject}`,
    "",
    m.body,
  ].join("\n");
  const sent = await svc.send(
    u.me,
    u.cmd.rhs,
    cut(`Fwd: ${m.subject}`, MAX_SUBJECT),
    cut(body, MAX_BODY),
  );
  u.send(`Message forwarded to ${sent.to.join(", ")}.`);
}

/** The inbox entry at position `text` (1 = oldest), or a clear refusal. */
async function nth(svc: MailService, u: CommandSdk, text: string, usage: string) {
  const m = /^#?(\d{1,6})$/.exec(text.trim());
  if (!m) throw new CommandError(`Usage: ${usage}`);
  const k = Number(m[1]);
  const [head] = k >= 1
    ? await svc.store.inbox(u.me.id, { limit: 1, offset: k - 1 }, false)
    : [] as MailHead[];
  if (!head) throw new CommandError(`You have no message ${k}.`);
  return head;
}

/** `2026-01-31 20:15` (UTC). */
function date(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16).replace("T", " ");
}

/** Text cut to `max` characters (code points). */
function cut(text: string, max: number): string {
  const cps = [...text];
  return cps.length <= max ? text : cps.slice(0, max).join("");
}
