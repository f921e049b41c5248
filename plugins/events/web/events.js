// The events plugin's portal section: the calendar list (soonest first) with RSVP, and one
// event with who is coming. A visitor (`me` null) reads /api/v1/public/events: no RSVP, and
// the counts instead of who answered.
import { api, h, notice, replace, seg, when } from "/assets/portal.js";

const CHOICES = [["attending", "Attend"], ["maybe", "Maybe"], ["declined", "Decline"]];

/** `/events`, `/events/<id>`. */
export function render(parts, { me }) {
  return parts.length ? one(parts[0], me) : list(me);
}

function rsvpButtons(ev, mine, onDone) {
  const status = h("span", { role: "status" });
  const buttons = CHOICES.map(([value, label]) =>
    h("button", {
      type: "button",
      "aria-pressed": mine === value ? "true" : "false",
      onclick: async () => {
        try {
          const r = await api("POST", `/events/${seg(ev.id)}/rsvp`, { status: value });
          replace(status, ` You: ${r.status}.`);
          onDone?.();
          for (const b of buttons) {
            b.setAttribute(
              "aria-pressed",
              b === buttons[CHOICES.findIndex((c) => c[0] === value)] ? "true" : "false",
            );
          }
        } catch (e) {
          replace(status, notice(e.message, "error"));
        }
      },
    }, label)
  );
  return h(
    "p",
    { class: "row", role: "group", "aria-label": `RSVP to ${ev.title}` },
    buttons,
    status,
  );
}

function counts(ev) {
  const c = ev.rsvpCounts ?? {};
  return `${c.attending ?? 0} attending, ${c.maybe ?? 0} maybe`;
}

async function list(me) {
  const events = await api("GET", `${me ? "" : "/public"}/events?limit=200`);
  return h(
    "section",
    {},
    h("h1", {}, "Events"),
    events.length
      ? h(
        "ul",
        { class: "list" },
        events.map((ev) =>
          h(
            "li",
            {},
            h("h2", {}, h("a", { href: `/events/${seg(ev.id)}` }, ev.title)),
            h(
              "p",
              { class: "muted" },
              `${when(ev.startTime)}${ev.location ? ` · ${ev.location}` : ""} · ${ev.status} · ${
                counts(ev)
              }`,
            ),
            me && (ev.status === "upcoming" || ev.status === "active")
              ? rsvpButtons(ev, null)
              : null,
          )
        ),
      )
      : h("p", {}, "No events are planned."),
  );
}

async function one(id, me) {
  const ev = await api("GET", `${me ? "" : "/public"}/events/${seg(id)}`);
  const mine = (ev.rsvps ?? []).find((r) => r.playerId === me?.id)?.status ?? null;
  return h(
    "article",
    {},
    h("h1", {}, ev.title),
    h(
      "p",
      { class: "muted" },
      h("a", { href: "/events" }, "All events"),
      ` · ${when(ev.startTime)}${ev.endTime ? ` to ${when(ev.endTime)}` : ""}${
        ev.location ? ` · ${ev.location}` : ""
      } · ${ev.status}`,
    ),
    ev.description ? h("div", { class: "body-text card" }, ev.description) : null,
    me && (ev.status === "upcoming" || ev.status === "active") ? rsvpButtons(ev, mine) : null,
    h("h2", {}, "Who is coming"),
    !me
      ? h("p", {}, `${counts(ev)}. `, h("a", { href: "/login" }, "Log in"), " to answer.")
      : (ev.rsvps ?? []).length
      ? h("ul", { class: "list" }, ev.rsvps.map((r) => h("li", {}, `${r.name}: ${r.status}`)))
      : h("p", {}, "Nobody yet."),
  );
}
