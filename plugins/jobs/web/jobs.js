// The jobs plugin's portal section: a player's own requests (staff: the whole queue), filing
// one, and a job's comments (statuses and limits from the plugin: `section.settings`).
import { api, columns, field, formCard, h, isStaff, seg, when } from "/assets/portal.js";

/** `/jobs`, `/jobs/<number>`. */
export function render(parts, { navigate, me, section }) {
  const s = section.settings;
  return parts.length ? one(parts[0], me, navigate, s) : list(me, navigate, s);
}

async function list(me, navigate, { statuses: STATUSES, maxTitle, maxDescription }) {
  const staff = isStaff(me);
  const status = new URLSearchParams(location.search).get("status") ?? "";
  const jobs = await api(
    "GET",
    `/jobs?limit=200${status ? `&status=${encodeURIComponent(status)}` : ""}`,
  );
  const filter = h(
    "select",
    { id: "job-status", name: "status" },
    h("option", { value: "" }, "Any"),
    STATUSES.map((s) => h("option", { value: s, selected: s === status }, s)),
  );
  filter.addEventListener(
    "change",
    () => navigate(filter.value ? `/jobs?status=${filter.value}` : "/jobs"),
  );
  const form = formCard({
    title: "New request",
    fields: [
      { id: "job-title", name: "title", label: "Title", required: true, maxlength: maxTitle },
      {
        id: "job-desc",
        name: "description",
        label: "What do you need?",
        textarea: true,
        required: true,
        maxlength: maxDescription,
      },
    ],
    submit: "Submit request",
    onSubmit: async (d) => {
      const j = await api("POST", "/jobs", { title: d.title, description: d.description });
      navigate(`/jobs/${j.number}`);
    },
  });
  return h(
    "section",
    {},
    h("h1", {}, staff ? "Job queue" : "My requests"),
    h("p", { class: "field" }, h("label", { for: "job-status" }, "Status"), filter),
    columns(jobsList(jobs, staff), form),
  );
}

function jobsList(jobs, staff) {
  return jobs.length
    ? h(
      "ul",
      { class: "list" },
      jobs.map((j) =>
        h(
          "li",
          {},
          h("a", { href: `/jobs/${j.number}` }, `#${j.number} ${j.title}`),
          h(
            "span",
            { class: "muted" },
            ` · ${j.status} · ${j.category} · ${j.priority}${
              staff ? ` · ${j.submitterName}` : ""
            } · ${when(j.updatedAt)}`,
          ),
        )
      ),
    )
    : h("p", {}, "No jobs.");
}

async function one(id, me, navigate, s) {
  const j = await api("GET", `/jobs/${seg(id)}`);
  const staff = isStaff(me);
  const reload = () => navigate(location.pathname, { replace: true });
  const form = formCard({
    title: staff ? "Add a comment or staff note" : "Add a comment",
    fields: [
      {
        id: "job-comment",
        name: "text",
        label: "Comment",
        textarea: true,
        required: true,
        maxlength: s.maxComment,
      },
      staff
        ? h(
          "p",
          { class: "field check" },
          h("input", { id: "job-staff-only", name: "staffOnly", type: "checkbox" }),
          h("label", { for: "job-staff-only" }, "Staff note (only staff see it)"),
        )
        : null,
    ].filter(Boolean),
    submit: "Comment",
    onSubmit: async (d) => {
      const body = { text: d.text };
      if (staff) body.staffOnly = d.staffOnly === "on";
      await api("POST", `/jobs/${seg(id)}/comment`, body);
      reload();
    },
  });
  const comments = j.commentList ?? [];
  const main = [
    h("div", { class: "body-text card" }, j.description),
    j.resolution ? h("p", {}, h("strong", {}, "Resolution: "), j.resolution) : null,
    h("h2", {}, "Comments"),
    comments.length
      ? h(
        "ul",
        { class: "list" },
        comments.map((c) =>
          h(
            "li",
            { class: c.staffOnly ? "staff-note" : null },
            h("strong", {}, c.authorName),
            c.staffOnly ? [" ", h("span", { class: "badge" }, "staff note")] : "",
            h("span", { class: "muted" }, ` · ${when(c.createdAt)}`),
            h("div", { class: "body-text" }, c.text),
          )
        ),
      )
      : h("p", {}, "No comments yet."),
    form,
  ];
  const facts = h(
    "dl",
    { class: "facts" },
    [
      ["Status", j.status],
      ["Priority", j.priority],
      ["Category", j.category],
      ["From", j.submitterName],
      ["Assigned to", j.assigneeName ?? "nobody"],
      ["Opened", when(j.createdAt)],
      ["Changed", when(j.updatedAt)],
    ].map(([k, v]) => [h("dt", {}, k), h("dd", {}, v)]),
  );
  return h(
    "article",
    {},
    h("h1", {}, `#${j.number} ${j.title}`),
    h("p", {}, h("a", { href: "/jobs" }, "All jobs")),
    columns(main, [facts, staff ? await staffTools(j, id, s, reload) : null]),
  );
}

/**
 * Staff's changes to a job in one form: status, priority, category, who has it, and the
 * resolution (PATCH /api/v1/jobs/:id sends only what changed; the plugin checks who may).
 */
async function staffTools(j, id, s, reload) {
  // Whom a job can go to: staff players (the route refuses anyone else with a clear error).
  const players = await api("GET", "/dbos?flags=player&limit=200").catch(() => []);
  const names = players.filter((p) => isStaff(p)).map((p) => p.name);
  const select = (name, label, values, current) =>
    field(
      label,
      h(
        "select",
        { id: `job-set-${name}`, name },
        values.map((v) => h("option", { value: v, selected: v === current }, v)),
      ),
    );
  const categories = s.categories?.includes(j.category)
    ? s.categories
    : [j.category, ...(s.categories ?? [])];
  return formCard({
    title: "Staff",
    fields: [
      select("status", "Status", s.statuses, j.status),
      select("priority", "Priority", s.priorities ?? [j.priority], j.priority),
      select("category", "Category", categories, j.category),
      {
        id: "job-set-assignee",
        name: "assignee",
        label: "Assigned to",
        value: j.assigneeName ?? "",
        hint: "A staff player's name; empty: nobody.",
        attrs: { list: "job-staff", autocomplete: "off" },
      },
      h("datalist", { id: "job-staff" }, names.map((n) => h("option", { value: n }))),
      {
        id: "job-set-resolution",
        name: "resolution",
        label: "Resolution",
        textarea: true,
        maxlength: s.maxComment,
        value: j.resolution ?? "",
      },
    ],
    submit: "Save changes",
    onSubmit: async (d) => {
      const was = {
        status: j.status,
        priority: j.priority,
        category: j.category,
        assignee: j.assigneeName ?? "",
        resolution: j.resolution ?? "",
      };
      const changes = {};
      for (const k of Object.keys(was)) {
        if ((d[k] ?? "").trim() !== was[k]) changes[k] = d[k].trim();
      }
      if (!Object.keys(changes).length) return "Nothing changed.";
      await api("PATCH", `/jobs/${seg(id)}`, changes);
      reload();
    },
  });
}
