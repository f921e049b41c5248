// Profiles: your own (description and avatar, changed through the objects API) and other
// players' (read only), from the objects API.
import { api, formCard, h, parseCodes, renderRuns, replace, seg, siteUrl } from "../portal.js";

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
  const picture = h("div", { class: "avatar" });
  const showAvatar = (url) => {
    // Only pictures on this game's own site show (the page's policy loads nothing else).
    replace(picture, avatarOf(obj, url));
  };
  showAvatar(obj.data?.avatar ?? "");
  const form = formCard({
    fields: [
      {
        id: "prof-desc",
        name: "description",
        label: "Description",
        textarea: true,
        maxlength: 8000,
        value: obj.data?.description ?? "",
      },
      {
        id: "prof-avatar",
        name: "avatar",
        label: "Avatar (a picture on this site)",
        maxlength: 512,
        value: obj.data?.avatar ?? "",
        hint: "Its address on this site, starting with /.",
      },
    ],
    submit: "Save profile",
    onSubmit: async (d) => {
      const avatar = d.avatar.trim();
      await api("PATCH", `/dbobj/${seg(me.id)}`, {
        data: { description: d.description, avatar },
      });
      showAvatar(avatar);
      return "Profile saved.";
    },
  });
  return h("section", {}, h("h1", {}, obj.name), picture, form);
}
