// The client's entry: settings, the account area, and a router over the client's own paths
// and the plugins' portal sections (GET /api/v1/portal: each section's menu entry, module and
// settings). The play client lives in #play and keeps its socket while portal pages come and go
// in #page.
import { h, notice, replace } from "./dom.js";
import { api } from "./api.js";
import { session } from "./session.js";
import { applySettings } from "./settings.js";
import { addStyles, PlayClient } from "./play.js";
import { authView } from "./auth.js";

applySettings();

const SHOWCASE = "/assets/pages/showcase.css";

/** The core's own pages and the module that renders each. */
const CORE_SECTIONS = {
  home: { module: "./pages/home.js", settings: {}, styles: SHOWCASE, label: "Home" },
  characters: {
    module: "./pages/characters.js",
    settings: {},
    styles: SHOWCASE,
    label: "Characters",
  },
  profile: { module: "./pages/profile.js", settings: {}, styles: SHOWCASE },
  settings: { module: "./pages/settings.js", settings: {} },
};
const PUBLIC = new Set(["settings", "login", "register", "reset"]);
/**
 * The core's pages a visitor may open: each reads `/api/v1/public/` and says so itself when the
 * owner keeps that part for players (`web.public.*`).
 */
const VISITOR_PAGES = new Set(["home", "characters"]);

const state = { play: null, game: "UrsaMU", title: "" };
/** How often the menu's unread numbers are asked again while a page stays open. */
const COUNTS_EVERY_MS = 60_000;

/** The tab's title: the page's, then the game's name (kept when the name arrives later). */
function setTitle(title) {
  state.title = title;
  document.title = title ? `${title} · ${state.game}` : state.game;
}

/**
 * What the plugins add: `{ sections: { <path>: section }, panes: [...] }`, asked for once per
 * page load (the menu is built from it). Without an answer the core's pages still work.
 */
const portal = fetch("/api/v1/portal", { headers: { accept: "application/json" } })
  .then((r) => r.ok ? r.json() : { sections: [], panes: [] })
  .catch(() => ({ sections: [], panes: [] }))
  .then((p) => {
    const list = Array.isArray(p?.sections) ? p.sections : [];
    const core = document.getElementById("nav-core");
    for (const s of list) {
      const unread = typeof s.unread === "string" ? s.unread : null;
      core.before(h("li", {}, h("a", { href: `/${s.path}`, "data-unread": unread }, s.label)));
    }
    markNav(currentSection());
    refreshCounts();
    return {
      sections: Object.fromEntries(list.map((s) => [s.path, s])),
      panes: Array.isArray(p?.panes) ? p.panes : [],
      cards: Array.isArray(p?.cards) ? p.cards : [],
    };
  });

function currentSection() {
  return location.pathname.split("/").filter(Boolean).map(decodeURIComponent)[0] ??
    (session.token() ? "play" : "home");
}

/** Goes to a client path without reloading the page. */
export function navigate(path, { replace: swap = false } = {}) {
  if (swap) history.replaceState(null, "", path);
  else history.pushState(null, "", path);
  render();
}

/**
 * The menu's unread numbers: each section that names a count route (`unread` in
 * GET /api/v1/portal) gets its `unread` beside its label. Asked after each portal page is
 * shown, every minute, and when a page or the game says something was read or arrived (the
 * `ursamu:unread` event).
 */
async function refreshCounts() {
  if (!session.token()) return;
  for (const a of document.querySelectorAll("#nav a[data-unread]")) {
    let n = 0;
    try {
      const r = await api("GET", a.dataset.unread.replace(/^\/api\/v1/, ""));
      n = Number.isInteger(r?.unread) && r.unread > 0 ? r.unread : 0;
    } catch {
      continue; // the plugin went away or the server is down: the old number stays
    }
    a.querySelector(".count")?.remove();
    if (n > 0) {
      a.append(
        h(
          "span",
          { class: "count" },
          h("span", { class: "badge" }, String(n)),
          h("span", { class: "visually-hidden" }, " unread"),
        ),
      );
    }
  }
}
document.addEventListener("ursamu:unread", () => refreshCounts());
setInterval(() => refreshCounts(), COUNTS_EVERY_MS);

function playPane() {
  return document.getElementById("play");
}
function pagePane() {
  return document.getElementById("page");
}

function renderAccount() {
  const el = document.getElementById("account");
  const p = session.player();
  if (!session.token()) {
    replace(
      el,
      h("a", { href: "/login" }, "Log in"),
      " ",
      h("a", { href: "/register" }, "Register"),
    );
    return;
  }
  replace(
    el,
    h("span", { class: "who-am-i" }, p?.name ?? "Logged in"),
    " ",
    h("button", { type: "button", class: "link", onclick: () => session.clear() }, "Log out"),
  );
}

function markNav(section) {
  for (const a of document.querySelectorAll("#nav a")) {
    const target = a.getAttribute("href").split("/")[1] || "play";
    if (target === section) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
}

async function render() {
  const path = location.pathname;
  const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
  // A visitor's `/` is the front page; a player's is the game.
  const section = parts[0] ?? (session.token() ? "play" : "home");
  markNav(section);
  renderAccount();
  const page = pagePane();
  const play = playPane();
  if (!session.token() && !PUBLIC.has(section) && !(await visitorMay(section, parts))) {
    play.hidden = true;
    page.hidden = false;
    const mode = path === "/register" ? "register" : "login";
    replace(page, authView(mode, { after: path === "/login" ? "/" : path }));
    setTitle(mode === "register" ? "Register" : "Log in");
    return;
  }
  if (section === "login" || section === "register" || section === "reset") {
    play.hidden = true;
    page.hidden = false;
    if (section !== "reset" && session.token()) return navigate("/", { replace: true });
    replace(page, authView(section, { after: "/" }));
    setTitle(section === "reset" ? "New password" : "Log in");
    focusHeading(page);
    return;
  }
  if (section === "play") {
    page.hidden = true;
    replace(page);
    play.hidden = false;
    const { panes } = await portal;
    if (location.pathname !== path || !session.token()) return; // moved on, or logged out
    if (!state.play) state.play = new PlayClient(play, { navigate, panes });
    state.play.shown();
    setTitle("Play");
    return;
  }
  play.hidden = true;
  page.hidden = false;
  const found = CORE_SECTIONS[section] ?? (await portal).sections[section];
  if (location.pathname !== path) return; // the player moved on meanwhile
  if (!found) {
    replace(page, h("h1", { tabindex: "-1" }, "Not found"), notice("There is no page here."));
    focusHeading(page);
    return;
  }
  replace(page, h("p", { class: "loading", role: "status" }, "Loading…"));
  try {
    if (found.styles) addStyles(found.styles);
    const view = await import(found.module);
    if (location.pathname !== path) return; // the player moved on meanwhile
    const who = await me();
    const { cards } = await portal;
    const node = await view.render(parts.slice(1), {
      navigate,
      me: who,
      section: { path: section, label: found.label ?? section, settings: found.settings ?? {} },
      // Plugins' cards for the core's pages (the front page, a character's page).
      cards: cards.filter((c) => who || c.visitors),
    });
    if (location.pathname !== path) return;
    replace(page, node);
    const title = page.querySelector("h1")?.textContent ?? section;
    setTitle(title === state.game ? "" : title);
    // A page may have read something (a message, a board): the menu's numbers follow.
    refreshCounts();
  } catch (e) {
    const title = e.status === 404 ? "Not found" : "Something went wrong";
    replace(page, h("h1", { tabindex: "-1" }, title), notice(e.message, "error"));
    setTitle(title);
  }
  focusHeading(page);
}

/** True when a visitor may open `section`: the core's showcase pages, or a plugin's it opens. */
async function visitorMay(section, parts) {
  if (VISITOR_PAGES.has(section)) return true;
  if (section === "profile") return parts.length > 1;
  return (await portal).sections[section]?.visitors === true;
}

function focusHeading(page) {
  const h1 = page.querySelector("h1");
  if (h1) {
    h1.setAttribute("tabindex", "-1");
    h1.focus({ preventScroll: false });
  }
}

let meCache = null;
/** The logged-in player as `/api/v1/me` tells it (flags for staff pages), cached per login. */
async function me() {
  if (!session.token()) return null;
  if (meCache && meCache.token === session.token()) return meCache.me;
  const m = await api("GET", "/me");
  meCache = { token: session.token(), me: m };
  return m;
}

// Same-origin links are handled here, so the play client's socket survives navigation.
document.addEventListener("click", (ev) => {
  const a = ev.target instanceof Element ? ev.target.closest("a[href]") : null;
  if (!a || ev.defaultPrevented || ev.button !== 0) return;
  if (ev.metaKey || ev.ctrlKey || ev.shiftKey || ev.altKey || a.target) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin || url.pathname.startsWith("/api/")) return;
  if (a.hasAttribute("download")) return;
  ev.preventDefault();
  navigate(url.pathname + url.search);
});
addEventListener("popstate", () => render());

session.on((event) => {
  meCache = null;
  if (event === "renewed") {
    // A password change closed the socket; Play opens a new one with the new token.
    state.play?.stop();
    state.play = null;
    replace(playPane());
    return;
  }
  if (event === "logout" || event === "expired") {
    document.querySelectorAll("#nav .count").forEach((c) => c.remove());
  }
  if (event !== "login" && state.play) {
    state.play.stop();
    state.play = null;
    replace(playPane());
  }
  if (event === "expired") {
    navigate("/login", { replace: true });
    pagePane().prepend(notice("Your session has ended. Please log in again.", "error"));
    return;
  }
  render();
});

fetch("/api/v1/config").then((r) => r.json()).then((c) => {
  // `server.name` (settable with @site) once changed from the engine's default, else the game's.
  const server = c?.server?.name;
  const name = server && server !== "UrsaMU" ? server : c?.game?.name || server;
  if (typeof name === "string" && name) {
    state.game = name;
    document.getElementById("brand").textContent = name;
    setTitle(state.title);
  }
}).catch(() => {});

render();
