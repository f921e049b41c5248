// The wiki's card on the front page: the newest pages (/api/v1/public/wiki/recent).
import { api, h } from "/assets/portal.js";

/** The front page's card, or null when the wiki has no pages. */
export async function card() {
  const pages = await api("GET", "/public/wiki/recent?limit=5");
  if (!pages.length) return null;
  return h(
    "section",
    { class: "card", "aria-labelledby": "wiki-new-h" },
    h("h2", { id: "wiki-new-h" }, "New on the wiki"),
    h(
      "ul",
      { class: "list" },
      pages.map((p) =>
        h(
          "li",
          {},
          h("a", { href: `/wiki/${p.path}` }, p.title || p.path),
          p.date ? h("span", { class: "muted" }, ` · ${p.date}`) : null,
        )
      ),
    ),
  );
}
