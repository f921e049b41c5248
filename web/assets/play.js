// The play client: one WebSocket to the hub (client=web), authenticated by its first frame,
// a scrollback that renders the structured frames' colour codes as text, a command line with
// history and local echo, a silent resume after @reboot, panes for the room and who is online,
// and the panes plugins ship (GET /api/v1/portal: each module's `pane({ send, settings })`
// answers `{ node, data(data, msg)? , stop()? }`; every frame's data reaches each pane).
import { append, h, replace } from "./dom.js";
import { isDecoration, parseCodes, plainText, renderRuns } from "./colour.js";
import { api, seg } from "./api.js";
import { session } from "./session.js";
import { getSettings, setSetting } from "./settings.js";

const MAX_LINES = 2000;
const MAX_HISTORY = 200;
/** Closes after which the client does not reconnect by itself (quit, @boot, refusals). */
const FINAL_CODES = new Set([1000, 1008, 1009]);
const BACKOFF_MS = [250, 500, 1000, 2000];
/** After this long without the server, the client says it is down (and keeps retrying). */
const DOWN_AFTER_MS = 8000;
const RETRY_DOWN_MS = 5000;

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
    this.build();
    this.loadPanes(panes);
    this.connect(false);
    this.whoTimer = setInterval(() => this.refreshWho(), 30_000);
    this.onResize = () => {
      clearTimeout(this.resizeTimer);
      this.resizeTimer = setTimeout(() => this.sendWindow(), 300);
    };
    addEventListener("resize", this.onResize);
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
          this.out,
          form,
        ),
        this.side,
      ),
    );
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
    clearTimeout(this.retryTimer);
    clearInterval(this.whoTimer);
    removeEventListener("resize", this.onResize);
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

  /** Tells the engine how wide the output is, so it wraps and pads tables to fit. */
  sendWindow() {
    if (this.ws?.readyState !== WebSocket.OPEN || this.out.clientWidth === 0) return;
    this.ws.send(JSON.stringify({ type: "window", width: this.columns(), height: 40 }));
  }

  /** How many characters of the output's font fit across it, inside its padding. */
  columns() {
    const style = getComputedStyle(this.out);
    const inner = this.out.clientWidth - parseFloat(style.paddingLeft) -
      parseFloat(style.paddingRight);
    // Measured, not assumed: the font and its size follow the browser and the large-text setting.
    const ctx = (this.measure ??= document.createElement("canvas").getContext("2d"));
    let ch = 0;
    if (ctx) {
      ctx.font = `${style.fontSize} ${style.fontFamily}`;
      ch = ctx.measureText("0".repeat(50)).width / 50;
    }
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
      case "disconnect":
        // A restart is followed by a silent resume: its notice is not worth a line.
        if (data.restart === true) return;
        break;
      case "room":
        this.renderRoom(data);
        break;
      case "connect":
      case "arrive":
      case "leave":
        if (data.player || data.who) this.refreshWho();
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
    if (msg) this.print(msg, data.type === "error" ? "error" : "");
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
    this.refreshWho();
  }

  sessionGone(msg) {
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
    if (FINAL_CODES.has(ev.code) && wasLive) {
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

  /** Adds a message to the scrollback, one element per line (each announced once). */
  print(text, kind = "") {
    const reader = getSettings().reader;
    const plain = reader || this.colourMode === "off";
    const atBottom = this.out.scrollHeight - this.out.scrollTop - this.out.clientHeight < 40;
    const block = h("div", { class: `msg ${kind}`.trim() });
    for (const runs of parseCodes(text)) {
      const line = runs.map((r) => r.text).join("");
      if (reader && isDecoration(line)) continue;
      append(block, [h("div", { class: "line" }, line ? renderRuns(runs, plain) : "\u00a0")]);
    }
    if (!block.childNodes.length) return;
    this.out.append(block);
    while (this.out.childElementCount > MAX_LINES) this.out.firstElementChild.remove();
    if (atBottom) this.out.scrollTop = this.out.scrollHeight;
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
