// Jobs: a player's own requests (staff: the whole queue), filing one, and a job's comments.
import { h, notice, replace, when } from "../dom.js";
import { api, seg } from "../api.js";
import { isStaff } from "../session.js";

const STATUSES = ["new", "open", "pending", "in-progress", "resolved", "closed"];

/** `/jobs`, `/jobs/<number>`. */
export function render(parts, { navigate, me }) {
  return parts.length ? one(parts[0], me, navigate) : list(me, navigate);
}

async function list(me, navigate) {
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
  const out = h("div");
  const form = h(
    "form",
    { class: "card" },
    h("h2", {}, "New request"),
    h(
      "p",
      { class: "field" },
      h("label", { for: "job-title" }, "Title"),
      h("input", { id: "job-title", name: "title", required: true, maxlength: 100 }),
    ),
    h(
      "p",
      { class: "field" },
      h("label", { for: "job-desc" }, "What do you need?"),
      h("textarea", { id: "job-desc", name: "description", required: true, maxlength: 8000 }),
    ),
    h("button", { type: "submit" }, "Submit request"),
    out,
  );
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const d = Object.fromEntries(new FormData(form));
    try {
      const j = await api("POST", "/jobs", { title: d.title, description: d.description });
      navigate(`/jobs/${j.number}`);
    } catch (e) {
      replace(out, notice(e.message, "error"));
    }
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

async function one(id, me, navigate) {
  const j = await api("GET", `/jobs/${seg(id)}`);
  const staff = isStaff(me);
  const out = h("div");
  const text = h("textarea", { id: "job-comment", name: "text", required: true, maxlength: 4000 });
  const form = h(
    "form",
    { class: "card" },
    h("p", { class: "field" }, h("label", { for: "job-comment" }, "Add a comment"), text),
    h("button", { type: "submit" }, "Comment"),
    out,
  );
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      await api("POST", `/jobs/${seg(id)}/comment`, { text: text.value });
      navigate(location.pathname, { replace: true });
    } catch (e) {
      replace(out, notice(e.message, "error"));
    }
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
