// The play client: one WebSocket to the hub (client=web), authenticated by its first frame,
// a scrollback that renders the structured frames' colour codes as text, a command line with
// history and local echo, a silent resume after @reboot and after a reload or in a second tab,
// search of the scrollback, times beside lines, an alert when one's name is said, panes for the
// room and who is online,
// and the panes plugins ship (GET /api/v1/portal: each module's `pane({ send, settings })`
// answers `{ node, data(data, msg)? , stop()? }`; every frame's data reaches each pane).
import { append, h, replace } from "./dom.js";
import { isDecoration, parseCodes, plainText, renderRuns } from "./colour.js";
import { api, seg } from "./api.js";
import { session } from "./session.js";
import { getSettings, setSetting } from "./settings.js";
import { Replay } from "./replay.js";

const MAX_LINES = 2000;
const MAX_HISTORY = 200;
/** Closes after which the client does not reconnect by itself (quit, @boot, refusals). */
const FINAL_CODES = new Set([1000, 1008, 1009]);
const BACKOFF_MS = [250, 500, 1000, 2000];
/** After this long without the server, the client says it is down (and keeps retrying). */
const DOWN_AFTER_MS = 8000;
const RETRY_DOWN_MS = 5000;
/**
 * A tab that plays says so every 2 s and as its page goes away: in its own sessionStorage (a
 * reload of it comes back silently) and in localStorage (another tab of the same browser joins
 * silently too). A mark counts for as long as the engine waits before telling the room that a
 * player's last page went away (5 s), so a page never resumes a session the room saw end.
 */
const LIVE_KEY = "ursamu.live";
const BEAT_MS = 2000;
const LIVE_FOR_MS = 5000;

/** True when this tab, or another of this browser, was playing a moment ago. */
function wasPlaying() {
  const fresh = (v) => Date.now() - Number(v ?? 0) < LIVE_FOR_MS;
  try {
    return fresh(sessionStorage.getItem(LIVE_KEY)) || fresh(localStorage.getItem(LIVE_KEY));
  } catch {
    return false;
  }
}

function markPlaying(on) {
  try {
    if (on) {
      sessionStorage.setItem(LIVE_KEY, String(Date.now()));
      localStorage.setItem(LIVE_KEY, String(Date.now()));
    } else {
      sessionStorage.removeItem(LIVE_KEY);
      localStorage.removeItem(LIVE_KEY);
    }
  } catch { /* storage refused: the next page load logs in as usual */ }
}

/** What others say, pose, page and emit: where one's name is a call (not in `who` or `look`). */
const TALK = new Set(["say", "pose", "whisper", "page", "channel", "emit", "ooc"]);

/** `text` as a pattern matching the whole word, in any case (never a pattern of its own). */
function wordPattern(text) {
  const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(^|[^\\p{L}\\p{N}_])${escaped}(?![\\p{L}\\p{N}_])`, "iu");
}

/** The play view. */
export class PlayClient {
  constructor(root, { navigate, panes = [] }) {
    this.root = root;
    this.navigate = navigate;
    this.ws = null;
    this.history = [];
    this.histPos = 0;
    this.draft = "";
    this.live = false;
    this.stopped = false;
    this.attempt = 0;
    this.lostAt = 0;
    this.retryTimer = 0;
    this.whoTimer = 0;
    this.wasLive = false;
    this.panes = [];
    this.sentColumns = 0;
    this.unseen = 0;
    this.baseTitle = "";
    // What the engine had read and not run when it restarted, sent again after the resume.
    this.replay = new Replay((line, ack) => this.ws?.send(JSON.stringify({ msg: line, ack })));
    this.build();
    this.loadPanes(panes);
    // A reload, or another tab: the session goes on without a new login (no motd, and the room
    // hears nothing); the page asks for a look of its own to show where the player is.
    this.freshResume = wasPlaying();
    this.connect(this.freshResume);
    this.whoTimer = setInterval(() => this.refreshWho(), 30_000);
    this.onResize = () => {
      clearTimeout(this.resizeTimer);
      this.resizeTimer = setTimeout(() => this.sendWindow(false), 300);
    };
    addEventListener("resize", this.onResize);
    // The output's width changes with the panes and the text size too, not only the window's.
    this.resizer = typeof ResizeObserver === "function" ? new ResizeObserver(this.onResize) : null;
    this.resizer?.observe(this.out);
    this.onVisible = () => {
      if (!document.hidden) this.clearUnseen();
    };
    document.addEventListener("visibilitychange", this.onVisible);
    addEventListener("focus", this.onVisible);
    this.onLeave = () => this.live && markPlaying(true);
    addEventListener("pagehide", this.onLeave);
    this.refreshWho();
  }

  build() {
    const s = getSettings();
    this.out = h("div", {
      id: "output",
      class: "output",
      role: "log",
      "aria-live": "polite",
      "aria-relevant": "additions",
      "aria-label": "Game output",
      tabindex: "0",
    });
    this.status = h(
      "p",
      { id: "conn-status", class: "conn-status", role: "status" },
      "Connecting…",
    );
    this.retryButton = h(
      "button",
      { type: "button", hidden: true, onclick: () => this.retryNow() },
      "Retry now",
    );
    this.input = h("input", {
      id: "command",
      name: "command",
      autocomplete: "off",
      autocapitalize: "off",
      spellcheck: "false",
      maxlength: 8192,
      "aria-describedby": "command-help",
      enterkeyhint: "send",
    });
    this.input.addEventListener("keydown", (ev) => this.onKey(ev));
    const echo = h("input", { id: "echo", type: "checkbox", checked: s.echo });
    echo.addEventListener("change", () => setSetting("echo", echo.checked));
    const form = h(
      "form",
      { class: "command-line", "aria-label": "Command" },
      h("label", { for: "command" }, "Command"),
      this.input,
      h("button", { type: "submit" }, "Send"),
      h("span", { class: "echo-toggle" }, echo, h("label", { for: "echo" }, "Local echo")),
      h(
        "span",
        { id: "command-help", class: "visually-hidden" },
        "Up and down arrows recall earlier commands.",
      ),
    );
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      this.submit(this.input.value);
    });
    // Measures the output's font: as wide as the output's characters, never shown.
    this.probe = h("span", { class: "output-probe", "aria-hidden": "true" }, "0".repeat(100));
    this.roomPane = h("section", { class: "pane room-pane", "aria-labelledby": "room-h" });
    this.whoPane = h("section", { class: "pane who-pane", "aria-labelledby": "who-h" });
    this.renderRoom(null);
    replace(this.whoPane, h("h2", { id: "who-h" }, "Who is online"), h("p", {}, "…"));
    this.side = h(
      "aside",
      { class: "side", "aria-label": "Game panes" },
      this.roomPane,
      this.whoPane,
    );
    replace(
      this.root,
      h("h1", { class: "visually-hidden" }, "Play"),
      h(
        "div",
        { class: "play" },
        h(
          "div",
          { class: "main-col" },
          h("div", { class: "conn" }, this.status, this.retryButton),
          this.toolbar(s),
          this.out,
          this.probe,
          form,
        ),
        this.side,
      ),
    );
  }

  /**
   * Above the output: search of the scrollback (lines that do not match are hidden while it
   * holds text; Escape clears it), times beside lines, and alerts when one's name is said.
   */
  toolbar(s) {
    this.search = h("input", {
      id: "out-search",
      type: "search",
      autocomplete: "off",
      spellcheck: "false",
      maxlength: 200,
    });
    this.searchStatus = h("span", { id: "out-search-status", class: "muted", role: "status" });
    this.search.addEventListener("input", () => this.applySearch());
    this.search.addEventListener("keydown", (ev) => {
      if (ev.key !== "Escape") return;
      this.search.value = "";
      this.applySearch();
      this.input.focus();
    });
    const times = h("input", { id: "out-times", type: "checkbox", checked: s.times });
    times.addEventListener("change", () => setSetting("times", times.checked));
    const mentions = h("input", { id: "out-mentions", type: "checkbox", checked: s.mentions });
    mentions.addEventListener("change", async () => {
      setSetting("mentions", mentions.checked);
      // The browser asks the player once; without its leave the line is still marked and the
      // tab's title counts what was missed.
      if (mentions.checked && globalThis.Notification?.permission === "default") {
        try {
          await Notification.requestPermission();
        } catch { /* an old browser: the marks and the title still tell */ }
      }
    });
    return h(
      "div",
      { class: "out-tools", role: "group", "aria-label": "Output" },
      h(
        "span",
        { class: "out-search" },
        h("label", { for: "out-search" }, "Find"),
        this.search,
        this.searchStatus,
      ),
      h("span", { class: "check" }, times, h("label", { for: "out-times" }, "Times")),
      h(
        "span",
        { class: "check" },
        mentions,
        h("label", { for: "out-mentions" }, "Alert on my name"),
      ),
    );
  }

  /** Shows only the lines holding the search's text (as typed, any case). */
  applySearch() {
    const q = this.search.value.trim().toLowerCase();
    let shown = 0;
    for (const block of this.out.children) {
      const hit = !q || block.textContent.toLowerCase().includes(q);
      block.classList.toggle("search-miss", !hit);
      if (hit) shown++;
    }
    this.out.classList.toggle("searching", q !== "");
    this.searchStatus.textContent = q
      ? `${shown} ${shown === 1 ? "message" : "messages"} with “${this.search.value.trim()}”`
      : "";
    if (!q) this.out.scrollTop = this.out.scrollHeight;
  }

  /** The view became visible: put the cursor on the command line. */
  shown() {
    this.sendWindow();
    this.input.focus();
    this.out.scrollTop = this.out.scrollHeight;
  }

  /**
   * The plugins' panes, in their order: each module is loaded and placed where its slot is, so
   * a slow one does not reorder the others; one that fails is left out and logged.
   */
  loadPanes(list) {
    for (const p of list) {
      const slot = h("div", { class: "pane-slot" });
      this.side.append(slot);
      if (p.styles) addStyles(p.styles);
      import(p.module).then((mod) => {
        if (this.stopped) return;
        const pane = mod.pane({ send: (line) => this.send(line), settings: p.settings ?? {} });
        slot.replaceWith(pane.node);
        this.panes.push(pane);
      }).catch((e) => {
        slot.remove();
        console.error(`pane ${p.module} failed:`, e);
      });
    }
  }

  /** Logs out: closes the socket for good. */
  stop() {
    for (const p of this.panes) p.stop?.();
    this.stopped = true;
    this.replay.drop();
    clearTimeout(this.retryTimer);
    clearInterval(this.whoTimer);
    clearInterval(this.beat);
    markPlaying(false);
    removeEventListener("resize", this.onResize);
    removeEventListener("focus", this.onVisible);
    removeEventListener("pagehide", this.onLeave);
    document.removeEventListener("visibilitychange", this.onVisible);
    this.resizer?.disconnect();
    if (this.ws) this.ws.close(1000);
  }

  // --- the socket ---------------------------------------------------------------------------

  connect(resume) {
    if (this.stopped) return;
    const token = session.token();
    if (!token) return;
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${proto}//${location.host}/ws?client=web`);
    this.ws = ws;
    this.live = false;
    ws.onopen = () => {
      // The token goes in the first frame, never in the URL (proxies and logs keep URLs).
      ws.send(JSON.stringify({ type: "auth", token, resume }));
      this.sendWindow();
    };
    ws.onmessage = (ev) => this.onFrame(ev.data);
    ws.onclose = (ev) => this.onClose(ws, ev);
  }

  /**
   * Tells the engine how wide the output is, so it wraps and pads tables to fit; again whenever
   * that number changes (a resize, the panes, the text size), and after each (re)connect.
   */
  sendWindow(force = true) {
    if (this.ws?.readyState !== WebSocket.OPEN || this.out.clientWidth === 0) return;
    const width = this.columns();
    if (!force && width === this.sentColumns) return;
    this.sentColumns = width;
    this.ws.send(JSON.stringify({ type: "window", width, height: 40 }));
  }

  /**
   * How many characters fit across the output, inside its padding and the scrollbar's room
   * (kept whether or not it scrolls): measured on a run of the output's own characters as the
   * browser lays them out, so the engine's lines are exactly as wide as the browser's.
   */
  columns() {
    const style = getComputedStyle(this.out);
    const inner = this.out.clientWidth - parseFloat(style.paddingLeft) -
      parseFloat(style.paddingRight);
    const ch = this.probe.getBoundingClientRect().width / 100;
    return Math.max(20, Math.min(250, Math.floor((inner || 640) / (ch || 8.5))));
  }

  onFrame(raw) {
    let f;
    try {
      f = JSON.parse(raw);
    } catch {
      return;
    }
    const data = f && typeof f.data === "object" && f.data ? f.data : {};
    const msg = typeof f?.msg === "string" ? f.msg : "";
    if (!this.live) {
      // Before the session frame: the connect screen (meant for typed logins) is not shown.
      if (data.type === "session") return this.onSession(data);
      if (data.type === "error") {
        if (/token/i.test(msg)) return this.sessionGone(msg);
        this.setStatus(msg, true);
        return this.print(msg, "error");
      }
      if (data.type === "disconnect") return this.print(msg, "system");
      return;
    }
    switch (data.type) {
      case "session":
        return this.onSession(data);
      case "logout":
        // LOGOUT typed here: the character's session is over, so this page logs out too (its
        // listener stops this client and shows the portal as a visitor sees it).
        this.stopped = true;
        return session.clear();
      case "disconnect":
        // A restart is followed by a silent resume: its notice is not worth a line.
        if (data.restart === true) return;
        break;
      case "unread":
        // Just before a restart's close: what the engine read and did not run goes again.
        return this.replay.handBack(data.lines);
      case "ack":
        return this.replay.acked(data.id ?? null);
      case "room":
        this.renderRoom(data);
        break;
      case "connect":
      case "arrive":
      case "leave":
        if (data.player || data.who) this.refreshWho();
        break;
      case "online":
        // Someone moved, or came into or out of sight: the engine says so at most every 2 s.
        this.refreshWho();
        break;
      case "colour":
        if (typeof data.mode === "string") this.colourMode = data.mode;
        break;
      case "mail":
      case "mail-unread":
      case "bbpost":
        // The menu's unread numbers follow what arrives in the game.
        document.dispatchEvent(new Event("ursamu:unread"));
        break;
    }
    for (const pane of this.panes) {
      try {
        pane.data?.(data, msg);
      } catch (e) {
        console.error("a pane failed on a frame:", e);
      }
    }
    if (msg) this.print(msg, data.type === "error" ? "error" : "", TALK.has(data.type));
  }

  onSession(data) {
    const resumed = data.resumed === true;
    // The player's @colour setting: "off" means text without colour here too.
    if (typeof data.colour === "string") this.colourMode = data.colour;
    if (typeof data.token === "string") session.set(data.token, data.player);
    const reconnecting = this.wasLive;
    this.live = true;
    this.wasLive = true;
    this.attempt = 0;
    this.lostAt = 0;
    this.setStatus(`Connected as ${data.player?.name ?? "you"}.`, false);
    if (resumed && reconnecting) this.print("[Reconnected. Your session continues.]", "system");
    if (resumed) this.replay.start();
    else this.notRun(this.replay.drop());
    this.me = data.player?.name ? wordPattern(String(data.player.name)) : null;
    if (resumed && !reconnecting && this.freshResume) {
      // The page is new but the session is not: show where the player is, quietly.
      this.ws?.send(JSON.stringify({ msg: "look" }));
    }
    this.freshResume = false;
    markPlaying(true);
    clearInterval(this.beat);
    this.beat = setInterval(() => this.live && markPlaying(true), BEAT_MS);
    this.refreshWho();
  }

  /** Says which handed-back lines will not run (the session did not continue). */
  notRun(lines) {
    for (const line of lines) {
      this.print(`[Not run: the server restarted before it ran: ${line}]`, "error");
    }
  }

  sessionGone(msg) {
    this.notRun(this.replay.drop());
    this.print(msg || "Your session has ended.", "error");
    this.stopped = true;
    this.ws?.close(1000);
    session.expired();
  }

  onClose(ws, ev) {
    if (ws !== this.ws || this.stopped) return;
    this.ws = null;
    const wasLive = this.live;
    this.live = false;
    this.replay.pause();
    if (FINAL_CODES.has(ev.code) && wasLive) {
      this.notRun(this.replay.drop());
      clearInterval(this.beat);
      markPlaying(false);
      this.setStatus("Disconnected.", true, "Reconnect");
      this.print("[Disconnected. Use Reconnect to play again.]", "system");
      this.finalClose = true;
      return;
    }
    if (!this.lostAt) this.lostAt = Date.now();
    const down = Date.now() - this.lostAt > DOWN_AFTER_MS;
    const wait = down ? RETRY_DOWN_MS : BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
    this.attempt++;
    if (down) {
      this.setStatus(
        `The game server is not answering. Trying again every ${RETRY_DOWN_MS / 1000} seconds.`,
        true,
      );
    } else this.setStatus("Reconnecting…", false);
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.connect(this.wasLive), wait);
  }

  retryNow() {
    clearTimeout(this.retryTimer);
    if (this.ws) return;
    this.setStatus("Connecting…", false);
    const resume = this.wasLive && !this.finalClose;
    this.finalClose = false;
    this.connect(resume);
  }

  setStatus(text, showRetry, label = "Retry now") {
    this.status.textContent = text;
    this.root.querySelector(".conn")?.classList.toggle("down", showRetry);
    this.retryButton.hidden = !showRetry;
    this.retryButton.textContent = label;
  }

  // --- output -------------------------------------------------------------------------------

  /**
   * Adds a message to the scrollback, one element per line (each announced once), with the
   * time it came (shown while Times is on). A rule (`----`) never wraps: it is cut at the
   * output's edge. Talk (`talk`) that names the player is marked, and alerts them if enabled.
   */
  print(text, kind = "", talk = false) {
    const reader = getSettings().reader;
    const plain = reader || this.colourMode === "off";
    const atBottom = this.out.scrollHeight - this.out.scrollTop - this.out.clientHeight < 40;
    const now = new Date();
    const block = h("div", {
      class: `msg ${kind}`.trim(),
      "data-time": now.toLocaleTimeString(undefined, { timeStyle: "short" }),
    });
    let said = "";
    for (const runs of parseCodes(text)) {
      const line = runs.map((r) => r.text).join("");
      const rule = isDecoration(line);
      if (reader && rule) continue;
      said += line + "\n";
      append(block, [
        h("div", { class: rule ? "line rule" : "line" }, line ? renderRuns(runs, plain) : "\u00a0"),
      ]);
    }
    if (!block.childNodes.length) return;
    if (talk && this.me?.test(said)) this.mention(block);
    const q = this.search?.value.trim().toLowerCase();
    if (q && !block.textContent.toLowerCase().includes(q)) block.classList.add("search-miss");
    this.out.append(block);
    while (this.out.childElementCount > MAX_LINES) this.out.firstElementChild.remove();
    if (atBottom && !q) this.out.scrollTop = this.out.scrollHeight;
  }

  /**
   * A message that names the player: marked in the output; while the page is not looked at,
   * counted in the tab's title and, with Alert on my name and the browser's leave, a
   * notification (as Evennia's webclient does).
   */
  mention(block) {
    block.classList.add("mention");
    if (!getSettings().mentions) return;
    if (!document.hidden && document.hasFocus()) return;
    if (!this.unseen) this.baseTitle = document.title;
    this.unseen++;
    document.title = `(${this.unseen}) ${this.baseTitle}`;
    if (globalThis.Notification?.permission === "granted") {
      try {
        const n = new Notification(this.baseTitle || "UrsaMU", {
          body: block.textContent.slice(0, 200),
          tag: "ursamu-mention",
        });
        n.onclick = () => {
          focus();
          n.close();
        };
      } catch { /* some browsers allow notifications only from a service worker */ }
    }
  }

  /** The player looks at the page again: the title stops counting. */
  clearUnseen() {
    if (!this.unseen) return;
    this.unseen = 0;
    if (document.title.startsWith("(")) document.title = this.baseTitle;
  }

  // --- input --------------------------------------------------------------------------------

  submit(text) {
    const line = text.replace(/\r?\n/g, " ");
    this.input.value = "";
    if (!line.trim()) return;
    if (this.history.at(-1) !== line) this.history.push(line);
    if (this.history.length > MAX_HISTORY) this.history.shift();
    this.histPos = this.history.length;
    this.draft = "";
    this.send(line);
  }

  /** Sends one command line (with local echo when it is on). */
  send(line) {
    if (!this.ws || !this.live) {
      this.print("[Not connected: that was not sent.]", "error");
      return;
    }
    if (getSettings().echo) this.print(line, "echo");
    // Behind the lines a restart handed back, which were typed first.
    if (this.replay.busy) {
      if (!this.replay.queue(line)) {
        this.print("[Too much waiting to be sent: that was not sent.]", "error");
      }
      return;
    }
    this.ws.send(JSON.stringify({ msg: line }));
  }

  onKey(ev) {
    if (ev.key === "ArrowUp" && this.histPos > 0) {
      if (this.histPos === this.history.length) this.draft = this.input.value;
      this.histPos--;
      this.input.value = this.history[this.histPos];
      ev.preventDefault();
    } else if (ev.key === "ArrowDown" && this.histPos < this.history.length) {
      this.histPos++;
      this.input.value = this.histPos === this.history.length
        ? this.draft
        : this.history[this.histPos];
      ev.preventDefault();
    }
  }

  // --- panes --------------------------------------------------------------------------------

  renderRoom(room) {
    const items = [h("h2", { id: "room-h" }, room ? plainText(room.name ?? "") : "Room")];
    if (room) {
      const exits = Array.isArray(room.exits) ? room.exits : [];
      items.push(
        exits.length
          ? h(
            "ul",
            { class: "exits", "aria-label": "Exits" },
            exits.map((x) => {
              const name = plainText(String(x.name ?? "")).split(";")[0];
              return h(
                "li",
                {},
                h("button", { type: "button", onclick: () => this.send(name) }, name),
              );
            }),
          )
          : h("p", {}, "No exits."),
      );
      const players = Array.isArray(room.players) ? room.players : [];
      if (players.length) {
        items.push(
          h(
            "p",
            { class: "here" },
            "Here: ",
            players.map((p) => plainText(p.moniker || p.name || "")).join(", "),
          ),
        );
      }
    } else items.push(h("p", {}, "…"));
    replace(this.roomPane, items);
  }

  async refreshWho() {
    try {
      const list = await api("GET", "/players/online?limit=200");
      replace(
        this.whoPane,
        h("h2", { id: "who-h" }, `Who is online (${list.length})`),
        h(
          "ul",
          { class: "who" },
          list.map((p) =>
            h(
              "li",
              {},
              h("a", { href: `/profile/${seg(p.id)}` }, p.name),
              p.location ? h("span", { class: "where" }, ` · ${p.location}`) : null,
            )
          ),
        ),
      );
    } catch { /* the socket's status says when the server is away */ }
  }
}

/** Adds a style sheet of the site to the page once (the policy allows only the site's own). */
export function addStyles(href) {
  if (
    [...document.querySelectorAll("link[rel=stylesheet]")].some((l) =>
      l.getAttribute("href") === href
    )
  ) {
    return;
  }
  document.head.append(h("link", { rel: "stylesheet", href }));
}
