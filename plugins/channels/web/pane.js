// The channels plugin's pane of the play view: pick a channel, read its history, join it, talk
// on it (as `+<channel> <text>` through the game's socket), and see new lines as they arrive.
import {
  api,
  getSettings,
  h,
  parseCodes,
  plainText,
  renderRuns,
  replace,
  seg,
} from "/assets/portal.js";

/** Builds the pane; `send(line)` types a line into the game. */
export function pane({ send, settings }) {
  const node = h("section", { class: "pane chan-pane", "aria-labelledby": "chan-h" });
  let channel = null;
  let log = null;
  /** Lower-cased names of the channels the player is on. */
  const joined = new Set();
  let toggle = null;
  replace(node, h("h2", { id: "chan-h" }, "Channels"), h("p", {}, "…"));

  /** A line as it was said: `Ann: hi`; a pose `Ann waves`; a semipose `Ann's ...`. */
  const entry = (sender, message, kind = "say") => {
    const who = plainText(String(sender ?? ""));
    const text = renderRuns(parseCodes(String(message ?? "")).flat(), getSettings().reader);
    const posed = kind === "pose" || kind === "semipose";
    return h(
      "p",
      { class: `chan-line ${kind}` },
      who ? h("b", {}, posed ? `${who}${kind === "pose" ? " " : ""}` : `${who}: `) : null,
      text,
    );
  };

  /** Join or Leave, for the channel shown. */
  const showToggle = () => {
    if (!toggle || !channel) return;
    toggle.textContent = joined.has(channel.toLowerCase()) ? "Leave" : "Join";
  };

  const open = async (name) => {
    channel = name;
    showToggle();
    replace(log, h("p", {}, "…"));
    try {
      const lines = await api("GET", `/channels/${seg(name)}/history?limit=50`);
      if (channel !== name) return; // another channel was picked meanwhile
      replace(log, lines.map((l) => entry(l.sender, l.message, l.kind)));
      if (!lines.length) replace(log, h("p", {}, "Nothing said yet."));
    } catch (e) {
      if (channel !== name) return;
      replace(
        log,
        h(
          "p",
          {},
          e.status === 403 || e.status === 404 ? "Join the channel to read it." : e.message,
        ),
      );
    }
    log.scrollTop = log.scrollHeight;
  };

  const load = async () => {
    let list = [];
    try {
      list = await api("GET", "/channels?limit=200");
    } catch (e) {
      replace(node, h("h2", { id: "chan-h" }, "Channels"), h("p", {}, e.message));
      return;
    }
    for (const c of list) if (c.joined) joined.add(c.name.toLowerCase());
    const select = h(
      "select",
      { id: "chan-select" },
      list.map((c) => h("option", { value: c.name }, c.name)),
    );
    log = h("div", {
      class: "chan-log",
      role: "log",
      "aria-label": "Channel history",
      tabindex: "0",
    });
    const text = h("input", {
      id: "chan-text",
      name: "text",
      maxlength: settings.maxMessage,
      autocomplete: "off",
    });
    const talk = h(
      "form",
      { class: "chan-talk" },
      h("label", { for: "chan-text" }, "Say on channel"),
      text,
      h("button", { type: "submit" }, "Send"),
    );
    talk.addEventListener("submit", (ev) => {
      ev.preventDefault();
      if (!channel || !text.value.trim()) return;
      send(`+${channel} ${text.value}`);
      text.value = "";
    });
    // The game says when it took the join or leave (channel.start / channel.end frames).
    toggle = h("button", {
      type: "button",
      id: "chan-toggle",
      onclick: () => {
        if (!channel) return;
        send(`+chan/${joined.has(channel.toLowerCase()) ? "leave" : "join"} ${channel}`);
      },
    }, "Join");
    select.addEventListener("change", () => open(select.value));
    replace(
      node,
      h("h2", { id: "chan-h" }, "Channels"),
      list.length
        ? [
          h(
            "p",
            { class: "field" },
            h("label", { for: "chan-select" }, "Channel"),
            select,
            toggle,
          ),
          log,
          talk,
        ]
        : h("p", {}, "No channels yet."),
    );
    if (list.length) open(list[0].name);
  };
  load();

  return {
    node,
    /** Every frame's data: the pane shows the lines of the channel it has open. */
    data(data) {
      if (data.type === "channel.start" || data.type === "channel.end") {
        const name = String(data.channel ?? "").toLowerCase();
        if (data.type === "channel.start") joined.add(name);
        else joined.delete(name);
        showToggle();
        // Now a member: a locked channel's history can be read.
        if (channel && name === channel.toLowerCase() && data.type === "channel.start") {
          open(channel);
        }
        return;
      }
      if (data.type !== "channel" || !log) return;
      if (String(data.channel).toLowerCase() !== String(channel).toLowerCase()) return;
      log.querySelector("p:only-child:not(.chan-line)")?.remove();
      log.append(entry(data.sender, data.text, data.kind));
      log.scrollTop = log.scrollHeight;
    },
  };
}
