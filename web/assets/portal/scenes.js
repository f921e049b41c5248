// Scenes: open and recent scenes, starting one, and a scene's log with joining, posing from the
// page and an export download.
import { h, notice, replace, when } from "../dom.js";
import { api, ApiError, seg } from "../api.js";
import { parseCodes, renderRuns } from "../colour.js";
import { session } from "../session.js";
import { getSettings } from "../settings.js";

/** `/scenes`, `/scenes/<id>`. */
export async function render(parts, { navigate, me }) {
  try {
    return parts.length ? await one(parts[0], me, navigate) : await list(navigate);
  } catch (e) {
    if (e instanceof ApiError && e.status === 404 && !parts.length) {
      return h(
        "section",
        {},
        h("h1", {}, "Scenes"),
        h("p", {}, "Scenes are not enabled on this game."),
      );
    }
    throw e;
  }
}

function sceneItem(s) {
  return h(
    "li",
    {},
    h("a", { href: `/scenes/${seg(s.id)}` }, s.name),
    h(
      "span",
      { class: "muted" },
      ` · ${s.status} · ${s.sceneType}${s.private ? " · private" : ""} · ${
        s.poseCount ?? 0
      } poses · ${when(s.lastActivity ?? s.startTime)}`,
    ),
  );
}

async function list(navigate) {
  const [open, mine, places] = await Promise.all([
    api("GET", "/scenes/open?limit=50"),
    api("GET", "/scenes?limit=50"),
    api("GET", "/scenes/locations").catch(() => []),
  ]);
  const status = h("div");
  const where = h(
    "select",
    { id: "scene-where", name: "location", required: true },
    places.map((p) => h("option", { value: p.id }, `${p.name} (${p.id})`)),
  );
  const form = h(
    "form",
    { class: "card" },
    h("h2", {}, "Start a scene"),
    h(
      "p",
      { class: "field" },
      h("label", { for: "scene-name" }, "Title"),
      h("input", { id: "scene-name", name: "name", required: true, maxlength: 120 }),
    ),
    h("p", { class: "field" }, h("label", { for: "scene-where" }, "Where"), where),
    h(
      "p",
      { class: "field" },
      h("label", { for: "scene-desc" }, "Scene set (optional)"),
      h("textarea", { id: "scene-desc", name: "desc", maxlength: 4000 }),
    ),
    h(
      "p",
      { class: "row" },
      h("input", { type: "checkbox", id: "scene-private", name: "private" }),
      h("label", { for: "scene-private" }, "Private"),
    ),
    h("button", { type: "submit" }, "Start scene"),
    status,
  );
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const d = new FormData(form);
    try {
      const s = await api("POST", "/scenes", {
        name: d.get("name"),
        location: d.get("location"),
        desc: d.get("desc") || undefined,
        private: d.get("private") === "on",
      });
      navigate(`/scenes/${seg(s.id)}`);
    } catch (e) {
      replace(status, notice(e.message, "error"));
    }
  });
  const recent = mine.filter((s) => !open.some((o) => o.id === s.id));
  return h(
    "section",
    {},
    h("h1", {}, "Scenes"),
    h("h2", {}, "Active now"),
    open.length
      ? h("ul", { class: "list" }, open.map(sceneItem))
      : h("p", {}, "No open scenes right now."),
    h("h2", {}, "Your recent scenes"),
    recent.length ? h("ul", { class: "list" }, recent.map(sceneItem)) : h("p", {}, "None yet."),
    places.length ? form : null,
  );
}

function poseView(p) {
  const reader = getSettings().reader;
  const text = p.type === "ooc"
    ? `[OOC] ${p.moniker || p.charName}: ${p.msg}`
    : p.type === "set"
    ? `[Scene Set] ${p.msg}`
    : `${p.moniker || p.charName} ${p.msg}`;
  return h(
    "li",
    { class: `pose pose-${p.type}` },
    parseCodes(text).map((runs) => h("p", {}, renderRuns(runs, reader))),
    h("p", { class: "muted" }, when(p.timestamp)),
  );
}

async function one(id, me, navigate) {
  const s = await api("GET", `/scenes/${seg(id)}`);
  const myRef = me ? `#${me.id}` : "";
  const inIt = s.participants?.includes(myRef) || s.owner === myRef;
  const status = h("div");
  const text = h("textarea", { id: "pose-text", name: "msg", maxlength: 4000 });
  const kind = h(
    "select",
    { id: "pose-type", name: "type" },
    [["pose", "Pose"], ["ooc", "OOC"], ["set", "Scene set"]].map(([v, l]) =>
      h("option", { value: v }, l)
    ),
  );
  const form = h(
    "form",
    { class: "card" },
    h("h2", {}, "Pose"),
    h("p", { class: "field" }, h("label", { for: "pose-type" }, "Kind"), kind),
    h("p", { class: "field" }, h("label", { for: "pose-text" }, "Text"), text),
    h("button", { type: "submit" }, "Pose"),
    status,
  );
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      await api("POST", `/scenes/${seg(id)}/pose`, { msg: text.value, type: kind.value });
      navigate(location.pathname, { replace: true });
    } catch (e) {
      replace(status, notice(e.message, "error"));
    }
  });
  const join = h("button", {
    type: "button",
    onclick: async () => {
      try {
        await api("POST", `/scenes/${seg(id)}/join`);
        navigate(location.pathname, { replace: true });
      } catch (e) {
        replace(status, notice(e.message, "error"));
      }
    },
  }, "Join this scene");
  const exportButton = h(
    "button",
    { type: "button", onclick: () => download(id, status) },
    "Download the log (Markdown)",
  );
  return h(
    "article",
    {},
    h("h1", {}, s.name),
    h(
      "p",
      { class: "muted" },
      h("a", { href: "/scenes" }, "All scenes"),
      ` · ${s.status} · ${s.sceneType}${s.private ? " · private" : ""} · started ${
        when(s.startTime)
      }`,
    ),
    s.desc ? h("div", { class: "card body-text" }, s.desc) : null,
    h("p", { class: "row" }, exportButton, inIt || s.status !== "active" ? null : join),
    h("h2", {}, "Log"),
    (s.poses ?? []).length ? log(id, s, status) : h("p", {}, "No poses yet."),
    s.status === "active" ? form : null,
  );
}

/**
 * The log: the poses the detail carries (a long scene's newest), and a button that fetches the
 * poses before them a page at a time.
 */
function log(id, s, status) {
  const list = h("ol", { class: "list poses" }, s.poses.map(poseView));
  let first = Number(s.poses[0].id);
  const earlier = h("button", {
    type: "button",
    onclick: async () => {
      try {
        const page = await api("GET", `/scenes/${seg(id)}/poses?before=${first}`);
        list.prepend(...page.map(poseView));
        if (page.length) first = Number(page[0].id);
        if (!page.length || first <= 1) earlier.remove();
      } catch (e) {
        replace(status, notice(e.message, "error"));
      }
    },
  }, "Show earlier poses");
  return h("div", {}, s.olderPoses > 0 ? h("p", {}, earlier) : null, list);
}

/** Fetches the export with the token in a header (never in a URL) and saves it as a file. */
async function download(id, status) {
  try {
    const res = await fetch(`/api/v1/scenes/${seg(id)}/export`, {
      headers: { authorization: `Bearer ${session.token()}` },
    });
    if (!res.ok) throw new Error((await res.json().catch(() => null))?.error ?? `${res.status}`);
    const url = URL.createObjectURL(await res.blob());
    const a = h("a", { href: url, download: `scene-${id}.md`, hidden: true });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  } catch (e) {
    replace(status, notice(`The log could not be downloaded: ${e.message}`, "error"));
  }
}
