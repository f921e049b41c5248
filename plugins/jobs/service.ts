/**
 * The jobs' rules, shared by REST and the in-game commands: who sees which job (players their
 * own, staff all), the exact enums, categories from configuration, limits, staff notes that
 * never reach a player, and telling people in game (and by mail, when the mail plugin is
 * loaded) of what happened.
 */
import {
  counted,
  type DbObject,
  type Delivery,
  ForbiddenError,
  isStaff,
  NotFoundError,
  type NoticeBatch,
  type NoticeOptions,
  onlyFields,
  type Page,
  type PlayerLookup,
  type PluginLog,
  type PluginNotices,
  type PluginWorld,
  requiredText,
  stripColour,
  ValidationError,
} from "../../src/plugins/mod.ts";
import {
  type Comment,
  type Job,
  type JobPriority,
  type JobStatus,
  type JobStore,
  PRIORITIES,
  STATUSES,
} from "./store.ts";

/** Longest job title. */
export const MAX_TITLE = 100;
/** Longest job description. */
export const MAX_DESCRIPTION = 8000;
/** Longest comment, staff note or resolution. */
export const MAX_COMMENT = 4000;
/** Default of `plugins.jobs.maxOpenJobs`: jobs a player has open (not resolved or closed). */
export const DEFAULT_MAX_OPEN_JOBS = 20;
/** Categories when `plugins.jobs.categories` is not set. */
export const DEFAULT_CATEGORIES = ["request", "bug", "build", "code", "rp"];

/**
 * The mail plugin's exported API as the jobs plugin uses it (`ctx.api("mail")`); agreed
 * with the mail plugin and documented in docs/jobs.md. Never imported.
 */
export interface MailApi {
  send(msg: { from: string; to: string[]; subject: string; body: string }): Promise<void>;
}

/** A job as a player sees it: without the staff-note count. */
export type JobView = Omit<Job, "staffNotes"> & { staffNotes?: number };

/** A job with its comments as the viewer may see them. */
export type JobDetail = JobView & { commentList: Comment[] };

/** A job as `viewer` may see it: a player is not even told how many staff notes it has. */
export function viewOf(job: Job, viewer: DbObject): JobView {
  if (isStaff(viewer.flags)) return job;
  const { staffNotes: _hidden, ...rest } = job;
  return rest;
}

/** Filters of a job list; each already checked against its enum. */
export interface JobFilter {
  status?: JobStatus;
  category?: string;
  priority?: JobPriority;
  assignee?: string;
}

/** What the service needs of the engine. */
export interface JobDeps {
  store: JobStore;
  deliver: Delivery;
  players: PlayerLookup;
  world: Pick<PluginWorld, "getMany" | "owningPlayer">;
  log: PluginLog;
  /** The configured categories (read each time: the configuration is live). */
  categories(): string[];
  /** The mail plugin's API when it is loaded and offers `send`, else undefined. */
  mail(): MailApi | undefined;
  /** Collapsing notices (`ctx.notices`): staff hear a burst as one line a minute. */
  notices(opts: NoticeOptions<StaffNotice>): PluginNotices<StaffNotice>;
}

/** A notice to online staff, and how a burst of its kind is told in one line. */
export interface StaffNotice {
  line: string;
  data: { type: string; [k: string]: unknown };
  /** Who is not told (whoever acted). */
  except: string[];
  /** The line for `count` more of this kind, this one the latest. */
  more(count: number): string;
}

/** One of `allowed`, or a 400 naming the allowed values. */
export function oneOf<T extends string>(raw: unknown, field: string, allowed: readonly T[]): T {
  const v = typeof raw === "string" ? raw.trim().toLowerCase() : raw;
  if (typeof v !== "string" || !(allowed as readonly string[]).includes(v)) {
    throw new ValidationError(`${field} must be one of: ${allowed.join(", ")}`);
  }
  return v as T;
}

/** Categories from a configuration value: lower-cased words, the defaults when unusable. */
export function categoriesFrom(value: unknown): string[] {
  if (!Array.isArray(value)) return DEFAULT_CATEGORIES;
  const list = [
    ...new Set(
      value.filter((c): c is string => typeof c === "string")
        .map((c) => c.trim().toLowerCase())
        .filter((c) => /^[a-z0-9][a-z0-9_-]{0,23}$/.test(c)),
    ),
  ];
  return list.length ? list : DEFAULT_CATEGORIES;
}

/** Job rules over a store. */
export class JobService {
  readonly #staffNews: PluginNotices<StaffNotice>;

  constructor(private readonly d: JobDeps) {
    this.#staffNews = d.notices({ deliver: (b) => this.#tellStaff(b) });
  }

  get store(): JobStore {
    return this.d.store;
  }

  /** The configured categories. */
  categories(): string[] {
    return this.d.categories();
  }

  /** The category for a new job when none is given: `request` when configured, else the first. */
  defaultCategory(): string {
    const cats = this.categories();
    return cats.includes("request") ? "request" : cats[0];
  }

  /**
   * A job by number (all digits, `#` allowed) or id that `viewer` may see: staff see every
   * job, a player only their own; 404 otherwise (another player's job does not exist for them).
   */
  async find(ref: string, viewer: DbObject): Promise<Job> {
    const r = String(ref ?? "").trim().replace(/^#/, "");
    let job: Job | null = null;
    if (/^[0-9]{1,15}$/.test(r)) job = await this.d.store.get(Number(r));
    else if (r.startsWith("job-") && r.length <= 64) job = await this.d.store.getById(r);
    if (!job || !this.canSee(job, viewer)) throw new NotFoundError("Job not found");
    return job;
  }

  /** True for staff and for the job's submitter. */
  canSee(job: Job, viewer: DbObject): boolean {
    return isStaff(viewer.flags) || job.submitter === viewer.id;
  }

  /** The job with the comments `viewer` may read (staff notes only for staff). */
  async detail(job: Job, viewer: DbObject): Promise<JobDetail> {
    const all = await this.d.store.comments(job.number);
    const commentList = isStaff(viewer.flags) ? all : all.filter((c) => !c.staffOnly);
    return { ...viewOf(job, viewer), commentList };
  }

  /**
   * One page of the jobs `viewer` may see that pass `filter`, newest first: a player's own
   * (their submitter index), staff's all; each combination of filters is an index of its own.
   */
  list(viewer: DbObject, filter: JobFilter, page: Page): Promise<Job[]> {
    const submitter = isStaff(viewer.flags) ? undefined : viewer.id;
    return this.d.store.list({ ...filter, submitter }, page);
  }

  /** Submits a job; online staff are told. */
  async submit(actor: DbObject, body: Record<string, unknown>): Promise<Job> {
    // A thing's request is its owning player's (MUX's Owner(), as its objects and mail are): filed
    // by that player, on that player's open requests. Filed as its own, each of a player's
    // thousand things had maxOpenJobs of its own, and its answers went to a thing.
    const p = await this.#owner(actor);
    // One line: the title is shown inside other lines (lists, the notice to staff).
    const title = requiredText(body.title, "title", MAX_TITLE, { oneLine: true });
    const description = requiredText(body.description, "description", MAX_DESCRIPTION);
    const category = body.category === undefined
      ? this.defaultCategory()
      : oneOf(body.category, "category", this.categories());
    const priority = body.priority === undefined
      ? "normal"
      : oneOf(body.priority, "priority", PRIORITIES);
    const job = await this.d.store.create({
      title,
      description,
      category,
      priority,
      status: "new",
      submitter: p.id,
      submitterName: p.name,
      assignee: null,
      assigneeName: null,
      resolution: null,
    }, isStaff(p.flags));
    await this.#staffNews.add("created", {
      line: `%ch[Jobs]%cn New job #${job.number} (${job.category}) from ${p.name}: ${job.title}`,
      data: { type: "job", event: "created", number: job.number },
      except: [p.id],
      more: (n) =>
        `%ch[Jobs]%cn ${counted(n, "more new job")}, up to #${job.number}, the latest ` +
        `from ${p.name}: ${job.title}`,
    });
    return job;
  }

  /**
   * A comment by the submitter or staff; a staff note (`staffOnly`) by staff only. The
   * submitter hears of staff comments (and gets mail); online staff hear of the submitter's.
   */
  async comment(job: Job, p: DbObject, textRaw: unknown, staffOnly = false): Promise<Comment> {
    const staff = isStaff(p.flags);
    if (staffOnly && !staff) throw new ForbiddenError("Only staff may write staff notes.");
    if (!staff && job.submitter !== p.id) throw new NotFoundError("Job not found");
    const text = requiredText(textRaw, "text", MAX_COMMENT);
    const done = await this.d.store.addComment(job.number, {
      author: p.id,
      authorName: p.name,
      text,
      staffOnly,
    });
    if (!done) throw new NotFoundError("Job not found");
    if (staffOnly) return done.comment;
    if (p.id !== job.submitter) {
      await this.#tellSubmitter(
        done.job,
        p,
        `%ch[Jobs]%cn ${p.name} commented on your request #${job.number}: ${text}`,
        `${p.name} commented on your request #${job.number} (${job.title}):\n\n${text}`,
        "commented",
      );
    } else {
      await this.#staffNews.add(`commented ${job.number}`, {
        line: `%ch[Jobs]%cn ${p.name} commented on job #${job.number}: ${text}`,
        data: { type: "job", event: "commented", number: job.number },
        except: [p.id],
        more: (n) =>
          `%ch[Jobs]%cn ${counted(n, "more comment")} by ${p.name} on job ` +
          `#${job.number}, the latest: ${text}`,
      });
    }
    return done.comment;
  }

  /**
   * Staff changes: status, priority, category, assignee (a player name or id; null or ""
   * unassigns; must be staff), resolution. A status change tells the submitter.
   */
  async change(job: Job, actor: DbObject, body: Record<string, unknown>): Promise<Job> {
    if (!isStaff(actor.flags)) throw new ForbiddenError("Only staff may change jobs.");
    const allowed = ["status", "priority", "category", "assignee", "resolution"];
    onlyFields(body, allowed);
    const status = body.status === undefined ? undefined : oneOf(body.status, "status", STATUSES);
    const priority = body.priority === undefined
      ? undefined
      : oneOf(body.priority, "priority", PRIORITIES);
    const category = body.category === undefined
      ? undefined
      : oneOf(body.category, "category", this.categories());
    const resolution = body.resolution === undefined
      ? undefined
      : requiredText(body.resolution, "resolution", MAX_COMMENT);
    let assignee: DbObject | null | undefined = undefined;
    if (body.assignee !== undefined) assignee = await this.assignee(body.assignee, actor);
    const next = await this.d.store.update(job.number, (j) => {
      if (status) j.status = status;
      if (priority) j.priority = priority;
      if (category) j.category = category;
      if (resolution !== undefined) j.resolution = resolution;
      if (assignee !== undefined) {
        j.assignee = assignee?.id ?? null;
        j.assigneeName = assignee?.name ?? null;
      }
    });
    if (!next) throw new NotFoundError("Job not found");
    if (status && status !== job.status) await this.#statusNews(next, actor);
    if (assignee && assignee.id !== job.assignee && assignee.id !== actor.id) {
      this.d.deliver.toPlayer(assignee.id, {
        msg: `%ch[Jobs]%cn ${actor.name} assigned job #${next.number} to you: ${next.title}`,
        data: { type: "job", event: "assigned", number: next.number },
      });
    }
    return next;
  }

  /** Resolves a job with a resolution note (`+job/complete`). */
  complete(job: Job, actor: DbObject, resolution: string): Promise<Job> {
    return this.change(job, actor, { status: "resolved", resolution });
  }

  /** Moves a closed or resolved job back to open; any other status is refused. */
  reopen(job: Job, actor: DbObject): Promise<Job> {
    if (job.status !== "closed" && job.status !== "resolved") {
      throw new ValidationError(
        `Job #${job.number} is ${job.status}; only a closed or resolved job can be reopened.`,
      );
    }
    return this.change(job, actor, { status: "open" });
  }

  /** Deletes a job (staff). */
  async remove(job: Job, actor: DbObject): Promise<void> {
    if (!isStaff(actor.flags)) throw new ForbiddenError("Only staff may delete jobs.");
    if (!(await this.d.store.delete(job))) throw new NotFoundError("Job not found");
  }

  /** The staff player an assignee value names (`me` is `actor`); null for "", null or `none`. */
  async assignee(raw: unknown, actor?: DbObject): Promise<DbObject | null> {
    if (raw === null) return null;
    if (typeof raw !== "string") throw new ValidationError("assignee must be a player name or id");
    const r = raw.trim();
    if (!r || r.toLowerCase() === "none" || r.toLowerCase() === "nobody") return null;
    const p = await this.d.players.find(r, actor);
    if (!p) throw new ValidationError(`No player named '${r.slice(0, 40)}'.`);
    if (!isStaff(p.flags)) throw new ValidationError(`${p.name} is not staff.`);
    return p;
  }

  /** `p` when it is a player, else the player owning it (refused when there is none). */
  async #owner(p: DbObject): Promise<DbObject> {
    const owner = await this.d.world.owningPlayer(p);
    if (!owner) throw new ForbiddenError("Only an object with an owner may file a request.");
    return owner;
  }

  /** Tells the submitter (in game and by mail) of a status change. */
  async #statusNews(job: Job, actor: DbObject): Promise<void> {
    if (actor.id === job.submitter) return;
    const res = job.status === "resolved" && job.resolution ? ` Resolution: ${job.resolution}` : "";
    await this.#tellSubmitter(
      job,
      actor,
      `%ch[Jobs]%cn Your request #${job.number} (${job.title}) is now ${job.status}.${res}`,
      `${actor.name} set your request #${job.number} (${job.title}) to ${job.status}.${
        res ? `\n\n${res.trim()}` : ""
      }`,
      "status",
    );
  }

  async #tellSubmitter(
    job: Job,
    actor: DbObject,
    line: string,
    mailBody: string,
    event: string,
  ): Promise<void> {
    this.d.deliver.toPlayer(job.submitter, {
      msg: line,
      data: { type: "job", event, number: job.number, status: job.status },
    });
    const mail = this.d.mail();
    if (!mail) return;
    try {
      await mail.send({
        from: actor.id,
        to: [job.submitter],
        subject: `Request #${job.number}: ${stripColour(job.title)}`.slice(0, 120),
        body: mailBody,
      });
    } catch (e) {
      // The in-game line went out; a mail failure must not undo the change that caused it.
      this.d.log.warn(`mail about job #${job.number} failed:`, (e as Error).message);
    }
  }

  /** Tells online staff: one notice, or the rest of a burst in one line. */
  async #tellStaff(batch: NoticeBatch<StaffNotice>) {
    const last = batch.items[batch.items.length - 1];
    const msg = batch.first ? last.line : last.more(batch.count);
    const data = batch.first ? last.data : { ...last.data, count: batch.count };
    // Whoever acted in every notice of the batch is not told of it.
    const except = last.except.filter((id) =>
      batch.count === batch.items.length && batch.items.every((x) => x.except.includes(id))
    );
    const online = this.d.players.online().filter((id) => !except.includes(id));
    if (!online.length) return;
    const staff = (await this.d.world.getMany(online)).filter((o) => isStaff(o.flags));
    if (staff.length) this.d.deliver.toPlayers(staff.map((o) => o.id), { msg, data });
  }
}
