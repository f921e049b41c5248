// Mail: the inbox, reading a message, and composing with player-name completion.
import { h, notice, replace, when } from "../dom.js";
import { api, seg } from "../api.js";

/** `/mail`, `/mail/compose`, `/mail/<id>`. */
export function render(parts, { navigate }) {
  if (!parts.length) return inbox();
  if (parts[0] === "compose") return compose(navigate, new URLSearchParams(location.search));
  return message(parts[0], navigate);
}

async function inbox() {
  const mail = await api("GET", "/mail?limit=200");
  return h(
    "section",
    {},
    h("h1", {}, "Mail"),
    h("p", {}, h("a", { href: "/mail/compose" }, "Write a message")),
    mail.length
      ? h(
        "ul",
        { class: "list" },
        mail.map((m) =>
          h(
            "li",
            { class: m.read ? "" : "unread" },
            m.read ? null : [h("span", { class: "badge" }, "new"), " "],
            h("a", { href: `/mail/${seg(m.id)}` }, m.subject),
            h("span", { class: "muted" }, ` · from ${m.from} · ${when(m.receivedAt)}`),
          )
        ),
      )
      : h("p", {}, "Your inbox is empty."),
  );
}

async function message(id, navigate) {
  const m = await api("GET", `/mail/${seg(id)}`);
  const del = h("button", {
    type: "button",
    onclick: async () => {
      await api("DELETE", `/mail/${seg(id)}`);
      navigate("/mail");
    },
  }, "Delete");
  const reply = h("a", {
    href: `/mail/compose?to=${encodeURIComponent(m.from)}&subject=${
      encodeURIComponent(m.subject.startsWith("Re:") ? m.subject : `Re: ${m.subject}`)
    }`,
  }, "Reply");
  return h(
    "article",
    {},
    h("h1", {}, m.subject),
    h("p", { class: "muted" }, `From ${m.from} to ${(m.to ?? []).join(", ")} · ${when(m.sentAt)}`),
    h("div", { class: "body-text card" }, m.body),
    h("p", { class: "row" }, h("a", { href: "/mail" }, "Inbox"), reply, del),
  );
}

async function compose(_navigate, query) {
  // Names to complete from: every player the caller may see.
  const players = await api("GET", "/dbos?flags=player&limit=200").catch(() => []);
  const list = h(
    "datalist",
    { id: "player-names" },
    players.map((p) => h("option", { value: p.name })),
  );
  const status = h("div");
  const to = h("input", {
    id: "mail-to",
    name: "to",
    required: true,
    list: "player-names",
    autocomplete: "off",
    "aria-describedby": "mail-to-hint",
  });
  to.value = query.get("to") ?? "";
  const subject = h("input", {
    id: "mail-subject",
    name: "subject",
    required: true,
    maxlength: 200,
  });
  subject.value = query.get("subject") ?? "";
  const form = h(
    "form",
    {},
    h(
      "p",
      { class: "field" },
      h("label", { for: "mail-to" }, "To"),
      to,
      h("span", { id: "mail-to-hint", class: "muted" }, "Player names, separated by commas."),
    ),
    list,
    h("p", { class: "field" }, h("label", { for: "mail-subject" }, "Subject"), subject),
    h(
      "p",
      { class: "field" },
      h("label", { for: "mail-body" }, "Message"),
      h("textarea", { id: "mail-body", name: "body", required: true, maxlength: 10000 }),
    ),
    h("button", { type: "submit" }, "Send"),
    status,
  );
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const d = Object.fromEntries(new FormData(form));
    try {
      await api("POST", "/mail", { to: d.to, subject: d.subject, body: d.body });
      form.reset();
      replace(status, notice("Sent."));
    } catch (e) {
      replace(status, notice(e.message, "error"));
    }
  });
  return h(
    "section",
    {},
    h("h1", {}, "Write a message"),
    h("p", {}, h("a", { href: "/mail" }, "Inbox")),
    form,
  );
}
