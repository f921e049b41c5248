/**
 * In-game commands of the jobs plugin: players' `+request` and `+requests`; staff's `+jobs`
 * and `+job` with its switches (assign, status, priority, category, complete, reopen,
 * staffnote, comment, delete).
 */
import {
  CommandError,
  type CommandSdk,
  type CommandSpec,
  type DbObject,
  padVisible,
  stripColour,
} from "../../src/plugins/mod.ts";
import { type JobDetail, type JobService, oneOf } from "./service.ts";
import { type Job, PRIORITIES, STATUSES } from "./store.ts";

const STAFF = "admin+";
const RULE = "%ch" + "-".repeat(78) + "%cn";
/** Jobs one list shows. */
const PER_PAGE = 50;

/** `YYYY-MM-DD HH:MM` (UTC) of a time in ms. */
function when(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16).replace("T", " ");
}

/** A job number from `#12` or `12`; usage error otherwise. */
function jobRef(raw: string, usage: string): string {
  const r = raw.trim().replace(/^#/, "");
  if (!/^[0-9]{1,15}$/.test(r)) throw new CommandError(usage);
  return r;
}

/** `<#>=<text>` of a switch, both required. */
function numAndText(u: CommandSdk, usage: string): [string, string] {
  if (u.cmd.rhs === null || !u.cmd.rhs.trim()) throw new CommandError(usage);
  return [jobRef(u.cmd.lhs, usage), u.cmd.rhs];
}

/** A page number argument (1 when empty). */
function pageArg(raw: string, usage: string): number {
  const r = raw.trim();
  if (!r) return 1;
  if (!/^[1-9][0-9]{0,5}$/.test(r)) throw new CommandError(usage);
  return Number(r);
}

/** One list row of a job. */
function row(j: Job, staff: boolean): string {
  const who = staff ? padVisible(stripColour(j.submitterName), 14) + " " : "";
  const asg = staff ? padVisible(j.assigneeName ? stripColour(j.assigneeName) : "-", 12) + " " : "";
  return `${padVisible(`#${j.number}`, 6)} ${padVisible(j.status, 11)} ${
    padVisible(j.priority, 8)
  } ${padVisible(j.category, 9)} ${who}${asg}${padVisible(j.title, staff ? 14 : 40)}`;
}

/** The full view of a job with the comments the viewer may read. */
function detail(d: JobDetail, staff: boolean): string {
  const lines = [
    RULE,
    `%chJob #${d.number}:%cn ${d.title}`,
    `%chStatus:%cn ${d.status}  %chPriority:%cn ${d.priority}  %chCategory:%cn ${d.category}`,
    `%chSubmitted by:%cn ${stripColour(d.submitterName)} on ${when(d.createdAt)}  ` +
    `%chAssigned to:%cn ${d.assigneeName ? stripColour(d.assigneeName) : "nobody"}`,
    RULE,
    d.description,
  ];
  if (d.resolution) lines.push(RULE, `%chResolution:%cn ${d.resolution}`);
  if (d.commentList.length) {
    lines.push(RULE);
    for (const c of d.commentList) {
      const tag = c.staffOnly ? " %cr(staff note)%cn" : "";
      lines.push(`%ch[${when(c.createdAt)}] ${stripColour(c.authorName)}${tag}:%cn ${c.text}`);
    }
  }
  lines.push(RULE);
  if (!staff) lines.push(`Comment with +request/comment ${d.number}=<text>.`);
  return lines.join("\n");
}

/** The jobs commands over a service; `categories` are the `+request/<category>` switches. */
export function jobCommands(svc: JobService, categories: string[]): CommandSpec[] {
  const requestCats = categories.filter((c) => c !== "comment");

  const listMine = async (u: CommandSdk, n: number) => {
    const jobs = await svc.list(u.me, {}, { limit: PER_PAGE + 1, offset: (n - 1) * PER_PAGE });
    if (!jobs.length) {
      return u.send(n === 1 ? "You have no requests." : `No requests on page ${n}.`);
    }
    u.send(
      [
        `%ch${padVisible("Job", 6)} ${padVisible("Status", 11)} ${padVisible("Priority", 8)} ${
          padVisible("Category", 9)
        } Title%cn`,
        ...jobs.slice(0, PER_PAGE).map((j) => row(j, false)),
        ...(jobs.length > PER_PAGE ? [`More: +requests ${n + 1}`] : []),
        "See one with +request <#>.",
      ].join("\n"),
    );
  };

  const show = async (u: CommandSdk, ref: string, staff: boolean) => {
    const job = await svc.find(ref, u.me);
    const d = await svc.detail(job, u.me);
    u.send(detail(d, staff), { type: "job", number: job.number });
  };

  const staffJob = (u: CommandSdk, ref: string): Promise<Job> => svc.find(ref, u.me);

  return [
    {
      name: "+request",
      switches: ["comment", ...requestCats],
      category: "jobs",
      help: "+request <title>=<text> asks staff for something; +request/<category> files it " +
        "under a category; +request <#> shows one of yours; +request/comment <#>=<text>.",
      async exec(u) {
        const sw = u.cmd.switches[0];
        if (sw === "comment") {
          const [ref, text] = numAndText(u, "Usage: +request/comment <#>=<text>");
          const job = await svc.find(ref, u.me);
          await svc.comment(job, u.me, text);
          return u.send(`You comment on request #${job.number}.`);
        }
        if (u.cmd.rhs === null) {
          const arg = u.cmd.args.trim();
          if (!arg && !sw) return await listMine(u, 1);
          if (/^#?[0-9]+$/.test(arg) && !sw) return await show(u, arg, false);
          throw new CommandError("Usage: +request <title>=<text>, or +request <#>");
        }
        const job = await svc.submit(u.me, {
          title: u.cmd.lhs,
          description: u.cmd.rhs,
          ...(sw ? { category: sw } : {}),
        });
        u.send(
          `Your request #${job.number} (${job.category}) is filed: ${job.title}. ` +
            "Staff will answer; see it with +request " + job.number + ".",
        );
      },
    },
    {
      name: "+requests",
      category: "jobs",
      help: "+requests [<page>] lists your requests.",
      async exec(u) {
        await listMine(u, pageArg(u.cmd.args, "Usage: +requests [<page>]"));
      },
    },
    {
      name: "+jobs",
      lock: STAFF,
      category: "jobs",
      help: "+jobs [<page>] lists the jobs not yet resolved or closed, newest activity first.",
      async exec(u) {
        const n = pageArg(u.cmd.args, "Usage: +jobs [<page>]");
        const jobs = await svc.store.active({ limit: PER_PAGE + 1, offset: (n - 1) * PER_PAGE });
        if (!jobs.length) {
          return u.send(n === 1 ? "There are no open jobs." : `No jobs on page ${n}.`);
        }
        u.send(
          [
            `%ch${padVisible("Job", 6)} ${padVisible("Status", 11)} ${padVisible("Priority", 8)} ${
              padVisible("Category", 9)
            } ${padVisible("Submitter", 14)} ${padVisible("Assignee", 12)} Title%cn`,
            ...jobs.slice(0, PER_PAGE).map((j) => row(j, true)),
            ...(jobs.length > PER_PAGE ? [`More: +jobs ${n + 1}`] : []),
          ].join("\n"),
          { type: "jobs", jobs: jobs.slice(0, PER_PAGE).map((j) => j.number) },
        );
      },
    },
    {
      name: "+job",
      lock: STAFF,
      switches: [
        "assign",
        "status",
        "priority",
        "category",
        "complete",
        "reopen",
        "staffnote",
        "comment",
        "delete",
      ],
      category: "jobs",
      help: "+job <#> shows a job; switches: /assign, /status, /priority, /category, " +
        "/complete, /reopen, /staffnote, /comment, /delete. See 'help jobs'.",
      async exec(u) {
        const sw = u.cmd.switches[0];
        const me: DbObject = u.me;
        if (!sw) return await show(u, jobRef(u.cmd.args, "Usage: +job <#>"), true);
        if (sw === "reopen" || sw === "delete") {
          const job = await staffJob(u, jobRef(u.cmd.args, `Usage: +job/${sw} <#>`));
          if (sw === "delete") {
            await svc.remove(job, me);
            return u.send(`Job #${job.number} deleted.`);
          }
          await svc.reopen(job, me);
          return u.send(`Job #${job.number} reopened.`);
        }
        const usage = {
          assign: "Usage: +job/assign <#>=<player>",
          status: `Usage: +job/status <#>=<${STATUSES.join("|")}>`,
          priority: `Usage: +job/priority <#>=<${PRIORITIES.join("|")}>`,
          category: `Usage: +job/category <#>=<${svc.categories().join("|")}>`,
          complete: "Usage: +job/complete <#>=<resolution>",
          staffnote: "Usage: +job/staffnote <#>=<text>",
          comment: "Usage: +job/comment <#>=<text>",
        }[sw]!;
        const [ref, text] = numAndText(u, usage);
        const job = await staffJob(u, ref);
        if (sw === "assign") {
          const next = await svc.change(job, me, { assignee: text });
          return u.send(
            next.assigneeName
              ? `Job #${job.number} assigned to ${next.assigneeName}.`
              : `Job #${job.number} unassigned.`,
          );
        }
        if (sw === "status" || sw === "priority" || sw === "category") {
          const allowed = sw === "status"
            ? STATUSES
            : sw === "priority"
            ? PRIORITIES
            : svc.categories();
          const value = oneOf(text, sw, allowed);
          await svc.change(job, me, { [sw]: value });
          return u.send(`Job #${job.number} ${sw} set to ${value}.`);
        }
        if (sw === "complete") {
          await svc.complete(job, me, text);
          return u.send(`Job #${job.number} resolved.`);
        }
        await svc.comment(job, me, text, sw === "staffnote");
        u.send(
          sw === "staffnote"
            ? `Staff note added to job #${job.number}.`
            : `You comment on job #${job.number}.`,
        );
      },
    },
  ];
}
