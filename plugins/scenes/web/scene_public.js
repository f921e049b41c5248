// The scenes section as a visitor sees it: the scenes running now (names only: their logs are
// their players' until shared) and the shared scenes, and a shared scene's log.
import { api, getSettings, h, parseCodes, renderRuns, seg, when } from "/assets/portal.js";

/** `/scenes`, `/scenes/<id>` for a visitor. */
export function render(parts) {
  return parts.length ? one(parts[0]) : list();
}

function people(s) {
  return s.participants.map((p) => p.name).join(", ");
}

async function list() {
  const [active, shared] = await Promise.all([
    api("GET", "/public/scenes/active?limit=50"),
    api("GET", "/public/scenes?limit=50"),
  ]);
  const item = (s, linked) =>
    h(
      "li",
      {},
      linked ? h("a", { href: `/scenes/${seg(s.id)}` }, s.name) : h("strong", {}, s.name),
      h(
        "span",
        { class: "muted" },
        ` · ${s.location.name} · ${people(s)} · ${s.poseCount} pose${
          s.poseCount === 1 ? "" : "s"
        } · ${when(s.lastActivity)}`,
      ),
    );
  return h(
    "section",
    {},
    h("h1", {}, "Scenes"),
    h(
      "p",
      { class: "muted" },
      "The logs of roleplay its players chose to share. Scenes running now show by name until then.",
    ),
    h("h2", {}, "Happening now"),
    active.length
      ? h("ul", { class: "list" }, active.map((s) => item(s, false)))
      : h("p", {}, "No scenes are running right now."),
    h("h2", {}, "Shared scenes"),
    shared.length
      ? h("ul", { class: "list" }, shared.map((s) => item(s, true)))
      : h("p", {}, "No scenes have been shared yet."),
  );
}

/** Poses this close to the one before share its time (a log reads as a conversation). */
const GROUP_MS = 10 * 60_000;

function poseView(p, i, poses) {
  const reader = getSettings().reader;
  const text = p.type === "ooc"
    ? `[OOC] ${p.charName}: ${p.msg}`
    : p.type === "set"
    ? `[Scene Set] ${p.msg}`
    : `${p.charName} ${p.msg}`;
  return h(
    "li",
    { class: `pose pose-${p.type}` },
    i === 0 || p.timestamp - poses[i - 1].timestamp > GROUP_MS
      ? h("p", { class: "muted pose-time" }, when(p.timestamp))
      : null,
    parseCodes(text).map((runs) => h("p", {}, renderRuns(runs, reader))),
  );
}

async function one(id) {
  const s = await api("GET", `/public/scenes/${seg(id)}`);
  return h(
    "article",
    {},
    h("h1", {}, s.name),
    h(
      "p",
      { class: "muted" },
      h("a", { href: "/scenes" }, "All scenes"),
      ` · ${s.sceneType} · ${s.location.name} · ${when(s.startTime)}${
        s.endTime ? ` to ${when(s.endTime)}` : ""
      }`,
    ),
    h(
      "p",
      {},
      "With ",
      s.participants.map((p, i) => [
        i ? ", " : "",
        h("a", { href: `/profile/${seg(p.id.replace(/^#/, ""))}` }, p.name),
      ]),
    ),
    s.desc ? h("div", { class: "card body-text" }, s.desc) : null,
    h("h2", {}, "Log"),
    s.olderPoses > 0
      ? h("p", { class: "muted" }, `(${s.olderPoses} earlier poses are not shown.)`)
      : null,
    (s.poses ?? []).length
      ? h("ol", { class: "list poses" }, s.poses.map(poseView))
      : h("p", {}, "No poses yet."),
  );
}
