// The mail plugin's portal section: the inbox, reading a message, and composing with
// player-name completion (limits from the plugin: `section.settings`).
import { api, columns, formCard, h, seg, when } from "/assets/portal.js";

/** `/mail`, `/mail/compose`, `/mail/<id>`. */
export function render(parts, { navigate, section }) {
  if (!parts.length) return inbox();
  if (parts[0] === "compose") {
    return compose(new URLSearchParams(location.search), section.settings);
  }
  return message(parts[0], navigate);
}

async function inbox() {
  const mail = await api("GET", "/mail?limit=200");
  const unread = mail.filter((m) => !m.read).length;
  return h(
    "section",
    {},
    h("h1", {}, "Mail"),
    columns(
      inboxList(mail),
      h(
        "div",
        { class: "card" },
        h("p", {}, `${mail.length} message${mail.length === 1 ? "" : "s"}, ${unread} unread.`),
        h("p", {}, h("a", { href: "/mail/compose" }, "Write a message")),
      ),
    ),
  );
}

/** The inbox as a list, the message being read (if any) marked as the current one. */
function inboxList(mail, current = null) {
  return mail.length
    ? h(
      "ul",
      { class: "list" },
      mail.map((m) =>
        h(
          "li",
          { class: m.read ? "" : "unread" },
          m.read ? null : [h("span", { class: "badge" }, "new"), " "],
          h("a", {
            href: `/mail/${seg(m.id)}`,
            "aria-current": m.id === current ? "page" : null,
          }, m.subject),
          h("span", { class: "muted" }, ` · from ${m.from} · ${when(m.receivedAt)}`),
        )
      ),
    )
    : h("p", {}, "Your inbox is empty.");
}

async function message(id, navigate) {
  const m = await api("GET", `/mail/${seg(id)}`);
  // Beside the message at desktop width: the inbox, read after the message marked it read.
  const mail = await api("GET", "/mail?limit=200").catch(() => []);
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
  return columns(
    h(
      "article",
      {},
      h("h1", {}, m.subject),
      h(
        "p",
        { class: "muted" },
        `From ${m.from} to ${(m.to ?? []).join(", ")} · ${when(m.sentAt)}`,
      ),
      h("div", { class: "body-text card" }, m.body),
      h("p", { class: "row" }, h("a", { href: "/mail" }, "Inbox"), reply, del),
    ),
    h("nav", { "aria-label": "Inbox" }, h("h2", {}, "Inbox"), inboxList(mail, m.id)),
  );
}

async function compose(query, { maxSubject, maxBody }) {
  // Names to complete from: every player the caller may see.
  const players = await api("GET", "/dbos?flags=player&limit=200").catch(() => []);
  const list = h(
    "datalist",
    { id: "player-names" },
    players.map((p) => h("option", { value: p.name })),
  );
  const form = formCard({
    card: false,
    fields: [
      {
        id: "mail-to",
        name: "to",
        label: "To",
        required: true,
        value: query.get("to") ?? "",
        hint: "Player names, separated by commas.",
        attrs: { list: "player-names", autocomplete: "off" },
      },
      list,
      {
        id: "mail-subject",
        name: "subject",
        label: "Subject",
        required: true,
        maxlength: maxSubject,
        value: query.get("subject") ?? "",
      },
      {
        id: "mail-body",
        name: "body",
        label: "Message",
        textarea: true,
        required: true,
        maxlength: maxBody,
      },
    ],
    submit: "Send",
    onSubmit: async (d, { form }) => {
      await api("POST", "/mail", { to: d.to, subject: d.subject, body: d.body });
      form.reset();
      return "Sent.";
    },
  });
  return h(
    "section",
    {},
    h("h1", {}, "Write a message"),
    h("p", {}, h("a", { href: "/mail" }, "Inbox")),
    form,
  );
}
