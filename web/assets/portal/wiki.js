// The wiki: every page or a search, a page rendered from Markdown, folders, editing for staff.
import { h, notice, replace, when } from "../dom.js";
import { api } from "../api.js";
import { markdown } from "../markdown.js";
import { isStaff } from "../session.js";

const wikiApi = (path) => `/wiki/${path.split("/").map(encodeURIComponent).join("/")}`;

/** `/wiki` (list and search), `/wiki/<path>` (a page or folder). */
export async function render(parts, { navigate, me }) {
  if (!parts.length) return index(navigate, me);
  const path = parts.join("/");
  const page = await api("GET", wikiApi(path));
  if (page.type === "directory") return folder(page);
  return pageView(page, me, navigate);
}

function stubList(items) {
  return h(
    "ul",
    { class: "list" },
    items.map((p) =>
      h(
        "li",
        {},
        h("a", { href: `/wiki/${p.path}` }, p.title || p.path),
        p.type && p.type !== "page" ? h("span", { class: "muted" }, ` (${p.type})`) : null,
      )
    ),
  );
}

async function index(navigate, me) {
  const results = h("div", { "aria-live": "polite" });
  const q = h("input", { id: "wiki-q", type: "search", name: "q", maxlength: 200 });
  const form = h(
    "form",
    { role: "search", class: "row" },
    h("label", { for: "wiki-q" }, "Search the wiki"),
    q,
    h("button", { type: "submit" }, "Search"),
  );
  const show = async (query) => {
    try {
      const items = await api(
        "GET",
        `/wiki?limit=200${query ? `&q=${encodeURIComponent(query)}` : ""}`,
      );
      replace(
        results,
        h("h2", {}, query ? `Pages matching “${query}”` : "All pages"),
        items.length ? stubList(items) : h("p", {}, "No pages."),
      );
    } catch (e) {
      replace(results, notice(e.message, "error"));
    }
  };
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    show(q.value.trim());
  });
  await show("");
  return h(
    "section",
    {},
    h("h1", {}, "Wiki"),
    form,
    results,
    isStaff(me) ? newPageForm(navigate) : null,
  );
}

function newPageForm(navigate) {
  const status = h("div");
  const form = h(
    "form",
    { class: "card" },
    h("h2", {}, "New page"),
    h(
      "p",
      { class: "field" },
      h("label", { for: "np-path" }, "Path (folder/name)"),
      h("input", { id: "np-path", name: "path", required: true }),
    ),
    h(
      "p",
      { class: "field" },
      h("label", { for: "np-title" }, "Title"),
      h("input", { id: "np-title", name: "title", required: true }),
    ),
    h(
      "p",
      { class: "field" },
      h("label", { for: "np-body" }, "Text (Markdown)"),
      h("textarea", { id: "np-body", name: "body" }),
    ),
    h("button", { type: "submit" }, "Create page"),
    status,
  );
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const d = Object.fromEntries(new FormData(form));
    try {
      const p = await api("POST", "/wiki", { path: d.path.trim(), title: d.title, body: d.body });
      navigate(`/wiki/${p.path}`);
    } catch (e) {
      replace(status, notice(e.message, "error"));
    }
  });
  return form;
}

function folder(dir) {
  return h(
    "section",
    {},
    h("h1", {}, dir.path || "Wiki"),
    h("p", {}, h("a", { href: "/wiki" }, "All pages")),
    dir.children?.length ? stubList(dir.children) : h("p", {}, "This folder is empty."),
  );
}

function pageView(page, me, navigate) {
  const dir = page.path.includes("/") ? page.path.slice(0, page.path.lastIndexOf("/")) : "";
  const body = h(
    "div",
    {},
    markdown(page.body, {
      linkBase: dir ? `/wiki/${dir}` : "/wiki",
      assetBase: dir ? `/api/v1/wiki/${dir}` : "/api/v1/wiki",
    }),
  );
  const meta = [page.author ? `by ${page.author}` : "", page.date ? String(page.date) : ""].filter(
    Boolean,
  ).join(" · ");
  const section = h(
    "section",
    {},
    h("h1", {}, page.title || page.path),
    h(
      "p",
      { class: "muted" },
      h("a", { href: "/wiki" }, "Wiki"),
      dir ? [" / ", h("a", { href: `/wiki/${dir}` }, dir)] : null,
      meta ? ` · ${meta}` : "",
    ),
    body,
  );
  if (isStaff(me)) section.append(editor(page, body, navigate));
  return section;
}

function editor(page, _body, navigate) {
  const status = h("div");
  const text = h("textarea", { id: "wiki-edit", name: "body" });
  text.value = page.body ?? "";
  const form = h(
    "form",
    { class: "card" },
    h("p", { class: "field" }, h("label", { for: "wiki-edit" }, "Edit this page (Markdown)"), text),
    h("button", { type: "submit" }, "Save"),
    status,
  );
  const details = h("details", {}, h("summary", {}, "Edit"), form);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      const p = await api("PATCH", wikiApi(page.path), { body: text.value });
      replace(status, notice(`Saved ${when(Date.now())}.`));
      navigate(`/wiki/${p.path}`, { replace: true });
    } catch (e) {
      replace(status, notice(e.message, "error"));
    }
  });
  return details;
}
