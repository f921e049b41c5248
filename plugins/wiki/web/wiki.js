// The wiki plugin's portal section: every page or a search, a page rendered from Markdown,
// folders, editing for staff (limits from the plugin: `section.settings`). A visitor (`me`
// null) reads the same through /api/v1/public/wiki.
import {
  api,
  columns,
  formCard,
  h,
  isStaff,
  markdown,
  notice,
  replace,
  when,
} from "/assets/portal.js";

const wikiApi = (path) => `/wiki/${path.split("/").map(encodeURIComponent).join("/")}`;

/** `/wiki` (list and search), `/wiki/<path>` (a page or folder). */
export async function render(parts, { navigate, me, section }) {
  if (!parts.length) return index(navigate, me, section.settings);
  const path = parts.join("/");
  const page = await api("GET", `${me ? "" : "/public"}${wikiApi(path)}`);
  if (page.type === "directory") return folder(page);
  return await pageView(page, me, navigate);
}

function stubList(items, current = null) {
  return h(
    "ul",
    { class: "list" },
    items.map((p) =>
      h(
        "li",
        {},
        h(
          "a",
          { href: `/wiki/${p.path}`, "aria-current": p.path === current ? "page" : null },
          p.title || p.path,
        ),
        p.type && p.type !== "page" ? h("span", { class: "muted" }, ` (${p.type})`) : null,
      )
    ),
  );
}

async function index(navigate, me, { maxQuery, maxPath, maxTitle }) {
  const results = h("div", { "aria-live": "polite" });
  const q = h("input", { id: "wiki-q", type: "search", name: "q", maxlength: maxQuery });
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
        `${me ? "" : "/public"}/wiki?limit=200${query ? `&q=${encodeURIComponent(query)}` : ""}`,
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
    columns(
      [form, results],
      isStaff(me) ? newPageForm(navigate, maxPath, maxTitle) : null,
    ),
  );
}

function newPageForm(navigate, maxPath, maxTitle) {
  return formCard({
    title: "New page",
    fields: [
      {
        id: "np-path",
        name: "path",
        label: "Path (folder/name)",
        required: true,
        maxlength: maxPath,
      },
      { id: "np-title", name: "title", label: "Title", required: true, maxlength: maxTitle },
      { id: "np-body", name: "body", label: "Text (Markdown)", textarea: true },
    ],
    submit: "Create page",
    onSubmit: async (d) => {
      const p = await api("POST", "/wiki", { path: d.path.trim(), title: d.title, body: d.body });
      navigate(`/wiki/${p.path}`);
    },
  });
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

async function pageView(page, me, navigate) {
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
  // Beside the page at desktop width: the other pages of its folder (a failed listing leaves
  // the page alone).
  const from = me ? "" : "/public";
  const siblings = await api("GET", from + (dir ? wikiApi(dir) : "/wiki?limit=200"))
    .then((r) => (Array.isArray(r) ? r : r?.children ?? []))
    .catch(() => []);
  return h(
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
    columns(
      [body, isStaff(me) ? editor(page, navigate) : null],
      siblings.length > 1
        ? h(
          "nav",
          { "aria-label": dir ? `Pages in ${dir}` : "Pages" },
          h("h2", {}, dir ? `In ${dir}` : "Pages"),
          stubList(siblings, page.path),
        )
        : null,
    ),
  );
}

function editor(page, navigate) {
  const form = formCard({
    fields: [{
      id: "wiki-edit",
      name: "body",
      label: "Edit this page (Markdown)",
      textarea: true,
      value: page.body ?? "",
    }],
    submit: "Save",
    onSubmit: async (d, { status }) => {
      const p = await api("PATCH", wikiApi(page.path), { body: d.body });
      replace(status, notice(`Saved ${when(Date.now())}.`));
      navigate(`/wiki/${p.path}`, { replace: true });
    },
  });
  return h("details", {}, h("summary", {}, "Edit"), form);
}
