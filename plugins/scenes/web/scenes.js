// The scenes plugin's portal section: open and recent scenes, starting one, and a scene's log
// with joining, posing from the page and an export download (limits from the plugin).
import {
  api,
  columns,
  field,
  formCard,
  getSettings,
  h,
  isStaff,
  notice,
  parseCodes,
  renderRuns,
  replace,
  seg,
  session,
  when,
} from "/assets/portal.js";

/** `/scenes`, `/scenes/<id>`. */
export function render(parts, { navigate, me, section }) {
  // Visitors read the shared scenes only (/api/v1/public/scenes).
  if (!me) return import("./scene_public.js").then((m) => m.render(parts));
  const limits = section.settings;
  return parts.length ? one(parts[0], me, navigate, limits) : list(navigate, limits);
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

async function list(navigate, { maxName, maxDesc }) {
  const [open, mine, places] = await Promise.all([
    api("GET", "/scenes/open?limit=50"),
    api("GET", "/scenes?limit=50"),
    api("GET", "/scenes/locations").catch(() => []),
  ]);
  const where = h(
    "select",
    { id: "scene-where", name: "location", required: true },
    places.map((p) => h("option", { value: p.id }, `${p.name} (${p.id})`)),
  );
  const form = formCard({
    title: "Start a scene",
    fields: [
      { id: "scene-name", name: "name", label: "Title", required: true, maxlength: maxName },
      field("Where", where),
      {
        id: "scene-desc",
        name: "desc",
        label: "Scene set (optional)",
        textarea: true,
        maxlength: maxDesc,
      },
      h(
        "p",
        { class: "row" },
        h("input", { type: "checkbox", id: "scene-private", name: "private" }),
        h("label", { for: "scene-private" }, "Private"),
      ),
    ],
    submit: "Start scene",
    onSubmit: async (d) => {
      const s = await api("POST", "/scenes", {
        name: d.name,
        location: d.location,
        desc: d.desc || undefined,
        private: d.private === "on",
      });
      navigate(`/scenes/${seg(s.id)}`);
    },
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

/** A pose's lines, as the game shows them (no time: the log gives one per group). */
function poseView(p) {
  const reader = getSettings().reader;
  const text = p.type === "ooc"
    ? `[OOC] ${p.moniker || p.charName}: ${p.msg}`
    : p.type === "set"
    ? `[Scene Set] ${p.msg}`
    : `${p.moniker || p.charName} ${p.msg}`;
  return h(
    "li",
    { class: `pose pose-${p.type}`, title: when(p.timestamp) },
    parseCodes(text).map((runs) => h("p", {}, renderRuns(runs, reader))),
  );
}

/** Poses this far apart start a new group, under its own time. */
const GROUP_GAP_MS = 15 * 60_000;

/**
 * The log's items: each group of poses (none more than GROUP_GAP_MS after the one before)
 * under one time, as a log reads, rather than a time under every pose.
 */
function logItems(poses) {
  const items = [];
  let last = null;
  for (const p of poses) {
    if (last === null || p.timestamp - last > GROUP_GAP_MS) {
      items.push(
        h(
          "li",
          { class: "pose-time" },
          h("time", { datetime: new Date(p.timestamp).toISOString() }, when(p.timestamp)),
        ),
      );
    }
    last = p.timestamp;
    items.push(poseView(p));
  }
  return items;
}

async function one(id, me, navigate, { maxPose }) {
  const s = await api("GET", `/scenes/${seg(id)}`);
  const myRef = me ? `#${me.id}` : "";
  const inIt = s.participants?.includes(myRef) || s.owner === myRef;
  const kind = h(
    "select",
    { id: "pose-type", name: "type" },
    [["pose", "Pose"], ["ooc", "OOC"], ["set", "Scene set"]].map(([v, l]) =>
      h("option", { value: v }, l)
    ),
  );
  const form = formCard({
    title: "Pose",
    fields: [
      field("Kind", kind),
      { id: "pose-text", name: "msg", label: "Text", textarea: true, maxlength: maxPose },
    ],
    submit: "Pose",
    onSubmit: async (d) => {
      await api("POST", `/scenes/${seg(id)}/pose`, { msg: d.msg, type: d.type });
      navigate(location.pathname, { replace: true });
    },
  });
  // Join, the export and the log page back report here (the form has its own).
  const status = h("div");
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
  // The owner (or staff) shares a public scene's log with visitors, or takes it back.
  const mayShare = me && (s.owner === myRef || isStaff(me)) && !s.private;
  const share = mayShare
    ? h("button", {
      type: "button",
      "aria-pressed": String(s.shared === true),
      onclick: async () => {
        try {
          await api("PATCH", `/scenes/${seg(id)}`, { shared: !s.shared });
          navigate(location.pathname, { replace: true });
        } catch (e) {
          replace(status, notice(e.message, "error"));
        }
      },
    }, s.shared ? "Stop sharing with visitors" : "Share with visitors")
    : null;
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
      ` · ${s.status} · ${s.sceneType}${s.private ? " · private" : ""}${
        s.shared ? " · shared with visitors" : ""
      } · started ${when(s.startTime)}`,
    ),
    columns(
      [
        s.desc ? h("div", { class: "card body-text" }, s.desc) : null,
        h("h2", {}, "Log"),
        (s.poses ?? []).length ? log(id, s, status) : h("p", {}, "No poses yet."),
      ],
      [
        h("p", { class: "row" }, exportButton, share, inIt || s.status !== "active" ? null : join),
        status,
        s.status === "active" ? form : null,
      ],
    ),
  );
}

/**
 * The log: the poses the detail carries (a long scene's newest), and a button that fetches the
 * poses before them a page at a time.
 */
function log(id, s, status) {
  let poses = s.poses;
  const list = h("ol", { class: "poses" }, logItems(poses));
  let first = Number(s.poses[0].id);
  const earlier = h("button", {
    type: "button",
    onclick: async () => {
      try {
        const page = await api("GET", `/scenes/${seg(id)}/poses?before=${first}`);
        poses = [...page, ...poses];
        replace(list, logItems(poses));
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
