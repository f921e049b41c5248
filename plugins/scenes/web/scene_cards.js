// The scenes plugin's cards on the core's pages: on the front page, the scenes running now and
// those recently shared; on a character's page, the scenes it shared or took part in that were
// shared. All from /api/v1/public/scenes, so a visitor sees only shared public logs.
import { api, h, seg, when } from "/assets/portal.js";

/** The card for `place` (`front` or `character`), or null when there is nothing to show. */
export async function card({ place, character }) {
  if (place === "character") {
    const list = await api("GET", `/public/scenes?limit=10&player=${seg(`#${character.id}`)}`);
    if (!list.length) return null;
    return section("char-scenes-h", "Shared scenes", list, true);
  }
  const [active, shared] = await Promise.all([
    api("GET", "/public/scenes/active?limit=5"),
    api("GET", "/public/scenes?limit=5"),
  ]);
  return h(
    "div",
    {},
    section(
      "active-scenes-h",
      "Scenes happening now",
      active,
      false,
      "No scenes are running right now.",
    ),
    section(
      "shared-scenes-h",
      "Recently shared scenes",
      shared,
      true,
      "No scenes have been shared yet.",
    ),
  );
}

function section(id, title, list, linked, none) {
  return h(
    "section",
    { class: "card", "aria-labelledby": id },
    h("h2", { id }, title),
    list.length
      ? h(
        "ul",
        { class: "list" },
        list.map((s) =>
          h(
            "li",
            {},
            // A running scene's log is for its players until it is shared.
            linked ? h("a", { href: `/scenes/${seg(s.id)}` }, s.name) : h("strong", {}, s.name),
            h(
              "span",
              { class: "muted" },
              ` · ${s.location.name} · ${s.participants.map((p) => p.name).join(", ")} · ${
                when(s.lastActivity)
              }`,
            ),
          )
        ),
      )
      : h("p", { class: "muted" }, none ?? "None."),
  );
}
