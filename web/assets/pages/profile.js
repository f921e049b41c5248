// Character pages: `/profile/<id>` (anyone's: picture, profile fields, description, the plugins'
// cards such as shared scenes; visitors too while the owner opens characters), and `/profile`
// (your own, to edit: description, the fields the game defines, kept as attributes, and your
// picture, uploaded here).
import { api, ApiError, formCard, h, notice, replace, seg, session } from "../portal.js";
import { avatar, cardsFor, closedToVisitors, playersOnly, richText } from "./showcase.js";

/** `/profile` (your own) or `/profile/<id>` (anyone's). */
export function render(parts, { me, navigate, cards }) {
  const id = (parts[0] ?? "").replace(/^#/, "");
  if (id) return page(id, me, navigate, cards);
  return edit(me);
}

async function page(id, me, navigate, cards) {
  let c;
  try {
    c = await api("GET", `/public/characters/${seg(id)}`);
  } catch (e) {
    if (closedToVisitors(e)) return playersOnly("Characters", "its characters");
    throw e;
  }
  const fields = (c.fields ?? []).filter((f) => f.value);
  const extra = await cardsFor(cards, "character", {
    me,
    navigate,
    character: { id: c.id, name: c.name },
  });
  return h(
    "article",
    { class: "showcase character" },
    h(
      "header",
      { class: "char-head" },
      avatar(c, "large"),
      h(
        "div",
        {},
        h("h1", {}, c.name),
        h("p", { class: c.online ? "online-dot" : "muted" }, c.online ? "Online now" : "Offline"),
        me?.id === c.id ? h("p", {}, h("a", { href: "/profile" }, "Edit your page")) : null,
        fields.length
          ? h(
            "dl",
            { class: "facts" },
            fields.map((f) => [h("dt", {}, f.label), h("dd", {}, f.value)]),
          )
          : null,
      ),
    ),
    h(
      "section",
      { class: "card", "aria-labelledby": "desc-h" },
      h("h2", { id: "desc-h" }, "Description"),
      c.description
        ? h("div", { class: "body-text" }, richText(c.description))
        : h("p", { class: "muted" }, "No description yet."),
    ),
    extra,
  );
}

/** Your own page, to edit. */
async function edit(me) {
  const [obj, mine] = await Promise.all([
    api("GET", `/dbobj/${seg(me.id)}`),
    api("GET", `/public/characters/${seg(me.id)}`).catch(() => ({ fields: [] })),
  ]);
  const fields = mine.fields ?? [];
  const picture = h("div", { class: "avatar-edit" });
  const status = h("div");
  let current = obj.data?.avatar ?? "";
  const showPicture = () => replace(picture, avatar({ name: obj.name, avatar: current }, "large"));
  showPicture();

  const file = h("input", {
    id: "avatar-file",
    type: "file",
    name: "avatar",
    accept: "image/png,image/jpeg,image/webp,image/gif",
    "aria-describedby": "avatar-hint",
  });
  const upload = async () => {
    const f = file.files?.[0];
    if (!f) throw new Error("Choose a picture first.");
    if (f.size > 2 * 1024 * 1024) throw new Error("An avatar may be at most 2 MB.");
    const res = await fetch("/api/v1/me/avatar", {
      method: "PUT",
      headers: {
        authorization: `Bearer ${session.token()}`,
        "content-type": f.type || "application/octet-stream",
      },
      body: f,
    });
    const body = await res.json().catch(() => ({}));
    if (!res.ok) throw new ApiError(res.status, body.error ?? `${res.status}`);
    current = body.avatar;
    showPicture();
    file.value = "";
  };
  const remove = async () => {
    await api("DELETE", "/me/avatar");
    current = "";
    showPicture();
  };
  const act = (fn, said) => async () => {
    try {
      await fn();
      replace(status, notice(said));
    } catch (e) {
      replace(status, notice(e.message, "error"));
    }
  };

  const form = formCard({
    title: "Your page",
    fields: [
      ...fields.map((f) => ({
        id: `pf-${f.attr.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`,
        name: `field:${f.attr}`,
        label: f.label,
        maxlength: 400,
        value: f.value,
        // The shipped +finger keeps the same field (FINGER.<FIELD>).
        hint: `+finger shows it; in game: +finger/set ${f.attr.slice(7).toLowerCase()}=...`,
      })),
      {
        id: "prof-desc",
        name: "description",
        label: "Description",
        textarea: true,
        maxlength: 8000,
        value: obj.data?.description ?? "",
      },
    ],
    submit: "Save your page",
    onSubmit: async (d) => {
      const changed = Object.fromEntries(
        fields.map((f) => [f.attr, String(d[`field:${f.attr}`] ?? "").trim()])
          .filter(([attr, value]) => value !== fields.find((f) => f.attr === attr).value),
      );
      await api("PATCH", "/me/profile", { description: d.description, fields: changed });
      for (const f of fields) f.value = String(d[`field:${f.attr}`] ?? "").trim();
      return "Your page is saved.";
    },
  });

  return h(
    "section",
    { class: "showcase" },
    h("h1", {}, obj.name),
    h("p", {}, h("a", { href: `/profile/${seg(me.id)}` }, "See your page as others see it")),
    h(
      "section",
      { class: "card", "aria-labelledby": "pic-h" },
      h("h2", { id: "pic-h" }, "Picture"),
      h(
        "div",
        { class: "row" },
        picture,
        h(
          "div",
          { class: "avatar-controls" },
          h("p", { class: "field" }, h("label", { for: "avatar-file" }, "A new picture"), file),
          h("p", { id: "avatar-hint", class: "muted" }, "PNG, JPEG, WebP or GIF, at most 2 MB."),
          h(
            "p",
            { class: "row" },
            h(
              "button",
              { type: "button", onclick: act(upload, "Picture saved.") },
              "Upload picture",
            ),
            h(
              "button",
              { type: "button", onclick: act(remove, "Picture removed.") },
              "Remove picture",
            ),
          ),
          status,
        ),
      ),
    ),
    form,
  );
}
