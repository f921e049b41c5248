/**
 * The jobs plugin's keys, relative to its own KV space (`ctx.kv` adds `["plugin", "jobs"]`).
 * A job is keyed by its number; every index holds the job's record key, never a copy.
 */
export const jobKeys = {
  /** A job by number. */
  job: (num: number) => ["job", num],
  /** Unique index: a job's id → its record key. */
  byId: (id: string) => ["job_id", id],
  /** Every job by number. */
  all: (num: number) => ["all", num],
  /** Prefix of the all-jobs index. */
  allPrefix: () => ["all"],
  /** A submitter's jobs by number. */
  bySubmitter: (player: string, num: number) => ["by_sub", player, num],
  /** Jobs by status, category, priority or assignee (`field` names the index). */
  byField: (field: IndexField, value: string, num: number) => [`by_${field}`, value, num],
  /** Prefix of one value of a field index. */
  fieldPrefix: (field: IndexField, value: string) => [`by_${field}`, value],
  /** Jobs still open (not resolved or closed) by their last activity. */
  active: (updatedAt: number, num: number) => ["active", updatedAt, num],
  /** Prefix of the activity index. */
  activePrefix: () => ["active"],
  /** How many jobs hold a value of a field (a KvU64 kept by sum mutations). */
  count: (field: CountField, value: string) => ["count", field, value],
  /** Prefix of every count. */
  countPrefix: () => ["count"],
  /** A comment (or staff note) of a job, in order of writing. */
  comment: (num: number, seq: number) => ["comment", num, seq],
  /** Prefix of one job's comments. */
  comments: (num: number) => ["comment", num],
  /**
   * A job in the index of one combination of two or more filter values (`fields` names them
   * in FILTER_FIELDS order, joined by `+`), so every list filter is one index walk.
   */
  combo: (fields: string, values: string[], num: number) => ["by_filter", fields, ...values, num],
  /** Prefix of one combination of filter values. */
  comboPrefix: (fields: string, values: string[]) => ["by_filter", fields, ...values],
  /** Set once every stored job has its combined entries (filled at start for older data). */
  comboReady: () => ["meta", "by_filter"],
  /** Counter that numbers jobs. */
  jobCounter: "job",
  /** Counter that orders comments. */
  commentCounter: "comment",
};

/** The fields a list filters on, in the order combined index keys name them. */
export const FILTER_FIELDS = ["submitter", "status", "category", "priority", "assignee"] as const;

/** A field a list filters on. */
export type FilterField = typeof FILTER_FIELDS[number];

/** Fields with an index of their own. */
export type IndexField = "status" | "category" | "priority" | "assignee";

/** Fields counted for the stats. */
export type CountField = "status" | "category" | "priority";
