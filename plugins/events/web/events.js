// The events plugin's portal section: a month's calendar beside the coming events, RSVP, one
// event with who is coming, and staff's forms to create and edit events (limits and statuses
// from the plugin: `section.settings`). Times are shown and typed in the browser's time zone.
// A visitor (`me` null) reads /api/v1/public/events: no RSVP, and the counts instead of who
// answered.
import { api, columns, formCard, h, isStaff, notice, replace, seg, when } from "/assets/portal.js";

const CHOICES = [["attending", "Attend"], ["maybe", "Maybe"], ["declined", "Decline"]];
const DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

/** `/events` (this month), `/events?month=2030-05`, `/events/<id>`. */
export function render(parts, { me, navigate, section }) {
  const s = section.settings;
  return parts.length ? one(parts[0], me, navigate, s) : calendar(me, navigate, s);
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

const open = (ev) => ev.status === "upcoming" || ev.status === "active";

/** The month a `?month=YYYY-MM` names, or this one. */
function monthOf(query) {
  const m = /^(\d{4})-(\d{2})$/.exec(query.get("month") ?? "");
  const now = new Date();
  const year = m ? Number(m[1]) : now.getFullYear();
  const month = m && Number(m[2]) >= 1 && Number(m[2]) <= 12 ? Number(m[2]) - 1 : now.getMonth();
  return new Date(year, m ? month : now.getMonth(), 1);
}

const monthParam = (d) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}`;
const dayKey = (d) => `${d.getFullYear()}-${d.getMonth()}-${d.getDate()}`;

async function calendar(me, navigate, s) {
  const first = monthOf(new URLSearchParams(location.search));
  const next = new Date(first.getFullYear(), first.getMonth() + 1, 1);
  const prev = new Date(first.getFullYear(), first.getMonth() - 1, 1);
  const events = me ? "/events" : "/public/events";
  const [month, coming] = await Promise.all([
    api("GET", `${events}?from=${first.getTime()}&to=${next.getTime()}&limit=200`),
    api("GET", `${events}?from=${Date.now() - 3 * 3600_000}&limit=20`),
  ]);
  const title = first.toLocaleDateString(undefined, { month: "long", year: "numeric" });
  const side = [
    h("h2", {}, "Coming up"),
    coming.filter(open).length
      ? h(
        "ul",
        { class: "list" },
        coming.filter(open).map((ev) =>
          h(
            "li",
            {},
            h("a", { href: `/events/${seg(ev.id)}` }, ev.title),
            h(
              "p",
              { class: "muted" },
              `${when(ev.startTime)}${ev.location ? ` · ${ev.location}` : ""} · ${counts(ev)}`,
            ),
            me ? rsvpButtons(ev, null) : null,
          )
        ),
      )
      : h("p", {}, "No events are planned."),
    isStaff(me) ? eventForm(s, null, navigate) : null,
  ];
  return h(
    "section",
    {},
    h("h1", {}, "Events"),
    columns(
      [
        h(
          "nav",
          { class: "row month-nav", "aria-label": "Months" },
          h("a", { href: `/events?month=${monthParam(prev)}` }, "‹ Earlier"),
          h("h2", { class: "month-title" }, title),
          h("a", { href: `/events?month=${monthParam(next)}` }, "Later ›"),
        ),
        monthGrid(first, month),
      ],
      side,
    ),
  );
}

/**
 * The month as a table (a calendar is a table: weeks by days), Monday first. Each day lists
 * its events as links; empty days are empty cells.
 */
function monthGrid(first, events) {
  const byDay = new Map();
  for (const ev of events) {
    const k = dayKey(new Date(ev.startTime));
    byDay.set(k, [...(byDay.get(k) ?? []), ev]);
  }
  const lead = (first.getDay() + 6) % 7;
  const days = new Date(first.getFullYear(), first.getMonth() + 1, 0).getDate();
  const today = dayKey(new Date());
  const weeks = [];
  for (let i = 0; i < lead + days; i += 7) {
    const cells = [];
    for (let j = i; j < i + 7; j++) {
      const n = j - lead + 1;
      if (n < 1 || n > days) {
        cells.push(h("td", { class: "out" }));
        continue;
      }
      const date = new Date(first.getFullYear(), first.getMonth(), n);
      const list = byDay.get(dayKey(date)) ?? [];
      cells.push(
        h(
          "td",
          { class: dayKey(date) === today ? "today" : null },
          h("span", { class: "day" }, String(n)),
          list.map((ev) =>
            h(
              "a",
              { href: `/events/${seg(ev.id)}`, class: `cal-event ${ev.status}` },
              h(
                "span",
                { class: "cal-time" },
                new Date(ev.startTime).toLocaleTimeString(undefined, { timeStyle: "short" }),
              ),
              " ",
              ev.title,
            )
          ),
        ),
      );
    }
    weeks.push(h("tr", {}, cells));
  }
  return h(
    "table",
    { class: "calendar" },
    h(
      "caption",
      { class: "visually-hidden" },
      `Events in ${first.toLocaleDateString(undefined, { month: "long", year: "numeric" })}`,
    ),
    h("thead", {}, h("tr", {}, DAYS.map((d) => h("th", { scope: "col" }, d)))),
    h("tbody", {}, weeks),
  );
}

/** A time as a `datetime-local` input's value, in the browser's time zone. */
function localInput(ms) {
  if (typeof ms !== "number") return "";
  const d = new Date(ms);
  const p = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${
    p(d.getMinutes())
  }`;
}

/** A `datetime-local` value as ms since 1970, or null when empty. */
function fromInput(v, label) {
  if (!v) return null;
  const ms = new Date(v).getTime();
  if (!Number.isFinite(ms)) throw new Error(`${label} is not a date and time.`);
  return ms;
}

/**
 * Staff's form for a new event (`ev` null: POST) or an existing one (PATCH with what changed).
 * The plugin checks every field and who may; its message is shown as it says it.
 */
function eventForm(s, ev, navigate) {
  const id = (name) => `ev-${ev ? "edit" : "new"}-${name}`;
  const fields = [
    { id: id("title"), name: "title", label: "Title", required: true, maxlength: s.maxTitle },
    {
      id: id("start"),
      name: "start",
      label: "Starts",
      type: "datetime-local",
      required: true,
      value: localInput(ev?.startTime),
    },
    {
      id: id("end"),
      name: "end",
      label: "Ends",
      type: "datetime-local",
      value: localInput(ev?.endTime),
      hint: "Empty: three hours after the start.",
    },
    { id: id("location"), name: "location", label: "Where", maxlength: s.maxLocation },
    {
      id: id("max"),
      name: "maxAttendees",
      label: "Places",
      type: "number",
      attrs: { min: 0, max: s.maxAttendees, step: 1 },
      hint: "0: no limit.",
    },
    {
      id: id("description"),
      name: "description",
      label: "Description",
      textarea: true,
      maxlength: s.maxDescription,
    },
  ];
  if (ev) {
    for (const f of fields) {
      if (f.name === "title") f.value = ev.title;
      if (f.name === "location") f.value = ev.location ?? "";
      if (f.name === "maxAttendees") f.value = ev.maxAttendees ?? 0;
      if (f.name === "description") f.value = ev.description ?? "";
    }
    fields.push(h(
      "p",
      { class: "field" },
      h("label", { for: id("status") }, "Status"),
      h(
        "select",
        { id: id("status"), name: "status" },
        (s.statuses ?? [ev.status]).map((v) =>
          h("option", { value: v, selected: v === ev.status }, v)
        ),
      ),
    ));
  }
  return formCard({
    title: ev ? "Edit this event" : "New event",
    fields,
    submit: ev ? "Save changes" : "Create event",
    onSubmit: async (d) => {
      const body = {
        title: d.title,
        startTime: fromInput(d.start, "The start"),
        endTime: fromInput(d.end, "The end"),
        location: d.location ?? "",
        maxAttendees: d.maxAttendees === "" ? 0 : Number(d.maxAttendees),
        description: d.description ?? "",
      };
      if (!ev) {
        if (body.endTime === null) delete body.endTime;
        const made = await api("POST", "/events", body);
        navigate(`/events/${seg(made.id)}`);
        return;
      }
      body.status = d.status;
      const changes = {};
      // Times are typed to the minute: a time within the same minute is no change.
      const minute = (t) => typeof t === "number" ? Math.floor(t / 60_000) : t;
      for (const [k, v] of Object.entries(body)) {
        const was = ev[k] ?? (k === "endTime" ? null : "");
        if (k.endsWith("Time") ? minute(v) !== minute(was) : v !== was) changes[k] = v;
      }
      if (!Object.keys(changes).length) return "Nothing changed.";
      await api("PATCH", `/events/${seg(ev.id)}`, changes);
      navigate(location.pathname, { replace: true });
    },
  });
}

async function one(id, me, navigate, s) {
  const ev = await api("GET", `${me ? "" : "/public"}/events/${seg(id)}`);
  const mine = (ev.rsvps ?? []).find((r) => r.playerId === me?.id)?.status ?? null;
  const month = monthParam(new Date(ev.startTime));
  return h(
    "article",
    {},
    h("h1", {}, ev.title),
    columns(
      [
        h(
          "p",
          { class: "muted" },
          h("a", { href: `/events?month=${month}` }, "The calendar"),
          ` · ${when(ev.startTime)}${ev.endTime ? ` to ${when(ev.endTime)}` : ""}${
            ev.location ? ` · ${ev.location}` : ""
          } · ${ev.status}`,
        ),
        ev.description ? h("div", { class: "body-text card" }, ev.description) : null,
        me && open(ev) ? rsvpButtons(ev, mine) : null,
        h("h2", {}, "Who is coming"),
        !me
          ? h("p", {}, `${counts(ev)}. `, h("a", { href: "/login" }, "Log in"), " to answer.")
          : (ev.rsvps ?? []).length
          ? h("ul", { class: "list" }, ev.rsvps.map((r) => h("li", {}, `${r.name}: ${r.status}`)))
          : h("p", {}, "Nobody yet."),
      ],
      isStaff(me) ? eventForm(s, ev, navigate) : null,
    ),
  );
}
