/**
 * Jobs and their comments in the plugin's KV space. Every change of a job moves its index
 * entries and counts in the same checked commit, so lists and stats never disagree with the
 * records. Permission checks live in the service.
 */
import {
  ConflictError,
  type KeyParts,
  type Page,
  type PluginAtomic,
  type PluginKv,
  type PluginQuota,
} from "../../src/plugins/mod.ts";
import {
  type CountField,
  FILTER_FIELDS,
  type FilterField,
  type IndexField,
  jobKeys as K,
} from "./keys.ts";

/** Job statuses, in the order a job usually moves through them. */
export const STATUSES = ["new", "open", "pending", "in-progress", "resolved", "closed"] as const;
/** Job priorities, lowest first. */
export const PRIORITIES = ["low", "normal", "high", "critical"] as const;

/** A job status. */
export type JobStatus = typeof STATUSES[number];
/** A job priority. */
export type JobPriority = typeof PRIORITIES[number];

/** Statuses of a job that is done: it leaves the activity index (`+jobs`). */
export const DONE: readonly JobStatus[] = ["resolved", "closed"];

/** A job as stored. */
export interface Job {
  /** Never a plain number, so `/jobs/12` can only mean job number 12. */
  id: string;
  number: number;
  title: string;
  description: string;
  category: string;
  priority: JobPriority;
  status: JobStatus;
  submitter: string;
  submitterName: string;
  assignee: string | null;
  assigneeName: string | null;
  resolution: string | null;
  createdAt: number;
  updatedAt: number;
  /** Comments written so far (they are their own keys). */
  comments: number;
  /** Staff notes written so far; left out of everything a player is shown. */
  staffNotes: number;
}

/** A comment, or a staff-only note. */
export interface Comment {
  id: string;
  job: number;
  author: string;
  authorName: string;
  text: string;
  /** A staff note: never shown to a player. */
  staffOnly: boolean;
  createdAt: number;
}

/** Most comments and notes one job holds (they are read whole with the job). */
export const MAX_COMMENTS = 500;

const ONE = 1n;
/** Adding 2^64 - 1 wraps around: a sum mutation that subtracts one. */
const MINUS_ONE = 0xffff_ffff_ffff_ffffn;

/** The indexed values of a job. */
function indexed(job: Job): Record<IndexField, string | null> {
  return {
    status: job.status,
    category: job.category,
    priority: job.priority,
    assignee: job.assignee,
  };
}

const COUNTED: CountField[] = ["status", "category", "priority"];

/** Jobs whose combined index entries are written in one commit while filling them at start. */
const FILL_BATCH = 25;

/** The filter values of a job, in FILTER_FIELDS order (null: the job has none, no assignee). */
function filterValues(job: Job): (string | null)[] {
  return [job.submitter, job.status, job.category, job.priority, job.assignee];
}

/**
 * The combined index keys of a job: one per combination of two or more of its filter values
 * (at most 26), so a list filtered on any of them walks only the jobs that match.
 */
export function comboKeys(job: Job): KeyParts[] {
  const values = filterValues(job);
  const out: KeyParts[] = [];
  for (let mask = 1; mask < 1 << FILTER_FIELDS.length; mask++) {
    const picked = FILTER_FIELDS.map((_, i) => i).filter((i) => mask & (1 << i));
    if (picked.length < 2 || picked.some((i) => values[i] === null)) continue;
    const fields = picked.map((i) => FILTER_FIELDS[i]).join("+");
    out.push(K.combo(fields, picked.map((i) => values[i]!), job.number));
  }
  return out;
}

/** The index that lists exactly the jobs with every given value, newest number last. */
export function filterIndex(filter: Partial<Record<FilterField, string>>): KeyParts {
  const given = FILTER_FIELDS.filter((f) => filter[f] !== undefined);
  if (given.length === 0) return K.allPrefix();
  if (given.length === 1) {
    const f = given[0];
    return f === "submitter" ? ["by_sub", filter.submitter!] : K.fieldPrefix(f, filter[f]!);
  }
  return K.comboPrefix(given.join("+"), given.map((f) => filter[f]!));
}

/** True for a job not yet resolved or closed (what the open-jobs quota counts). */
export function isOpen(job: Job | null): boolean {
  return !!job && !DONE.includes(job.status);
}

/** Persistent jobs. */
export class JobStore {
  /**
   * `open` counts each submitter's open jobs in the same commits as the jobs (absent in unit
   * tests of the store alone: then nothing is counted).
   */
  constructor(private readonly kv: PluginKv, private readonly open?: PluginQuota) {}

  /**
   * Adds a job with the next number, its indexes and counts in one commit, with its
   * submitter's open jobs (refused at the quota unless `exempt`).
   */
  async create(
    input: Omit<Job, "id" | "number" | "createdAt" | "updatedAt" | "comments" | "staffNotes">,
    exempt = false,
  ): Promise<Job> {
    let job: Job | null = null;
    await this.kv.next(K.jobCounter, async (n, op) => {
      if (isOpen(input as Job)) await this.open?.take(op, input.submitter, { exempt });
      const now = Date.now();
      job = {
        id: `job-${crypto.randomUUID()}`,
        number: n,
        ...input,
        createdAt: now,
        updatedAt: now,
        comments: 0,
        staffNotes: 0,
      };
      op.check({ key: this.kv.key(...K.job(n)), versionstamp: null })
        .set(this.kv.key(...K.job(n)), job)
        .set(this.kv.key(...K.byId(job.id)), K.job(n))
        .set(this.kv.key(...K.all(n)), K.job(n))
        .set(this.kv.key(...K.bySubmitter(job.submitter, n)), K.job(n));
      this.#indexes(op, null, job);
    });
    return job!;
  }

  /** A job by number, or null. */
  get(num: number): Promise<Job | null> {
    return this.kv.get<Job>(K.job(num));
  }

  /** A job by id, or null. */
  async getById(id: string): Promise<Job | null> {
    const ref = await this.kv.get<KeyParts>(K.byId(id));
    return ref ? await this.kv.get<Job>(ref) : null;
  }

  /**
   * Applies `change` to the current job and writes it with its index moves in one checked
   * commit (retried when the job changed meanwhile). Null when the job is gone.
   */
  async update(num: number, change: (job: Job) => void): Promise<Job | null> {
    for (let attempt = 0; attempt < 10; attempt++) {
      const entry = await this.kv.getEntry<Job>(K.job(num));
      if (!entry.value) return null;
      const next: Job = { ...entry.value, updatedAt: Date.now() };
      change(next);
      const op = this.kv.atomic().check(entry).set(this.kv.key(...K.job(num)), next);
      this.#indexes(op, entry.value, next);
      await this.#countOpen(op, entry.value, next);
      if ((await op.commit()).ok) return next;
    }
    throw new ConflictError("The job is changing too often; try again.");
  }

  /**
   * Adds a comment as its own key, in the same commit as the job's new activity time and
   * comment count. Null when the job is gone.
   */
  async addComment(
    num: number,
    input: Omit<Comment, "id" | "job" | "createdAt">,
  ): Promise<{ job: Job; comment: Comment } | null> {
    let out: { job: Job; comment: Comment } | null = null;
    let gone = false;
    await this.kv.next(K.commentCounter, async (seq, op) => {
      const entry = await this.kv.getEntry<Job>(K.job(num));
      if (!entry.value) {
        gone = true;
        return true;
      }
      if (entry.value.comments + entry.value.staffNotes >= MAX_COMMENTS) {
        throw new ConflictError(`A job holds at most ${MAX_COMMENTS} comments.`);
      }
      const now = Date.now();
      const comment: Comment = { id: String(seq), job: num, ...input, createdAt: now };
      const job: Job = {
        ...entry.value,
        updatedAt: now,
        comments: entry.value.comments + (input.staffOnly ? 0 : 1),
        staffNotes: entry.value.staffNotes + (input.staffOnly ? 1 : 0),
      };
      op.check(entry)
        .set(this.kv.key(...K.comment(num, seq)), comment)
        .set(this.kv.key(...K.job(num)), job);
      this.#indexes(op, entry.value, job);
      out = { job, comment };
    });
    return gone ? null : out;
  }

  /** A job's comments and notes, oldest first. */
  comments(num: number): Promise<Comment[]> {
    return this.kv.values<Comment>(K.comments(num), MAX_COMMENTS + 10);
  }

  /** Deletes a job with its indexes, counts and comments. */
  async delete(job: Job): Promise<boolean> {
    for (let attempt = 0; attempt < 10; attempt++) {
      const entry = await this.kv.getEntry<Job>(K.job(job.number));
      if (!entry.value) return false;
      const cur = entry.value;
      const op = this.kv.atomic().check(entry)
        .delete(this.kv.key(...K.job(cur.number)))
        .delete(this.kv.key(...K.byId(cur.id)))
        .delete(this.kv.key(...K.all(cur.number)))
        .delete(this.kv.key(...K.bySubmitter(cur.submitter, cur.number)));
      this.#indexes(op, cur, null);
      await this.#countOpen(op, cur, null);
      if (!(await op.commit()).ok) continue;
      await this.kv.deletePrefix(K.comments(cur.number));
      return true;
    }
    throw new ConflictError("The job changed; try again.");
  }

  /**
   * One page of the jobs with every value of `filter`, newest number first: each combination
   * of filters has an index of its own, so a filter that matches nothing reads nothing.
   */
  list(filter: Partial<Record<FilterField, string>>, page: Page): Promise<Job[]> {
    return this.kv.slicePage<Job>(filterIndex(filter), page, { reverse: true });
  }

  /**
   * Writes the combined index entries of every job stored before they existed (a database of
   * an older version), once: afterwards a marker says they are there. Runs before the routes
   * and commands are registered, so no change races it.
   */
  async fillComboIndex(): Promise<number> {
    if (await this.kv.get(K.comboReady())) return 0;
    let filled = 0;
    let batch: KeyParts[] = [];
    const flush = async () => {
      const op = this.kv.atomic();
      for (const job of await this.kv.getMany<Job>(batch)) {
        if (!job) continue;
        for (const k of comboKeys(job)) op.set(this.kv.key(...k), K.job(job.number));
        filled++;
      }
      await op.commit();
      batch = [];
    };
    for await (const e of this.kv.list<KeyParts>(K.allPrefix(), { batchSize: 200 })) {
      if (batch.push(e.value) >= FILL_BATCH) await flush();
    }
    if (batch.length) await flush();
    await this.kv.set(K.comboReady(), true);
    return filled;
  }

  /** One page of the jobs not yet done, most recent activity first. */
  active(page: Page): Promise<Job[]> {
    return this.kv.slicePage<Job>(K.activePrefix(), page, { reverse: true });
  }

  /** Every count: `{ status: { new: 2, ... }, category: {...}, priority: {...} }`. */
  async counts(): Promise<Record<CountField, Record<string, number>>> {
    const out: Record<CountField, Record<string, number>> = {
      status: {},
      category: {},
      priority: {},
    };
    for await (const e of this.kv.list<Deno.KvU64>(K.countPrefix())) {
      const [field, value] = e.key.slice(-2) as [CountField, string];
      const n = Number(e.value.value);
      if (n > 0 && out[field]) out[field][value] = n;
    }
    return out;
  }

  /**
   * Moves the submitter's open-jobs count when a job opens or is done. Staff move jobs: a
   * reopened job is counted, never refused.
   */
  async #countOpen(op: PluginAtomic, before: Job | null, after: Job | null): Promise<void> {
    const submitter = (before ?? after)!.submitter;
    if (isOpen(before) && !isOpen(after)) await this.open?.give(op, submitter);
    if (!isOpen(before) && isOpen(after)) await this.open?.take(op, submitter, { exempt: true });
  }

  /** How many open jobs `submitter` has: the combined index's keys, no job record read. */
  async countOpen(submitter: string): Promise<number> {
    let n = 0;
    for (const status of STATUSES.filter((st) => !DONE.includes(st))) {
      const prefix = K.comboPrefix("submitter+status", [submitter, status]);
      for await (const _ of this.kv.list(prefix, { batchSize: 500 })) n++;
    }
    return n;
  }

  /** Adds the index and count moves from `before` to `after` (null: none) to `op`. */
  #indexes(op: PluginAtomic, before: Job | null, after: Job | null): void {
    const b = before ? indexed(before) : null, a = after ? indexed(after) : null;
    for (const field of ["status", "category", "priority", "assignee"] as IndexField[]) {
      const old = b?.[field] ?? null, now = a?.[field] ?? null;
      if (old === now) continue;
      if (old !== null) op.delete(this.kv.key(...K.byField(field, old, before!.number)));
      if (now !== null) {
        op.set(this.kv.key(...K.byField(field, now, after!.number)), K.job(after!.number));
      }
      if ((COUNTED as string[]).includes(field)) {
        const f = field as CountField;
        if (old !== null) op.sum(this.kv.key(...K.count(f, old)), MINUS_ONE);
        if (now !== null) op.sum(this.kv.key(...K.count(f, now)), ONE);
      }
    }
    const gone = new Set((before ? comboKeys(before) : []).map((k) => JSON.stringify(k)));
    for (const k of after ? comboKeys(after) : []) {
      // An entry that stays is not written again.
      if (!gone.delete(JSON.stringify(k))) op.set(this.kv.key(...k), K.job(after!.number));
    }
    for (const k of gone) op.delete(this.kv.key(...JSON.parse(k)));
    const wasActive = before && !DONE.includes(before.status);
    const isActive = after && !DONE.includes(after.status);
    if (wasActive && !(isActive && after!.updatedAt === before!.updatedAt)) {
      op.delete(this.kv.key(...K.active(before!.updatedAt, before!.number)));
    }
    if (isActive) {
      op.set(this.kv.key(...K.active(after!.updatedAt, after!.number)), K.job(after!.number));
    }
  }
}
