// The events plugin's card on the front page: what is coming up (/api/v1/public/events).
import { api, h, seg, when } from "/assets/portal.js";

/** The front page's card, or null when nothing is planned. */
export async function card() {
  const events = await api("GET", "/public/events?limit=5");
  return h(
    "section",
    { class: "card", "aria-labelledby": "events-next-h" },
    h("h2", { id: "events-next-h" }, "Upcoming events"),
    events.length
      ? h(
        "ul",
        { class: "list" },
        events.map((ev) =>
          h(
            "li",
            {},
            h("a", { href: `/events/${seg(ev.id)}` }, ev.title),
            h(
              "span",
              { class: "muted" },
              ` · ${when(ev.startTime)}${ev.location ? ` · ${ev.location}` : ""} · ${
                ev.rsvpCounts?.attending ?? 0
              } attending`,
            ),
          )
        ),
      )
      : h("p", { class: "muted" }, "Nothing is planned yet."),
  );
}
