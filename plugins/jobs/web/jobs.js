// The jobs plugin's portal section: a player's own requests (staff: the whole queue), filing
// one, and a job's comments (statuses and limits from the plugin: `section.settings`).
import { api, formCard, h, isStaff, replace, seg, when } from "/assets/portal.js";

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
    jobs.length
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
      : h("p", {}, "No jobs."),
    form,
  );
}

async function one(id, me, navigate, { statuses: STATUSES, maxComment }) {
  const j = await api("GET", `/jobs/${seg(id)}`);
  const staff = isStaff(me);
  const form = formCard({
    fields: [{
      id: "job-comment",
      name: "text",
      label: "Add a comment",
      textarea: true,
      required: true,
      maxlength: maxComment,
    }],
    submit: "Comment",
    onSubmit: async (d) => {
      await api("POST", `/jobs/${seg(id)}/comment`, { text: d.text });
      navigate(location.pathname, { replace: true });
    },
  });
  let staffForm = null;
  if (staff) {
    const sel = h(
      "select",
      { id: "job-set-status" },
      STATUSES.map((s) => h("option", { value: s, selected: s === j.status }, s)),
    );
    const msg = h("span", { role: "status" });
    staffForm = h(
      "p",
      { class: "row" },
      h("label", { for: "job-set-status" }, "Status"),
      sel,
      h("button", {
        type: "button",
        onclick: async () => {
          try {
            await api("PATCH", `/jobs/${seg(id)}`, { status: sel.value });
            replace(msg, "Saved.");
          } catch (e) {
            replace(msg, e.message);
          }
        },
      }, "Set status"),
      msg,
    );
  }
  return h(
    "article",
    {},
    h("h1", {}, `#${j.number} ${j.title}`),
    h(
      "p",
      { class: "muted" },
      h("a", { href: "/jobs" }, "All jobs"),
      ` · ${j.status} · ${j.category} · ${j.priority} · from ${j.submitterName}${
        j.assigneeName ? ` · with ${j.assigneeName}` : ""
      }`,
    ),
    staffForm,
    h("div", { class: "body-text card" }, j.description),
    j.resolution ? h("p", {}, h("strong", {}, "Resolution: "), j.resolution) : null,
    h("h2", {}, "Comments"),
    (j.commentList ?? []).length
      ? h(
        "ul",
        { class: "list" },
        j.commentList.map((c) =>
          h(
            "li",
            {},
            h("strong", {}, c.authorName),
            c.staffOnly ? " (staff only)" : "",
            ` · ${when(c.createdAt)}`,
            h("div", { class: "body-text" }, c.text),
          )
        ),
      )
      : h("p", {}, "No comments yet."),
    form,
  );
}
