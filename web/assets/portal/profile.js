// Profiles: your own (description and avatar, changed through the objects API) and other
// players' (read only), from the objects API.
import { h, notice, replace } from "../dom.js";
import { api, seg } from "../api.js";
import { parseCodes, renderRuns } from "../colour.js";
import { siteUrl } from "../markdown.js";

/** Only pictures on this game's own site show (the page's policy loads nothing else). */
function avatarOf(obj, url) {
  // Read as the browser reads it: `/\elsewhere` is another site, not a path here.
  const src = siteUrl(url);
  return src && src.startsWith("/")
    ? h("img", { src, alt: `${obj.name}'s avatar`, width: 160 })
    : null;
}

/** `/profile` (your own) or `/profile/<id>` (anyone's). */
export function render(parts, { me }) {
  const id = (parts[0] ?? "").replace(/^#/, "");
  if (id && id !== me.id) return other(id);
  return own(me);
}

async function other(id) {
  const obj = await api("GET", `/dbobj/${seg(id)}`);
  const desc = obj.data?.description ?? "";
  return h(
    "article",
    {},
    h("h1", {}, obj.name),
    avatarOf(obj, obj.data?.avatar ?? ""),
    desc
      ? h("div", { class: "card" }, parseCodes(desc).map((runs) => h("p", {}, renderRuns(runs))))
      : h("p", {}, "No description yet."),
  );
}

async function own(me) {
  const obj = await api("GET", `/dbobj/${seg(me.id)}`);
  const desc = h("textarea", { id: "prof-desc", name: "description", maxlength: 8000 });
  desc.value = obj.data?.description ?? "";
  const avatar = h("input", {
    id: "prof-avatar",
    name: "avatar",
    maxlength: 512,
    "aria-describedby": "prof-avatar-hint",
  });
  avatar.value = obj.data?.avatar ?? "";
  const out = h("div");
  const picture = h("div", { class: "avatar" });
  const showAvatar = (url) => {
    // Only pictures on this game's own site show (the page's policy loads nothing else).
    replace(picture, avatarOf(obj, url));
  };
  showAvatar(avatar.value);
  const form = h(
    "form",
    { class: "card" },
    h("p", { class: "field" }, h("label", { for: "prof-desc" }, "Description"), desc),
    h(
      "p",
      { class: "field" },
      h("label", { for: "prof-avatar" }, "Avatar (a picture on this site, e.g. a wiki image)"),
      avatar,
      h(
        "span",
        { id: "prof-avatar-hint", class: "muted" },
        "For example /api/v1/wiki/portraits/me.png",
      ),
    ),
    h("button", { type: "submit" }, "Save profile"),
    out,
  );
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      await api("PATCH", `/dbobj/${seg(me.id)}`, {
        data: { description: desc.value, avatar: avatar.value.trim() },
      });
      showAvatar(avatar.value.trim());
      replace(out, notice("Profile saved."));
    } catch (e) {
      replace(out, notice(e.message, "error"));
    }
  });
  return h("section", {}, h("h1", {}, obj.name), picture, form);
}
