// The boards plugin's portal section: the boards with unread counts, a board's posts with
// unread markers, a post, and posting (limits from the plugin: `section.settings`).
import { api, columns, formCard, h, seg, when } from "/assets/portal.js";

/** `/boards`, `/boards/<id>`, `/boards/<id>/<num>`. */
export function render(parts, { navigate, section }) {
  if (!parts.length) return boardList();
  if (parts.length === 1) return board(parts[0], navigate, section.settings);
  return post(parts[0], parts[1]);
}

async function boardList() {
  const boards = await api("GET", "/boards?limit=200");
  return h(
    "section",
    {},
    h("h1", {}, "Boards"),
    boards.length
      ? h(
        "ul",
        { class: "list" },
        boards.map((b) =>
          h(
            "li",
            { class: b.unread ? "unread" : "" },
            h("a", { href: `/boards/${b.slug || b.id}` }, b.name),
            " ",
            b.unread
              ? h("span", { class: "badge" }, `${b.unread} unread`)
              : h("span", { class: "muted" }, `${b.posts} posts`),
            b.description ? h("div", { class: "muted" }, b.description) : null,
          )
        ),
      )
      : h("p", {}, "No boards yet."),
  );
}

async function board(id, navigate, limits) {
  const [b, posts] = await Promise.all([
    api("GET", `/boards/${seg(id)}`),
    api("GET", `/boards/${seg(id)}/posts?limit=200`),
  ]);
  const form = formCard({
    title: "New post",
    fields: [
      {
        id: "post-subject",
        name: "subject",
        label: "Subject",
        required: true,
        maxlength: limits.maxSubject,
      },
      {
        id: "post-body",
        name: "body",
        label: "Message",
        textarea: true,
        required: true,
        maxlength: limits.maxBody,
      },
    ],
    submit: "Post",
    onSubmit: async (d) => {
      const p = await api("POST", `/boards/${seg(id)}/posts`, { subject: d.subject, body: d.body });
      navigate(`/boards/${seg(id)}/${p.num}`);
    },
  });
  const markAll = h("button", {
    type: "button",
    onclick: async () => {
      await api("POST", `/boards/${seg(id)}/read`);
      navigate(location.pathname, { replace: true });
    },
  }, "Mark all read");
  return h(
    "section",
    {},
    h("h1", {}, b.name),
    h("p", { class: "row" }, h("a", { href: "/boards" }, "All boards"), b.unread ? markAll : null),
    b.description ? h("p", { class: "muted" }, b.description) : null,
    columns(
      posts.length
        ? h(
          "ul",
          { class: "list" },
          posts.map((p) =>
            h(
              "li",
              { class: p.read ? "" : "unread" },
              p.read ? null : h("span", { class: "badge" }, "new"),
              p.read ? "" : " ",
              h("a", { href: `/boards/${seg(id)}/${p.num}` }, `${p.num}. ${p.subject}`),
              h("span", { class: "muted" }, ` · ${p.authorName} · ${when(p.createdAt)}`),
            )
          ),
        )
        : h("p", {}, "No posts yet."),
      form,
    ),
  );
}

async function post(id, num) {
  const p = await api("GET", `/boards/${seg(id)}/posts/${seg(num)}`);
  return h(
    "article",
    {},
    h("h1", {}, p.subject),
    h(
      "p",
      { class: "muted" },
      h("a", { href: `/boards/${seg(id)}` }, "Back to the board"),
      ` · ${p.authorName} · ${when(p.createdAt)}`,
      p.editedAt ? ` · edited ${when(p.editedAt)}` : "",
    ),
    h("div", { class: "body-text card" }, p.body),
  );
}
