// The character gallery: every character a visitor may see, by name, with a search; each card
// links to the character's page (/profile/<id>).
import { api, h, notice, replace, seg } from "../portal.js";
import { avatar, closedToVisitors, playersOnly } from "./showcase.js";

const PAGE = 60;

/** `/characters`. */
export async function render() {
  const grid = h("div", { "aria-live": "polite" });
  const q = h("input", { id: "char-q", type: "search", name: "q", maxlength: 64 });
  const form = h(
    "form",
    { role: "search", class: "row" },
    h("label", { for: "char-q" }, "Find a character"),
    q,
    h("button", { type: "submit" }, "Search"),
  );
  const show = async (query, offset = 0) => {
    const params = `limit=${PAGE}&offset=${offset}${
      query ? `&q=${encodeURIComponent(query)}` : ""
    }`;
    const list = await api("GET", `/public/characters?${params}`);
    const more = list.length === PAGE
      ? h("button", {
        type: "button",
        onclick: async (ev) => {
          ev.target.remove();
          try {
            grid.append(await show(query, offset + PAGE));
          } catch (e) {
            grid.append(notice(e.message, "error"));
          }
        },
      }, "More characters")
      : null;
    const cards = h("ul", { class: "gallery" }, list.map(cardOf));
    if (offset) return [cards, more];
    replace(
      grid,
      list.length
        ? [cards, more]
        : h("p", {}, query ? `Nobody is called “${query}”.` : "No characters yet."),
    );
    return null;
  };
  try {
    await show("");
  } catch (e) {
    if (closedToVisitors(e)) return playersOnly("Characters", "its characters");
    throw e;
  }
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    show(q.value.trim()).catch((e) => replace(grid, notice(e.message, "error")));
  });
  return h("section", { class: "showcase" }, h("h1", {}, "Characters"), form, grid);
}

/** One character: picture, name, the first field that has a value, whether online. */
function cardOf(c) {
  const first = (c.fields ?? []).find((f) => f.value);
  return h(
    "li",
    { class: "char-card" },
    avatar(c, "medium"),
    h(
      "div",
      {},
      h("a", { href: `/profile/${seg(c.id)}`, class: "char-name" }, c.name),
      first ? h("p", { class: "muted" }, `${first.label}: ${first.value}`) : null,
      c.online ? h("p", { class: "online-dot" }, "Online now") : null,
    ),
  );
}
